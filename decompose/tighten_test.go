package decompose

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// arcShell returns a closed, outward-wound curved wall: the part of a tube
// of outer radius r and wall thickness th between angles 0 and arc,
// height h, n segments around.
func arcShell(r, th, h, arc float64, n int) testMesh {
	var m testMesh
	// Vertex 4i+k: k = 0 outer bottom, 1 outer top, 2 inner bottom, 3
	// inner top, at angle i·arc/n.
	for i := 0; i <= n; i++ {
		a := arc * float64(i) / float64(n)
		c, s := math.Cos(a), math.Sin(a)
		for _, rr := range []float64{r, r - th} {
			m.v = append(m.v, geom.Vec3{rr * c, rr * s, 0}, geom.Vec3{rr * c, rr * s, h})
		}
	}
	ob := func(i int) uint32 { return uint32(4 * i) }
	ot := func(i int) uint32 { return uint32(4*i + 1) }
	ib := func(i int) uint32 { return uint32(4*i + 2) }
	it := func(i int) uint32 { return uint32(4*i + 3) }
	quad := func(a, b, c, d uint32) { m.t = append(m.t, [3]uint32{a, b, c}, [3]uint32{a, c, d}) }
	for i := 0; i < n; i++ {
		j := i + 1
		quad(ob(i), ob(j), ot(j), ot(i)) // outer wall
		quad(ib(i), it(i), it(j), ib(j)) // inner wall
		quad(ot(i), ot(j), it(j), it(i)) // top
		quad(ob(i), ib(i), ib(j), ob(j)) // bottom
	}
	quad(ob(0), ot(0), it(0), ib(0)) // end at angle 0
	quad(ob(n), ib(n), it(n), ot(n)) // end at arc
	return m
}

// searchAndTighten returns the parts of the search alone and after the
// tightening pass, with the decomposer, as Decompose makes them (no proxy).
func searchAndTighten(t *testing.T, m testMesh, opt Options) (before, after []*part, d *decomposer) {
	t.Helper()
	ts := toTris(m)
	d = newDecomposer(context.Background(), opt, geom.BoundsOf(m.v).Diagonal())
	d.closed = isClosed(ts)
	if !d.closed {
		d.rims = openEdges(ts)
	}
	d.solid = newBVH(ts)
	inner, err := classifyInner(context.Background(), d.solid, ts, d.diag)
	if err != nil {
		t.Fatal(err)
	}
	if before, err = d.search(ts, inner, &Result{}); err != nil {
		t.Fatal(err)
	}
	kept := append([]*part(nil), before...)
	if after, err = d.tighten(kept, d.solid); err != nil {
		t.Fatal(err)
	}
	return before, after, d
}

func hullsOf(ps []*part) []*hull.Hull {
	out := make([]*hull.Hull, len(ps))
	for i, p := range ps {
		out[i] = p.hull
	}
	return out
}

// TestTightenCurvedWall: a thin curved wall (a half tube, closed) comes out
// of the search as patches whose hulls bridge the curve under the
// threshold; the pass must lower both surface distances, keep every input
// vertex covered, and add fewer hulls than the search's summed gap
// integral divided by the price of a hull (every kept split gains more
// than the price per hull it adds, and the gains add up to at most that
// sum).
func TestTightenCurvedWall(t *testing.T) {
	m := arcShell(1, 0.03, 1, math.Pi, 48)
	if !isClosed(toTris(m)) {
		t.Fatal("test mesh not closed")
	}
	before, after, d := searchAndTighten(t, m, Options{})
	var sum float64
	for _, p := range before {
		sum += d.gapIntegral(p, d.solid, gapCheckSamples, 1).g
	}
	price := d.thr * d.thr * d.thr
	if added := len(after) - len(before); added <= 0 || float64(added) >= sum/price {
		t.Errorf("%d hulls -> %d: want more, and fewer than %d more (summed gap / price)", len(before), len(after), int(math.Ceil(sum/price)))
	}
	mb := Measure(m.v, m.t, hullsOf(before), 4000, 1)
	ma := Measure(m.v, m.t, hullsOf(after), 4000, 1)
	t.Logf("%d hulls -> %d; outer distance %.3f%% -> %.3f%%, surface %.3f%% -> %.3f%%",
		len(before), len(after), 100*mb.OuterDistMean, 100*ma.OuterDistMean, 100*mb.SurfaceDistMean, 100*ma.SurfaceDistMean)
	if ma.OuterDistMean >= mb.OuterDistMean || ma.SurfaceDistMean >= mb.SurfaceDistMean {
		t.Errorf("outer distance %.4f -> %.4f, surface %.4f -> %.4f: want both lower",
			mb.OuterDistMean, ma.OuterDistMean, mb.SurfaceDistMean, ma.SurfaceDistMean)
	}
	if ma.MaxVertexOutside > containTol || ma.Uncovered != 0 {
		t.Errorf("vertex outside %g, uncovered %g", ma.MaxVertexOutside, ma.Uncovered)
	}
	determinism(t, m, Options{})
}

