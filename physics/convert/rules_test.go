package convert_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

const ruleFiles = "../../testdata/physics"

// TestRefusesProhibited: each broken variant of what the specs prohibit
// (testdata/physics/bad, gen_bad.py) is refused by convert, in both
// directions, with an error naming the JSON path, and the document keeps
// its family.
func TestRefusesProhibited(t *testing.T) {
	for name, path := range map[string]string{
		"khr_box_zero_size":                    "extensions.KHR_implicit_shapes.shapes[1].box.size[1]",
		"khr_cylinder_zero_radii":              "extensions.KHR_implicit_shapes.shapes[2].cylinder",
		"khr_shape_negative_radius":            "extensions.KHR_implicit_shapes.shapes[0].sphere.radius",
		"khr_filter_both_lists":                "extensions.KHR_physics_rigid_bodies.collisionFilters[0]",
		"khr_limit_axis_3":                     "extensions.KHR_physics_rigid_bodies.physicsJoints[0].limits[0].angularAxes[0]",
		"khr_limit_min_gt_max":                 "extensions.KHR_physics_rigid_bodies.physicsJoints[0].limits[0]",
		"khr_compound_trigger_not_descendant":  "nodes[3].extensions.KHR_physics_rigid_bodies.trigger.nodes[0]",
		"khr_drive_stiffness_without_position": "extensions.KHR_physics_rigid_bodies.physicsJoints[0].drives[0]",
		"omi_sphere_negative_radius":           "extensions.OMI_physics_shape.shapes[1].sphere.radius",
		"omi_filter_both_lists":                "extensions.OMI_physics_body.collisionFilters[0]",
		"omi_limit_bad_axis":                   "extensions.OMI_physics_joint.physicsJoints[0].limits[0].linearAxes[0]",
		"omi_drive_axis_3":                     "extensions.OMI_physics_joint.physicsJoints[0].drives[0].axis",
		"omi_limit_min_gt_max":                 "extensions.OMI_physics_joint.physicsJoints[0].limits[0]",
		"omi_compound_trigger_not_descendant":  "nodes[2].extensions.OMI_physics_body.trigger.nodes[0]",
		"omi_joint_on_body":                    "nodes[0].extensions.OMI_physics_joint",
		"omi_joint_not_under_body":             "nodes[3].extensions.OMI_physics_joint",
		"omi_joint_connected_not_under_body":   "nodes[3].extensions.OMI_physics_joint.connectedNode",
	} {
		for _, to := range []physics.Family{physics.OMI, physics.KHR} {
			t.Run(name+"→"+string(to), func(t *testing.T) {
				doc := openDoc(t, filepath.Join(ruleFiles, "bad", name+".gltf"))
				from := codecs.Family(doc)
				_, err := convert.Convert(doc, to, false)
				if err == nil || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one naming %s", err, path)
				}
				if codecs.Family(doc) != from {
					t.Fatalf("a refused document changed family to %s", codecs.Family(doc))
				}
			})
		}
	}
}

// TestAcceptedConvert: the valid counterparts (good/ and accepted/: older
// forms, notes) convert both ways, and each output validates without an
// error and passes the schemas.
func TestAcceptedConvert(t *testing.T) {
	c := testkit.Checker(t)
	files, _ := filepath.Glob(filepath.Join(ruleFiles, "accepted", "*.gltf"))
	good, _ := filepath.Glob(filepath.Join(ruleFiles, "good", "*.gltf"))
	files = append(files, good...)
	if len(files) < 10 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		for _, to := range []physics.Family{physics.OMI, physics.KHR} {
			t.Run(filepath.Base(f)+"→"+string(to), func(t *testing.T) {
				doc := openDoc(t, f)
				if _, err := convert.Convert(doc, to, false); err != nil {
					t.Fatal(err)
				}
				if probs := validate.Validate(doc, validate.Options{}); validate.HasErrors(probs) {
					t.Fatalf("output: %v", probs)
				}
				b, err := testkit.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.CheckDocument(b); err != nil {
					t.Fatalf("output schema: %v", err)
				}
			})
		}
	}
}

