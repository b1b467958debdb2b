package validate

import (
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/physics"
)

var omiShapeTypes = []string{"box", "sphere", "capsule", "cylinder", "convex", "trimesh"}

func (v *validator) omi() {
	nShapes := 0
	shapeTypes := map[int]string{} // shape index -> type, for valid shapes
	if sd, ok := v.docExt[physics.ExtOMIShape]; ok {
		nShapes = v.shapeDoc(sd, "extensions."+physics.ExtOMIShape, func(i int, s map[string]any, sp string) {
			shapeTypes[i] = v.omiShape(s, sp)
		})
	}
	nMat, nFil := 0, 0
	if bd, ok := v.docExt[physics.ExtOMIBody]; ok {
		p := "extensions." + physics.ExtOMIBody
		v.unknown(bd, p, "physicsMaterials", "collisionFilters")
		nMat, nFil = v.materialsFilters(bd, p, false, 0)
	}
	nJoints := 0
	if jd, ok := v.docExt[physics.ExtOMIJoint]; ok {
		p := "extensions." + physics.ExtOMIJoint
		v.unknown(jd, p, "physicsJoints", "constraints")
		if _, old := jd["constraints"]; old {
			v.add(Warning, p+".constraints", "the OMI_physics_joint Stage 1 form (constraints); convert to physicsJoints")
		}
		nJoints = v.objects(jd, "physicsJoints", p, true, 0, v.jointDefs(false))
	}
	body := v.bodies(physics.ExtOMIBody)
	isDynamic := func(k int) bool { return omiDynamic(body(k)) }
	for i := range v.nodeExt {
		np := fmt.Sprintf("nodes[%d].extensions.", i)
		if b := body(i); b != nil {
			p := np + physics.ExtOMIBody
			if _, old := b["type"]; old {
				v.add(Warning, p+".type", "the OMI_physics_body Stage 1 form (type enum); convert to motion/collider/trigger")
			} else {
				v.omiBody(i, b, p, nShapes, shapeTypes, nMat, nFil, body)
			}
		}
		if _, ok := v.nodeExt[i][physics.ExtOMIShape]; ok {
			v.add(Warning, np+physics.ExtOMIShape, "the OMI_physics_body Stage 1 form (node-level OMI_physics_shape); convert to an OMI_physics_body collider")
		}
		if g, ok := v.nodeExt[i][physics.ExtOMIGravity]; ok {
			// Gravity is kept raw; only its reference into the OMI shapes
			// is checked.
			if sh, ok := g["shaped"].(map[string]any); ok {
				v.index(sh, "shape", np+physics.ExtOMIGravity+".shaped", nShapes, "shapes", false)
			}
		}
		if j, ok := v.nodeExt[i][physics.ExtOMIJoint]; ok {
			p := np + physics.ExtOMIJoint
			if _, old := j["nodeA"]; old {
				v.add(Warning, p, "the OMI_physics_joint Stage 1 form (nodeA/nodeB); convert to joint/connectedNode")
				continue
			}
			v.nodeJoint(i, j, p, nJoints, body, isDynamic, true)
			v.omiJointPlace(i, j, p, body)
		}
	}
}

func (v *validator) omiShape(s map[string]any, p string) string {
	v.unknown(s, p, "type", "box", "sphere", "capsule", "cylinder", "convex", "trimesh")
	t, ok := s["type"].(string)
	if !ok {
		v.add(Error, p+".type", "required string")
		return ""
	}
	if !slices.Contains(omiShapeTypes, t) {
		v.add(Error, p+".type", "unknown shape type %q", t)
		return ""
	}
	for _, other := range omiShapeTypes {
		if other != t {
			if _, ok := s[other]; ok {
				v.add(Warning, p+"."+other, "sub-object for another type than %q", t)
			}
		}
	}
	sub, ok := v.obj(s, t, p)
	sp := p + "." + t
	if !ok {
		if t == "convex" || t == "trimesh" {
			v.add(Error, sp+".mesh", "a %s shape needs a mesh (the default -1 is invalid)", t)
		}
		return t
	}
	v.shapeParams(t, sub, sp, false)
	if t == "convex" || t == "trimesh" {
		v.unknown(sub, sp, "mesh")
		if _, present := sub["mesh"]; !present {
			v.add(Error, sp+".mesh", "a %s shape needs a mesh (the default -1 is invalid)", t)
		} else if mi, ok := v.index(sub, "mesh", sp, len(v.doc.Meshes), "meshes", false); ok {
			v.meshShape(mi, t == "convex")
		}
	}
	return t
}

