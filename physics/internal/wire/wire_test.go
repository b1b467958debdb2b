package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

func ptr[T any](v T) *T { return &v }

// The document-level members survive encode → JSON → decode unchanged,
// and the decoded model shares no slice with the encoded one.
func TestBodyDocAndJointsRoundTrip(t *testing.T) {
	m := physics.NewModel()
	m.Materials = []physics.Material{{Name: "ice", StaticFriction: ptr(0.1), Restitution: ptr(0.0), FrictionCombine: "minimum"}}
	m.Filters = []physics.Filter{{Name: "a", CollisionSystems: []string{"x"}, NotCollideWithSystems: []string{}}}
	m.Joints = []physics.JointDef{{
		Name:   "hinge",
		Limits: []physics.JointLimit{{AngularAxes: []int{1, 2}, Min: ptr(-1.0), Max: ptr(1.0)}},
		Drives: []physics.JointDrive{{Type: "angular", Mode: "force", Axis: 0, VelocityTarget: ptr(2.0), Damping: ptr(3.0)}},
	}}
	bd, err := EncodeBodyDoc(m, "extensions.X")
	if err != nil {
		t.Fatal(err)
	}
	joints, err := EncodeJoints(m.Joints, "extensions.X")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(struct {
		BodyDoc
		PhysicsJoints []JointDef `json:"physicsJoints"`
	}{bd, joints})
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		BodyDoc
		PhysicsJoints []JointDef `json:"physicsJoints"`
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	got := physics.NewModel()
	back.AppendTo(got)
	AppendJoints(got, back.PhysicsJoints)
	if !reflect.DeepEqual(got.Materials, m.Materials) || !reflect.DeepEqual(got.Filters, m.Filters) || !reflect.DeepEqual(got.Joints, m.Joints) {
		t.Fatalf("round trip changed the model:\n%s\n got %+v %+v %+v", raw, got.Materials, got.Filters, got.Joints)
	}
	(*bd.CollisionFilters[0].CollisionSystems)[0] = "changed"
	if m.Filters[0].CollisionSystems[0] != "x" {
		t.Error("the encoded filter shares its slice with the model")
	}
}

func TestEncodeChecksAtPath(t *testing.T) {
	m := physics.NewModel()
	m.Materials = []physics.Material{{}, {DynamicFriction: ptr(math.Inf(1))}}
	if _, err := EncodeBodyDoc(m, "extensions.X"); err == nil || !strings.Contains(err.Error(), "extensions.X.physicsMaterials[1].dynamicFriction") {
		t.Errorf("material: %v", err)
	}
	defs := []physics.JointDef{{Drives: []physics.JointDrive{{}, {MaxForce: ptr(math.NaN())}}}}
	if _, err := EncodeJoints(defs, "extensions.J"); err == nil || !strings.Contains(err.Error(), "extensions.J.physicsJoints[0].drives[1].maxForce") {
		t.Errorf("drive: %v", err)
	}
	if _, _, err := EncodeShape(physics.Shape{Type: physics.Capsule, Height: math.NaN()}, "s"); err == nil || !strings.Contains(err.Error(), "s.capsule") {
		t.Errorf("capsule: %v", err)
	}
}

// KHR refuses a negative mass, OMI writes it.
func TestEncodeMotionMass(t *testing.T) {
	mo := &physics.Motion{Type: physics.Dynamic, Mass: ptr(-2.0)}
	if got, err := EncodeMotion(mo, "m", false); err != nil || *got.Mass != -2 {
		t.Errorf("OMI: %v %v", got, err)
	}
	if _, err := EncodeMotion(mo, "m", true); err == nil || !strings.Contains(err.Error(), "m.mass") {
		t.Errorf("KHR: %v", err)
	}
}

func TestShapeModelDefaults(t *testing.T) {
	def := Defaults{BoxSize: 1, SphereRadius: 0.5, CapsuleHeight: 1, CylinderHeight: 2, RoundRadius: 0.25}
	for _, tc := range []struct {
		in   Shape
		want physics.Shape
	}{
		{Shape{Type: "box"}, physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}}},
		{Shape{Type: "sphere", Sphere: &Sphere{}}, physics.Shape{Type: physics.Sphere, Radius: 0.5}},
		{Shape{Type: "capsule", Capsule: &Round{RadiusTop: ptr(0.1)}}, physics.Shape{Type: physics.Capsule, Height: 1, RadiusTop: 0.1, RadiusBottom: 0.25}},
		{Shape{Type: "cylinder"}, physics.Shape{Type: physics.Cylinder, Height: 2, RadiusTop: 0.25, RadiusBottom: 0.25}},
	} {
		got, ok := tc.in.Model(Meta{}, def)
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v %v, want %+v", tc.in.Type, got, ok, tc.want)
		}
		// What Model reads back, EncodeShape writes in full.
		enc, ok, err := EncodeShape(got, "s")
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", tc.in.Type, ok, err)
		}
		if again, _ := enc.Model(Meta{}, Defaults{}); !reflect.DeepEqual(again, got) {
			t.Errorf("%s: written without every parameter: %+v", tc.in.Type, enc)
		}
	}
	meta := Meta{Extras: json.RawMessage(`{"a":1}`)}
	s, ok := Shape{Type: "convex", Name: "n"}.Model(meta, def)
	if ok || s.Type != physics.Convex || s.Name != "n" || string(s.Extras) != `{"a":1}` {
		t.Errorf("convex: %+v %v", s, ok)
	}
}

