package validate

import (
	"fmt"
	"math"
	"slices"
)

// The rules both families share: document-level arrays, materials,
// filters, joint descriptions, motion members, implicit shape parameters,
// triggers and node joints.

// objects checks each item of the array m[key] with check, an item that
// is not an object being an error. It returns the array's length, or
// absent when m has no usable array (nonEmpty: an empty one is refused).
func (v *validator) objects(m map[string]any, key, p string, nonEmpty bool, absent int, check func(i int, item map[string]any, path string)) int {
	arr, ok := v.array(m, key, p, nonEmpty)
	if !ok {
		return absent
	}
	for i, x := range arr {
		ip := at(p+"."+key, i)
		if xm, isObj := x.(map[string]any); isObj {
			check(i, xm, ip)
		} else {
			v.add(Error, ip, "must be an object")
		}
	}
	return len(arr)
}

// shapeDoc checks a document-level shapes extension sd at p, each shape
// with check, and returns the number of shapes.
func (v *validator) shapeDoc(sd map[string]any, p string, check func(i int, s map[string]any, path string)) int {
	v.unknown(sd, p, "shapes")
	if _, present := sd["shapes"]; !present {
		v.add(Error, p+".shapes", "required")
	}
	return v.objects(sd, "shapes", p, true, 0, check)
}

// materialsFilters checks the document-level physicsMaterials and
// collisionFilters of a rigid-body extension bd at p (nonEmpty: KHR's
// minItems 1) and returns their counts, absent for a missing array.
func (v *validator) materialsFilters(bd map[string]any, p string, nonEmpty bool, absent int) (nMat, nFil int) {
	nMat = v.objects(bd, "physicsMaterials", p, nonEmpty, absent, func(_ int, m map[string]any, mp string) { v.material(m, mp) })
	nFil = v.objects(bd, "collisionFilters", p, nonEmpty, absent, func(_ int, f map[string]any, fp string) { v.filter(f, fp) })
	return nMat, nFil
}

// bodies returns the function giving node k's extension ext object (nil
// when it has none).
func (v *validator) bodies(ext string) func(k int) map[string]any {
	return func(k int) map[string]any {
		if k < 0 || k >= len(v.nodeExt) || v.nodeExt[k] == nil {
			return nil
		}
		return v.nodeExt[k][ext]
	}
}

func (v *validator) material(m map[string]any, p string) {
	v.unknown(m, p, "staticFriction", "dynamicFriction", "restitution", "frictionCombine", "restitutionCombine")
	for _, k := range []string{"staticFriction", "dynamicFriction", "restitution"} {
		v.nonNeg(m, k, p)
	}
	for _, k := range []string{"frictionCombine", "restitutionCombine"} {
		if x, ok := m[k]; ok {
			s, isStr := x.(string)
			if !isStr {
				v.add(Error, p+"."+k, "must be a string")
			} else if !slices.Contains([]string{"average", "minimum", "maximum", "multiply"}, s) {
				v.add(Warning, p+"."+k, "unknown combine mode %q", s)
			}
		}
	}
}

func (v *validator) filter(m map[string]any, p string) {
	v.unknown(m, p, "collisionSystems", "collideWithSystems", "notCollideWithSystems")
	v.strs(m, "collisionSystems", p)
	_, a := v.strs(m, "collideWithSystems", p)
	_, b := v.strs(m, "notCollideWithSystems", p)
	if a && b {
		v.add(Error, p, "collideWithSystems and notCollideWithSystems are exclusive")
	}
}

// jointDefs returns the check of a document-level joint description for
// objects.
func (v *validator) jointDefs(khr bool) func(int, map[string]any, string) {
	return func(_ int, m map[string]any, p string) { v.jointDef(m, p, khr) }
}

// jointDef checks a document-level joint description; khr forbids a limit
// with both linear and angular axes and empty arrays.
func (v *validator) jointDef(m map[string]any, p string, khr bool) {
	v.unknown(m, p, "limits", "drives")
	v.objects(m, "limits", p, khr, 0, func(_ int, l map[string]any, lp string) { v.limit(l, lp, khr) })
	v.objects(m, "drives", p, khr, 0, func(_ int, d map[string]any, dp string) { v.drive(d, dp, khr) })
}

