package convert_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

// mutate replaces one random value inside the physics parts of a parsed
// glTF JSON tree with a random hostile value.
func mutate(r *rand.Rand, root map[string]any) {
	var slots []func(any)
	var walk func(v any, set func(any), inPhysics bool)
	walk = func(v any, set func(any), inPhysics bool) {
		if inPhysics {
			slots = append(slots, set)
		}
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				phys := inPhysics || k == physics.ExtOMIShape || k == physics.ExtOMIBody || k == physics.ExtOMIJoint ||
					k == physics.ExtKHRShapes || k == physics.ExtKHRBodies || k == "accessors" || k == "meshes" || k == "children" || k == "mesh"
				walk(c, func(n any) { x[k] = n }, phys)
			}
		case []any:
			for i, c := range x {
				walk(c, func(n any) { x[i] = n }, inPhysics)
			}
		}
	}
	walk(root, func(any) {}, false)
	if len(slots) == 0 {
		return
	}
	vals := []any{nil, -1.0, 0.0, 1e308, -7.5, 3.0, 1234.0, "x", true, []any{}, []any{1.0}, map[string]any{}, []any{-1.0, 2.0}}
	slots[r.IntN(len(slots))](vals[r.IntN(len(vals))])
}

// TestHostileInputsDoNotPanic feeds randomly damaged documents (fixed
// seeds) to every entry point: errors are fine, panics are not.
func TestHostileInputsDoNotPanic(t *testing.T) {
	sources := []string{"../../testdata/physics/good/omi_base.gltf", "../../testdata/physics/good/khr_base.gltf",
		"../../testdata/physics/legacy/seed_body.gltf", "../../testdata/physics/legacy/seed_joint.gltf",
		"../../testdata/physics/legacy/khr_collision_shapes.gltf"}
	for _, src := range sources {
		orig, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 150; seed++ {
			r := rand.New(rand.NewPCG(seed, 3))
			var root map[string]any
			if err := json.Unmarshal(orig, &root); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 1+r.IntN(3); k++ {
				mutate(r, root)
			}
			b, _ := json.Marshal(root)
			name := fmt.Sprintf("%s/%d", filepath.Base(src), seed)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s: panic: %v\n%s", name, p, b)
					}
				}()
				load := func() *gltf.Document {
					doc := new(gltf.Document)
					if gltf.NewDecoder(bytes.NewReader(b)).Decode(doc) != nil {
						return nil
					}
					return doc
				}
				if doc := load(); doc != nil {
					validate.Validate(doc, validate.Options{})
				}
				if doc := load(); doc != nil {
					if m, _, err := omi.Decode(doc); err == nil {
						_ = omi.Encode(doc, m)
					}
				}
				if doc := load(); doc != nil {
					if m, _, err := khr.Decode(doc); err == nil {
						_ = khr.Encode(doc, m, khr.Options{GeometryNode: seed%2 == 0})
					}
				}
				for _, to := range []physics.Family{physics.OMI, physics.KHR} {
					if doc := load(); doc != nil {
						_, _ = convert.Convert(doc, to, seed%3 == 0)
					}
				}
			}()
		}
	}
}