func openDoc(t *testing.T, path string) *gltf.Document {
	t.Helper()
	doc, err := gltf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestDriveGainsToKHR: an OMI drive target without its gain (the gain
// defaults to 0) is written with the gain explicit, which KHR's schema
// requires; a stiffness without position target (no effect) is dropped
// with a note. Convert never writes a drive its validate rejects.
func TestDriveGainsToKHR(t *testing.T) {
	m := omiJointModel(physics.Dynamic)
	m.Joints[0].Drives = []physics.JointDrive{
		{Type: "linear", Mode: "force", Axis: 0, PositionTarget: ptr(1)},
		{Type: "angular", Mode: "force", Axis: 1, VelocityTarget: ptr(2)},
		{Type: "angular", Mode: "acceleration", Axis: 2, Stiffness: ptr(3), Damping: ptr(4)},
	}
	doc := jointDoc()
	if err := omi.Encode(doc, m); err != nil {
		t.Fatal(err)
	}
	warns, err := convert.Convert(doc, physics.KHR, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 {
		t.Errorf("want two notes (drive 2: damping target, stiffness dropped); got %v", warns)
	}
	back, _, err := khr.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	d := back.Joints[0].Drives
	if d[0].Stiffness == nil || *d[0].Stiffness != 0 || d[1].Damping == nil || *d[1].Damping != 0 ||
		d[2].Stiffness != nil || d[2].VelocityTarget == nil || *d[2].VelocityTarget != 0 || *d[2].Damping != 4 {
		t.Errorf("drives: %+v %+v %+v", d[0], d[1], d[2])
	}
}

// jointDoc is three root nodes: 0 a body with a child 1, 2 another body,
// 3 a plain child of 2.
func jointDoc() *gltf.Document {
	doc := &gltf.Document{Asset: gltf.Asset{Version: "2.0"}}
	for i, name := range []string{"A", "A child", "B", "B child"} {
		n := &gltf.Node{Name: name, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale}
		n.Translation = [3]float64{float64(i), 1, 0}
		doc.Nodes = append(doc.Nodes, n)
	}
	doc.Nodes[0].Children = []int{1}
	doc.Nodes[2].Children = []int{3}
	doc.Scenes = []*gltf.Scene{{Nodes: []int{0, 2}}}
	return doc
}

// omiJointModel: a box collider on 0 and 2, 0 with motion t, 2 dynamic,
// the joint on 1 connected to 3.
func omiJointModel(t physics.MotionType) *physics.Model {
	m := physics.NewModel()
	s := m.AddShape(physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}})
	m.Joints = []physics.JointDef{{Limits: []physics.JointLimit{{AngularAxes: []int{0}, Min: ptr(-1), Max: ptr(1)}}}}
	m.Node(0).Motion = &physics.Motion{Type: t, Mass: ptr(1)}
	m.Node(0).Collider = physics.NewCollider(s)
	m.Node(2).Motion = &physics.Motion{Type: physics.Dynamic, Mass: ptr(1)}
	m.Node(2).Collider = physics.NewCollider(s)
	m.Node(1).Joint = &physics.Joint{Def: 0, ConnectedNode: 3}
	return m
}

// TestKHRJointsPlacedForOMI: KHR joints on a body node or under no motion
// come out of convert where OMI_physics_joint wants them (on their own
// node under a body, the connected node under a body) at the same world
// pose, with a note and no lossy warning; a joint between two bodies
// neither of which is dynamic has no OMI form and is dropped with one
// lossy warning (strict: refused, document unchanged).
func TestKHRJointsPlacedForOMI(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(m *physics.Model)
		lossy string // the lossy warning's path; "" for none
	}{
		{"on its own node", func(m *physics.Model) {}, ""},
		{"on the body node", func(m *physics.Model) { m.Node(0).Joint, m.Node(1).Joint = m.Node(1).Joint, nil; delete(m.Nodes, 1) }, ""},
		{"on a collider node", func(m *physics.Model) {
			m.Node(1).Collider = physics.NewCollider(0)
		}, ""},
		{"under no motion", func(m *physics.Model) { m.Node(0).Motion = nil }, ""},
		{"connected to a node under no motion", func(m *physics.Model) {
			m.Node(0).Motion = nil
			delete(m.Nodes, 1)
			m.Node(3).Joint = &physics.Joint{Def: 0, ConnectedNode: 1}
		}, ""},
		{"kinematic to kinematic", func(m *physics.Model) {
			m.Node(0).Motion.Type = physics.Kinematic
			m.Node(2).Motion.Type = physics.Kinematic
		}, "nodes[1].extensions.KHR_physics_rigid_bodies.joint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				m := omiJointModel(physics.Dynamic)
				tc.edit(m)
				doc := jointDoc()
				if err := khr.Encode(doc, m, khr.Options{}); err != nil {
					t.Fatal(err)
				}
				if probs := validate.Validate(doc, validate.Options{}); validate.HasErrors(probs) {
					t.Fatalf("input: %v", probs)
				}
				var worlds [][16]float64
				for k := range doc.Nodes {
					worlds = append(worlds, worldOf(doc, k).GLTF())
				}
				warns, err := convert.Convert(doc, physics.OMI, strict)
				var lossy []string
				for _, w := range warns {
					if w.Lossy {
						lossy = append(lossy, w.Path)
					}
				}
				if tc.lossy == "" && len(lossy) > 0 || tc.lossy != "" && (len(lossy) != 1 || lossy[0] != tc.lossy) {
					t.Fatalf("lossy warnings at %v, want %q", lossy, tc.lossy)
				}
				if strict && tc.lossy != "" {
					if err == nil || !strings.Contains(err.Error(), tc.lossy) || len(doc.Nodes) != 4 || codecs.Family(doc) != physics.KHR {
						t.Fatalf("strict: err %v, %d nodes, family %s", err, len(doc.Nodes), codecs.Family(doc))
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if probs := validate.Validate(doc, validate.Options{}); validate.HasErrors(probs) {
					t.Fatalf("output: %v", probs)
				}
				back, _, err := omi.Decode(doc)
				if err != nil {
					t.Fatal(err)
				}
				joints := 0
				for k, n := range back.Nodes {
					if n.Joint == nil {
						continue
					}
					joints++
					if n.Motion != nil || n.Collider != nil || n.Trigger != nil {
						t.Errorf("joint on node %d, which carries %+v", k, n)
					}
					if k >= 4 {
						// A new node: the identity child of a node whose
						// world pose is unchanged.
						if got := worldOf(doc, k).GLTF(); got != worlds[parentOf(doc, k)] {
							t.Errorf("new joint node %d: world %v, want %v", k, got, worlds[parentOf(doc, k)])
						}
					}
				}
				if want := 1 - len(lossy); joints != want {
					t.Errorf("%d joints, want %d", joints, want)
				}
				for k := 0; k < 4; k++ {
					if got := worldOf(doc, k).GLTF(); got != worlds[k] {
						t.Errorf("node %d moved", k)
					}
				}
			}
		})
	}
}

