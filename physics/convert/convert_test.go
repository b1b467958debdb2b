package convert_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/schema"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

const nNodes = 12

func genDoc() *gltf.Document {
	doc := &gltf.Document{Asset: gltf.Asset{Version: "2.0"}}
	// Three closed convex meshes (tetrahedra of different sizes), so the
	// outputs can be validated with their mesh data.
	for i := 0; i < 3; i++ {
		s := float32(i + 1)
		pos := modeler.WritePosition(doc, [][3]float32{{0, 0, 0}, {s, 0, 0}, {0, s, 0}, {0, 0, s}})
		idx := modeler.WriteIndices(doc, []uint16{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3})
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: fmt.Sprintf("m%d", i), Primitives: []*gltf.Primitive{{
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos}, Indices: gltf.Index(idx),
		}}})
	}
	for i := 0; i < nNodes; i++ {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: fmt.Sprintf("n%d", i), Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	}
	// 0 is the root; 1..5 bodies each with two collider children.
	for b := 1; b <= 5; b++ {
		doc.Nodes[0].Children = append(doc.Nodes[0].Children, b)
	}
	for c := 6; c < nNodes; c++ {
		p := 1 + (c-6)%5
		doc.Nodes[p].Children = append(doc.Nodes[p].Children, c)
	}
	// nNodes: a joint node of its own under body 2 (OMI_physics_joint
	// puts a joint on no body or collider).
	doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "joint", Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	doc.Nodes[2].Children = append(doc.Nodes[2].Children, nNodes)
	doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	return doc
}

func f(r *rand.Rand) *float64 { v := 0.1 + r.Float64()*5; return &v }
func v3(r *rand.Rand) *[3]float64 {
	return &[3]float64{r.Float64() - 0.5, r.Float64(), 2 * r.Float64()}
}

// genModel makes a random model both families express exactly: no static
// motion, no shapeless collider, every shape referenced, explicit positive
// mass and inertia, no plane, joint limits with one kind of axis.
func genModel(r *rand.Rand) *physics.Model {
	m := physics.NewModel()
	nShapes := 3 + r.IntN(5)
	for i := 0; i < nShapes; i++ {
		var s physics.Shape
		switch r.IntN(6) {
		case 0:
			s = physics.Shape{Type: physics.Box, Size: *v3(r)}
			s.Size[0] += 1
		case 1:
			s = physics.Shape{Type: physics.Sphere, Radius: *f(r)}
		case 2:
			s = physics.Shape{Type: physics.Capsule, Height: *f(r), RadiusTop: *f(r), RadiusBottom: *f(r)}
		case 3:
			s = physics.Shape{Type: physics.Cylinder, Height: *f(r), RadiusTop: *f(r), RadiusBottom: *f(r)}
		case 4:
			s = physics.Shape{Type: physics.Convex, Mesh: r.IntN(3)}
		default:
			s = physics.Shape{Type: physics.Trimesh, Mesh: r.IntN(3)}
		}
		if r.IntN(3) == 0 && s.Type != physics.Convex && s.Type != physics.Trimesh {
			s.Name = fmt.Sprintf("shape%d", i)
		}
		m.AddShape(s)
	}
	for i := 0; i < 1+r.IntN(2); i++ {
		m.Materials = append(m.Materials, physics.Material{StaticFriction: f(r), Restitution: f(r), FrictionCombine: "maximum"})
	}
	m.Filters = append(m.Filters, physics.Filter{CollisionSystems: []string{"a"}, NotCollideWithSystems: []string{"b"}})
	m.Joints = append(m.Joints, physics.JointDef{
		Limits: []physics.JointLimit{{LinearAxes: []int{0, 1, 2}, Max: f(r)}, {AngularAxes: []int{1}, Min: ptr(-1), Max: ptr(1), Stiffness: f(r)}},
		Drives: []physics.JointDrive{{Type: "angular", Mode: "force", Axis: 1, VelocityTarget: f(r), Damping: f(r)}},
	})
	for b := 1; b <= 5; b++ {
		mo := &physics.Motion{Type: physics.Dynamic, Mass: f(r)}
		if r.IntN(3) == 0 && b != 2 { // body 2 anchors the joint: dynamic
			mo.Type = physics.Kinematic
		}
		if r.IntN(2) == 0 {
			mo.InertiaDiagonal = &[3]float64{*f(r), *f(r), *f(r)}
			mo.InertiaOrientation = &[4]float64{0, 0, 0, 1}
			mo.CenterOfMass = v3(r)
		}
		if r.IntN(2) == 0 {
			mo.LinearVelocity, mo.AngularVelocity, mo.GravityFactor = v3(r), v3(r), f(r)
		}
		m.Node(b).Motion = mo
	}
	used := make([]bool, nShapes)
	for c := 6; c < nNodes; c++ {
		s := r.IntN(nShapes)
		if c-6 < nShapes {
			s = c - 6
		}
		used[s] = true
		col := &physics.Collider{Shape: s, Material: -1, Filter: -1}
		if r.IntN(2) == 0 {
			col.Material = r.IntN(len(m.Materials))
		}
		if r.IntN(3) == 0 {
			col.Filter = 0
		}
		m.Node(c).Collider = col
	}
	// Unused shapes: put them on triggers of the root's bodies.
	trig := 1
	for s, u := range used {
		if !u && trig <= 5 {
			m.Node(trig).Trigger = &physics.Trigger{Shape: s, Filter: -1}
			trig++
		} else if !u {
			m.Shapes[s] = physics.Shape{Type: physics.Sphere, Radius: 1}
		}
	}
	if r.IntN(2) == 0 {
		m.Node(0).Trigger = &physics.Trigger{Shape: -1, Filter: -1, Nodes: []int{6}}
		m.Node(6).Trigger = &physics.Trigger{Shape: 0, Filter: 0}
	}
	m.Node(nNodes).Joint = &physics.Joint{Def: 0, ConnectedNode: 9, EnableCollision: r.IntN(2) == 0}
	return m
}

