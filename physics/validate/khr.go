package validate

import (
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/physics"
)

var khrShapeTypes = []string{"plane", "sphere", "box", "capsule", "cylinder"}

func (v *validator) khr() {
	nShapes := -1 // -1: no KHR_implicit_shapes at all
	if sd, ok := v.docExt[physics.ExtKHRShapes]; ok {
		nShapes = v.shapeDoc(sd, "extensions."+physics.ExtKHRShapes, func(_ int, s map[string]any, sp string) {
			v.khrShape(s, sp)
		})
	}
	nMat, nFil, nJoints := -1, -1, -1 // -1: no such document-level array
	if bd, ok := v.docExt[physics.ExtKHRBodies]; ok {
		p := "extensions." + physics.ExtKHRBodies
		v.unknown(bd, p, "physicsMaterials", "collisionFilters", "physicsJoints")
		nMat, nFil = v.materialsFilters(bd, p, true, -1)
		nJoints = v.objects(bd, "physicsJoints", p, true, -1, v.jointDefs(true))
	}
	body := v.bodies(physics.ExtKHRBodies)
	// KHR: "at least one of the pair of nodes or its ancestor" must have a
	// motion for the joint to have an effect.
	isDynamic := func(k int) bool {
		_, ok := body(k)["motion"].(map[string]any)
		return ok
	}
	_, old := v.docExt[physics.ExtKHRCollisionShapes]
	for i := range v.nodeExt {
		b := body(i)
		if b == nil {
			continue
		}
		p := fmt.Sprintf("nodes[%d].extensions.%s", i, physics.ExtKHRBodies)
		v.unknown(b, p, "motion", "collider", "trigger", "joint")
		if mo, ok := v.obj(b, "motion", p); ok {
			mp := p + ".motion"
			if x, ok := mo["isKinematic"]; ok {
				if _, isBool := x.(bool); !isBool {
					v.add(Error, mp+".isKinematic", "must be a boolean")
				}
			}
			v.motion(mo, mp, "isKinematic")
		}
		if c, ok := v.obj(b, "collider", p); ok {
			cp := p + ".collider"
			v.unknown(c, cp, "geometry", "physicsMaterial", "collisionFilter", "shape")
			if _, ok := c["geometry"]; ok {
				v.geometry(c, cp, nShapes)
			} else if _, ok := c["shape"]; ok && old {
				v.add(Warning, cp+".shape", "2024 form (collider.shape); convert to collider.geometry")
			} else {
				v.add(Error, cp+".geometry", "required")
			}
			v.khrIndex(c, "physicsMaterial", cp, nMat, "physicsMaterials")
			v.khrIndex(c, "collisionFilter", cp, nFil, "collisionFilters")
		}
		if t, ok := v.obj(b, "trigger", p); ok {
			tp := p + ".trigger"
			v.unknown(t, tp, "geometry", "nodes", "collisionFilter", "shape")
			_, hasG := t["geometry"]
			_, hasOld := t["shape"]
			v.trigger(i, t, tp, "a geometry", hasG || hasOld, body)
			if hasG {
				v.geometry(t, tp, nShapes)
			} else if hasOld {
				v.add(Warning, tp+".shape", "2024 form (trigger.shape); convert to trigger.geometry")
			}
			v.khrIndex(t, "collisionFilter", tp, nFil, "collisionFilters")
		}
		if j, ok := v.obj(b, "joint", p); ok {
			v.nodeJoint(i, j, p+".joint", max(nJoints, 0), body, isDynamic, false)
		}
	}
}

// khrIndex checks an optional index into a document-level array that may
// be absent altogether (n < 0).
func (v *validator) khrIndex(m map[string]any, key, p string, n int, what string) {
	if _, ok := m[key]; !ok {
		return
	}
	if n < 0 {
		v.add(Error, p+"."+key, "no document-level %s to index", what)
		return
	}
	v.index(m, key, p, n, what, false)
}

func (v *validator) khrShape(s map[string]any, p string) {
	v.unknown(s, p, "type", "plane", "sphere", "box", "capsule", "cylinder")
	t, ok := s["type"].(string)
	if !ok {
		v.add(Error, p+".type", "required string")
		return
	}
	if !slices.Contains(khrShapeTypes, t) {
		v.add(Warning, p+".type", "shape type %q is not defined by KHR_implicit_shapes", t)
		return
	}
	if sub, ok := v.obj(s, t, p); ok {
		v.shapeParams(t, sub, p+"."+t, true)
	}
}

// geometry checks m.geometry: exactly one of shape, mesh or node.
func (v *validator) geometry(m map[string]any, p string, nShapes int) {
	g, ok := v.obj(m, "geometry", p)
	if !ok {
		return
	}
	gp := p + ".geometry"
	v.unknown(g, gp, "shape", "mesh", "node", "convexHull")
	hull := false
	if x, ok := g["convexHull"]; ok {
		b, isBool := x.(bool)
		if !isBool {
			v.add(Error, gp+".convexHull", "must be a boolean")
		}
		hull = b
	}
	n := 0
	for _, k := range []string{"shape", "mesh", "node"} {
		if _, ok := g[k]; ok {
			n++
		}
	}
	if n != 1 {
		v.add(Error, gp, "exactly one of shape, mesh or node is required (got %d)", n)
		return
	}
	switch {
	case g["shape"] != nil:
		if nShapes < 0 {
			v.add(Error, gp+".shape", "no KHR_implicit_shapes shapes to index")
			return
		}
		v.index(g, "shape", gp, nShapes, "shapes", false)
	case g["mesh"] != nil:
		if mi, ok := v.index(g, "mesh", gp, len(v.doc.Meshes), "meshes", false); ok {
			v.meshShape(mi, hull)
		}
	default:
		k, ok := v.index(g, "node", gp, len(v.doc.Nodes), "nodes", false)
		if !ok {
			return
		}
		if meshes := v.subtreeMeshes(k); len(meshes) == 0 {
			v.add(Error, gp+".node", "node %d and its descendants carry no mesh", k)
		} else {
			for _, mi := range meshes {
				v.meshShape(mi, hull)
			}
		}
	}
}

// subtreeMeshes lists the valid mesh indices of node k and its
// descendants.
func (v *validator) subtreeMeshes(k int) []int {
	var out []int
	seen := map[int]bool{}
	var walk func(n int)
	walk = func(n int) {
		if n < 0 || n >= len(v.doc.Nodes) || seen[n] || v.doc.Nodes[n] == nil {
			return
		}
		seen[n] = true
		nd := v.doc.Nodes[n]
		if nd.Mesh != nil && *nd.Mesh >= 0 && *nd.Mesh < len(v.doc.Meshes) {
			out = append(out, *nd.Mesh)
		}
		for _, c := range nd.Children {
			walk(c)
		}
	}
	walk(k)
	return out
}