func (v *validator) axes(m map[string]any, key, p string, khr bool) bool {
	arr, ok := v.array(m, key, p, khr)
	if !ok {
		_, present := m[key]
		return present
	}
	seen := map[int]bool{}
	for i, a := range arr {
		f, isNum := num(a)
		ap := at(p+"."+key, i)
		if !isNum || f != math.Trunc(f) || f < 0 || f > 2 {
			v.add(Error, ap, "axis must be 0, 1 or 2")
			continue
		}
		if seen[int(f)] {
			v.add(Error, ap, "duplicate axis %d", int(f))
		}
		seen[int(f)] = true
	}
	return true
}

func (v *validator) limit(m map[string]any, p string, khr bool) {
	v.unknown(m, p, "linearAxes", "angularAxes", "min", "max", "stiffness", "damping")
	lin := v.axes(m, "linearAxes", p, khr)
	ang := v.axes(m, "angularAxes", p, khr)
	switch {
	case !lin && !ang:
		v.add(Error, p, "a limit needs linearAxes or angularAxes")
	case lin && ang && khr:
		v.add(Error, p, "a KHR limit has either linearAxes or angularAxes, not both")
	}
	lo, okLo := v.number(m, "min", p)
	hi, okHi := v.number(m, "max", p)
	if okLo && okHi && lo > hi {
		v.add(Error, p, "min %g > max %g", lo, hi)
	}
	v.nonNeg(m, "stiffness", p)
	v.nonNeg(m, "damping", p)
}

// drive checks a joint drive. Its force is stiffness·(positionTarget −
// position) + damping·(velocityTarget − velocity) (the KHR README; OMI
// the same), and a missing gain is 0 in both families' schemas: a target
// without its gain adds nothing, a warning when that leaves the drive no
// term at all, else a note (RigidBodies_Joint_09, the KHR spec editor's
// velocity motor, has positionTarget 0 without stiffness). A gain without
// its target has no default to fall back on: the KHR schema's
// dependencies make it an error there, OMI a warning.
func (v *validator) drive(m map[string]any, p string, khr bool) {
	v.unknown(m, p, "type", "mode", "axis", "maxForce", "positionTarget", "velocityTarget", "stiffness", "damping")
	for _, k := range []struct{ key, a, b string }{{"type", "linear", "angular"}, {"mode", "force", "acceleration"}} {
		x, ok := m[k.key]
		if !ok {
			v.add(Error, p+"."+k.key, "required")
			continue
		}
		s, isStr := x.(string)
		if !isStr {
			v.add(Error, p+"."+k.key, "must be a string")
		} else if s != k.a && s != k.b {
			v.add(Warning, p+"."+k.key, "unknown value %q (expected %s or %s)", s, k.a, k.b)
		}
	}
	if _, ok := m["axis"]; !ok {
		v.add(Error, p+".axis", "required")
	} else if a, ok := v.integer(m, "axis", p); ok && (a < 0 || a > 2) {
		v.add(Error, p+".axis", "axis must be 0, 1 or 2 (got %d)", a)
	}
	for _, k := range []string{"maxForce", "stiffness", "damping"} {
		v.nonNeg(m, k, p)
	}
	v.number(m, "positionTarget", p)
	v.number(m, "velocityTarget", p)
	pairs := [2][2]string{{"positionTarget", "stiffness"}, {"velocityTarget", "damping"}}
	for i, pair := range pairs {
		_, a := m[pair[0]]
		_, b := m[pair[1]]
		other := pairs[1-i]
		_, otherTarget := m[other[0]]
		gain, _ := num(m[other[1]])
		switch {
		case a == b:
		case a && otherTarget && gain > 0:
			v.add(Info, p, "%s without %s (default 0): that term of the drive is zero, the drive acts through %s alone", pair[0], pair[1], other[0])
		case a:
			v.add(Warning, p, "%s without %s (default 0) has no effect: the drive does nothing", pair[0], pair[1])
		case khr:
			v.add(Error, p, "%s without %s: the KHR schema requires %s with it", pair[1], pair[0], pair[0])
		case pair[1] == "damping":
			v.add(Warning, p, "damping without velocityTarget: readers may differ (convert writes velocityTarget 0, damping towards rest)")
		default:
			v.add(Warning, p, "%s without %s has no effect", pair[1], pair[0])
		}
	}
}

