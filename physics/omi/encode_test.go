package omi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/qmuntal/gltf"
)

func sampleDoc() *gltf.Document {
	doc := testkit.SampleDoc()
	// Content Encode must keep.
	doc.Extensions = gltf.Extensions{physics.ExtOMIGravity: json.RawMessage(`{"gravity":9.8}`)}
	doc.ExtensionsUsed = []string{physics.ExtOMIGravity}
	doc.ExtensionsRequired = []string{physics.ExtOMIBody}
	return doc
}

// sampleModel is testkit.SampleModel with a joint description and, on
// node 7, a static motion, a box trigger and a joint.
func sampleModel() *physics.Model {
	m := testkit.SampleModel()
	m.Joints = append(m.Joints, physics.JointDef{Limits: []physics.JointLimit{{LinearAxes: []int{0, 1, 2}, AngularAxes: []int{0, 1, 2}}}})
	m.Node(7).Motion = &physics.Motion{Type: physics.Static}
	m.Node(7).Trigger = &physics.Trigger{Shape: 0, Filter: -1}
	m.Node(7).Joint = &physics.Joint{Def: 0, ConnectedNode: 0}
	return m
}

func TestEncodeSchemaAndForm(t *testing.T) {
	c := testkit.Checker(t)
	doc := sampleDoc()
	if err := omi.Encode(doc, sampleModel()); err != nil {
		t.Fatal(err)
	}
	b := testkit.MustMarshal(t, doc)
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
	testkit.Deterministic(t, sampleDoc, sampleModel, omi.Encode)
}

func TestEncodeErrors(t *testing.T) {
	testkit.EncodeErrors(t, []testkit.EncodeError{
		{Name: "shape out of range", Edit: func(m *physics.Model) { m.Node(1).Collider.Shape = 42 }, Path: "nodes[1].extensions.OMI_physics_body.collider.shape"},
		{Name: "mesh out of range", Edit: func(m *physics.Model) { m.Shapes[3].Mesh = 9 }, Path: "extensions.OMI_physics_shape.shapes[3].convex.mesh"},
		{Name: "plane", Edit: func(m *physics.Model) { m.Shapes[0].Type = physics.Plane }, Path: "extensions.OMI_physics_shape.shapes[0].type"},
		{Name: "empty trigger", Edit: func(m *physics.Model) { m.Node(7).Trigger.Shape = -1 }, Path: "nodes[7].extensions.OMI_physics_body.trigger"},
		{Name: "joint def", Edit: func(m *physics.Model) { m.Node(7).Joint.Def = 3 }, Path: "nodes[7].extensions.OMI_physics_joint.joint"},
		{Name: "motion type", Edit: func(m *physics.Model) { m.Node(0).Motion.Type = "rigid" }, Path: "nodes[0].extensions.OMI_physics_body.motion.type"},
	}, sampleDoc, sampleModel, omi.Encode)
}
