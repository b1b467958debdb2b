package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
)

// TestRevision (issue 21 item 9): validate's info line names the KHR
// collider geometry form (geometry.mesh: 2026, geometry.node: 2025, both:
// a warning in words), the 2024 form, and OMI's forms.
func TestRevision(t *testing.T) {
	khr := func(geoms ...string) string {
		var nodes []string
		for _, g := range geoms {
			nodes = append(nodes, `{"extensions":{"KHR_physics_rigid_bodies":{"collider":{"geometry":{"`+g+`":0,"convexHull":true}}}}}`)
		}
		return `{"asset":{"version":"2.0"},"extensionsUsed":["KHR_physics_rigid_bodies"],"nodes":[` + strings.Join(nodes, ",") + `]}`
	}
	for _, c := range []struct{ doc, want string }{
		{khr("mesh"), "geometry.mesh (2026)"},
		{khr("node"), "geometry.node (2025)"},
		{khr("mesh", "node"), "both geometry.mesh (2026) and geometry.node (2025)"},
		{khr("shape"), "implicit shapes only"},
		{`{"asset":{"version":"2.0"},"extensionsUsed":["KHR_collision_shapes","KHR_physics_rigid_bodies"]}`, "KHR 2024"},
		{`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_body"],"nodes":[{"extensions":{"OMI_physics_body":{"motion":{"type":"dynamic"}}}}]}`, "OMI current"},
		{`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_body"],"nodes":[{"extensions":{"OMI_physics_body":{"type":"rigid"}}}]}`, "Stage 1 OMI_physics_body"},
		{`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_collider"]}`, "archived OMI_collider"},
		{`{"asset":{"version":"2.0"}}`, ""},
	} {
		var doc gltf.Document
		if err := json.Unmarshal([]byte(c.doc), &doc); err != nil {
			t.Fatal(err)
		}
		got := Revision(&doc)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s\nrevision %q, want %q", c.doc, got, c.want)
		}
	}
}