func TestEncodeTrigger(t *testing.T) {
	calls := 0
	shape := func() error { calls++; return nil }
	for _, tc := range []struct {
		t    physics.Trigger
		want string // error substring, "" for none
	}{
		{physics.Trigger{Shape: 0, Nodes: []int{1}, Filter: -1}, "p: a trigger has either a geometry or nodes, not both"},
		{physics.Trigger{Shape: -1, Filter: -1}, "p: empty trigger: neither a geometry nor nodes"},
		{physics.Trigger{Shape: -1, Nodes: []int{1}, Filter: 0}, "p.collisionFilter: a compound trigger"},
		{physics.Trigger{Shape: -1, Nodes: []int{1, 7}, Filter: -1}, "p.nodes[1]: index 7 out of range (3 nodes)"},
		{physics.Trigger{Shape: 0, Filter: 2}, "p.collisionFilter: index 2 out of range (2 collision filters)"},
		{physics.Trigger{Shape: 0, Filter: 1}, ""},
		{physics.Trigger{Shape: -1, Nodes: []int{1, 2}, Filter: -1}, ""},
	} {
		r, err := EncodeTrigger(&tc.t, "p", "a geometry", 3, 2, shape)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.t, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want %q", tc.t, err, tc.want)
		case err == nil && tc.t.Shape >= 0 && (r.Nodes != nil || *r.CollisionFilter != tc.t.Filter):
			t.Errorf("%+v: %+v", tc.t, r)
		case err == nil && tc.t.Shape < 0 && (!reflect.DeepEqual(r.Nodes, tc.t.Nodes) || r.CollisionFilter != nil):
			t.Errorf("%+v: %+v", tc.t, r)
		}
	}
	if calls != 2 {
		t.Errorf("shape called %d times, want 2 (the triggers with a shape)", calls)
	}
}

// Encode writes nothing when build fails; otherwise it replaces the named
// extensions and declares the ones set in the order set.
func TestEncodeOutput(t *testing.T) {
	newDoc := func() *gltf.Document {
		return &gltf.Document{
			Nodes:              []*gltf.Node{{Extensions: gltf.Extensions{"OLD": json.RawMessage(`{}`)}}},
			Extensions:         gltf.Extensions{"OLD": json.RawMessage(`{}`)},
			ExtensionsUsed:     []string{"OLD"},
			ExtensionsRequired: []string{"B"},
		}
	}
	doc := newDoc()
	fail := func(out *Output) error { out.SetDoc("A", json.RawMessage(`1`)); return physics.Errorf("p", "bad") }
	if err := Encode("fam", doc, physics.NewModel(), fail, "OLD"); err == nil || err.Error() != "fam: encode: p: bad" {
		t.Fatalf("error %v", err)
	}
	if !reflect.DeepEqual(doc, newDoc()) {
		t.Fatal("document changed on error")
	}
	build := func(out *Output) error {
		out.SetNode(1, "B", json.RawMessage(`2`))
		out.SetDoc("A", json.RawMessage(`1`))
		out.AddNode(&gltf.Node{Name: "added"})
		return nil
	}
	if err := Encode("fam", doc, physics.NewModel(), build, "OLD"); err != nil {
		t.Fatal(err)
	}
	if len(doc.Nodes) != 2 || doc.Nodes[1].Name != "added" || string(doc.Nodes[1].Extensions["B"].(json.RawMessage)) != "2" {
		t.Errorf("nodes: %+v", doc.Nodes)
	}
	if _, ok := doc.Nodes[0].Extensions["OLD"]; ok || doc.Extensions["OLD"] != nil {
		t.Error("OLD not removed")
	}
	if !reflect.DeepEqual(doc.ExtensionsUsed, []string{"B", "A"}) || len(doc.ExtensionsRequired) != 0 {
		t.Errorf("used %v, required %v", doc.ExtensionsUsed, doc.ExtensionsRequired)
	}
	if err := Encode("fam", nil, physics.NewModel(), build); err == nil {
		t.Error("nil document accepted")
	}
}

func TestReadAndDecode(t *testing.T) {
	var d Decoder
	exts := gltf.Extensions{"X": json.RawMessage(`{"name":"m"}`), "Bad": json.RawMessage(`[`)}
	if v, err := Read[Material](&d, exts, "none", "p"); v != nil || err != nil {
		t.Errorf("absent: %v %v", v, err)
	}
	if v, err := Read[Material](&d, exts, "X", "p"); err != nil || v.Name != "m" {
		t.Errorf("present: %v %v", v, err)
	}
	if _, err := Read[Material](&d, exts, "Bad", "q.r"); err == nil || !strings.HasPrefix(err.Error(), "q.r") {
		t.Errorf("bad JSON: %v", err)
	}
	m, warns, err := Decode("fam", &gltf.Document{}, &d, func() error {
		d.Warn("a", "migrated %d", 1)
		d.Lossy("b", "dropped")
		return nil
	})
	want := []physics.Warning{{Path: "a", Message: "migrated 1"}, {Path: "b", Message: "dropped", Lossy: true}}
	if err != nil || m == nil || !reflect.DeepEqual(warns, want) {
		t.Errorf("decode: %v %v %v", m, warns, err)
	}
	if _, _, err := Decode("fam", nil, &Decoder{}, func() error { return nil }); err == nil || err.Error() != "fam: decode: nil document" {
		t.Errorf("nil document: %v", err)
	}
}

func TestIndex(t *testing.T) {
	if Index(nil) != -1 || Index(ptr(-3)) != -3 || Index(ptr(2)) != 2 {
		t.Error("Index")
	}
	if IndexOrNone(nil) != -1 || IndexOrNone(ptr(-3)) != -1 || IndexOrNone(ptr(2)) != 2 {
		t.Error("IndexOrNone")
	}
}