// TestTightenSolid: on solid shapes every further cut puts a face deep
// inside the object, which costs more gap than it saves: the pass adds no
// hull to an L, a cube with a notch (the acd mesh's shape) or a U.
func TestTightenSolid(t *testing.T) {
	var notch [][3]int
	for x := 0; x < 3; x++ {
		for y := 0; y < 3; y++ {
			for z := 0; z < 3; z++ {
				if x < 2 || y < 2 || z < 2 {
					notch = append(notch, [3]int{x, y, z})
				}
			}
		}
	}
	for name, m := range map[string]testMesh{
		"L":          planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}}, 1),
		"cube-notch": voxels(notch),
		"U":          planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {2, 1}, {2, 2}}, 1),
	} {
		before, after, _ := searchAndTighten(t, m, Options{})
		if len(after) != len(before) {
			t.Errorf("%s: %d hulls -> %d", name, len(before), len(after))
		}
	}
}

// TestTightenClosedOnly: the pass runs only on closed input. The half tube
// with one triangle of its outer wall removed (open) must decompose to the
// same hulls with and without SkipTighten, while the closed tube gains
// hulls from the pass (so the comparison can fail).
func TestTightenClosedOnly(t *testing.T) {
	closed := arcShell(1, 0.03, 0.5, math.Pi, 48)
	open := testMesh{closed.v, append([][3]uint32(nil), closed.t[1:]...)}
	count := func(m testMesh, skip bool) []*hull.Hull {
		res, err := Decompose(context.Background(), m.v, m.t, Options{SkipTighten: skip, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return res.Hulls
	}
	if a, b := count(closed, true), count(closed, false); len(b) <= len(a) {
		t.Fatalf("closed half tube: %d hulls with the pass, %d without: the pass added none", len(b), len(a))
	}
	a, b := count(open, true), count(open, false)
	if len(a) != len(b) {
		t.Fatalf("open half tube: %d hulls with the pass, %d without", len(b), len(a))
	}
	for i := range a {
		if !slices.Equal(a[i].Vertices, b[i].Vertices) {
			t.Fatalf("open half tube: hull %d differs with the pass", i)
		}
	}
}

// TestTightenReplacesRelax: where the tightening pass runs (closed input),
// the relax pass is left out, so the defaults give the same hulls as
// SkipRelax; on open input relax still runs (a torus with one triangle
// removed, where relax moves cuts, so the comparison can fail).
func TestTightenReplacesRelax(t *testing.T) {
	hulls := func(m testMesh, skipRelax bool) []*hull.Hull {
		res, err := Decompose(context.Background(), m.v, m.t, Options{SkipRelax: skipRelax, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return res.Hulls
	}
	same := func(a, b []*hull.Hull) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !slices.Equal(a[i].Vertices, b[i].Vertices) {
				return false
			}
		}
		return true
	}
	closed := torus(1, 0.3, 32, 12)
	if !same(hulls(closed, false), hulls(closed, true)) {
		t.Fatal("closed torus: the defaults ran the relax pass before the tightening pass")
	}
	open := testMesh{closed.v, append([][3]uint32(nil), closed.t[1:]...)}
	if same(hulls(open, false), hulls(open, true)) {
		t.Fatal("open torus: the relax pass changed nothing (it should run there, and move a cut)")
	}
}