func ptr(v float64) *float64 { return &v }

// resolved is a node's physics with every index replaced by the object it
// names, so models that differ only in resource order compare equal.
type resolved struct {
	Motion   *physics.Motion
	Collider *resolvedSlot
	Trigger  *resolvedTrigger
	Joint    *resolvedJoint
}

type resolvedSlot struct {
	Shape    physics.Shape
	Material *physics.Material
	Filter   *physics.Filter
}

type resolvedTrigger struct {
	Shape  *physics.Shape
	Nodes  []int
	Filter *physics.Filter
}

type resolvedJoint struct {
	Def             physics.JointDef
	ConnectedNode   int
	EnableCollision bool
}

func resolve(m *physics.Model) map[int]resolved {
	shape := func(i int) physics.Shape {
		s := m.Shapes[i]
		s.GeometryNode = nil
		return s
	}
	mat := func(i int) *physics.Material {
		if i < 0 {
			return nil
		}
		return &m.Materials[i]
	}
	fil := func(i int) *physics.Filter {
		if i < 0 {
			return nil
		}
		return &m.Filters[i]
	}
	out := map[int]resolved{}
	for k, n := range m.Nodes {
		var r resolved
		if n.Motion != nil {
			mo := *n.Motion
			if mo.Mass == nil {
				mo.Mass = ptr(omi.DefaultMass)
			}
			r.Motion = &mo
		}
		if c := n.Collider; c != nil {
			r.Collider = &resolvedSlot{Shape: shape(c.Shape), Material: mat(c.Material), Filter: fil(c.Filter)}
		}
		if t := n.Trigger; t != nil {
			rt := &resolvedTrigger{Nodes: t.Nodes, Filter: fil(t.Filter)}
			if t.Shape >= 0 {
				s := shape(t.Shape)
				rt.Shape = &s
			}
			r.Trigger = rt
		}
		if j := n.Joint; j != nil {
			r.Joint = &resolvedJoint{Def: m.Joints[j.Def], ConnectedNode: j.ConnectedNode, EnableCollision: j.EnableCollision}
		}
		out[k] = r
	}
	return out
}

func convertClean(t *testing.T, c *schema.Checker, doc *gltf.Document, to physics.Family) {
	t.Helper()
	warns, err := convert.Convert(doc, to, true)
	if err != nil {
		t.Fatalf("convert to %s: %v", to, err)
	}
	if len(warns) > 0 {
		t.Fatalf("convert to %s warned on a lossless model: %v", to, warns)
	}
	b, err := testkit.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckDocument(b); err != nil {
		t.Fatalf("after convert to %s: schema: %v", to, err)
	}
	if got := codecs.Family(doc); got != to {
		t.Fatalf("after convert to %s the document carries %q", to, got)
	}
	// Generated models may put trimeshes on dynamic bodies or triggers,
	// which draw advisory warnings; errors are what must not happen.
	if probs := validate.Validate(doc, validate.Options{}); validate.HasErrors(probs) {
		t.Fatalf("after convert to %s: Validate: %v", to, probs)
	}
}

func TestRoundTripLossless(t *testing.T) {
	c := testkit.Checker(t)
	for seed := uint64(1); seed <= 40; seed++ {
		for _, start := range []physics.Family{physics.OMI, physics.KHR} {
			t.Run(fmt.Sprintf("%s-seed%d", start, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 7))
				m := genModel(r)
				doc := genDoc()
				other := physics.KHR
				var err error
				if start == physics.OMI {
					err = omi.Encode(doc, m)
				} else {
					other = physics.OMI
					err = khr.Encode(doc, m, khr.Options{})
				}
				if err != nil {
					t.Fatal(err)
				}
				convertClean(t, c, doc, other)
				convertClean(t, c, doc, start)
				var back *physics.Model
				if start == physics.OMI {
					back, _, err = omi.Decode(doc)
				} else {
					back, _, err = khr.Decode(doc)
				}
				if err != nil {
					t.Fatal(err)
				}
				if want, got := resolve(m), resolve(back); !reflect.DeepEqual(want, got) {
					for k := range want {
						if !reflect.DeepEqual(want[k], got[k]) {
							w, _ := json.Marshal(want[k])
							g, _ := json.Marshal(got[k])
							t.Errorf("node %d:\nwant %s\n got %s", k, w, g)
						}
					}
					t.Fatalf("round trip %s→%s→%s changed the physics", start, other, start)
				}
			})
		}
	}
}

