package inspect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
)

// TestRagdollPerArmature: skins sharing a bone are one ragdoll, skins
// whose bodies a joint joins are one, and a skin alone is its own; each
// joint is counted in one ragdoll, each shared bone once.
func TestRagdollPerArmature(t *testing.T) {
	body := map[string]any{"OMI_physics_body": map[string]any{"motion": map[string]any{"type": "dynamic", "mass": 1}}}
	joint := func(to int) map[string]any {
		return map[string]any{"OMI_physics_joint": map[string]any{"joint": 0, "connectedNode": to}}
	}
	nodes := []map[string]any{
		{"name": "a0", "children": []int{1}, "extensions": body},    // 0
		{"name": "a1", "children": []int{2, 7}, "extensions": body}, // 1
		{"name": "a2", "children": []int{8}, "extensions": body},    // 2
		{"name": "b0", "children": []int{4}, "extensions": body},    // 3
		{"name": "b1", "children": []int{9}, "extensions": body},    // 4
		{"name": "c0", "children": []int{6}, "extensions": body},    // 5
		{"name": "c1", "children": []int{10}, "extensions": body},   // 6
		{"name": "a1.joint", "extensions": joint(0)},                // 7
		{"name": "a2.joint", "extensions": joint(1)},                // 8
		{"name": "b1.joint", "extensions": joint(3)},                // 9
		{"name": "c1.joint", "extensions": joint(5)},                // 10
	}
	doc := map[string]any{
		"asset":          map[string]any{"version": "2.0"},
		"extensionsUsed": []string{"OMI_physics_body", "OMI_physics_joint"},
		"extensions": map[string]any{"OMI_physics_joint": map[string]any{"physicsJoints": []any{map[string]any{
			"limits": []any{map[string]any{"linearAxes": []int{0, 1, 2}, "min": 0, "max": 0}},
		}}}},
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0, 3, 5}}},
		"nodes":  nodes,
		// Skins 0 and 1 share bone a1; skins 2 and 3 share no bone but
		// b1.joint joins their bodies; skin 4 is alone.
		"skins": []any{
			map[string]any{"joints": []int{0, 1}},
			map[string]any{"joints": []int{1, 2}},
			map[string]any{"joints": []int{3}},
			map[string]any{"joints": []int{4}},
			map[string]any{"joints": []int{5, 6}},
		},
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "armatures.gltf")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Describe(a)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		skins         []int
		bones, joints int
		text          string
	}{{[]int{0, 1}, 3, 2, "skins 0, 1"}, {[]int{2, 3}, 2, 1, "skins 2, 3"}, {[]int{4}, 2, 1, "skin 4"}}
	if len(f.Ragdolls) != len(want) {
		t.Fatalf("%d ragdolls %+v, want %d", len(f.Ragdolls), f.Ragdolls, len(want))
	}
	for i, w := range want {
		rd := f.Ragdolls[i]
		if !slices.Equal(rd.Skins, w.skins) || rd.Bones != w.bones || len(rd.Bodies) != w.bones || len(rd.Joints) != w.joints || rd.SkinsText() != w.text {
			t.Errorf("ragdoll %d: skins %v (%q), %d bones, %d bodies, %d joints; want skins %v (%q), %d bones with bodies, %d joints",
				i, rd.Skins, rd.SkinsText(), rd.Bones, len(rd.Bodies), len(rd.Joints), w.skins, w.text, w.bones, w.joints)
		}
	}
	if got := (Ragdoll{Skins: []int{0, 1, 2, 3, 4, 5}}).SkinsText(); got != "skins 0, 1, 2, … (6)" {
		t.Errorf("SkinsText of 6 skins = %q", got)
	}
}
