package decompose

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/internal/testassets"
)

// spheres returns n separate closed spheres of varied sizes scattered in
// one mesh (a fixed seed).
func spheres(n int) testMesh {
	r := rand.New(rand.NewPCG(1, 2))
	var ms []testMesh
	for i := 0; i < n; i++ {
		s := uvSphere(0.2+0.3*r.Float64(), 10, 6)
		ms = append(ms, translate(s, geom.Vec3{10 * r.Float64(), 10 * r.Float64(), 3 * r.Float64()}))
	}
	return concat(ms...)
}

// strands returns n separate thin closed tubes (a triangular section, a few
// bent segments), like a character's hair cards, hanging from a scalp.
func strands(n int) testMesh {
	r := rand.New(rand.NewPCG(3, 4))
	var out testMesh
	const segs, w = 6, 0.01
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * r.Float64()
		b := 0.5 * math.Pi * r.Float64()
		root := geom.Vec3{math.Cos(a) * math.Cos(b), math.Sin(a) * math.Cos(b), math.Sin(b)}
		dir := geom.Vec3{root[0] * 0.3, root[1] * 0.3, -0.25}
		bend := geom.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, 0}.Scale(0.05)
		off := uint32(len(out.v))
		p := root
		for s := 0; s <= segs; s++ {
			for k := 0; k < 3; k++ {
				th := 2 * math.Pi * float64(k) / 3
				out.v = append(out.v, p.Add(geom.Vec3{w * math.Cos(th), w * math.Sin(th), 0}))
			}
			p = p.Add(dir).Add(bend.Scale(float64(s)))
		}
		id := func(s, k int) uint32 { return off + uint32(3*s+k%3) }
		for s := 0; s < segs; s++ {
			for k := 0; k < 3; k++ {
				out.t = append(out.t, [3]uint32{id(s, k), id(s+1, k), id(s+1, k+1)}, [3]uint32{id(s, k), id(s+1, k+1), id(s, k+1)})
			}
		}
		out.t = append(out.t, [3]uint32{id(0, 0), id(0, 2), id(0, 1)}, [3]uint32{id(segs, 0), id(segs, 1), id(segs, 2)})
	}
	return out
}

// clusters returns n tight clusters of per spheres each, the clusters far
// apart along x (gaps of 20 units), and the midpoints of the gaps.
func clusters(n, per int) (testMesh, []geom.Vec3) {
	r := rand.New(rand.NewPCG(5, 6))
	var ms []testMesh
	var mids []geom.Vec3
	for c := 0; c < n; c++ {
		x0 := 25 * float64(c)
		for i := 0; i < per; i++ {
			s := uvSphere(0.3+0.3*r.Float64(), 10, 6)
			ms = append(ms, translate(s, geom.Vec3{x0 + 4*r.Float64(), 4 * r.Float64(), 4 * r.Float64()}))
		}
		if c > 0 {
			mids = append(mids, geom.Vec3{x0 - 10.5, 2, 2})
		}
	}
	return concat(ms...), mids
}

// corpusMesh reads a corpus file's triangles (testassets.CorpusTriangles).
func corpusMesh(t *testing.T, rel string) testMesh {
	t.Helper()
	v, tris := testassets.CorpusTriangles(t, rel)
	return testMesh{v: v, t: tris}
}

// budgets are the hull budgets the budget tests hold every mesh to.
var budgets = []int{1, 4, 8, 16, 32}

