package g4mf

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	physvalidate "github.com/autocollide/autocollide/physics/validate"
)

func f64(v float64) *float64 { return &v }

// physicsDoc builds a glTF document with a cube mesh and physics in
// family fam: a dynamic body with every motion field and a collider of
// each shape type, a trigger, a kinematic body, a static triangle-mesh
// ground, and (KHR only) the motions G4MF cannot express: mass 0
// (infinite), an absent mass (engine-computed), a zero moment.
func physicsDoc(t *testing.T, fam physics.Family) *gltf.Document {
	t.Helper()
	doc := &gltf.Document{Asset: gltf.Asset{Version: "2.0"}}
	var pos [][3]float32
	for _, c := range [][3]float32{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}} {
		pos = append(pos, [3]float32{c[0] / 2, c[1] / 2, c[2] / 2})
	}
	idx := []uint32{0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3}
	p := modeler.WritePosition(doc, pos)
	ix := modeler.WriteIndices(doc, idx)
	doc.Meshes = []*gltf.Mesh{{Primitives: []*gltf.Primitive{{Attributes: gltf.PrimitiveAttributes{gltf.POSITION: p}, Indices: gltf.Index(ix)}}}}
	m := physics.NewModel()
	shape := func(s physics.Shape) int { m.Shapes = append(m.Shapes, s); return len(m.Shapes) - 1 }
	node := func(name string, parent int, ph *physics.Node) int {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: name})
		i := len(doc.Nodes) - 1
		if parent >= 0 {
			doc.Nodes[parent].Children = append(doc.Nodes[parent].Children, i)
		}
		if ph != nil {
			m.Nodes[i] = ph
		}
		return i
	}
	collider := func(s physics.Shape) *physics.Node { return &physics.Node{Collider: physics.NewCollider(shape(s))} }
	q := geom.Quat{0.1, 0.2, 0.3, 0.9}.Normalize()
	body := node("Body", -1, &physics.Node{Motion: &physics.Motion{
		Type: physics.Dynamic, Mass: f64(2), CenterOfMass: &[3]float64{0.1, 0.2, -0.1},
		InertiaDiagonal: &[3]float64{1, 2, 3}, InertiaOrientation: (*[4]float64)(&q),
		LinearVelocity: &[3]float64{1, 0, 0}, AngularVelocity: &[3]float64{0, 1, 0.5}, GravityFactor: f64(0.5),
	}})
	doc.Nodes[body].Translation = [3]float64{1, 2, 3}
	doc.Nodes[body].Rotation = [4]float64(geom.Quat{0, 0.3826834, 0, 0.9238795})
	node("Box", body, collider(physics.Shape{Type: physics.Box, Size: [3]float64{1, 2, 3}}))
	node("Sphere", body, collider(physics.Shape{Type: physics.Sphere, Radius: 0.5}))
	node("Capsule", body, collider(physics.Shape{Type: physics.Capsule, Height: 1, RadiusTop: 0.25, RadiusBottom: 0.25}))
	node("Cylinder", body, collider(physics.Shape{Type: physics.Cylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.5}))
	node("Hull", body, collider(physics.Shape{Type: physics.Convex, Mesh: 0}))
	node("Sensor", body, &physics.Node{Trigger: &physics.Trigger{Shape: shape(physics.Shape{Type: physics.Sphere, Radius: 2}), Filter: -1}})
	kin := node("Kin", -1, &physics.Node{Motion: &physics.Motion{Type: physics.Kinematic, Mass: f64(1), LinearVelocity: &[3]float64{0, 0, 1}}})
	node("KinBox", kin, collider(physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}}))
	ground := node("Ground", -1, collider(physics.Shape{Type: physics.Trimesh, Mesh: 0}))
	doc.Nodes[ground].Mesh = gltf.Index(0)
	if fam == physics.KHR {
		for _, c := range []struct {
			name string
			mo   physics.Motion
		}{
			{"Infinite", physics.Motion{Type: physics.Dynamic, Mass: f64(0)}},
			{"Computed", physics.Motion{Type: physics.Dynamic}},
			{"Stiff", physics.Motion{Type: physics.Dynamic, Mass: f64(1), InertiaDiagonal: &[3]float64{0, 1, 1}}},
		} {
			mo := c.mo
			b := node(c.name, -1, &physics.Node{Motion: &mo})
			node(c.name+"Box", b, collider(physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}}))
		}
	}
	var roots []int
	for i := range doc.Nodes {
		roots = append(roots, i)
	}
	for _, n := range doc.Nodes {
		for _, c := range n.Children {
			roots[c] = -1
		}
	}
	sc := &gltf.Scene{}
	for _, r := range roots {
		if r >= 0 {
			sc.Nodes = append(sc.Nodes, r)
		}
	}
	doc.Scenes = []*gltf.Scene{sc}
	codec, err := codecs.For(fam)
	if err != nil {
		t.Fatal(err)
	}
	if err := codec.Encode(doc, m, physics.EncodeOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := physvalidate.Errors(physvalidate.Validate(doc, physvalidate.Options{})); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return doc
}

