package decompose

import (
	"context"
	"errors"
	"github.com/autocollide/autocollide/internal/testassets"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/obj"
)

// containTol is the containment the package promises, relative to the
// diagonal.
const containTol = 1e-6

// checkResult asserts the promises every decomposition keeps: all vertices
// inside the union of hulls, hulls closed and convex, the vertex cap.
func checkResult(t *testing.T, m testMesh, r *Result, maxV int) {
	t.Helper()
	if maxV == 0 {
		maxV = 255
	}
	diag := geom.BoundsOf(m.v).Diagonal()
	var planes [][]plane
	for i, h := range r.Hulls {
		if len(h.Vertices) > maxV {
			t.Errorf("hull %d has %d vertices, cap %d", i, len(h.Vertices), maxV)
		}
		if h.Volume() <= 0 {
			t.Errorf("hull %d has volume %g", i, h.Volume())
		}
		pl := facePlanes(h)
		for _, v := range h.Vertices {
			if d := -depth(pl, v); d > containTol*diag {
				t.Errorf("hull %d is not convex: own vertex %g outside", i, d)
				break
			}
		}
		planes = append(planes, pl)
	}
	for _, tr := range m.t {
		for _, vi := range tr {
			v := m.v[vi]
			best := math.Inf(1)
			for _, pl := range planes {
				best = math.Min(best, -depth(pl, v))
			}
			if best > containTol*diag {
				t.Fatalf("vertex %d %v lies %g (%.2g of the diagonal) outside every hull", vi, v, best, best/diag)
			}
		}
	}
	mt := measure(m, r)
	if mt.MaxVertexOutside > containTol {
		t.Errorf("Metrics.MaxVertexOutside = %g", mt.MaxVertexOutside)
	}
	if mt.Hulls != len(r.Hulls) {
		t.Errorf("Metrics.Hulls = %d, %d hulls", mt.Hulls, len(r.Hulls))
	}
}

// measure scores r against m with 2000 samples per surface: enough for a
// figure to the percent.
func measure(m testMesh, r *Result) Metrics { return Measure(m.v, m.t, r.Hulls, 2000, 1) }

func run(t *testing.T, m testMesh, opt Options) *Result {
	t.Helper()
	r, err := Decompose(context.Background(), m.v, m.t, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, m, r, opt.MaxHullVertices)
	return r
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name     string
		mesh     testMesh
		min, max int
	}{
		{"box", box(geom.Vec3{-1, -2, -3}, geom.Vec3{4, 5, 6}), 1, 1},
		{"voxel slab", planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}}, 2), 1, 1},
		{"sphere", uvSphere(2, 16, 8), 1, 1},
		{"L", planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}}, 1), 2, 2},
		{"U", planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {2, 1}, {2, 2}}, 1), 3, 3},
		{"overlapping boxes forming a box", concat(box(geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 1}), box(geom.Vec3{1, 0, 0}, geom.Vec3{3, 1, 1})), 1, 1},
		{"two far boxes", concat(box(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}), box(geom.Vec3{5, 0, 0}, geom.Vec3{6, 1, 1})), 2, 2},
		{"torus", torus(1, 0.3, 32, 12), 4, 16},
		{"far from the origin", translate(planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}}, 1), geom.Vec3{1e6, -2e6, 3e5}), 2, 2},
		{"degenerate and duplicate triangles", withJunk(box(geom.Vec3{0, 0, 0}, geom.Vec3{1, 2, 3})), 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.mesh, Options{})
			if n := len(r.Hulls); n < tc.min || n > tc.max {
				t.Errorf("%d hulls, want %d..%d", n, tc.min, tc.max)
			}
			if u := measure(tc.mesh, r).Uncovered; u != 0 {
				t.Errorf("uncovered %g", u)
			}
		})
	}
}