// Each lossy case injects one item into a lossless model and names the
// warning path it must produce, and only it.
func TestLossyItemsWarnExactly(t *testing.T) {
	for _, tc := range []struct {
		name string
		from physics.Family
		edit func(m *physics.Model)
		doc  func(doc *gltf.Document)
		path string
	}{
		{"omi static body", physics.OMI, func(m *physics.Model) { m.Node(3).Motion = &physics.Motion{Type: physics.Static} }, nil, "nodes[3].extensions.OMI_physics_body.motion"},
		{"omi shapeless compound collider", physics.OMI, func(m *physics.Model) { m.Node(2).Collider = &physics.Collider{Shape: -1, Material: -1, Filter: -1} }, nil, "nodes[2].extensions.OMI_physics_body.collider"},
		{"omi partly zero inertia", physics.OMI, func(m *physics.Model) { m.Node(1).Motion.InertiaDiagonal = &[3]float64{0, 1, 1} }, nil, "nodes[1].extensions.OMI_physics_body.motion.inertiaDiagonal"},
		{"omi unreferenced hull", physics.OMI, func(m *physics.Model) { m.AddShape(physics.Shape{Type: physics.Convex, Mesh: 1}) }, nil, "extensions.OMI_physics_shape.shapes["},
		{"omi named hull", physics.OMI, func(m *physics.Model) {
			m.Node(6).Collider.Shape = m.AddShape(physics.Shape{Type: physics.Convex, Mesh: 1, Name: "hull"})
		}, nil, "extensions.OMI_physics_shape.shapes["},
		{"omi gravity", physics.OMI, nil, func(doc *gltf.Document) {
			doc.Extensions = gltf.Extensions{physics.ExtOMIGravity: map[string]any{"gravity": 9.8}}
			doc.ExtensionsUsed = append(doc.ExtensionsUsed, physics.ExtOMIGravity) // else validate refuses it
		}, "extensions.OMI_physics_gravity"},
		{"khr plane", physics.KHR, func(m *physics.Model) {
			m.Node(6).Collider.Shape = m.AddShape(physics.Shape{Type: physics.Plane, PlaneSizeX: 4})
		}, nil, "extensions.KHR_implicit_shapes.shapes["},
		{"khr computed mass", physics.KHR, func(m *physics.Model) { m.Node(4).Motion = &physics.Motion{Type: physics.Dynamic} }, nil, "nodes[4].extensions.KHR_physics_rigid_bodies.motion.mass"},
		{"khr infinite mass", physics.KHR, func(m *physics.Model) { m.Node(4).Motion = &physics.Motion{Type: physics.Dynamic, Mass: ptr(0)} }, nil, "nodes[4].extensions.KHR_physics_rigid_bodies.motion.mass"},
		{"khr infinite inertia", physics.KHR, func(m *physics.Model) {
			m.Node(5).Motion = &physics.Motion{Type: physics.Dynamic, Mass: ptr(2), InertiaDiagonal: &[3]float64{0, 1, 1}}
		}, nil, "nodes[5].extensions.KHR_physics_rigid_bodies.motion.inertiaDiagonal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				r := rand.New(rand.NewPCG(99, 1))
				m := genModel(r)
				if tc.edit != nil {
					tc.edit(m)
				}
				doc := genDoc()
				if tc.doc != nil {
					tc.doc(doc)
				}
				to := physics.KHR
				var err error
				if tc.from == physics.OMI {
					err = omi.Encode(doc, m)
				} else {
					to = physics.OMI
					err = khr.Encode(doc, m, khr.Options{})
				}
				if err != nil {
					t.Fatal(err)
				}
				warns, err := convert.Convert(doc, to, strict)
				var lossy []physics.Warning
				for _, w := range warns {
					if w.Lossy {
						lossy = append(lossy, w)
					}
				}
				if len(lossy) != 1 || !strings.HasPrefix(lossy[0].Path, tc.path) {
					t.Fatalf("lossy warnings %v, want exactly one at %s", lossy, tc.path)
				}
				if strict {
					if err == nil || !strings.Contains(err.Error(), tc.path) {
						t.Fatalf("strict: err = %v, want one naming %s", err, tc.path)
					}
					if codecs.Family(doc) != tc.from {
						t.Fatalf("strict failure changed the document's family to %s", codecs.Family(doc))
					}
				} else if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