// roundTrip exports doc to G4MF, through its bytes, and imports it back
// in family fam; it returns the result and every warning's text.
func g4mfRoundTrip(t *testing.T, doc *gltf.Document, fam physics.Family, binary bool) (*gltf.Document, []string) {
	t.Helper()
	f, warns, err := Export(doc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := f.Encode(binary)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(data, "")
	if err != nil {
		t.Fatal(err)
	}
	back, iw, err := Import(g, fam, physics.EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range iw {
		warns = append(warns, w.String())
	}
	if err := physvalidate.Errors(physvalidate.Validate(back, physvalidate.Options{})); err != nil {
		t.Fatalf("imported physics: %v", err)
	}
	// Through JSON, as a file would be read.
	raw, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	var again gltf.Document
	if err := json.Unmarshal(raw, &again); err != nil {
		t.Fatal(err)
	}
	again.Buffers = back.Buffers
	return &again, warns
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Max(1, math.Abs(a)) }

func nearVec(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !approx(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestG4MFRoundTrip (issue 21 item 5): OMI → G4MF → OMI and KHR → G4MF
// → KHR keep every field of every body, collider and trigger, or warn
// about it by the source's node and field: the body's world frame and
// centre of mass, mass (OMI's absent mass is 1 kg), inertia (compared as
// the world tensor), velocities, gravity factor, motion type, each
// shape's type and parameters, the hull's vertices.
func TestG4MFRoundTrip(t *testing.T) {
	for _, fam := range []physics.Family{physics.OMI, physics.KHR} {
		for _, binary := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/binary=%v", fam, binary), func(t *testing.T) {
				src := physicsDoc(t, fam)
				back, warns := g4mfRoundTrip(t, src, fam, binary)
				m1, _, _, err := codecs.Decode(src)
				if err != nil {
					t.Fatal(err)
				}
				m2, f2, _, err := codecs.Decode(back)
				if err != nil {
					t.Fatal(err)
				}
				if f2 != fam || codecs.Family(back) != fam {
					t.Fatalf("imported family %q, want only %q", codecs.Family(back), fam)
				}
				w1, err := mesh.WorldTransforms(src)
				if err != nil {
					t.Fatal(err)
				}
				w2, err := mesh.WorldTransforms(back)
				if err != nil {
					t.Fatal(err)
				}
				byName := map[string]int{}
				for i, n := range back.Nodes {
					byName[n.Name] = i
				}
				warned := func(i int, field string) bool {
					for _, w := range warns {
						if strings.Contains(w, fmt.Sprintf("nodes[%d].", i)) && strings.Contains(w, field) {
							return true
						}
					}
					return false
				}
				check := func(i int, field string, same bool) {
					if !same && !warned(i, field) {
						t.Errorf("%s (nodes[%d]): %s changed without a warning", src.Nodes[i].Name, i, field)
					}
					if same && warned(i, field) {
						t.Errorf("%s (nodes[%d]): %s kept but warned about", src.Nodes[i].Name, i, field)
					}
				}
				for _, i := range m1.NodeIndices() {
					name := src.Nodes[i].Name
					j, ok := byName[name]
					if !ok {
						t.Errorf("%s: no node of that name after the round trip", name)
						continue
					}
					// Export splits a node carrying several things: the
					// collider or trigger may sit on a child.
					a, b := m1.Nodes[i], &physics.Node{}
					if x := m2.Nodes[j]; x != nil {
						*b = *x
					}
					for _, suffix := range []string{"_Collider", "_Trigger"} {
						if k, ok := byName[name+suffix]; ok && m2.Nodes[k] != nil {
							if b.Collider == nil {
								b.Collider = m2.Nodes[k].Collider
							}
							if b.Trigger == nil {
								b.Trigger = m2.Nodes[k].Trigger
							}
						}
					}
					if mo := a.Motion; mo != nil {
						mb := b.Motion
						if mb == nil {
							t.Errorf("%s: lost its motion", name)
							continue
						}
						check(i, "mass", effMass(fam, mo) == effMass(fam, mb) && mo.Type == mb.Type)
						// Centre of mass and frame in world space.
						com := func(w geom.Mat4, m *physics.Motion) geom.Vec3 {
							if m.CenterOfMass == nil {
								return w.Translation()
							}
							return w.Point(geom.Vec3(*m.CenterOfMass))
						}
						c1, c2 := com(w1[i], mo), com(w2[j], mb)
						if !nearVec(c1[:], c2[:]) {
							t.Errorf("%s: centre of mass %v, want %v", name, c2, c1)
						}
						check(i, "inertia", nearVec(motionInertia(w1[i], mo), motionInertia(w2[j], mb)))
						vel := func(w geom.Mat4, v *[3]float64) []float64 {
							if v == nil {
								return []float64{0, 0, 0}
							}
							x := w.Linear().MulVec(geom.Vec3(*v))
							return x[:]
						}
						if !nearVec(vel(w1[i], mo.LinearVelocity), vel(w2[j], mb.LinearVelocity)) ||
							!nearVec(vel(w1[i], mo.AngularVelocity), vel(w2[j], mb.AngularVelocity)) {
							t.Errorf("%s: velocities changed", name)
						}
						g1, g2 := 1.0, 1.0
						if mo.GravityFactor != nil {
							g1 = *mo.GravityFactor
						}
						if mb.GravityFactor != nil {
							g2 = *mb.GravityFactor
						}
						if g1 != g2 {
							t.Errorf("%s: gravity factor %v, want %v", name, g2, g1)
						}
					}
					for _, pair := range [][2]int{{shapeOf(a.Collider), shapeOf(b.Collider)}, {triggerShape(a.Trigger), triggerShape(b.Trigger)}} {
						if pair[0] < 0 {
							continue
						}
						if pair[1] < 0 {
							t.Errorf("%s: lost its shape", name)
							continue
						}
						s1, s2 := m1.Shapes[pair[0]], m2.Shapes[pair[1]]
						if s1.Type != s2.Type || s1.Size != s2.Size || s1.Radius != s2.Radius || s1.Height != s2.Height ||
							s1.RadiusTop != s2.RadiusTop || s1.RadiusBottom != s2.RadiusBottom {
							t.Errorf("%s: shape %+v, want %+v", name, s2, s1)
						}
						if s1.Type == physics.Convex || s1.Type == physics.Trimesh {
							if n1, n2 := meshVertices(src, s1.Mesh), meshVertices(back, s2.Mesh); n1 != n2 || n1 == 0 {
								t.Errorf("%s: hull of %d vertices, want %d", name, n2, n1)
							}
						}
					}
				}
			})
		}
	}
}

func effMass(fam physics.Family, m *physics.Motion) float64 {
	switch {
	case m.Mass != nil:
		return *m.Mass
	case fam == physics.OMI:
		return 1
	}
	return -1 // KHR: engine-computed
}

func shapeOf(c *physics.Collider) int {
	if c == nil {
		return -1
	}
	return c.Shape
}

func triggerShape(t *physics.Trigger) int {
	if t == nil {
		return -1
	}
	return t.Shape
}

func meshVertices(doc *gltf.Document, m int) int {
	if m < 0 || m >= len(doc.Meshes) {
		return 0
	}
	n := 0
	for _, p := range doc.Meshes[m].Primitives {
		n += int(doc.Accessors[p.Attributes[gltf.POSITION]].Count)
	}
	return n
}

// motionInertia is the motion's inertia tensor in world axes (nil
// moments: none, as "computed by the engine").
func motionInertia(w geom.Mat4, m *physics.Motion) []float64 {
	if m.InertiaDiagonal == nil {
		return nil
	}
	q := geom.IdentityQuat()
	if m.InertiaOrientation != nil {
		q = geom.Quat(*m.InertiaOrientation).Normalize()
	}
	r := w.Linear().Mul(q.Mat3())
	d := *m.InertiaDiagonal
	var out []float64
	for i := range 3 {
		for j := range 3 {
			s := 0.0
			for k := range 3 {
				s += r[i][k] * d[k] * r[j][k]
			}
			out = append(out, s)
		}
	}
	return out
}

// TestExportKHRMotion (issue 21 item 5): KHR motions G4MF cannot express
// are written as the nearest G4MF form with exactly one warning each at
// the KHR node's path: mass 0 (infinite) as a kinematic body (G4MF would
// read 0 or absent as a mass), an absent mass (engine-computed; G4MF
// reads 1 kg) left absent, a zero moment (infinite; G4MF reads zero as
// "compute it") dropped. OMI's motions, which mean what G4MF's mean, get
// no such warning.
func TestExportKHRMotion(t *testing.T) {
	src := physicsDoc(t, physics.KHR)
	f, warns, err := Export(src)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := f.Scene()
	if err != nil {
		t.Fatal(err)
	}
	motion := map[string]*physics.Motion{}
	for _, n := range sc.Nodes {
		if n.Physics.Motion != nil {
			motion[n.Name] = n.Physics.Motion
		}
	}
	index := map[string]int{}
	for i, n := range src.Nodes {
		index[n.Name] = i
	}
	count := func(name, field string) int {
		c := 0
		for _, w := range warns {
			if strings.Contains(w, fmt.Sprintf("nodes[%d].extensions.KHR_physics_rigid_bodies.motion.%s:", index[name], field)) {
				c++
			}
		}
		return c
	}
	if mo := motion["Infinite"]; mo == nil || mo.Type != physics.Kinematic || mo.Mass != nil && *mo.Mass == 0 || count("Infinite", "mass") != 1 {
		t.Errorf("mass 0: %+v, %d warnings", mo, count("Infinite", "mass"))
	}
	if mo := motion["Computed"]; mo == nil || mo.Mass != nil || count("Computed", "mass") != 1 {
		t.Errorf("absent mass: %+v, %d warnings", mo, count("Computed", "mass"))
	}
	if mo := motion["Stiff"]; mo == nil || mo.InertiaDiagonal != nil || count("Stiff", "inertiaDiagonal") != 1 {
		t.Errorf("zero moment: %+v, %d warnings", mo, count("Stiff", "inertiaDiagonal"))
	}
	if count("Body", "mass")+count("Body", "inertiaDiagonal")+count("Kin", "mass") != 0 {
		t.Errorf("warnings about motions G4MF keeps: %q", warns)
	}
	_, omiWarns, err := Export(physicsDoc(t, physics.OMI))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range omiWarns {
		if strings.Contains(w, "motion") {
			t.Errorf("OMI: %s", w)
		}
	}
}

// TestImportWarnings: what glTF cannot hold is warned about once, at the
// G4MF path: a general shape that is none of the common ones (and the
// collider using it), a plane in OMI (a box; KHR keeps the plane);
// Validate names problems by their G4MF path.
func TestImportWarnings(t *testing.T) {
	src := `{"asset": {"dimension": 3}, "nodes": [
		{"name": "Root", "children": [1, 3, 4]},
		{"name": "Body", "position": [0, 1, 0], "physics": {"motion": {"type": "dynamic", "mass": 3}}, "children": [2]},
		{"name": "Col", "physics": {"collider": {"shape": 0}}},
		{"name": "Floor", "physics": {"collider": {"shape": 2}}},
		{"name": "Odd", "physics": {"collider": {"shape": 1}}}],
	 "shapes": [{"size": [1, 1, 1]}, {"curves": [{"radii": [1, 2, 3]}]}, {"type": "plane"}]}`
	f, err := Parse([]byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	has := func(ws []physics.Warning, path, text string) int {
		n := 0
		for _, w := range ws {
			if w.Path == path && strings.Contains(w.Message, text) {
				n++
			}
		}
		return n
	}
	for _, fam := range []physics.Family{physics.OMI, physics.KHR} {
		doc, ws, err := Import(f, fam, physics.EncodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if has(ws, "shapes[1]", "no glTF form") != 1 || has(ws, "nodes[4].physics.collider", "dropped") != 1 {
			t.Errorf("%s: the odd shape is not warned about once: %v", fam, ws)
		}
		m, _, _, err := codecs.Decode(doc)
		if err != nil {
			t.Fatal(err)
		}
		floor := m.Nodes[3]
		if floor == nil || floor.Collider == nil {
			t.Fatalf("%s: the floor lost its collider", fam)
		}
		got := m.Shapes[floor.Collider.Shape].Type
		if fam == physics.OMI && (got != physics.Box || has(ws, "shapes[2]", "plane") != 1) {
			t.Errorf("OMI: plane became %s, warnings %v", got, ws)
		}
		if fam == physics.KHR && (got != physics.Plane || has(ws, "shapes[2]", "plane") != 0) {
			t.Errorf("KHR: plane became %s, warnings %v", got, ws)
		}
		if m.Nodes[4] != nil {
			t.Errorf("%s: the odd collider was kept: %+v", fam, m.Nodes[4])
		}
		if b := m.Nodes[1]; b == nil || b.Motion == nil || b.Motion.Mass == nil || *b.Motion.Mass != 3 {
			t.Errorf("%s: body motion %+v", fam, b)
		}
		if doc.Nodes[1].Translation != [3]float64{0, 1, 0} {
			t.Errorf("%s: body at %v", fam, doc.Nodes[1].Translation)
		}
	}
	bad, err := Parse([]byte(strings.Replace(src, `"mass": 3`, `"mass": -3`, 1)), "")
	if err != nil {
		t.Fatal(err)
	}
	probs, err := Validate(bad, physvalidate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := physvalidate.Errors(probs); err == nil || !strings.Contains(err.Error(), "nodes[1].physics.motion.mass") {
		t.Errorf("negative mass: %v, want an error at nodes[1].physics.motion.mass", err)
	}
}