func parentOf(doc *gltf.Document, k int) int {
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			if c == k {
				return i
			}
		}
	}
	return -1
}

// TestDegenerateOMIShapesToKHR: OMI allows a capsule of height 0 (a
// sphere), which KHR prohibits: it becomes a sphere; a zero box size has
// no KHR form: convert refuses it naming the shape's path.
func TestDegenerateOMIShapesToKHR(t *testing.T) {
	m := omiJointModel(physics.Dynamic)
	m.Shapes[0] = physics.Shape{Type: physics.Capsule, RadiusTop: 0.3, RadiusBottom: 0.3}
	doc := jointDoc()
	if err := omi.Encode(doc, m); err != nil {
		t.Fatal(err)
	}
	if _, err := convert.Convert(doc, physics.KHR, true); err != nil {
		t.Fatal(err)
	}
	back, _, err := khr.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if s := back.Shapes[0]; s.Type != physics.Sphere || s.Radius != 0.3 {
		t.Errorf("capsule of height 0 → %+v, want a sphere of radius 0.3", s)
	}

	m.Shapes[0] = physics.Shape{Type: physics.Box, Size: [3]float64{1, 0, 1}}
	doc = jointDoc()
	if err := omi.Encode(doc, m); err != nil {
		t.Fatal(err)
	}
	_, err = convert.Convert(doc, physics.KHR, false)
	if want := "extensions.OMI_physics_shape.shapes[0].box.size[1]"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("zero box size: err %v, want one naming %s", err, want)
	}
	if codecs.Family(doc) != physics.OMI {
		t.Fatal("a refused document changed family")
	}
}

// TestOMIJointExamplesRoundTrip: the OMI_physics_joint examples hang
// joints under static bodies, which KHR cannot express (its static
// colliders need no motion); through KHR and back, every joint is where it
// was, connected to the same node, and each static body it hung from is
// static again.
func TestOMIJointExamplesRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testassets.Shared(t), "specs", "OMI_physics_joint", "examples", "*.gltf"))
	if len(files) < 7 {
		t.Fatalf("only %d OMI joint examples", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc := openDoc(t, f)
			want, _, err := omi.Decode(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, to := range []physics.Family{physics.KHR, physics.OMI} {
				if _, err := convert.Convert(doc, to, false); err != nil {
					t.Fatal(err)
				}
			}
			got, _, err := omi.Decode(doc)
			if err != nil {
				t.Fatal(err)
			}
			bodyOf := func(k int) int {
				for ; k >= 0; k = parentOf(doc, k) {
					if n := want.Nodes[k]; n != nil && n.Motion != nil {
						return k
					}
				}
				return -1
			}
			for k, n := range want.Nodes {
				if n.Joint == nil {
					continue
				}
				if g := got.Nodes[k]; g == nil || g.Joint == nil || g.Joint.ConnectedNode != n.Joint.ConnectedNode {
					t.Errorf("node %d: joint %+v, back %+v", k, n.Joint, g)
				}
				for _, b := range []int{bodyOf(k), bodyOf(n.Joint.ConnectedNode)} {
					if b < 0 {
						t.Fatalf("joint node %d: an example joint outside a body", k)
					}
					if g := got.Nodes[b]; g == nil || g.Motion == nil || g.Motion.Type != want.Nodes[b].Motion.Type {
						t.Errorf("joint node %d: body %d %+v, back %+v", k, b, want.Nodes[b].Motion, g)
					}
				}
			}
			if len(doc.Nodes) != len(openDoc(t, f).Nodes) {
				t.Errorf("%d nodes, want the original's", len(doc.Nodes))
			}
		})
	}
}
