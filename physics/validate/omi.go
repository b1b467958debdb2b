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
			v.add(Warning, p+".constraints", "the seed's old joint form; convert to physicsJoints")
		}
		nJoints = v.objects(jd, "physicsJoints", p, true, 0, v.jointDefs(false))
	}
	body := v.bodies(physics.ExtOMIBody)
	isDynamic := func(k int) bool {
		mo, _ := body(k)["motion"].(map[string]any)
		return mo != nil && mo["type"] == "dynamic"
	}
	for i := range v.nodeExt {
		np := fmt.Sprintf("nodes[%d].extensions.", i)
		if b := body(i); b != nil {
			p := np + physics.ExtOMIBody
			if _, old := b["type"]; old {
				v.add(Warning, p+".type", "the seed's old body form (type enum); convert to motion/collider/trigger")
			} else {
				v.omiBody(i, b, p, nShapes, shapeTypes, nMat, nFil, body)
			}
		}
		if _, ok := v.nodeExt[i][physics.ExtOMIShape]; ok {
			v.add(Warning, np+physics.ExtOMIShape, "the seed's node-level shape form; convert to an OMI_physics_body collider")
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
				v.add(Warning, p, "the seed's old joint form (nodeA/nodeB); convert to joint/connectedNode")
				continue
			}
			v.nodeJoint(i, j, p, nJoints, body, isDynamic, true)
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
		t, isStr := mo["type"].(string)
		switch {
		case !isStr:
			v.add(Error, mp+".type", "required: static, kinematic or dynamic")
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
		v.trigger(i, t, tp, "a shape", hasShape, body)
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
			if mo, ok := b["motion"].(map[string]any); ok {
				return mo["type"] == "dynamic"
			}
		}
	}
	return false
}
