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
		p := "extensions." + physics.ExtKHRShapes
		v.unknown(sd, p, "shapes")
		shapes, _ := v.array(sd, "shapes", p, true)
		if _, present := sd["shapes"]; !present {
			v.add(Error, p+".shapes", "required")
		}
		nShapes = len(shapes)
		for i, s := range shapes {
			sp := at(p+".shapes", i)
			sm, isObj := s.(map[string]any)
			if !isObj {
				v.add(Error, sp, "must be an object")
				continue
			}
			v.khrShape(sm, sp)
		}
	}
	nMat, nFil, nJoints := -1, -1, -1
	if bd, ok := v.docExt[physics.ExtKHRBodies]; ok {
		p := "extensions." + physics.ExtKHRBodies
		v.unknown(bd, p, "physicsMaterials", "collisionFilters", "physicsJoints")
		if mats, ok := v.array(bd, "physicsMaterials", p, true); ok {
			nMat = len(mats)
			for i, m := range mats {
				if mm, isObj := m.(map[string]any); isObj {
					v.material(mm, at(p+".physicsMaterials", i))
				} else {
					v.add(Error, at(p+".physicsMaterials", i), "must be an object")
				}
			}
		}
		if fils, ok := v.array(bd, "collisionFilters", p, true); ok {
			nFil = len(fils)
			for i, f := range fils {
				if fm, isObj := f.(map[string]any); isObj {
					v.filter(fm, at(p+".collisionFilters", i))
				} else {
					v.add(Error, at(p+".collisionFilters", i), "must be an object")
				}
			}
		}
		if joints, ok := v.array(bd, "physicsJoints", p, true); ok {
			nJoints = len(joints)
			for i, j := range joints {
				if jm, isObj := j.(map[string]any); isObj {
					v.jointDef(jm, at(p+".physicsJoints", i), true)
				} else {
					v.add(Error, at(p+".physicsJoints", i), "must be an object")
				}
			}
		}
	}
	body := func(k int) map[string]any {
		if k < 0 || k >= len(v.nodeExt) || v.nodeExt[k] == nil {
			return nil
		}
		return v.nodeExt[k][physics.ExtKHRBodies]
	}
	isDynamic := func(k int) bool {
		b := body(k)
		if b == nil {
			return false
		}
		// KHR: "at least one of the pair of nodes or its ancestor" must
		// have a motion for the joint to have an effect.
		_, ok := b["motion"].(map[string]any)
		return ok
	}
	isTrigger := func(k int) bool { b := body(k); return b != nil && b["trigger"] != nil }
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
			v.unknown(mo, mp, "isKinematic", "mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity", "angularVelocity", "gravityFactor")
			if x, ok := mo["isKinematic"]; ok {
				if _, isBool := x.(bool); !isBool {
					v.add(Error, mp+".isKinematic", "must be a boolean")
				}
			}
			v.motionCommon(mo, mp, true)
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
			_, hasN := t["nodes"]
			switch {
			case (hasG || hasOld) && hasN:
				v.add(Error, tp, "a trigger has either a geometry or nodes, not both")
			case !hasG && !hasOld && !hasN:
				v.add(Error, tp, "empty trigger: give a geometry or the compound's nodes")
			}
			if hasG {
				v.geometry(t, tp, nShapes)
			} else if hasOld {
				v.add(Warning, tp+".shape", "2024 form (trigger.shape); convert to trigger.geometry")
			}
			if _, ok := t["collisionFilter"]; ok && hasN {
				v.add(Error, tp+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
			}
			v.khrIndex(t, "collisionFilter", tp, nFil, "collisionFilters")
			v.triggerNodes(i, t, tp, func(k int) (bool, bool) {
				bk := body(k)
				if bk == nil {
					return false, false
				}
				tk, _ := bk["trigger"].(map[string]any)
				if tk == nil {
					return false, false
				}
				_, compound := tk["nodes"]
				return true, compound
			})
		}
		if j, ok := v.obj(b, "joint", p); ok {
			jp := p + ".joint"
			v.unknown(j, jp, "joint", "connectedNode", "enableCollision")
			n := nJoints
			if n < 0 {
				n = 0
			}
			v.nodeJoint(i, j, jp, n, isDynamic, isTrigger, false)
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
