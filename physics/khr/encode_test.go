package khr_test

import (
	"encoding/json"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/qmuntal/gltf"
)

func sampleDoc() *gltf.Document {
	doc := testkit.SampleDoc()
	doc.Nodes[5].Mesh = gltf.Index(0)
	doc.ExtensionsRequired = []string{physics.ExtKHRBodies}
	return doc
}

// sampleModel is testkit.SampleModel with a kinematic motion on node 7.
func sampleModel() *physics.Model {
	m := testkit.SampleModel()
	m.Node(7).Motion = &physics.Motion{Type: physics.Kinematic}
	return m
}

func TestEncodeSchemaAndForm(t *testing.T) {
	c := testkit.Checker(t)
	for _, opt := range []khr.Options{{}, {GeometryNode: true}} {
		doc := sampleDoc()
		if err := khr.Encode(doc, sampleModel(), opt); err != nil {
			t.Fatal(err)
		}
		b := testkit.MustMarshal(t, doc)
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

func TestEncodeErrors(t *testing.T) {
	testkit.EncodeErrors(t, []testkit.EncodeError{
		{Name: "shape out of range", Edit: func(m *physics.Model) { m.Node(1).Collider.Shape = 42 }, Path: "nodes[1].extensions.KHR_physics_rigid_bodies.collider.geometry"},
		{Name: "mesh out of range", Edit: func(m *physics.Model) { m.Shapes[3].Mesh = 9 }, Path: "nodes[5].extensions.KHR_physics_rigid_bodies.collider.geometry.mesh"},
		{Name: "nan radius", Edit: func(m *physics.Model) { m.Shapes[1].Radius = nan() }, Path: "extensions.KHR_implicit_shapes.shapes[1].sphere.radius"},
		{Name: "node out of range", Edit: func(m *physics.Model) { m.Node(99).Motion = &physics.Motion{Type: physics.Dynamic} }, Path: "nodes[99]"},
		{Name: "empty trigger", Edit: func(m *physics.Model) { m.Node(2).Trigger = &physics.Trigger{Shape: -1, Filter: -1} }, Path: "nodes[2].extensions.KHR_physics_rigid_bodies.trigger"},
		{Name: "shapeless collider", Edit: func(m *physics.Model) { m.Node(2).Collider.Shape = -1 }, Path: "nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry"},
	}, sampleDoc, sampleModel, encode)
}

func TestEncodeDeterministic(t *testing.T) {
	testkit.Deterministic(t, sampleDoc, sampleModel, encode)
}

// encode is Encode with the default options.
func encode(doc *gltf.Document, m *physics.Model) error { return khr.Encode(doc, m, khr.Options{}) }

func nan() float64 { var z float64; return z / z }
