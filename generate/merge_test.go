package generate

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// overlapFixture: a car body, a glass sunk into its top (turned and
// scaled, so its frame differs from the car's), a crate touching the car's
// side face and a far ball; with nested, the glass is a child of the car.
func overlapFixture(t *testing.T, nested bool) []byte {
	t.Helper()
	car, carT := boxMesh(geom.Vec3{}, geom.Vec3{2, 1, 1})
	glass, glassT := boxMesh(geom.Vec3{}, geom.Vec3{1, 0.6, 1}) // 0.5 × 0.3 × 0.5 once scaled
	crate, crateT := boxMesh(geom.Vec3{}, geom.Vec3{1, 1, 1})
	ball, ballT := boxMesh(geom.Vec3{}, geom.Vec3{0.5, 0.5, 0.5})
	nodes := []fnode{
		{name: "Car", v: car, t: carT},
		{name: "Glass", v: glass, t: glassT, at: geom.Vec3{0.2, 0.5, 0}, yaw: 0.3, scale: geom.Vec3{0.5, 0.5, 0.5}},
		{name: "Crate", v: crate, t: crateT, at: geom.Vec3{1.5, 0, 0}},
		{name: "Ball", v: ball, t: ballT, at: geom.Vec3{10, 0, 0}},
	}
	roots := []int{0, 1, 2, 3}
	if nested {
		nodes[0].children = []int{1}
		roots = []int{0, 2, 3}
	}
	return buildGLTF(t, nodes, roots)
}

// TestOverlappingBodies: bodies whose colliders overlap at rest (the
// glass sunk 0.1 m into the car) are merged by default into one body on a
// new node adopting both, weighing what the two did apart with its centre
// of mass where theirs was; bodies that only touch (the crate) or are far
// (the ball) stay apart. With OverlapWarn they stay apart with a warning
// naming the pair; nested, the car's node takes the glass's colliders.
func TestOverlappingBodies(t *testing.T) {
	for _, f := range []physics.Family{physics.OMI, physics.KHR} {
		opt := Options{Collider: ColliderSettings{Method: Hull}, Encoding: Encoding{Format: f}}
		warn := opt
		warn.Body.Overlap = OverlapWarn
		apart := gen(t, overlapFixture(t, false), warn)
		if len(apart.rep.BodyList) != 4 {
			t.Fatalf("%s warn: %d bodies, want 4", f, len(apart.rep.BodyList))
		}
		var warned []string
		for _, w := range apart.rep.Warnings {
			if strings.Contains(w, "overlap") {
				warned = append(warned, w)
			}
		}
		if len(warned) != 1 || !strings.Contains(warned[0], `"Car"`) || !strings.Contains(warned[0], `"Glass"`) {
			t.Errorf("%s warn: overlap warnings %q, want one naming Car and Glass", f, warned)
		}
		g := gen(t, overlapFixture(t, false), opt)
		if len(g.rep.BodyList) != 3 {
			t.Fatalf("%s: %d bodies, want 3 (Car and Glass merged): %+v", f, len(g.rep.BodyList), g.rep.BodyList)
		}
		b := g.rep.BodyList[0]
		if b.Name != "Car.body" || !slices.Equal(b.Merged, []string{`nodes[0] "Car"`, `nodes[1] "Glass"`}) {
			t.Errorf("%s: merged body %q merged %q", f, b.Name, b.Merged)
		}
		doc := g.file.Doc
		if kids := doc.Nodes[b.Node].Children; !slices.Equal(kids, []int{0, 1}) || !slices.Equal(doc.Scenes[0].Nodes, []int{b.Node, 2, 3}) {
			t.Errorf("%s: merged node children %v, scene %v", f, kids, doc.Scenes[0].Nodes)
		}
		// Every collider under the merged node, no other body on the way.
		parent := physics.Parents(doc)
		for col := range g.colliderParents() {
			n := col
			for g.model.Nodes[n] == nil || g.model.Nodes[n].Motion == nil {
				n = parent[n]
			}
			if !isAncestor(parent, 2, col) && !isAncestor(parent, 3, col) && n != b.Node {
				t.Errorf("%s: collider nodes[%d] belongs to nodes[%d], not the merged body", f, col, n)
			}
		}
		// The merged body weighs what its parts did apart, centred where
		// they were (the new node is a scene root without transform).
		mo := g.model.Nodes[b.Node].Motion
		var m float64
		var com geom.Vec3
		for _, ab := range apart.rep.BodyList[:2] {
			am := apart.model.Nodes[ab.Node].Motion
			m += *am.Mass
			w := apart.file.Doc.Nodes[ab.Node]
			world := geom.TRS(geom.Vec3(w.Translation), geom.Quat(w.Rotation), geom.Vec3(w.Scale))
			com = com.Add(world.Point(geom.Vec3(*am.CenterOfMass)).Scale(*am.Mass))
		}
		com = com.Scale(1 / m)
		if math.Abs(*mo.Mass-m) > 1e-9*m || geom.Vec3(*mo.CenterOfMass).Sub(com).Len() > 1e-9 {
			t.Errorf("%s: merged mass %g at %v, want %g at %v", f, *mo.Mass, *mo.CenterOfMass, m, com)
		}
		nested := gen(t, overlapFixture(t, true), Options{Collider: ColliderSettings{Method: Hull}, Body: BodySettings{Mode: BodiesPerNode}, Encoding: Encoding{Format: f}})
		if len(nested.rep.BodyList) != 3 || nested.rep.BodyList[0].Node != 0 || len(nested.rep.BodyList[0].Merged) != 2 {
			t.Errorf("%s nested: bodies %+v, want the glass merged into the car's node", f, nested.rep.BodyList)
		}
	}
}

