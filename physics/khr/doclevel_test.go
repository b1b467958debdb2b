package khr_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
)

// hullModel is a dynamic body with one hull collider: node-level KHR
// physics with no implicit shape, material or filter, so nothing else
// would make a document-level extensions object.
func hullModel() *physics.Model {
	m := physics.NewModel()
	hull := m.AddShape(physics.Shape{Type: physics.Convex, Mesh: 0})
	m.Node(0).Motion = &physics.Motion{Type: physics.Dynamic, Mass: jsonx.Ptr(2.0)}
	m.Node(5).Collider = &physics.Collider{Shape: hull, Material: -1, Filter: -1}
	return m
}

// docExtensions encodes m into the sample document and returns the
// written JSON's top-level extensions and extensionsUsed.
func docExtensions(t *testing.T, m *physics.Model, opt khr.Options) (map[string]json.RawMessage, []string) {
	t.Helper()
	doc := sampleDoc()
	if err := khr.Encode(doc, m, opt); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Extensions     map[string]json.RawMessage `json:"extensions"`
		ExtensionsUsed []string                   `json:"extensionsUsed"`
	}
	b := testkit.MustMarshal(t, doc)
	if err := testkit.Checker(t).CheckDocument(b); err != nil {
		t.Fatalf("schema: %v\n%s", err, b)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Extensions, v.ExtensionsUsed
}

// TestDocumentLevelObject: whenever nodes carry KHR_physics_rigid_bodies,
// the document carries the extension's object too (empty when it has
// nothing to hold), so loaders that read it unguarded open the file; a
// document without KHR physics gets none.
func TestDocumentLevelObject(t *testing.T) {
	for _, opt := range []khr.Options{{}, {GeometryNode: true}} {
		exts, used := docExtensions(t, hullModel(), opt)
		if got := string(exts[physics.ExtKHRBodies]); got != "{}" {
			t.Errorf("opt %+v: document-level %s = %q, want {}", opt, physics.ExtKHRBodies, got)
		}
		if !slices.Contains(used, physics.ExtKHRBodies) {
			t.Errorf("opt %+v: extensionsUsed %v lacks %s", opt, used, physics.ExtKHRBodies)
		}
		if _, ok := exts[physics.ExtKHRShapes]; ok {
			t.Errorf("opt %+v: %s written with no implicit shape", opt, physics.ExtKHRShapes)
		}
	}
	// With materials, the object holds them (not replaced by {}).
	exts, _ := docExtensions(t, sampleModel(), khr.Options{})
	var bodies map[string]json.RawMessage
	if err := json.Unmarshal(exts[physics.ExtKHRBodies], &bodies); err != nil || bodies["physicsMaterials"] == nil {
		t.Errorf("document-level object with materials = %s (%v)", exts[physics.ExtKHRBodies], err)
	}
	if exts, used := docExtensions(t, physics.NewModel(), khr.Options{}); exts[physics.ExtKHRBodies] != nil || slices.Contains(used, physics.ExtKHRBodies) {
		t.Errorf("no physics: document-level object %s, extensionsUsed %v", exts[physics.ExtKHRBodies], used)
	}
}
