package khr_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/schema"
	"github.com/qmuntal/gltf"
)

func f(v float64) *float64 { return &v }

func sampleDoc() *gltf.Document {
	doc := &gltf.Document{Asset: gltf.Asset{Version: "2.0"}}
	for i := 0; i < 2; i++ {
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: []string{"hull", "terrain"}[i]})
	}
	for i := 0; i < 8; i++ {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	}
	doc.Nodes[0].Children = []int{1, 2, 3, 4, 5}
	doc.Nodes[5].Mesh = gltf.Index(0)
	doc.ExtensionsRequired = []string{physics.ExtKHRBodies}
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
	m.Node(0).Motion = &physics.Motion{Type: physics.Dynamic, Mass: f(3), InertiaDiagonal: &[3]float64{1, 2, 3}}
	m.Node(1).Collider = &physics.Collider{Shape: box, Material: 0, Filter: -1}
	m.Node(2).Collider = &physics.Collider{Shape: sph, Material: -1, Filter: -1}
	m.Node(3).Collider = &physics.Collider{Shape: cap, Material: -1, Filter: -1}
	m.Node(4).Collider = &physics.Collider{Shape: cyl, Material: -1, Filter: -1}
	m.Node(5).Collider = &physics.Collider{Shape: hull, Material: -1, Filter: -1}
	m.Node(6).Collider = &physics.Collider{Shape: tri, Material: -1, Filter: -1}
	m.Node(7).Motion = &physics.Motion{Type: physics.Kinematic}
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

func checker(t *testing.T) *schema.Checker {
	t.Helper()
	c, err := schema.Load(filepath.Join(testassets.Shared(t), "specs"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEncodeSchemaAndForm(t *testing.T) {
	c := checker(t)
	for _, opt := range []khr.Options{{}, {GeometryNode: true}} {
		doc := sampleDoc()
		if err := khr.Encode(doc, sampleModel(), opt); err != nil {
			t.Fatal(err)
		}
		b := marshal(t, doc)
		if err := c.CheckDocument(b); err != nil {
			t.Fatalf("opt %+v: schema: %v\n%s", opt, err, b)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if _, ok := v["extensionsRequired"]; ok {
			t.Errorf("extensionsRequired kept: %v", v["extensionsRequired"])
		}
		shapes := v["extensions"].(map[string]any)[physics.ExtKHRShapes].(map[string]any)["shapes"].([]any)
		if len(shapes) != 4 {
			t.Fatalf("got %d implicit shapes, want 4", len(shapes))
		}
		capsule := shapes[2].(map[string]any)["capsule"].(map[string]any)
		for _, k := range []string{"height", "radiusTop", "radiusBottom"} {
			if _, ok := capsule[k]; !ok {
				t.Errorf("capsule.%s not written explicitly", k)
			}
		}
		nodes := v["nodes"].([]any)
		geo := func(i int) map[string]any {
			return nodes[i].(map[string]any)["extensions"].(map[string]any)[physics.ExtKHRBodies].(map[string]any)["collider"].(map[string]any)["geometry"].(map[string]any)
		}
		if got := geo(4)["shape"]; got != 3.0 {
			t.Errorf("cylinder geometry.shape = %v, want 3 (implicit shapes renumbered)", got)
		}
		if !opt.GeometryNode {
			if geo(5)["mesh"] != 0.0 || geo(5)["convexHull"] != true || geo(6)["mesh"] != 1.0 || geo(6)["convexHull"] != false {
				t.Errorf("mesh geometry wrong: %v %v", geo(5), geo(6))
			}
			if len(nodes) != 8 {
				t.Errorf("mesh form added nodes: %d", len(nodes))
			}
		} else {
			// node 5 carries mesh 0 itself; mesh 1 gets an added node 8.
			if geo(5)["node"] != 5.0 || geo(6)["node"] != 8.0 || len(nodes) != 9 {
				t.Errorf("node form: %v %v, %d nodes", geo(5), geo(6), len(nodes))
			}
			if m := nodes[8].(map[string]any)["mesh"]; m != 1.0 {
				t.Errorf("added node mesh = %v", m)
			}
		}
		kin := nodes[7].(map[string]any)["extensions"].(map[string]any)[physics.ExtKHRBodies].(map[string]any)["motion"].(map[string]any)
		if kin["isKinematic"] != true {
			t.Errorf("kinematic motion: %v", kin)
		}
	}
}

func TestEncodeDeterministic(t *testing.T) {
	var first []byte
	for i := 0; i < 5; i++ {
		doc := sampleDoc()
		if err := khr.Encode(doc, sampleModel(), khr.Options{}); err != nil {
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
		{"shape out of range", func(m *physics.Model) { m.Node(1).Collider.Shape = 42 }, "nodes[1].extensions.KHR_physics_rigid_bodies.collider.geometry"},
		{"mesh out of range", func(m *physics.Model) { m.Shapes[3].Mesh = 9 }, "nodes[5].extensions.KHR_physics_rigid_bodies.collider.geometry.mesh"},
		{"nan radius", func(m *physics.Model) { m.Shapes[1].Radius = nan() }, "extensions.KHR_implicit_shapes.shapes[1].sphere.radius"},
		{"node out of range", func(m *physics.Model) { m.Node(99).Motion = &physics.Motion{Type: physics.Dynamic} }, "nodes[99]"},
		{"empty trigger", func(m *physics.Model) { m.Node(2).Trigger = &physics.Trigger{Shape: -1, Filter: -1} }, "nodes[2].extensions.KHR_physics_rigid_bodies.trigger"},
		{"shapeless collider", func(m *physics.Model) { m.Node(2).Collider.Shape = -1 }, "nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sampleModel()
			tc.edit(m)
			doc := sampleDoc()
			err := khr.Encode(doc, m, khr.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.path+":") {
				t.Fatalf("err = %v, want path %s", err, tc.path)
			}
			if doc.Extensions != nil {
				t.Error("document changed on error")
			}
		})
	}
}

func nan() float64 { var z float64; return z / z }
