package validate

import (
	"encoding/json"
	"slices"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// Revision names the revision of the physics extensions doc is written
// in, for one informational line: KHR collider geometry.mesh (the 2026
// revision, which the readers of 2026 read) or geometry.node (the 2025
// one), both (readers of either drop the other's mesh colliders), the
// 2024 KHR_collision_shapes; the archived OMI_collider or the OMI Stage 1
// forms. "" when doc carries no physics.
func Revision(doc *gltf.Document) string {
	used := func(e string) bool {
		_, at := doc.Extensions[e]
		return at || slices.Contains(doc.ExtensionsUsed, e)
	}
	var omi, khr []string
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	if used(physics.ExtOMICollider) {
		add(&omi, "the archived OMI_collider")
	}
	for _, n := range doc.Nodes {
		if n == nil {
			continue
		}
		var x struct {
			Type     json.RawMessage
			NodeA    json.RawMessage
			Collider *struct{ Geometry map[string]json.RawMessage }
			Trigger  *struct{ Geometry map[string]json.RawMessage }
		}
		for e, v := range n.Extensions {
			raw, err := json.Marshal(v)
			if err != nil || json.Unmarshal(raw, &x) != nil {
				continue
			}
			switch e {
			case physics.ExtOMICollider:
				add(&omi, "the archived OMI_collider")
			case physics.ExtOMIBody:
				if x.Type != nil {
					add(&omi, "the Stage 1 OMI_physics_body (type)")
				}
			case physics.ExtOMIJoint:
				if x.NodeA != nil {
					add(&omi, "the Stage 1 OMI_physics_joint (nodeA/nodeB)")
				}
			case physics.ExtKHRBodies:
				for _, c := range []*struct{ Geometry map[string]json.RawMessage }{x.Collider, x.Trigger} {
					if c == nil {
						continue
					}
					if _, ok := c.Geometry["mesh"]; ok {
						add(&khr, "geometry.mesh (2026)")
					}
					if _, ok := c.Geometry["node"]; ok {
						add(&khr, "geometry.node (2025)")
					}
				}
			}
			x.Type, x.NodeA, x.Collider, x.Trigger = nil, nil, nil, nil
		}
	}
	var out []string
	switch {
	case used(physics.ExtKHRCollisionShapes):
		out = append(out, "KHR 2024 (KHR_collision_shapes)")
	case len(khr) == 2:
		out = append(out, "KHR with both geometry.mesh (2026) and geometry.node (2025): a reader of either revision drops the other's mesh colliders")
	case len(khr) == 1:
		out = append(out, "KHR collider "+khr[0])
	case used(physics.ExtKHRBodies) || used(physics.ExtKHRShapes):
		out = append(out, "KHR (implicit shapes only: the 2025 and 2026 revisions read them alike)")
	}
	switch {
	case len(omi) > 0:
		out = append(out, "OMI in "+joinAnd(omi))
	case used(physics.ExtOMIBody) || used(physics.ExtOMIShape) || used(physics.ExtOMIJoint) || used(physics.ExtOMICollider):
		out = append(out, "OMI current")
	}
	return joinAnd(out)
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " and " + s[len(s)-1]
}
