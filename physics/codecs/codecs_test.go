package codecs_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

func docWith(docExts []string, nodeExts []string) *gltf.Document {
	doc := &gltf.Document{Extensions: gltf.Extensions{}, Nodes: []*gltf.Node{{Extensions: gltf.Extensions{}}}}
	for _, e := range docExts {
		doc.Extensions[e] = json.RawMessage(`{}`)
		doc.ExtensionsUsed = append(doc.ExtensionsUsed, e)
	}
	for _, e := range nodeExts {
		doc.Nodes[0].Extensions[e] = json.RawMessage(`{}`)
		doc.ExtensionsUsed = append(doc.ExtensionsUsed, e)
	}
	return doc
}

func TestFamilyAndStrip(t *testing.T) {
	for _, tc := range []struct {
		doc, node []string
		want      physics.Family
	}{
		{nil, nil, physics.None},
		{[]string{physics.ExtOMIGravity}, nil, physics.None},
		{[]string{physics.ExtOMIShape}, []string{physics.ExtOMIBody}, physics.OMI},
		{[]string{physics.ExtOMICollider}, nil, physics.OMI},
		{nil, []string{physics.ExtKHRBodies}, physics.KHR},
		{[]string{physics.ExtKHRCollisionShapes}, nil, physics.KHR},
		{[]string{physics.ExtKHRShapes}, []string{physics.ExtOMIBody}, physics.Both},
	} {
		doc := docWith(tc.doc, tc.node)
		doc.ExtensionsUsed = append(doc.ExtensionsUsed, "KHR_lights_punctual")
		if got := codecs.Family(doc); got != tc.want {
			t.Errorf("%v %v: Family = %q, want %q", tc.doc, tc.node, got, tc.want)
		}
		for _, c := range codecs.All() {
			c.Strip(doc)
		}
		if got := codecs.Family(doc); got != physics.None {
			t.Errorf("after Strip: %q", got)
		}
		if !slices.Contains(doc.ExtensionsUsed, "KHR_lights_punctual") {
			t.Error("Strip dropped an unrelated extension declaration")
		}
		if slices.Contains(tc.doc, physics.ExtOMIGravity) && doc.Extensions[physics.ExtOMIGravity] == nil {
			t.Error("Strip dropped OMI_physics_gravity")
		}
	}
}

// OMI's Strip keeps the shapes OMI_physics_gravity may refer to.
func TestStripKeepsGravityShapes(t *testing.T) {
	doc := docWith([]string{physics.ExtOMIShape, physics.ExtOMIGravity}, []string{physics.ExtOMIBody})
	c, err := codecs.For(physics.OMI)
	if err != nil {
		t.Fatal(err)
	}
	c.Strip(doc)
	if doc.Extensions[physics.ExtOMIShape] == nil || doc.Nodes[0].Extensions[physics.ExtOMIBody] != nil {
		t.Errorf("after Strip: document %v, node %v", doc.Extensions, doc.Nodes[0].Extensions)
	}
}

func TestForNamesTheFamilies(t *testing.T) {
	for _, c := range codecs.All() {
		got, err := codecs.Parse(string(c.Family()))
		if err != nil || got.Family() != c.Family() {
			t.Errorf("Parse(%q) = %v, %v", c.Family(), got, err)
		}
		if !strings.Contains(codecs.Names(), string(c.Family())) {
			t.Errorf("Names %q leaves out %s", codecs.Names(), c.Family())
		}
	}
	if _, err := codecs.Parse("g4mf"); err == nil || !strings.Contains(err.Error(), "want omi or khr") {
		t.Errorf("Parse(g4mf): %v", err)
	}
}

// Every extension a codec writes is one it reads, and its arrays live in
// extensions it writes.
func TestLayoutWithinExtensions(t *testing.T) {
	for _, c := range codecs.All() {
		l := c.Layout()
		for _, e := range l.Extensions {
			if !slices.Contains(c.Extensions(), e) {
				t.Errorf("%s writes %s, which it does not list", c.Family(), e)
			}
		}
		for _, d := range l.Arrays() {
			if !slices.Contains(l.Extensions, d.Extension) || d.Name == "" {
				t.Errorf("%s: array %+v outside what it writes", c.Family(), d)
			}
		}
	}
}

func TestDecodeBothReadsTheFirst(t *testing.T) {
	doc := &gltf.Document{}
	m := physics.NewModel()
	m.AddShape(physics.Shape{Type: physics.Sphere, Radius: 0.5})
	m.Node(0).Collider = &physics.Collider{Shape: 0, Material: -1, Filter: -1}
	doc.Nodes = []*gltf.Node{{}}
	for _, c := range codecs.All() {
		if err := c.Encode(doc, m, physics.EncodeOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	got, fam, warns, err := codecs.Decode(doc)
	if err != nil || fam != codecs.All()[0].Family() || len(got.Shapes) != 1 {
		t.Fatalf("Decode: %v %s %+v", err, fam, got)
	}
	if len(warns) != 1 || !warns[0].Lossy || !strings.Contains(warns[0].Message, "both families") {
		t.Errorf("warnings %v", warns)
	}
}