// motion checks the members of a motion m at p but its type, whose member
// (typeKey) the caller checks.
func (v *validator) motion(m map[string]any, p, typeKey string) {
	v.unknown(m, p, typeKey, "mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity", "angularVelocity", "gravityFactor")
	if mass, ok := v.number(m, "mass", p); ok && mass < 0 {
		v.add(Error, p+".mass", "must be >= 0 (got %g)", mass)
	} else if ok {
		v.float32Range(p+".mass", mass)
	}
	v.vec(m, "centerOfMass", p, 3)
	v.vec(m, "linearVelocity", p, 3)
	v.vec(m, "angularVelocity", p, 3)
	v.number(m, "gravityFactor", p)
	if d, ok := v.vec(m, "inertiaDiagonal", p, 3); ok {
		for i, x := range d {
			if x < 0 {
				v.add(Error, at(p+".inertiaDiagonal", i), "must be >= 0 (got %g)", x)
			}
			v.float32Range(at(p+".inertiaDiagonal", i), x)
		}
	}
	if q, ok := v.vec(m, "inertiaOrientation", p, 4); ok {
		l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if math.Abs(l-1) > UnitQuatTolerance {
			v.add(Error, p+".inertiaOrientation", "not a unit quaternion (length %g)", l)
		}
	}
}

// ---- hierarchy helpers ----

func (v *validator) isDescendant(k, of int) bool {
	for i, steps := v.parent[k], 0; i >= 0 && steps <= len(v.parent); i, steps = v.parent[i], steps+1 {
		if i == of {
			return true
		}
	}
	return false
}

// dynamicSelfOrAncestor reports whether node k or an ancestor has a
// dynamic motion according to isDynamic.
func (v *validator) dynamicSelfOrAncestor(k int, isDynamic func(int) bool) bool {
	for i, steps := k, 0; i >= 0 && steps <= len(v.parent); i, steps = v.parent[i], steps+1 {
		if isDynamic(i) {
			return true
		}
	}
	return false
}

// shapeParams checks the implicit shape parameters shared by both
// families. Zero sizes are degenerate: errors in KHR ("Degenerate shapes
// are prohibited", stricter than the Khronos validator's notes), warnings
// in OMI, which does not forbid them; negative values are errors
// everywhere.
func (v *validator) shapeParams(t string, sub map[string]any, sp string, khr bool) {
	degenerate, why := Warning, ""
	if khr {
		degenerate, why = Error, ", which KHR_implicit_shapes prohibits"
	}
	positive := func(key string, f float64, zeroOK bool) {
		switch {
		case f < 0:
			v.add(Error, sp+"."+key, "must be positive (got %g)", f)
		case f == 0 && !zeroOK:
			v.add(degenerate, sp+"."+key, "zero: a degenerate shape%s", why)
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
			v.add(degenerate, sp, "both radii are zero: a degenerate shape%s", why)
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

// trigger checks the form of node i's trigger t at tp: either a shape
// (OMI; KHR: a geometry), named by what, given by hasShape, or a
// compound's nodes, and no collision filter on a compound; then the
// compound's nodes. body gives a node's rigid-body extension.
func (v *validator) trigger(i int, t map[string]any, tp, what string, hasShape bool, body func(int) map[string]any) {
	_, hasNodes := t["nodes"]
	switch {
	case hasShape && hasNodes:
		v.add(Error, tp, "a trigger has either %s or nodes, not both", what)
	case !hasShape && !hasNodes:
		v.add(Error, tp, "empty trigger: give %s or the compound's nodes", what)
	}
	if _, ok := t["collisionFilter"]; ok && hasNodes {
		v.add(Error, tp+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
	}
	v.triggerNodes(i, t, tp, body)
}

// triggerNodes checks a compound trigger's nodes: unique, in range,
// descendants, each with a simple (non-compound) trigger.
func (v *validator) triggerNodes(i int, t map[string]any, tp string, body func(int) map[string]any) {
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
		tk, has := body(n)["trigger"].(map[string]any)
		_, compound := tk["nodes"]
		switch {
		case !has:
			v.add(Error, kp, "node %d has no trigger", n)
		case compound:
			v.add(Error, kp, "node %d is itself a compound trigger", n)
		}
	}
}

// nodeJoint checks a node-level joint of either family; body gives a
// node's rigid-body extension, isDynamic whether a node's motion makes a
// joint work. dynamicRequired makes a joint without a dynamic body on
// either side an error (OMI: "must"), else a warning (KHR: "no effect").
func (v *validator) nodeJoint(i int, j map[string]any, p string, nJoints int, body func(int) map[string]any, isDynamic func(int) bool, dynamicRequired bool) {
	v.unknown(j, p, "joint", "connectedNode", "enableCollision")
	isTrigger := func(k int) bool { return body(k)["trigger"] != nil }
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