func TestTorusRing(t *testing.T) {
	m := torus(1, 0.3, 32, 12)
	r := run(t, m, Options{})
	// The hole stays open: its centre and points well inside the inner
	// radius are in no hull.
	for _, p := range []geom.Vec3{{0, 0, 0}, {0.4, 0, 0}, {0, -0.4, 0}, {-0.3, 0.3, 0}} {
		for i, h := range r.Hulls {
			if depth(facePlanes(h), p) > 0 {
				t.Errorf("hole point %v inside hull %d", p, i)
			}
		}
	}
}

// TestFrame: a square frame (a window frame, a ring of four bars) cannot be
// opened by one plane; a greedy search peels slices off it (8 to 10 hulls
// sticking out of the frame on the 7-wide ones), looking ahead cuts it into
// its four bars.
func TestFrame(t *testing.T) {
	for _, f := range []struct{ n, w int }{{5, 1}, {7, 1}, {7, 2}, {9, 2}, {12, 3}} {
		var cells [][2]int
		for x := 0; x < f.n; x++ {
			for y := 0; y < f.n; y++ {
				if x < f.w || y < f.w || x >= f.n-f.w || y >= f.n-f.w {
					cells = append(cells, [2]int{x, y})
				}
			}
		}
		m := planar(cells, 1)
		r := run(t, m, Options{})
		if len(r.Hulls) != 4 {
			t.Errorf("frame %d wide, bars %d: %d hulls, want 4", f.n, f.w, len(r.Hulls))
		}
		if mt := Measure(m.v, m.t, r.Hulls, 20000, 1); mt.BloatMean > 0.005 {
			t.Errorf("frame %d wide, bars %d: bloat %.3g%% of the diagonal", f.n, f.w, 100*mt.BloatMean)
		}
	}
}

func TestOpenAndFlatInput(t *testing.T) {
	// A sphere with its top cap removed (open, a hole far narrower than
	// the threshold: the hull over it is near the part), a single quad
	// (flat) and a lone triangle.
	s := uvSphere(1, 32, 32)
	open := testMesh{v: s.v}
	for _, tr := range s.t {
		if tr[0] != 0 {
			open.t = append(open.t, tr)
		}
	}
	quad := testMesh{v: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, t: [][3]uint32{{0, 1, 2}, {0, 2, 3}}}
	one := testMesh{v: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, t: [][3]uint32{{0, 1, 2}}}
	for name, m := range map[string]testMesh{"open sphere": open, "quad": quad, "triangle": one} {
		t.Run(name, func(t *testing.T) {
			r := run(t, m, Options{})
			if len(r.Hulls) != 1 {
				t.Errorf("%d hulls, want 1", len(r.Hulls))
			}
		})
	}
}

// TestVertexCap: a vertex cap reduces the hulls the search chose and never
// adds one: a sphere (114 hull vertices) stays one hull at 32 and 12
// vertices, a torus and an L-shaped block get as many hulls at 32 (and 12)
// as uncapped; every vertex stays inside (run's checkResult).
func TestVertexCap(t *testing.T) {
	for _, c := range []struct {
		name string
		m    testMesh
	}{
		{"sphere", uvSphere(1, 16, 8)},
		{"torus", torus(1, 0.3, 32, 12)},
		{"L", voxels([][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 2, 0}})},
	} {
		want := len(run(t, c.m, Options{}).Hulls)
		for _, v := range []int{32, 12} {
			r := run(t, c.m, Options{MaxHullVertices: v})
			if len(r.Hulls) != want {
				t.Errorf("%s at %d vertices: %d hulls, %d uncapped", c.name, v, len(r.Hulls), want)
			}
		}
	}
}

func TestMaxHulls(t *testing.T) {
	m := torus(1, 0.3, 32, 12)
	r := run(t, m, Options{MaxHulls: 3})
	if len(r.Hulls) > 3 {
		t.Errorf("%d hulls, cap 3", len(r.Hulls))
	}
}