// TestMassSourceReport: a body weighed by its closed mesh says so, its
// inertia per unit mass is the mesh's, and when its colliders enclose
// HollowRatio times that volume or more (two small cubes in one mesh
// under one hull) the report warns with the ratio; a body whose colliders
// match its mesh gets no such warning, and an explicit mass says so.
func TestMassSourceReport(t *testing.T) {
	pair, pairT := union(mk(boxMesh(geom.Vec3{-0.5, 0, 0}, geom.Vec3{0.1, 0.1, 0.1})), mk(boxMesh(geom.Vec3{0.5, 0, 0}, geom.Vec3{0.1, 0.1, 0.1})))
	cube, cubeT := boxMesh(geom.Vec3{}, geom.Vec3{0.3, 0.3, 0.3})
	data := buildGLTF(t, []fnode{{name: "Dumbbell", v: pair, t: pairT}, {name: "Cube", v: cube, t: cubeT, at: geom.Vec3{5, 0, 0}}}, []int{0, 1})
	g := gen(t, data, Options{Collider: ColliderSettings{Method: Hull}})
	want, err := mass.Mesh(pair, pairT)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range g.rep.BodyList {
		if b.MassSource != SourceMesh || b.InertiaSource != SourceMesh {
			t.Errorf("%s: mass source %q, inertia source %q, want mesh", b.Name, b.MassSource, b.InertiaSource)
		}
		hollow := slices.ContainsFunc(g.rep.Warnings, func(w string) bool { return strings.HasPrefix(w, b.Name+":") && strings.Contains(w, "hollow shell") })
		if hollow != (b.Name == "Dumbbell") {
			t.Errorf("%s: hollow warning %v (colliders %.3g m³, mass volume %.3g m³): %q", b.Name, hollow, b.CollidersVolume, b.Volume, g.rep.Warnings)
		}
	}
	b := g.rep.BodyList[0]
	if r := b.CollidersVolume / b.Volume; r < 5 || r > 6 {
		t.Errorf("dumbbell: colliders %.3g× the mesh's volume, want 5.5× (1.1 × 0.01 m³ over 0.002 m³)", r)
	}
	mo := g.model.Nodes[b.Node].Motion
	d, _ := mass.Principal(want.Inertia)
	for i := range d {
		if got, w := mo.InertiaDiagonal[i] / *mo.Mass, d[i]/want.Volume; math.Abs(got-w) > 1e-6*w { // written at float32 precision
			t.Errorf("dumbbell: inertia per unit mass %v, want the mesh's %v", mo.InertiaDiagonal[i] / *mo.Mass, w)
		}
	}
	ex := gen(t, data, Options{Collider: ColliderSettings{Method: Hull}, Body: BodySettings{Mass: Mass{Mass: 3}}})
	if s := ex.rep.BodyList[0]; s.MassSource != SourceExplicit || s.InertiaSource != SourceMesh || s.Mass != 3 {
		t.Errorf("explicit mass: source %q, inertia from %q, mass %g", s.MassSource, s.InertiaSource, s.Mass)
	}
}

// TestImplausibleBodies: one warning per dynamic body outside the
// plausible size and mass, giving the size seen; none for a 30 cm cube.
func TestImplausibleBodies(t *testing.T) {
	big, bigT := boxMesh(geom.Vec3{}, geom.Vec3{30, 30, 30})
	tiny, tinyT := boxMesh(geom.Vec3{}, geom.Vec3{0.004, 0.004, 0.004})
	ok, okT := boxMesh(geom.Vec3{}, geom.Vec3{0.3, 0.3, 0.3})
	data := buildGLTF(t, []fnode{{name: "Giant", v: big, t: bigT}, {name: "Speck", v: tiny, t: tinyT, at: geom.Vec3{50, 0, 0}}, {name: "Prop", v: ok, t: okT, at: geom.Vec3{60, 0, 0}}}, []int{0, 1, 2})
	g := gen(t, data, Options{Collider: ColliderSettings{Method: Box}})
	count := map[string]int{}
	for _, w := range g.rep.Warnings {
		if name, _, found := strings.Cut(w, ": implausible"); found {
			count[name]++
			if name == "Giant" && (!strings.Contains(w, "52 m across") || !strings.Contains(w, "2.7e+07 kg")) {
				t.Errorf("giant: %q, want its size (52 m) and mass (2.7e+07 kg)", w)
			}
			if name == "Speck" && !strings.Contains(w, "0.00693 m across") {
				t.Errorf("speck: %q, want its size 0.00693 m", w)
			}
		}
	}
	if count["Giant"] != 1 || count["Speck"] != 1 || count["Prop"] != 0 {
		t.Errorf("implausible warnings per body %v, want Giant 1, Speck 1, Prop 0: %q", count, g.rep.Warnings)
	}
}
