package decompose

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// TestProxy: a large input is searched on a proxy and cut at
// full resolution: every vertex is still inside the union (checkResult),
// the torus's hole stays open, the hull count is a torus's, and the output
// does not depend on the worker count.
func TestProxy(t *testing.T) {
	m := torus(1, 0.3, 240, 40)
	if len(m.t) <= DefaultSearchTriangles*proxyRatio {
		t.Fatalf("test torus has %d triangles, too few for a proxy", len(m.t))
	}
	r := run(t, m, Options{})
	if !strings.Contains(strings.Join(r.Notes, "\n"), "proxy") {
		t.Errorf("no proxy note: %q", r.Notes)
	}
	if n := len(r.Hulls); n < 4 || n > 16 {
		t.Errorf("%d hulls, want 4..16", n)
	}
	if u := measure(m, r).Uncovered; u != 0 {
		t.Errorf("uncovered %g", u)
	}
	for _, p := range []geom.Vec3{{0, 0, 0}, {0.4, 0, 0}, {0, -0.4, 0}} {
		for i, h := range r.Hulls {
			if depth(facePlanes(h), p) > 0 {
				t.Errorf("hole point %v inside hull %d", p, i)
			}
		}
	}
	one := run(t, m, Options{Workers: 1})
	if len(one.Hulls) != len(r.Hulls) {
		t.Fatalf("Workers=1: %d hulls, %d with all workers", len(one.Hulls), len(r.Hulls))
	}
	for i, h := range one.Hulls {
		if len(h.Vertices) != len(r.Hulls[i].Vertices) {
			t.Fatalf("Workers=1: hull %d has %d vertices, %d with all workers", i, len(h.Vertices), len(r.Hulls[i].Vertices))
		}
		for k, v := range h.Vertices {
			if v != r.Hulls[i].Vertices[k] {
				t.Fatalf("Workers=1: hull %d vertex %d differs", i, k)
			}
		}
	}
}

// TestProxyRatio: an input is searched on a proxy only when it has more
// than proxyRatio times Options.SearchTriangles triangles (a torus of 1,536
// triangles: proxied for a target of 700, not for 800, which the earlier
// 5/4 rule proxied).
func TestProxyRatio(t *testing.T) {
	m := torus(1, 0.3, 48, 16)
	for _, tc := range []struct {
		target int
		proxy  bool
	}{{700, true}, {800, false}} {
		r := run(t, m, Options{SearchTriangles: tc.target})
		if got := strings.Contains(strings.Join(r.Notes, "\n"), "proxy"); got != tc.proxy {
			t.Errorf("SearchTriangles %d on %d triangles: proxy %v, want %v (notes %q)", tc.target, len(m.t), got, tc.proxy, r.Notes)
		}
		if u := measure(m, r).Uncovered; u != 0 {
			t.Errorf("SearchTriangles %d: uncovered %g", tc.target, u)
		}
	}
}

// TestClusterProxyClosed: vertex clustering keeps a closed input closed and
// brings it near the target size.
func TestClusterProxyClosed(t *testing.T) {
	ts := toTris(torus(1, 0.3, 200, 40))
	box := geom.EmptyBox()
	for _, tr := range ts {
		box = box.Extend(tr[0]).Extend(tr[1]).Extend(tr[2])
	}
	px, err := clusterProxy(context.Background(), ts, box, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if len(px) < 500 || len(px) > 2500 {
		t.Errorf("proxy has %d triangles, want about 2000", len(px))
	}
	if !isClosed(px) {
		t.Error("the proxy of a closed torus is not closed")
	}
}

// TestDuplicatedTriangles: a cube whose 12 triangles are repeated 3,000
// times (messy exports duplicate geometry) decomposes into exactly the
// single cube's hulls; the copies are dropped before any ray is cast (they
// made the winding classification quadratic: 57 s).
func TestDuplicatedTriangles(t *testing.T) {
	one := box(geom.Vec3{0, 0, 0}, geom.Vec3{1, 2, 3})
	many := testMesh{v: one.v}
	for i := 0; i < 3000; i++ {
		many.t = append(many.t, one.t...)
	}
	want := run(t, one, Options{})
	got := run(t, many, Options{})
	if len(got.Hulls) != len(want.Hulls) {
		t.Fatalf("%d hulls, want %d", len(got.Hulls), len(want.Hulls))
	}
	for i := range want.Hulls {
		a, b := want.Hulls[i].Vertices, got.Hulls[i].Vertices
		if len(a) != len(b) {
			t.Fatalf("hull %d: %d vertices, want %d", i, len(b), len(a))
		}
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("hull %d vertex %d: %v, want %v", i, k, b[k], a[k])
			}
		}
	}
	if !strings.Contains(strings.Join(got.Notes, "\n"), "dropped 35988 triangles") {
		t.Errorf("notes do not report the copies: %q", got.Notes)
	}
	if u := measure(many, got).Uncovered; math.IsNaN(u) || u != 0 {
		t.Errorf("uncovered %g", u)
	}
}

// TestCancelProxy: a cancel during the search of a large input (searched
// on a proxy) stops it with the context's error.
func TestCancelProxy(t *testing.T) {
	m := torus(1, 0.3, 240, 40)
	if len(m.t) <= DefaultSearchTriangles*proxyRatio {
		t.Fatalf("test torus has %d triangles, too few for a proxy", len(m.t))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Decompose(ctx, m.v, m.t, Options{Progress: func(done, total int) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