func TestDeterminism(t *testing.T) {
	// The plate with a window is cut so that pieces are joined and hulls
	// filled (see solid.go).
	window := planar(frame(5, 5), 1)
	for _, tc := range []struct {
		m   testMesh
		opt Options
	}{{torus(1, 0.3, 24, 10), Options{}}, {window, Options{Concavity: 0.03}},
		{torus(1, 0.3, 24, 10), Options{GapSlack: 0.3, MaxHullVertices: 16}}} {
		determinism(t, tc.m, tc.opt)
	}
}

func determinism(t *testing.T, m testMesh, opt Options) {
	t.Helper()
	var ref []*hull.Hull
	for _, w := range []int{1, 2, 4} {
		opt.Workers = w
		r := run(t, m, opt)
		if ref == nil {
			ref = r.Hulls
			continue
		}
		if len(r.Hulls) != len(ref) {
			t.Fatalf("workers=%d: %d hulls, want %d", w, len(r.Hulls), len(ref))
		}
		for i := range ref {
			a, b := ref[i].Vertices, r.Hulls[i].Vertices
			if len(a) != len(b) {
				t.Fatalf("workers=%d: hull %d has %d vertices, want %d", w, i, len(b), len(a))
			}
			for k := range a {
				for c := 0; c < 3; c++ {
					if math.Float64bits(a[k][c]) != math.Float64bits(b[k][c]) {
						t.Fatalf("workers=%d: hull %d vertex %d differs: %v vs %v", w, i, k, b[k], a[k])
					}
				}
			}
		}
	}
}

