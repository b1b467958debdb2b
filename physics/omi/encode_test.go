package omi_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/schema"
	"github.com/qmuntal/gltf"
)

func f(v float64) *float64 { return &v }

func sampleDoc() *gltf.Document {
	doc := &gltf.Document{Asset: gltf.Asset{Version: "2.0"}}
	doc.Meshes = []*gltf.Mesh{{Name: "hull"}, {Name: "terrain"}}
	for i := 0; i < 8; i++ {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	}
	doc.Nodes[0].Children = []int{1, 2, 3, 4, 5}
	// Content Encode must keep.
	doc.Extensions = gltf.Extensions{physics.ExtOMIGravity: json.RawMessage(`{"gravity":9.8}`)}
	doc.ExtensionsUsed = []string{physics.ExtOMIGravity}
	doc.ExtensionsRequired = []string{physics.ExtOMIBody}
	return doc
}

func sampleModel() *physics.Model {
	m := physics.NewModel()
	box := m.AddShape(physics.Shape{Type: physics.Box, Size: [3]float64{1, 2, 3}})
	sph := m.AddShape(physics.Shape{Type: physics.Sphere, Radius: 0.7})
	cap := m.AddShape(physics.Shape{Type: physics.Capsule, Height: 1.5, RadiusTop: 0.3, RadiusBottom: 0.3})
	hull := m.AddShape(physics.Shape{Type: physics.Convex, Mesh: 0})
	cyl := m.AddShape(physics.Shape{Type: physics.Cylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.4})
	tri := m.AddShape(physics.Shape{Type: physics.Trimesh, Mesh: 1})
	m.Materials = append(m.Materials, physics.Material{StaticFriction: f(0.5)})
	m.Joints = append(m.Joints, physics.JointDef{Limits: []physics.JointLimit{{LinearAxes: []int{0, 1, 2}, AngularAxes: []int{0, 1, 2}}}})
	m.Node(0).Motion = &physics.Motion{Type: physics.Dynamic, Mass: f(3), InertiaDiagonal: &[3]float64{1, 2, 3}}
	m.Node(1).Collider = &physics.Collider{Shape: box, Material: 0, Filter: -1}
	m.Node(2).Collider = &physics.Collider{Shape: sph, Material: -1, Filter: -1}
	m.Node(3).Collider = &physics.Collider{Shape: cap, Material: -1, Filter: -1}
	m.Node(4).Collider = &physics.Collider{Shape: cyl, Material: -1, Filter: -1}
	m.Node(5).Collider = &physics.Collider{Shape: hull, Material: -1, Filter: -1}
	m.Node(6).Collider = &physics.Collider{Shape: tri, Material: -1, Filter: -1}
	m.Node(7).Motion = &physics.Motion{Type: physics.Static}
	m.Node(7).Trigger = &physics.Trigger{Shape: box, Filter: -1}
	m.Node(7).Joint = &physics.Joint{Def: 0, ConnectedNode: 0}
	return m
}

func marshal(t *testing.T, doc *gltf.Document) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := gltf.NewEncoder(&buf)
	enc.AsBinary = false
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestEncodeSchemaAndForm(t *testing.T) {
	c, err := schema.Load(filepath.Join(testassets.Shared(t), "specs"))
	if err != nil {
		t.Fatal(err)
	}
	doc := sampleDoc()
	if err := omi.Encode(doc, sampleModel()); err != nil {
		t.Fatal(err)
	}
	b := marshal(t, doc)
	if err := c.CheckDocument(b); err != nil {
		t.Fatalf("schema: %v\n%s", err, b)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if _, ok := v["extensionsRequired"]; ok {
		t.Errorf("extensionsRequired kept: %v", v["extensionsRequired"])
	}
	exts := v["extensions"].(map[string]any)
	if g, _ := json.Marshal(exts[physics.ExtOMIGravity]); string(g) != `{"gravity":9.8}` {
		t.Errorf("gravity changed: %s", g)
	}
	shapes := exts[physics.ExtOMIShape].(map[string]any)["shapes"].([]any)
	if len(shapes) != 6 {
		t.Fatalf("%d shapes", len(shapes))
	}
	for i, s := range shapes {
		sm := s.(map[string]any)
		sub, ok := sm[sm["type"].(string)].(map[string]any)
		if !ok || len(sub) == 0 {
			t.Errorf("shape %d: sub-object missing or empty: %v", i, sm)
		}
	}
	if strings.Contains(string(b), "-1") {
		t.Errorf("a -1 index was written")
	}
}

func TestEncodeDeterministic(t *testing.T) {
	var first []byte
	for i := 0; i < 5; i++ {
		doc := sampleDoc()
		if err := omi.Encode(doc, sampleModel()); err != nil {
			t.Fatal(err)
		}
		b := marshal(t, doc)
		if first == nil {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Fatal("output differs between runs")
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *physics.Model)
		path string
	}{
		{"shape out of range", func(m *physics.Model) { m.Node(1).Collider.Shape = 42 }, "nodes[1].extensions.OMI_physics_body.collider.shape"},
		{"mesh out of range", func(m *physics.Model) { m.Shapes[3].Mesh = 9 }, "extensions.OMI_physics_shape.shapes[3].convex.mesh"},
		{"plane", func(m *physics.Model) { m.Shapes[0].Type = physics.Plane }, "extensions.OMI_physics_shape.shapes[0].type"},
		{"empty trigger", func(m *physics.Model) { m.Node(7).Trigger.Shape = -1 }, "nodes[7].extensions.OMI_physics_body.trigger"},
		{"joint def", func(m *physics.Model) { m.Node(7).Joint.Def = 3 }, "nodes[7].extensions.OMI_physics_joint.joint"},
		{"motion type", func(m *physics.Model) { m.Node(0).Motion.Type = "rigid" }, "nodes[0].extensions.OMI_physics_body.motion.type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sampleModel()
			tc.edit(m)
			doc := sampleDoc()
			err := omi.Encode(doc, m)
			if err == nil || !strings.Contains(err.Error(), tc.path+":") {
				t.Fatalf("err = %v, want path %s", err, tc.path)
			}
			if _, ok := doc.Extensions[physics.ExtOMIShape]; ok {
				t.Error("document changed on error")
			}
		})
	}
}