// TestBudget: at every budget K the result has at most K hulls and holds
// every input vertex, on meshes of many separate pieces (where a hull per
// piece would overrun the budget), one-piece bench meshes and corpus
// props. AUTOCOLLIDE_LONG adds the other bench meshes and props.
func TestBudget(t *testing.T) {
	type named struct {
		name string
		m    func(t *testing.T) testMesh
		// fast leaves the tightening pass out (as the default profile's
		// auto does): the many-piece meshes take minutes with it on a
		// loaded machine, and the budget is kept after it either way.
		fast bool
	}
	acd := func(n string) named {
		return named{n, func(t *testing.T) testMesh {
			return objMesh(t, filepath.Join(testassets.Shared(t), "bench", "acd-meshes", n+".obj"))
		}, false}
	}
	cases := []named{
		{"50 spheres", func(*testing.T) testMesh { return spheres(50) }, true},
		{"200 strands", func(*testing.T) testMesh { return strands(200) }, true},
		acd("torus1"),
		{"Duck", func(t *testing.T) testMesh { return corpusMesh(t, "Duck/glTF-Binary/Duck.glb") }, true},
	}
	if os.Getenv("AUTOCOLLIDE_LONG") != "" {
		cases = append(cases, acd("ob_chair_gothic"), acd("cup"), acd("hose"), acd("al"), acd("cow-nonormals"),
			named{"Avocado", func(t *testing.T) testMesh { return corpusMesh(t, "Avocado/glTF/Avocado.gltf") }, true},
			named{"BoomBox", func(t *testing.T) testMesh { return corpusMesh(t, "BoomBox/glTF-pbrSpecularGlossiness/BoomBox.gltf") }, true},
			named{"CesiumMan", func(t *testing.T) testMesh { return corpusMesh(t, "CesiumMan/glTF-Embedded/CesiumMan.gltf") }, true})
		for _, n := range []string{"Bottle", "KitchenPot", "SnowFlake"} {
			cases = append(cases, named{n, func(t *testing.T) testMesh {
				return objMesh(t, filepath.Join(testassets.Shared(t), "bench", "real-meshes", n+".obj"))
			}, false})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.m(t)
			for _, k := range budgets {
				r := run(t, m, Options{MaxHulls: k, SkipTighten: c.fast})
				if len(r.Hulls) > k {
					t.Errorf("MaxHulls=%d: %d hulls", k, len(r.Hulls))
				}
			}
		})
	}
}

// TestBudgetKeepsGapsEmpty: four clusters of spheres far apart at a budget
// of four get one hull each: merging by the gap a union adds never bridges
// the 20-unit gaps while closer pieces are left to merge.
func TestBudgetKeepsGapsEmpty(t *testing.T) {
	m, mids := clusters(4, 6)
	r := run(t, m, Options{MaxHulls: 4})
	if len(r.Hulls) != 4 {
		t.Errorf("%d hulls, want 4", len(r.Hulls))
	}
	for i, h := range r.Hulls {
		for _, p := range mids {
			if depth(facePlanes(h), p) > 0 {
				t.Errorf("hull %d spans the gap at %v", i, p)
			}
		}
	}
}

// TestBudgetSmallPieceMerges: a small box beside a large one and a second
// large box far away, at a budget of two: the small box shares its
// neighbour's hull (the cheaper loss), the far box keeps its own.
func TestBudgetSmallPieceMerges(t *testing.T) {
	m := concat(box(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}), box(geom.Vec3{1.1, 0, 0}, geom.Vec3{1.2, 0.1, 0.1}),
		box(geom.Vec3{6, 0, 0}, geom.Vec3{7, 1, 1}))
	r := run(t, m, Options{MaxHulls: 2})
	if len(r.Hulls) != 2 {
		t.Fatalf("%d hulls, want 2", len(r.Hulls))
	}
	for i, h := range r.Hulls {
		if depth(facePlanes(h), geom.Vec3{3.5, 0.5, 0.5}) > 0 {
			t.Errorf("hull %d spans the gap between the large boxes", i)
		}
	}
}

// TestBudgetCutsOneSearch: with a GapSlack (the cap the product uses), a
// budget at or above the default decomposition's hull count gives the
// default hulls, bit for bit, and one below merges them: every budget cuts
// the same search. Without one (the budget is a target), the budget at the
// default count is searched at several thresholds and is no looser than
// the default on the whole surface (5% for the estimates' sampling).
func TestBudgetCutsOneSearch(t *testing.T) {
	m := torus(1, 0.3, 32, 12)
	def := run(t, m, Options{})
	n := len(def.Hulls)
	if n < 3 {
		t.Fatalf("default torus: %d hulls", n)
	}
	capped := Options{MaxHulls: n, GapSlack: 1e-9}
	if at := run(t, m, capped); !sameHulls(def.Hulls, at.Hulls) {
		t.Errorf("MaxHulls=%d with a slack changed the default's %d hulls", n, n)
	}
	capped.MaxHulls = n - 1
	if below := run(t, m, capped); len(below.Hulls) > n-1 {
		t.Errorf("MaxHulls=%d: %d hulls", n-1, len(below.Hulls))
	}
	spent := run(t, m, Options{MaxHulls: n})
	d0 := Measure(m.v, m.t, def.Hulls, 20000, 1).SurfaceDistMean
	d := Measure(m.v, m.t, spent.Hulls, 20000, 1).SurfaceDistMean
	t.Logf("torus: default %d hulls at %.4f, budget %d: %d at %.4f", n, d0, n, len(spent.Hulls), d)
	if len(spent.Hulls) > n || d > 1.05*d0 {
		t.Errorf("budget %d without a slack: %d hulls at %.4f, the default %d at %.4f", n, len(spent.Hulls), d, n, d0)
	}
}