func (v *validator) omiBody(i int, b map[string]any, p string, nShapes int, shapeTypes map[int]string, nMat, nFil int,
	body func(int) map[string]any) {
	v.unknown(b, p, "motion", "collider", "trigger")
	if mo, ok := v.obj(b, "motion", p); ok {
		mp := p + ".motion"
		x, hasType := mo["type"]
		t, isStr := x.(string)
		switch {
		case !hasType:
			// An older form the OMI_physics_body examples still use.
			v.add(Warning, mp+".type", "missing (an older form, read as dynamic); the current form requires static, kinematic or dynamic")
		case !isStr:
			v.add(Error, mp+".type", "must be a string: static, kinematic or dynamic")
		case t != "static" && t != "kinematic" && t != "dynamic":
			v.add(Error, mp+".type", "unknown motion type %q", t)
		}
		v.motion(mo, mp, "type")
	}
	if c, ok := v.obj(b, "collider", p); ok {
		cp := p + ".collider"
		v.unknown(c, cp, "shape", "physicsMaterial", "collisionFilter")
		if si, ok := v.index(c, "shape", cp, nShapes, "shapes", true); ok {
			if shapeTypes[si] == "trimesh" && v.dynamicBody(i, body) {
				v.add(Warning, cp+".shape", "a trimesh on a dynamic body: most engines cannot move trimesh shapes")
			}
		}
		v.index(c, "physicsMaterial", cp, nMat, "physics materials", true)
		v.index(c, "collisionFilter", cp, nFil, "collision filters", true)
	}
	if t, ok := v.obj(b, "trigger", p); ok {
		tp := p + ".trigger"
		v.unknown(t, tp, "shape", "nodes", "collisionFilter")
		_, hasShape := t["shape"]
		if s, ok := t["shape"].(float64); ok && s == -1 {
			hasShape = false
		}
		var older []int // an empty trigger grouping its descendants: an older form
		if _, hasNodes := t["nodes"]; !hasShape && !hasNodes {
			older = v.omiDescendantTriggers(i, body)
		}
		if older != nil {
			v.add(Warning, tp, "empty trigger (an older form the OMI examples use): read as a compound trigger of the descendant trigger nodes %v; the current form lists them in nodes", older)
		} else {
			v.trigger(i, t, tp, "a shape", hasShape, body)
		}
		if si, ok := v.index(t, "shape", tp, nShapes, "shapes", true); ok && shapeTypes[si] == "trimesh" {
			v.add(Warning, tp+".shape", "a trimesh trigger has no interior and will not work reliably")
		}
		v.index(t, "collisionFilter", tp, nFil, "collision filters", true)
	}
}

// dynamicBody reports whether node i belongs to a dynamic OMI body: its
// nearest self-or-ancestor with a motion is dynamic.
func (v *validator) dynamicBody(i int, body func(int) map[string]any) bool {
	for k, steps := i, 0; k >= 0 && steps <= len(v.parent); k, steps = v.parent[k], steps+1 {
		if b := body(k); b != nil {
			if _, ok := b["motion"].(map[string]any); ok {
				return omiDynamic(b)
			}
		}
	}
	return false
}

// omiDynamic reports whether the OMI_physics_body object b has a dynamic
// motion (a motion without type, an older form, reads as dynamic).
func omiDynamic(b map[string]any) bool {
	mo, ok := b["motion"].(map[string]any)
	if !ok {
		return false
	}
	t, has := mo["type"]
	return !has || t == "dynamic"
}

// omiDescendantTriggers lists, ascending, the descendants of node i whose
// trigger has a shape, not crossing nodes with a motion: what an empty
// trigger (an older form) groups, as physics/omi reads it. Nil when none.
func (v *validator) omiDescendantTriggers(i int, body func(int) map[string]any) []int {
	var out []int
	var walk func(k, depth int)
	walk = func(k, depth int) {
		if depth > len(v.doc.Nodes) || v.doc.Nodes[k] == nil {
			return
		}
		for _, c := range v.doc.Nodes[k].Children {
			if c < 0 || c >= len(v.doc.Nodes) || v.parent[c] != k {
				continue
			}
			b := body(c)
			if _, moving := b["motion"]; moving {
				continue
			}
			if t, ok := b["trigger"].(map[string]any); ok {
				if s, ok := num(t["shape"]); ok && s >= 0 {
					out = append(out, c)
				}
			}
			walk(c, depth+1)
		}
	}
	walk(i, 0)
	slices.Sort(out)
	return slices.Compact(out)
}

// omiBodyNode returns the nearest node at or above k carrying an
// OMI_physics_body motion (a body node, of any motion type), or -1.
func (v *validator) omiBodyNode(k int, body func(int) map[string]any) int {
	for i, steps := k, 0; i >= 0 && steps <= len(v.parent); i, steps = v.parent[i], steps+1 {
		if _, ok := body(i)["motion"]; ok {
			return i
		}
	}
	return -1
}

// omiJointPlace checks where OMI_physics_joint puts a joint: "on its own
// glTF node", not on a physics body, "a descendant of one physics body",
// and its connected node under "some kind of physics body node
// (OMI_physics_body motion of any type)". A connected node that is the
// body node itself is accepted (its attachment frame is the body's).
// Which side must be dynamic is nodeJoint's check: the README's overview
// allows "a dynamic body to a non-dynamic body", and its examples hang
// joint nodes under static bodies.
func (v *validator) omiJointPlace(i int, j map[string]any, p string, body func(int) map[string]any) {
	b := body(i)
	_, hasMotion := b["motion"]
	_, hasCollider := b["collider"]
	switch {
	case hasMotion || hasCollider:
		v.add(Error, p, "a joint must be on its own node, not on a physics body or collider node (OMI_physics_joint)")
	case v.parent[i] < 0 || v.omiBodyNode(v.parent[i], body) < 0:
		v.add(Error, p, "the joint node must be a descendant of a physics body (a node with an OMI_physics_body motion)")
	}
	c, ok := num(j["connectedNode"])
	if !ok || c != float64(int(c)) || int(c) < 0 || int(c) >= len(v.doc.Nodes) || int(c) == i {
		return // nodeJoint reports these
	}
	if v.omiBodyNode(int(c), body) < 0 {
		v.add(Error, p+".connectedNode", "node %d must be a descendant of a physics body (a node with an OMI_physics_body motion)", int(c))
	}
}
