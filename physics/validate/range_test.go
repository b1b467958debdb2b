package validate_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

// obj and arr walk a decoded JSON tree.
func obj(v any, keys ...string) map[string]any {
	m := v.(map[string]any)
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

func arr(v any, i int) map[string]any { return v.([]any)[i].(map[string]any) }

// TestAbsurdNumbersFlagged: the absurd colliders issue 27 found in
// outputs (a 4.6e-41 m box, a 6e39 m box, 2.2e-131 kg, a body at 1e308 m,
// a zero scale, a misaligned hull accessor) pass plain validate only as
// warnings (so --strict fails them), or as an error for the misaligned
// accessor, which the glTF spec forbids.
func TestAbsurdNumbersFlagged(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testdata, "good", "omi_base.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	shapes := func(d map[string]any) []any { return obj(d, "extensions", "OMI_physics_shape")["shapes"].([]any) }
	motion := func(d map[string]any) map[string]any {
		return obj(arr(d["nodes"], 0), "extensions", "OMI_physics_body", "motion")
	}
	for _, c := range []struct {
		name string
		edit func(d map[string]any)
		path string
		sev  validate.Severity
	}{
		{"tiny box", func(d map[string]any) {
			shapes(d)[0].(map[string]any)["box"] = map[string]any{"size": []any{4.6e-41, 4.6e-41, 4.6e-41}}
		}, "extensions.OMI_physics_shape.shapes[0].box", validate.Warning},
		{"huge box", func(d map[string]any) {
			shapes(d)[0].(map[string]any)["box"] = map[string]any{"size": []any{6e39, 1.0, 1.0}}
		}, "extensions.OMI_physics_shape.shapes[0].box", validate.Warning},
		{"tiny sphere", func(d map[string]any) {
			shapes(d)[1].(map[string]any)["sphere"] = map[string]any{"radius": 1e-9}
		}, "extensions.OMI_physics_shape.shapes[1].sphere", validate.Warning},
		{"denormal mass", func(d map[string]any) { motion(d)["mass"] = 2.2e-131 },
			"nodes[0].extensions.OMI_physics_body.motion.mass", validate.Warning},
		{"mass beyond float32", func(d map[string]any) { motion(d)["mass"] = 2.16e122 },
			"nodes[0].extensions.OMI_physics_body.motion.mass", validate.Warning},
		{"inertia beyond float32", func(d map[string]any) { motion(d)["inertiaDiagonal"] = []any{1.0, 1e40, 1.0} },
			"nodes[0].extensions.OMI_physics_body.motion.inertiaDiagonal[1]", validate.Warning},
		{"translation 1e308", func(d map[string]any) { arr(d["nodes"], 0)["translation"] = []any{1e308, 0.0, 0.0} },
			"nodes[0].translation[0]", validate.Warning},
		{"zero scale", func(d map[string]any) { arr(d["nodes"], 1)["scale"] = []any{0.0, 1.0, 1.0} },
			"nodes[1].scale", validate.Warning},
		{"misaligned hull", func(d map[string]any) { arr(d["accessors"], 0)["byteOffset"] = 2.0 },
			"meshes[0].primitives[0].attributes.POSITION", validate.Error},
	} {
		var d map[string]any
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		c.edit(d)
		b, _ := json.Marshal(d)
		doc := new(gltf.Document)
		if err := gltf.NewDecoder(bytes.NewReader(b)).Decode(doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		found := false
		for _, p := range validate.Validate(doc, validate.Options{}) {
			if p.Path == c.path && p.Severity == c.sev {
				found = true
				t.Logf("%s: %s", c.name, p)
			} else if p.Severity == validate.Error {
				t.Errorf("%s: unexpected error %s", c.name, p)
			}
		}
		if !found {
			t.Errorf("%s: no %s at %s", c.name, c.sev, c.path)
		}
	}
}
