package generate

import (
	"bytes"
	"context"
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// TestFrame: frame splits any TRS (negative scales included) into a rigid
// frame and a scale that rebuild it.
func TestFrame(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 500; i++ {
		q := geom.Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		s := geom.Vec3{0.1 + r.Float64(), 0.1 + r.Float64(), 0.1 + r.Float64()}
		for c := range s {
			if r.Intn(3) == 0 {
				s[c] = -s[c]
			}
		}
		m := geom.TRS(geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, q, s)
		f, sc, err := frame(m)
		if err != nil {
			t.Fatal(err)
		}
		if d := f.Linear().Det(); math.Abs(d-1) > 1e-9 {
			t.Fatalf("frame is not a rotation: det %v", d)
		}
		back := f.Mul(geom.TRS(geom.Vec3{}, geom.IdentityQuat(), sc))
		for a := 0; a < 4; a++ {
			for b := 0; b < 4; b++ {
				if math.Abs(back[a][b]-m[a][b]) > 1e-9 {
					t.Fatalf("frame·scale = %v, want %v", back, m)
				}
			}
		}
	}
	if _, _, err := frame(geom.TRS(geom.Vec3{}, geom.IdentityQuat(), geom.Vec3{1, 0, 1})); err == nil {
		t.Fatal("zero scale accepted")
	}
}

// sampled returns points on the surface of analytic shapes.
func sphereMesh(r float64, n int) ([]geom.Vec3, [][3]uint32) {
	var v []geom.Vec3
	var tris [][3]uint32
	for i := 0; i <= n; i++ {
		th := math.Pi * float64(i) / float64(n)
		for j := 0; j < 2*n; j++ {
			ph := math.Pi * float64(j) / float64(n)
			v = append(v, geom.Vec3{r * math.Sin(th) * math.Cos(ph), r * math.Cos(th), r * math.Sin(th) * math.Sin(ph)})
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < 2*n; j++ {
			a, b := uint32(i*2*n+j), uint32(i*2*n+(j+1)%(2*n))
			c, d := a+uint32(2*n), b+uint32(2*n)
			tris = append(tris, [3]uint32{a, b, d}, [3]uint32{a, d, c})
		}
	}
	return v, tris
}

func prism(sides int, r, h float64) []geom.Vec3 {
	var v []geom.Vec3
	for i := 0; i < sides; i++ {
		a := 2 * math.Pi * float64(i) / float64(sides)
		v = append(v, geom.Vec3{r * math.Cos(a), -h / 2, r * math.Sin(a)}, geom.Vec3{r * math.Cos(a), h / 2, r * math.Sin(a)})
	}
	return v
}

// TestAutoChoice: auto picks the primitive a part is, and says why.
func TestAutoChoice(t *testing.T) {
	ctx := context.Background()
	sphere, sphereTris := sphereMesh(0.5, 24)
	cube := boxConvex(geom.Vec3{1, 2, 3}, geom.Vec3{1, 2, 0.5})
	wheel := prism(48, 0.4, 0.15)
	rod := prism(48, 0.05, 2) // long and thin: a capsule is only 3% over, and cheaper
	for _, c := range []struct {
		name string
		v    []geom.Vec3
		tris [][3]uint32
		want physics.ShapeType
	}{
		{"sphere", sphere, sphereTris, physics.Sphere},
		{"box", cube.Vertices, cube.Triangles, physics.Box},
		{"wheel", wheel, nil, physics.Cylinder},
		{"rod", rod, nil, physics.Capsule},
	} {
		cs, notes, err := Colliders(ctx, c.v, c.tris, ColliderSettings{Method: Auto}, Run{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(cs) != 1 || cs[0].Shape.Type != c.want {
			t.Errorf("%s: got %d colliders, first %v; want one %s (%v)", c.name, len(cs), cs[0].Shape.Type, c.want, notes)
		}
		if len(notes) == 0 || !strings.HasPrefix(notes[0], "auto: "+string(c.want)) {
			t.Errorf("%s: note %v does not say what was chosen", c.name, notes)
		}
	}
}

// TestBodyMassSource: a closed mesh gives its own properties; an open
// one falls back to its colliders.
func TestBodyMassSource(t *testing.T) {
	cube := boxConvex(geom.Vec3{}, geom.Vec3{1, 1, 1})
	big := boxConvex(geom.Vec3{}, geom.Vec3{2, 2, 2})
	cm := Collider{Mass: mass.Box(geom.Vec3{2, 2, 2}), Convex: &big}
	p, src, err := BodyMass(context.Background(), []Solid{{cube.Vertices, cube.Triangles}}, []Collider{cm})
	if err != nil || src != SourceMesh || math.Abs(p.Volume-1) > 1e-12 {
		t.Fatalf("closed cube: %v %s %v", p.Volume, src, err)
	}
	open := Solid{cube.Vertices, cube.Triangles[:10]}
	p, src, err = BodyMass(context.Background(), []Solid{open}, []Collider{cm})
	if err != nil || src != SourceColliders || math.Abs(p.Volume-8) > 1e-9 {
		t.Fatalf("open cube: %v %s %v", p.Volume, src, err)
	}
	// Two overlapping boxes as colliders: the overlap is counted once, to
	// the union's documented accuracy (overlap area × lattice step / 2,
	// here 16 × 3/128 / 2 = 0.19 m³ at most).
	shifted := boxConvex(geom.Vec3{1, 0, 0}, geom.Vec3{2, 2, 2})
	p, _, err = BodyMass(context.Background(), []Solid{open}, []Collider{cm, {Mass: mass.Box(geom.Vec3{2, 2, 2}), Convex: &shifted}})
	if err != nil || math.Abs(p.Volume-12) > 0.19 {
		t.Fatalf("overlapping boxes: volume %v, want 12", p.Volume)
	}
}

// TestPartReports: every part of the example gets a report whose method is
// a concrete one, whose hull counts match its colliders, and whose single
// collider is at least as big as the part's convex hull (it contains it).
func TestPartReports(t *testing.T) {
	for _, m := range []Method{Auto, Hull, Box, Sphere, Decompose} {
		a, err := gltfio.Load(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"), gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Asset(context.Background(), a, Options{Collider: ColliderSettings{Method: m}, Encoding: Encoding{Binary: true}})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Parts) == 0 {
			t.Fatalf("%s: no part reports", m)
		}
		total := 0
		for _, p := range rep.Parts {
			total += p.Colliders
			if p.Method == "" || p.Method == Auto {
				t.Errorf("%s: part %q has method %q", m, p.Name, p.Method)
			}
			if m != Auto && m != Decompose && p.Method != m {
				t.Errorf("%s: part %q reports method %q", m, p.Name, p.Method)
			}
			if (m == Auto) != (p.Reason != "") {
				t.Errorf("%s: part %q reason %q", m, p.Name, p.Reason)
			}
			convex := p.Method == Hull || p.Method == Decompose
			if convex != (p.HullVertices > 0) {
				t.Errorf("%s: part %q (%s) has %d hull vertices", m, p.Name, p.Method, p.HullVertices)
			}
			if p.Method != Decompose && p.Overshoot < -1e-6 {
				t.Errorf("%s: part %q colliders are %.3g smaller than its hull", m, p.Name, -p.Overshoot)
			}
		}
		sum := 0
		for _, v := range rep.Colliders {
			sum += v
		}
		if total != sum {
			t.Errorf("%s: parts count %d colliders, report %d", m, total, sum)
		}
	}
}

// TestWorkersDeterministic: the parts are made in parallel, and the file
// written is byte-identical for any worker count.
func TestWorkersDeterministic(t *testing.T) {
	files := []string{filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb")}
	for _, f := range testassets.Corpus(t) {
		if strings.Contains(f, "SimpleMeshes") || strings.Contains(f, "NegativeScaleTest") || strings.Contains(f, "OrientationTest") {
			files = append(files, f)
		}
	}
	for _, f := range files {
		for _, m := range []Method{Auto, Decompose} {
			var first []byte
			for _, w := range []int{1, 2, 5} {
				a, err := gltfio.Load(f, gltfio.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Asset(context.Background(), a, Options{Collider: ColliderSettings{Method: m}, Encoding: Encoding{Binary: true}, Run: Run{Workers: w}}); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				b, err := a.Encode(true)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = b
				} else if !bytes.Equal(b, first) {
					t.Errorf("%s (%s): %d workers give other bytes than 1", filepath.Base(f), m, w)
				}
			}
		}
	}
}

// outside returns how far x lies outside collider c (≤ 0 inside): hulls
// and boxes by their faces, spheres by their radius.
func outside(t *testing.T, c Collider, x geom.Vec3) float64 {
	t.Helper()
	var vs []geom.Vec3
	var ts [][3]uint32
	switch {
	case c.Hull != nil:
		vs, ts = c.Hull.Vertices, c.Hull.Triangles
	case c.Convex != nil:
		vs, ts = c.Convex.Vertices, c.Convex.Triangles
	case c.Shape.Type == physics.Sphere:
		return x.Sub(c.Translation).Len() - c.Shape.Radius
	default:
		t.Fatalf("no containment check for a %s collider", c.Shape.Type)
	}
	worst := math.Inf(-1)
	for _, tr := range ts {
		a, b, cc := vs[tr[0]], vs[tr[1]], vs[tr[2]]
		n := b.Sub(a).Cross(cc.Sub(a))
		if l := n.Len(); l > 0 {
			worst = math.Max(worst, n.Scale(1/l).Dot(x.Sub(a)))
		}
	}
	return worst
}

// TestSharedColliders: parts with the same geometry up to a translation
// in their body frame are made once and the others get the colliders
// moved; each part's vertices must lie in its own colliders, the moved
// ones must match the made ones, and a rotated copy is made for itself.
func TestSharedColliders(t *testing.T) {
	v, tris := chair()
	at := func(off geom.Vec3, yaw float64) mesh.Part {
		q := geom.Quat{0, math.Sin(yaw / 2), 0, math.Cos(yaw / 2)}
		p := mesh.Part{Mesh: 0, Triangles: tris}
		for _, x := range v {
			p.Vertices = append(p.Vertices, q.Rotate(x).Add(off))
		}
		return p
	}
	ex := &mesh.Result{Parts: []mesh.Part{
		at(geom.Vec3{}, 0),
		at(geom.Vec3{3, 0.5, -1}, 0),
		at(geom.Vec3{0, 0, 4}, math.Pi/2),
		at(geom.Vec3{-2.7, 0, 0.1}, 0),
	}}
	for _, m := range []Method{Hull, Decompose, Box, Sphere, AABB, Trimesh, Auto} {
		b := &bodyPlan{world: geom.Identity4()}
		var parts []*partPlan
		for i := range ex.Parts {
			parts = append(parts, &partPlan{part: i, body: b, collider: ColliderSettings{Method: m}})
		}
		out := makeColliders(context.Background(), nil, ex, parts, Run{Workers: 2})
		for i, p := range ex.Parts {
			mk := out[i]
			if mk.err != nil {
				t.Fatalf("%s: part %d: %v", m, i, mk.err)
			}
			if len(mk.cs) == 0 {
				t.Fatalf("%s: part %d has no colliders", m, i)
			}
			diag := geom.BoundsOf(p.Vertices).Diagonal()
			for k, x := range p.Vertices {
				if m == Trimesh {
					if d := mk.cs[0].soup.vertices[k].Sub(x).Len(); d > 1e-9*diag {
						t.Fatalf("%s: part %d: trimesh vertex %d is %g off", m, i, k, d)
					}
					continue
				}
				best := math.Inf(1)
				for _, c := range mk.cs {
					best = math.Min(best, outside(t, c, x))
				}
				if best > 1e-6*diag {
					t.Fatalf("%s: part %d: vertex %d lies %g outside its colliders", m, i, k, best)
				}
			}
		}
		// Parts 1 and 3 are part 0 moved: the same colliders, moved.
		for _, i := range []int{1, 3} {
			a, b := out[0].cs, out[i].cs
			if len(a) != len(b) {
				t.Fatalf("%s: part %d has %d colliders, part 0 %d", m, i, len(b), len(a))
			}
			for k := range a {
				if a[k].Shape.Type != b[k].Shape.Type || math.Abs(a[k].Mass.Volume-b[k].Mass.Volume) > 1e-6*a[k].Mass.Volume {
					t.Errorf("%s: part %d collider %d is a %s of volume %g, part 0's a %s of %g",
						m, i, k, b[k].Shape.Type, b[k].Mass.Volume, a[k].Shape.Type, a[k].Mass.Volume)
				}
			}
		}
	}
}

// TestDecomposeKeepsNecks: the Duck's tail meets its body at a thin neck.
// Re-cutting through the body's middle (decompose's relax pass) saves a
// little hull volume but puts a wide face inside the duck, doubling the
// distance from the hulls' surface to the mesh (0.47 -> 1.05 % of the
// diagonal); decompose must not take it. Here rather than in decompose,
// which reads no glTF.
func TestDecomposeKeepsNecks(t *testing.T) {
	a, err := gltfio.Load(filepath.Join(testassets.Shared(t), "corpus", "Duck", "glTF-Binary", "Duck.glb"), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	p := ex.Parts[0]
	r, err := decompose.Decompose(context.Background(), p.Vertices, p.Triangles, decompose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sd := decompose.Measure(p.Vertices, p.Triangles, r.Hulls, 20000, 1).SurfaceDistMean; sd > 0.006 {
		t.Errorf("%d hulls, surface distance %.3g %% of the diagonal, want at most 0.6 %%", len(r.Hulls), 100*sd)
	}
}

// TestAutoDecomposeBounded: a decomposition chosen by auto searches its
// cuts on a proxy (of ColliderSettings.SearchTriangles, here 400, else
// AutoSearchTriangles) and skips the relax pass (the default profile's
// bound on work per part). On three quarters of an open torus (1,280
// triangles; no primitive within tolerance, so auto decomposes it) auto's
// hulls are those of that decomposition (TestSkipRelax in decompose shows
// the pass skipped) and its notes say the proxy was used.
func TestAutoDecomposeBounded(t *testing.T) {
	const n, m = 40, 16
	var v []geom.Vec3
	var tris [][3]uint32
	for i := 0; i <= n; i++ {
		a := 1.5 * math.Pi * float64(i) / n
		for j := 0; j < m; j++ {
			b := 2 * math.Pi * float64(j) / m
			r := 1 + 0.3*math.Cos(b)
			v = append(v, geom.Vec3{r * math.Cos(a), 0.3 * math.Sin(b), r * math.Sin(a)})
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			p, q := uint32(i*m+j), uint32((i+1)*m+j)
			p1, q1 := uint32(i*m+(j+1)%m), uint32((i+1)*m+(j+1)%m)
			tris = append(tris, [3]uint32{p, p1, q}, [3]uint32{q, p1, q1})
		}
	}
	ctx := context.Background()
	got, notes, err := Colliders(ctx, v, tris, ColliderSettings{Method: Auto, SearchTriangles: 400}, Run{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(notes[0], "auto: decompose") || !strings.Contains(strings.Join(notes, "\n"), "proxy of") {
		t.Fatalf("auto did not decompose on a proxy: %q", notes)
	}
	same := func(a, b []Collider) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !slices.Equal(a[i].Convex.Vertices, b[i].Convex.Vertices) {
				return false
			}
		}
		return true
	}
	want, _, err := decomposed(ctx, v, tris, ColliderSettings{Method: Decompose, SearchTriangles: 400}, Run{Workers: 1}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !same(got, want) {
		t.Errorf("auto's %d hulls differ from the %d of the decomposition on a proxy with SkipRelax", len(got), len(want))
	}
}