func TestCancel(t *testing.T) {
	m := torus(1, 0.3, 32, 12)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Decompose(ctx, m.v, m.t, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: err = %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	_, err := Decompose(ctx, m.v, m.t, Options{Progress: func(done, total int) {
		calls++
		if done > total || total < 1 {
			t.Errorf("progress %d/%d", done, total)
		}
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || calls == 0 {
		t.Fatalf("cancelled from progress: err = %v after %d calls", err, calls)
	}
}

func TestBadInput(t *testing.T) {
	v := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	for _, tc := range []struct {
		name string
		v    []geom.Vec3
		t    [][3]uint32
		want string
	}{
		{"empty", v, nil, "no triangles"},
		{"index", v, [][3]uint32{{0, 1, 3}}, "out of range"},
		{"nan", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, math.NaN(), 0}}, [][3]uint32{{0, 1, 2}}, "not finite"},
		{"point", []geom.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, [][3]uint32{{0, 1, 2}}, "one point"},
	} {
		_, err := Decompose(context.Background(), tc.v, tc.t, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestBenchMeshes decomposes V-HACD's test meshes and checks containment
// and coverage. The two large self-intersecting ones run only with
// AUTOCOLLIDE_LONG=1.
// coacdHulls are CoACD's hull counts on the bench meshes
// (shared/bench/acd-meshes/SOURCES.md); the target is no more.
var coacdHulls = map[string]int{
	"box-thick": 12, "cube-notch": 3, "cube": 1, "cup": 18, "cylinder": 17, "defsphere": 21,
	"hose": 9, "ob_chair_gothic": 14, "plaque": 5, "sphere": 1, "torus1": 12, "wall": 7,
}

func TestBenchMeshes(t *testing.T) {
	dir := filepath.Join(testassets.Shared(t), "bench", "acd-meshes")
	files, err := filepath.Glob(filepath.Join(dir, "*.obj"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no meshes in %s (%v)", dir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".obj")
		if (name == "al" || name == "cow-nonormals") && os.Getenv("AUTOCOLLIDE_LONG") == "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			o, err := obj.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := testMesh{o.Vertices, o.Triangles}
			r := run(t, m, Options{})
			if u := measure(m, r).Uncovered; u > 0 {
				t.Errorf("uncovered %.3g%%", 100*u)
			}
			if len(r.Hulls) > DefaultMaxHulls {
				t.Errorf("%d hulls", len(r.Hulls))
			}
			if n, ok := coacdHulls[name]; ok && len(r.Hulls) > n {
				t.Errorf("%d hulls, CoACD needs %d", len(r.Hulls), n)
			}
			// The solid of a closed mesh is inside the union too (no
			// pockets left by uncapped cuts).
			var ts []tri
			for _, tr := range m.t {
				ts = append(ts, tri{m.v[tr[0]], m.v[tr[1]], m.v[tr[2]]})
			}
			if isClosed(ts) {
				if pk, solid := pocketPoints(m, r.Hulls, 3000); len(pk) > 0 {
					t.Errorf("%d of %d solid samples in no hull, e.g. %v", len(pk), solid, pk[0])
				}
			}
		})
	}
}

func translate(m testMesh, d geom.Vec3) testMesh {
	out := testMesh{t: m.t}
	for _, v := range m.v {
		out.v = append(out.v, v.Add(d))
	}
	return out
}

// withJunk adds a zero-area triangle, a repeated-corner triangle and a
// duplicate of every triangle.
func withJunk(m testMesh) testMesh {
	out := testMesh{v: append([]geom.Vec3(nil), m.v...), t: append([][3]uint32(nil), m.t...)}
	out.t = append(out.t, m.t...)
	out.v = append(out.v, geom.Vec3{0.5, 0.5, 0.5}, geom.Vec3{0.6, 0.6, 0.6}, geom.Vec3{0.7, 0.7, 0.7})
	n := uint32(len(m.v))
	out.t = append(out.t, [3]uint32{n, n + 1, n + 2}, [3]uint32{0, 0, 1})
	return out
}

// TestAbsConcavity: the absolute threshold (input units) keeps a part whole
// when its concavity is below it, and changes nothing when it is below the
// relative threshold. The U's notch is 1 wide and 2 deep, so its concavity
// is about 0.5 and the default relative threshold 0.05·4.36 ≈ 0.22.
func TestAbsConcavity(t *testing.T) {
	u := planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {2, 1}, {2, 2}}, 1)
	for _, tc := range []struct {
		abs   float64
		hulls int
	}{{0, 3}, {0.1, 3}, {1, 1}} {
		r := run(t, u, Options{AbsConcavity: tc.abs})
		if len(r.Hulls) != tc.hulls {
			t.Errorf("AbsConcavity %g: %d hulls, want %d", tc.abs, len(r.Hulls), tc.hulls)
		}
	}
}

// TestSnapToFeatures: walls with a window whose edges fall between the
// evenly spaced trial planes. Cutting through the edges (the snap to
// corner coordinates) gives hulls that are exactly their boxes: their
// volumes add up to the wall's. Without the snap, all 5 walls get a
// hull over a strip of their window (as did the V-HACD wall mesh).
func TestSnapToFeatures(t *testing.T) {
	type rect struct{ x0, y0, x1, y1 int } // cells x0 ≤ x < x1, y0 ≤ y < y1
	for i, w := range []struct {
		n     int
		holes []rect
	}{
		{13, []rect{{4, 5, 9, 11}}},
		{15, []rect{{2, 6, 11, 13}}},
		{10, []rect{{3, 3, 8, 6}}},
		{14, []rect{{5, 2, 9, 11}}},
		{19, []rect{{4, 7, 13, 15}}},
	} {
		var cells [][2]int
		for x := 0; x < w.n; x++ {
			for y := 0; y < w.n; y++ {
				in := false
				for _, h := range w.holes {
					in = in || (x >= h.x0 && x < h.x1 && y >= h.y0 && y < h.y1)
				}
				if !in {
					cells = append(cells, [2]int{x, y})
				}
			}
		}
		m := planar(cells, 1)
		r := run(t, m, Options{})
		var sum float64
		for _, h := range r.Hulls {
			sum += h.Volume()
		}
		if want := float64(len(cells)); math.Abs(sum-want) > 1e-9*want {
			t.Errorf("wall %d: %d hulls of total volume %.6g, the wall's is %g", i, len(r.Hulls), sum, want)
		}
	}
}
