package inspect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDescribeG4MF: a glTF file with bodies, colliders (box, sphere,
// capsule, cylinder, hull) and triggers, exported as .g4tf and .g4b, is
// described as family g4mf with the same bodies (by name, mass, inertia)
// and colliders (shape type and size), each shape index naming a shape
// of that type in the G4MF file, and the JSON form passes the schema.
func TestDescribeG4MF(t *testing.T) {
	src := filepath.Join(testassets.Repo(), "testdata", "physics", "good", "omi_base.gltf")
	a, err := gltfio.LoadRaw(src, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Describe(a)
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("inspect.schema.json", schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("inspect.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	// matches says whether a G4MF shape (general shapes: a box is a size,
	// round shapes carry curves; hulls a type) is the one described.
	matches := func(o *gltfio.Object, s *Shape) bool {
		raw, _ := o.MarshalJSON()
		var g struct {
			Type   string    `json:"type"`
			Size   []float64 `json:"size"`
			Curves []struct {
				Radii []float64 `json:"radii"`
			} `json:"curves"`
		}
		json.Unmarshal(raw, &g)
		switch s.Type {
		case "box":
			return g.Type == "" && len(g.Curves) == 0 && reflect.DeepEqual(g.Size, s.Size[:])
		case "sphere":
			return g.Type == "" && len(g.Size) == 0 && len(g.Curves) == 1 && g.Curves[0].Radii[0] == *s.Radius
		case "capsule", "cylinder":
			return g.Type == "" && len(g.Size) == 3 && g.Size[1] == *s.Height && len(g.Curves) == 1 &&
				g.Curves[0].Radii[0] == *s.RadiusTop && (g.Curves[0].Radii[1] == 0) == (s.Type == "cylinder")
		case "convex":
			return g.Type == "convex"
		}
		return g.Type == "concave"
	}
	for _, ext := range []string{".g4tf", ".g4b"} {
		path := filepath.Join(t.TempDir(), "base"+ext)
		if _, err := g4mf.ExportFile(src, path); err != nil {
			t.Fatal(err)
		}
		file, err := g4mf.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		shapes := file.Tree.Arr("shapes")
		got, err := DescribeG4MF(path)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if got.Family != "g4mf" || got.Revision != G4MFRevision {
			t.Errorf("%s: family %q revision %q", ext, got.Family, got.Revision)
		}
		// G4MF has no joints and no compound triggers: bodies and
		// colliders are compared.
		if len(got.Bodies) != len(want.Bodies) || !reflect.DeepEqual(got.Summary.Colliders, want.Summary.Colliders) {
			t.Errorf("%s: summary %+v, the glTF's %+v", ext, got.Summary, want.Summary)
		}
		byName := map[string]Body{}
		for _, b := range got.Bodies {
			byName[b.Name] = b
		}
		all := append([]Collider{}, got.Unattached.Colliders...)
		for _, b := range want.Bodies {
			g, ok := byName[b.Name]
			if !ok {
				t.Errorf("%s: no body %q", ext, b.Name)
				continue
			}
			mass := 1.0 // G4MF's absent mass, as OMI's
			if b.Mass != nil {
				mass = *b.Mass
			}
			if g.Mass == nil || *g.Mass != mass || !reflect.DeepEqual(g.InertiaDiagonal, b.InertiaDiagonal) || len(g.Colliders) != len(b.Colliders) {
				t.Errorf("%s: body %q: mass %v inertia %v, %d colliders; want %v %v, %d", ext, b.Name, g.Mass, g.InertiaDiagonal, len(g.Colliders), mass, b.InertiaDiagonal, len(b.Colliders))
			}
			all = append(all, g.Colliders...)
		}
		for _, col := range all {
			s := col.Shape
			if s == nil || s.Index < 0 || s.Index >= len(shapes) {
				t.Errorf("%s: collider %q: shape %+v not in the file's %d shapes", ext, col.Name, s, len(shapes))
				continue
			}
			if o, _ := shapes[s.Index].(*gltfio.Object); o == nil || !matches(o, s) {
				t.Errorf("%s: collider %q: shapes[%d] of the file is not the %s described (%+v)", ext, col.Name, s.Index, s.Type, s)
			}
		}
		raw, err := json.Marshal([]*File{got})
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		json.Unmarshal(raw, &inst)
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: JSON against the schema: %v", ext, err)
		}
	}
}

// TestDescribeG4MFShapeIndices: a G4MF shape glTF cannot hold (here the
// first, an ellipsoid) is left out of the import and listed in Warnings
// at its G4MF path, and the colliders still name the file's own shape
// indices, not the import's.
func TestDescribeG4MFShapeIndices(t *testing.T) {
	src := `{"asset": {"dimension": 3}, "nodes": [
		{"name": "Root", "children": [1]},
		{"name": "Body", "physics": {"motion": {"type": "dynamic", "mass": 3}}, "children": [2, 3]},
		{"name": "Col", "position": [0, 1, 0], "physics": {"collider": {"shape": 1}}},
		{"name": "Ball", "physics": {"collider": {"shape": 2}}}],
	 "shapes": [{"curves": [{"radii": [1, 2, 3]}]}, {"size": [1, 2, 3]}, {"curves": [{"radii": [0.5, 0.5, 0.5]}]}]}`
	path := filepath.Join(t.TempDir(), "odd.g4tf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := DescribeG4MF(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Bodies) != 1 || len(f.Bodies[0].Colliders) != 2 {
		t.Fatalf("bodies %+v", f.Bodies)
	}
	for _, c := range f.Bodies[0].Colliders {
		want := map[string]int{"Col": 1, "Ball": 2}[c.Name]
		if c.Shape == nil || c.Shape.Index != want {
			t.Errorf("collider %q: shape %+v, want the file's shapes[%d]", c.Name, c.Shape, want)
		}
	}
	if !slices.ContainsFunc(f.Warnings, func(w string) bool { return strings.HasPrefix(w, "shapes[0]: ") }) {
		t.Errorf("warnings %q: want one at shapes[0]", f.Warnings)
	}
}
