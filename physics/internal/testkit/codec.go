package testkit

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/schema"
	"github.com/qmuntal/gltf"
)

// SampleDoc returns a document for SampleModel: meshes "hull" and
// "terrain" and eight nodes with default transforms, nodes 1 to 5
// children of node 0.
func SampleDoc() *gltf.Document {
	doc := &gltf.Document{Asset: gltf.Asset{Version: "2.0"}}
	doc.Meshes = []*gltf.Mesh{{Name: "hull"}, {Name: "terrain"}}
	for range 8 {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	}
	doc.Nodes[0].Children = []int{1, 2, 3, 4, 5}
	return doc
}

// SampleModel returns a model holding, in this order, a box, a sphere, a
// capsule, a convex shape of mesh 0, a cylinder and a trimesh of mesh 1;
// one physics material; a dynamic motion on node 0; and on nodes 1 to 6
// a collider of each shape in the order box, sphere, capsule, cylinder,
// convex, trimesh (node 1's with the material).
func SampleModel() *physics.Model {
	f := func(v float64) *float64 { return &v }
	m := physics.NewModel()
	box := m.AddShape(physics.Shape{Type: physics.Box, Size: [3]float64{1, 2, 3}})
	sph := m.AddShape(physics.Shape{Type: physics.Sphere, Radius: 0.7})
	capsule := m.AddShape(physics.Shape{Type: physics.Capsule, Height: 1.5, RadiusTop: 0.3, RadiusBottom: 0.3})
	hull := m.AddShape(physics.Shape{Type: physics.Convex, Mesh: 0})
	cyl := m.AddShape(physics.Shape{Type: physics.Cylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.4})
	tri := m.AddShape(physics.Shape{Type: physics.Trimesh, Mesh: 1})
	m.Materials = append(m.Materials, physics.Material{StaticFriction: f(0.5)})
	m.Node(0).Motion = &physics.Motion{Type: physics.Dynamic, Mass: f(3), InertiaDiagonal: &[3]float64{1, 2, 3}}
	for i, s := range []int{box, sph, capsule, cyl, hull, tri} {
		m.Node(1 + i).Collider = &physics.Collider{Shape: s, Material: -1, Filter: -1}
	}
	m.Node(1).Collider.Material = 0
	return m
}

// Checker returns the schema checker of the shared specs folder. It
// skips t when the folder is not found, and fails it instead under
// AUTOCOLLIDE_REQUIRE_TOOLS=1 (testassets.Shared).
func Checker(t *testing.T) *schema.Checker {
	t.Helper()
	c, err := schema.Load(filepath.Join(testassets.Shared(t), "specs"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// MustMarshal writes doc as .gltf JSON, failing t on an error.
func MustMarshal(t testing.TB, doc *gltf.Document) []byte {
	t.Helper()
	b, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Deterministic fails t unless encoding newModel() into newDoc() five
// times gives the same bytes.
func Deterministic(t *testing.T, newDoc func() *gltf.Document, newModel func() *physics.Model,
	encode func(*gltf.Document, *physics.Model) error) {
	t.Helper()
	run := func() []byte {
		doc := newDoc()
		if err := encode(doc, newModel()); err != nil {
			t.Fatal(err)
		}
		return MustMarshal(t, doc)
	}
	first := run()
	for range 4 {
		if !bytes.Equal(first, run()) {
			t.Fatal("output differs between runs")
		}
	}
}

// EncodeError is an edit of a sample model that Encode must refuse with
// an error at Path (the output's JSON path).
type EncodeError struct {
	Name string
	Edit func(*physics.Model)
	Path string
}

// EncodeErrors checks each case: encode refuses the edited model
// newModel() with an error naming the case's path, and leaves the
// document newDoc() unchanged.
func EncodeErrors(t *testing.T, cases []EncodeError, newDoc func() *gltf.Document, newModel func() *physics.Model,
	encode func(*gltf.Document, *physics.Model) error) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			m := newModel()
			tc.Edit(m)
			doc := newDoc()
			err := encode(doc, m)
			if err == nil || !strings.Contains(err.Error(), tc.Path+":") {
				t.Fatalf("err = %v, want path %s", err, tc.Path)
			}
			if !reflect.DeepEqual(doc, newDoc()) {
				t.Error("document changed on error")
			}
		})
	}
}

// Example is one physics file of the shared specs examples and physics
// corpus: its path relative to the shared folder, its document and JSON.
type Example struct {
	Rel  string
	Doc  *gltf.Document
	JSON []byte
}

// Examples loads every physics example (see PhysicsFiles) and the specs'
// schema checker, as Checker does.
func Examples(t *testing.T) ([]Example, *schema.Checker) {
	t.Helper()
	shared := testassets.Shared(t)
	files, err := PhysicsFiles(shared)
	if err != nil {
		t.Fatal(err)
	}
	checker, err := schema.Load(filepath.Join(shared, "specs"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Example, 0, len(files))
	for _, rel := range files {
		doc, js, err := Load(filepath.Join(shared, rel))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		out = append(out, Example{Rel: rel, Doc: doc, JSON: js})
	}
	return out, checker
}

// Lossless compares the physics content (names) of a round trip's input
// in and output out: a file not listed as lossy must round-trip exactly,
// a listed one (with its reason) must not. It returns whether they are
// equal.
func Lossless(t *testing.T, in, out []byte, names []string, reason string, listed bool, warns []physics.Warning) bool {
	t.Helper()
	a, err := Extract(in, names)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Extract(out, names)
	if err != nil {
		t.Fatal(err)
	}
	equal := Equal(a, b)
	switch {
	case equal && listed:
		t.Errorf("listed as not lossless (%s) but round-trips exactly", reason)
	case !equal && !listed:
		t.Errorf("round trip differs:\n in: %+v\nout: %+v\nwarnings: %v", a, b, warns)
	}
	return equal
}