// TestBudgetSpent: a U block whose notch is shallower than the default
// threshold is one hull by default and with a slack at a budget of 3 (a
// cap), without the tightening pass (which would cut it for its gap, as
// the finer search does); without a slack the budget of 3 is spent: the search at a finer
// threshold cuts the arms off the base, and the whole-surface distance
// falls below half the one hull's, every vertex inside (run's checks).
func TestBudgetSpent(t *testing.T) {
	var cells [][2]int
	for x := 0; x < 30; x++ {
		cells = append(cells, [2]int{x, 0})
	}
	cells = append(cells, [2]int{0, 1}, [2]int{29, 1})
	m := planar(cells, 1)
	def := run(t, m, Options{SkipTighten: true})
	if len(def.Hulls) != 1 {
		t.Fatalf("U block: %d hulls by default, want 1 (notch under the threshold)", len(def.Hulls))
	}
	if c := run(t, m, Options{MaxHulls: 3, GapSlack: 0.2, SkipTighten: true}); len(c.Hulls) != 1 {
		t.Errorf("U block at a cap of 3 with a slack: %d hulls, want the default's 1", len(c.Hulls))
	}
	r := run(t, m, Options{MaxHulls: 3, SkipTighten: true})
	d0 := Measure(m.v, m.t, def.Hulls, 20000, 1).SurfaceDistMean
	d := Measure(m.v, m.t, r.Hulls, 20000, 1).SurfaceDistMean
	t.Logf("U block: 1 hull at %.4f, budget 3: %d hulls at %.4f", d0, len(r.Hulls), d)
	if len(r.Hulls) < 2 || len(r.Hulls) > 3 || d > 0.5*d0 {
		t.Errorf("U block at a budget of 3: %d hulls at %.4f, one hull at %.4f", len(r.Hulls), d, d0)
	}
}

func sameHulls(a, b []*hull.Hull) bool {
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

// TestBudgetTargetKeepsExactParts: V-HACD's cube-notch (a cube with a
// notch cut into one edge) at a budget of 4 without a slack. The search at
// the threshold gives three exact boxes; the one at half of it, merged to
// 4, leaves less gap over the whole surface (smaller faces inside the
// solid) by wedging a hull into the notch. The target keeps the exact
// parts: no more outer distance than the threshold's search, here none.
func TestBudgetTargetKeepsExactParts(t *testing.T) {
	m := objMesh(t, filepath.Join(testassets.Shared(t), "bench", "acd-meshes", "cube-notch.obj"))
	def := run(t, m, Options{})
	r := run(t, m, Options{MaxHulls: 4})
	d0 := Measure(m.v, m.t, def.Hulls, 20000, 1).OuterDistMean
	d := Measure(m.v, m.t, r.Hulls, 20000, 1).OuterDistMean
	t.Logf("cube-notch: %d hulls at outer %.6f by default, %d at a budget of 4 at %.6f", len(def.Hulls), d0, len(r.Hulls), d)
	if d0 > 1e-5 {
		t.Fatalf("cube-notch by default: outer distance %.6f, want its exact boxes", d0)
	}
	if len(r.Hulls) > 4 || d > 1e-5 {
		t.Errorf("cube-notch at a budget of 4: %d hulls at outer distance %.6f, want exact parts", len(r.Hulls), d)
	}
}
