package validate

import (
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/physics"
)

var omiShapeTypes = []string{"box", "sphere", "capsule", "cylinder", "convex", "trimesh"}

func (v *validator) omi() {
	nShapes := 0
	var shapeTypes []string
	if sd, ok := v.docExt[physics.ExtOMIShape]; ok {
		p := "extensions." + physics.ExtOMIShape
		v.unknown(sd, p, "shapes")
		shapes, ok := v.array(sd, "shapes", p, true)
		if !ok {
			if _, present := sd["shapes"]; !present {
				v.add(Error, p+".shapes", "required")
			}
		}
		nShapes = len(shapes)
		shapeTypes = make([]string, len(shapes))
		for i, s := range shapes {
			sp := at(p+".shapes", i)
			sm, isObj := s.(map[string]any)
			if !isObj {
				v.add(Error, sp, "must be an object")
				continue
			}
			shapeTypes[i] = v.omiShape(sm, sp)
		}
	}
	nMat, nFil := 0, 0
	if bd, ok := v.docExt[physics.ExtOMIBody]; ok {
		p := "extensions." + physics.ExtOMIBody
		v.unknown(bd, p, "physicsMaterials", "collisionFilters")
		if mats, ok := v.array(bd, "physicsMaterials", p, false); ok {
			nMat = len(mats)
			for i, m := range mats {
				if mm, isObj := m.(map[string]any); isObj {
					v.material(mm, at(p+".physicsMaterials", i))
				} else {
					v.add(Error, at(p+".physicsMaterials", i), "must be an object")
				}
			}
		}
		if fils, ok := v.array(bd, "collisionFilters", p, false); ok {
			nFil = len(fils)
			for i, f := range fils {
				if fm, isObj := f.(map[string]any); isObj {
					v.filter(fm, at(p+".collisionFilters", i))
				} else {
					v.add(Error, at(p+".collisionFilters", i), "must be an object")
				}
			}
		}
	}
	nJoints := 0
	if jd, ok := v.docExt[physics.ExtOMIJoint]; ok {
		p := "extensions." + physics.ExtOMIJoint
		v.unknown(jd, p, "physicsJoints", "constraints")
		if _, old := jd["constraints"]; old {
			v.add(Warning, p+".constraints", "the seed's old joint form; convert to physicsJoints")
		}
		if joints, ok := v.array(jd, "physicsJoints", p, true); ok {
			nJoints = len(joints)
			for i, j := range joints {
				if jm, isObj := j.(map[string]any); isObj {
					v.jointDef(jm, at(p+".physicsJoints", i), false)
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
		return v.nodeExt[k][physics.ExtOMIBody]
	}
	isDynamic := func(k int) bool {
		b := body(k)
		if b == nil {
			return false
		}
		mo, _ := b["motion"].(map[string]any)
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
			v.unknown(j, p, "joint", "connectedNode", "enableCollision")
			v.nodeJoint(i, j, p, nJoints, isDynamic, func(k int) bool { b := body(k); return b != nil && b["trigger"] != nil }, true)
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

// shapeParams checks the implicit shape parameters shared by both
// families. In KHR zero sizes are degenerate (warnings, as the Khronos
// validator has it); negative values are errors everywhere.
func (v *validator) shapeParams(t string, sub map[string]any, sp string, khr bool) {
	positive := func(key string, f float64, zeroOK bool) {
		switch {
		case f < 0:
			v.add(Error, sp+"."+key, "must be positive (got %g)", f)
		case f == 0 && !zeroOK:
			v.add(Warning, sp+"."+key, "zero: a degenerate shape")
		}
	}
	var extent []float64 // the shape's extents along its axes, for shapeSize
	defer func() { v.shapeSize(sp, extent) }()
	switch t {
	case "box":
		v.unknown(sub, sp, "size")
		if sz, ok := v.vec(sub, "size", sp, 3); ok {
			for i, x := range sz {
				positive(fmt.Sprintf("size[%d]", i), x, false)
			}
			extent = sz
		}
	case "sphere":
		v.unknown(sub, sp, "radius")
		if r, ok := v.number(sub, "radius", sp); ok {
			positive("radius", r, false)
			extent = []float64{2 * r}
		}
	case "capsule", "cylinder":
		known := []string{"height", "radiusTop", "radiusBottom"}
		if !khr {
			if _, ok := sub["radius"]; ok {
				v.add(Warning, sp+".radius", "early form: use radiusTop and radiusBottom")
				known = append(known, "radius")
				v.nonNeg(sub, "radius", sp)
			}
		}
		v.unknown(sub, sp, known...)
		if h, ok := v.number(sub, "height", sp); ok {
			positive("height", h, t == "capsule" && !khr)
		}
		var rs []float64
		for _, k := range []string{"radiusTop", "radiusBottom"} {
			if r, ok := v.number(sub, k, sp); ok {
				if r < 0 {
					v.add(Error, sp+"."+k, "must be >= 0 (got %g)", r)
				}
				rs = append(rs, r)
			}
		}
		if len(rs) == 2 && rs[0] == 0 && rs[1] == 0 {
			v.add(Warning, sp, "both radii are zero: a degenerate shape")
		}
		if h, ok := num(sub["height"]); ok {
			extent = append(extent, h)
		}
		for _, r := range rs {
			extent = append(extent, 2*r)
		}
	case "plane":
		v.unknown(sub, sp, "sizeX", "sizeZ", "doubleSided")
		for _, k := range []string{"sizeX", "sizeZ"} {
			if f, ok := v.number(sub, k, sp); ok {
				positive(k, f, false)
			}
		}
		if x, ok := sub["doubleSided"]; ok {
			if _, isBool := x.(bool); !isBool {
				v.add(Error, sp+".doubleSided", "must be a boolean")
			}
		}
	}
}

func (v *validator) omiBody(i int, b map[string]any, p string, nShapes int, shapeTypes []string, nMat, nFil int,
	body func(int) map[string]any) {
	v.unknown(b, p, "motion", "collider", "trigger")
	if mo, ok := v.obj(b, "motion", p); ok {
		mp := p + ".motion"
		v.unknown(mo, mp, "type", "mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity", "angularVelocity", "gravityFactor")
		t, isStr := mo["type"].(string)
		switch {
		case !isStr:
			v.add(Error, mp+".type", "required: static, kinematic or dynamic")
		case t != "static" && t != "kinematic" && t != "dynamic":
			v.add(Error, mp+".type", "unknown motion type %q", t)
		}
		v.motionCommon(mo, mp, false)
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
		_, hasNodes := t["nodes"]
		if s, ok := t["shape"].(float64); ok && s == -1 {
			hasShape = false
		}
		switch {
		case hasShape && hasNodes:
			v.add(Error, tp, "a trigger has either a shape or nodes, not both")
		case !hasShape && !hasNodes:
			v.add(Error, tp, "empty trigger: give a shape or the compound's nodes")
		}
		if si, ok := v.index(t, "shape", tp, nShapes, "shapes", true); ok && shapeTypes[si] == "trimesh" {
			v.add(Warning, tp+".shape", "a trimesh trigger has no interior and will not work reliably")
		}
		if _, ok := t["collisionFilter"]; ok && hasNodes {
			v.add(Error, tp+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
		}
		v.index(t, "collisionFilter", tp, nFil, "collision filters", true)
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

// triggerNodes checks a compound trigger's nodes: unique, in range,
// descendants, each with a simple (non-compound) trigger. info(k) reports
// whether node k has a trigger and whether it is compound.
func (v *validator) triggerNodes(i int, t map[string]any, tp string, info func(int) (bool, bool)) {
	nodes, ok := v.array(t, "nodes", tp, true)
	if !ok {
		return
	}
	seen := map[int]bool{}
	for k, x := range nodes {
		kp := at(tp+".nodes", k)
		f, isNum := num(x)
		if !isNum || f != float64(int(f)) || int(f) < 0 || int(f) >= len(v.doc.Nodes) {
			v.add(Error, kp, "node index %v out of range (%d nodes)", x, len(v.doc.Nodes))
			continue
		}
		n := int(f)
		if seen[n] {
			v.add(Error, kp, "duplicate node %d", n)
		}
		seen[n] = true
		if !v.isDescendant(n, i) {
			v.add(Error, kp, "node %d is not a descendant of node %d", n, i)
		}
		has, compound := info(n)
		switch {
		case !has:
			v.add(Error, kp, "node %d has no trigger", n)
		case compound:
			v.add(Error, kp, "node %d is itself a compound trigger", n)
		}
	}
}

// nodeJoint checks a node-level joint of either family. dynamicRequired
// makes a joint without a dynamic body on either side an error (OMI:
// "must"), else a warning (KHR: "no effect").
func (v *validator) nodeJoint(i int, j map[string]any, p string, nJoints int, isDynamic, isTrigger func(int) bool, dynamicRequired bool) {
	_, hasJ := j["joint"]
	_, hasC := j["connectedNode"]
	if !hasJ || !hasC {
		v.add(Error, p, "a joint needs joint and connectedNode")
	}
	if hasJ {
		if nJoints == 0 {
			v.add(Error, p+".joint", "no document-level physicsJoints to index")
		} else {
			v.index(j, "joint", p, nJoints, "joints", false)
		}
	}
	if x, ok := j["enableCollision"]; ok {
		if _, isBool := x.(bool); !isBool {
			v.add(Error, p+".enableCollision", "must be a boolean")
		}
	}
	if !hasC {
		return
	}
	c, ok := v.index(j, "connectedNode", p, len(v.doc.Nodes), "nodes", false)
	if !ok {
		return
	}
	if c == i {
		v.add(Error, p+".connectedNode", "a joint cannot connect a node to itself")
	}
	if !v.dynamicSelfOrAncestor(i, isDynamic) && !v.dynamicSelfOrAncestor(c, isDynamic) {
		sev := Warning
		if dynamicRequired {
			sev = Error
		}
		v.add(sev, p, "neither the joint node nor the connected node belongs to a dynamic body")
	}
	if isTrigger(i) {
		v.add(Error, p, "a joint cannot be on a trigger node")
	}
	if isTrigger(c) {
		v.add(Error, p+".connectedNode", "a joint cannot connect to a trigger node")
	}
}
