package conformance

import "fmt"

// lim is a joint limit: axes, optional min and max, optional stiffness
// and damping (nil: absent).
func lim(linear, angular []int, lo, hi, stiffness, damping *float64) map[string]any {
	l := map[string]any{}
	if linear != nil {
		l["linearAxes"] = linear
	}
	if angular != nil {
		l["angularAxes"] = angular
	}
	for k, v := range map[string]*float64{"min": lo, "max": hi, "stiffness": stiffness, "damping": damping} {
		if v != nil {
			l[k] = *v
		}
	}
	return l
}

func f(x float64) *float64 { return &x }

var (
	xyz  = []int{0, 1, 2}
	zero = f(0)
)

// fixed limits the axes to zero (min and max 0).
func fixed(linear, angular []int) map[string]any { return lim(linear, angular, zero, zero, nil, nil) }

// jointType is one joint description of the suite, as the specifications'
// "special cases" name them; the limits are written separately per axis
// kind, as KHR requires ("either linearAxes or angularAxes").
type jointType struct {
	name   string
	limits []any
	drives []any
}

var jointTypes = []jointType{
	// "Fixed / Weld Joint: All axes fixed."
	{"weld", []any{fixed(xyz, nil), fixed(nil, xyz)}, nil},
	// "Pin Joint: All linear axes fixed, all angular axes free."
	{"pin", []any{fixed(xyz, nil)}, nil},
	// "Hinge Joint: One angular axis limited with non-equal min and max
	// limits, the rest are fixed."
	{"hinge", []any{fixed(xyz, nil), lim(nil, []int{1}, f(-1.2), f(1.2), nil, nil), fixed(nil, []int{0, 2})}, nil},
	// "Slider Joint: One linear axis ... limited with non-equal min and
	// max limits, the rest are fixed."
	{"slider", []any{lim([]int{0}, nil, f(-0.5), f(0.5), nil, nil), fixed([]int{1, 2}, nil), fixed(nil, xyz)}, nil},
	// "A 2D angular limit should restrict the attachment frame rotations
	// to a cone": a ball joint with a swing cone and a twist range; a
	// limit with only max has no lower bound.
	{"cone", []any{fixed(xyz, nil), lim(nil, []int{0, 2}, nil, f(0.6), nil, nil), lim(nil, []int{1}, f(-0.3), f(0.3), nil, nil)}, nil},
	// A soft limit: "Specifying a finite stiffness will cause the limit to
	// become soft".
	{"soft", []any{lim([]int{1}, nil, f(-0.2), f(0.2), f(500), f(5)), fixed([]int{0, 2}, nil), fixed(nil, xyz)}, nil},
	// A motor: a hinge whose drive has a velocity target (damping) and a
	// force limit.
	{"motor", []any{fixed(xyz, nil), fixed(nil, []int{0, 2})}, []any{map[string]any{
		"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 2.0, "damping": 10.0, "maxForce": 50.0}}},
	// A spring: a slider whose drive has a position target (stiffness) and
	// a velocity target (damping), in acceleration mode.
	{"spring", []any{fixed([]int{1, 2}, nil), fixed(nil, xyz)}, []any{map[string]any{
		"type": "linear", "mode": "acceleration", "axis": 0, "positionTarget": 0.2, "stiffness": 100.0, "velocityTarget": 0.0, "damping": 3.0}}},
}

// jointScene adds two dynamic bodies A and B side by side, each with a
// box collider, an attachment node on B and a joint node; where says
// where the joint goes: "child" (a node of its own under A, where both
// families allow it), "body" (on A's body node: KHR only), "static" (under
// a static collider: KHR only) or "kinematic" (under a kinematic body:
// KHR only). It returns the joint node, body A and the attachment node.
func jointScene(b *builder, def int, where string) (j, a, anchor int) {
	box := implicit(b.shape("box", map[string]any{"size": []float64{0.6, 0.6, 0.6}}))
	a, _ = body(b, "A", Dynamic, box, -1, 0, 2, 0)
	bb, _ := body(b, "B", Dynamic, box, -1, 1, 2, 0)
	anchor = b.node("B.attachment", bb, -0.5, 0, 0)
	switch where {
	case "body":
		j = a
	case "static":
		post := b.node("Post", -1, 0.5, 3, 0)
		b.collider(post, box, -1)
		j = b.node("Post.joint", post, 0, -1, 0)
	case "kinematic":
		k, _ := body(b, "Crane", Kinematic, box, -1, 0.5, 3, 0)
		j = b.node("Crane.joint", k, 0, -1, 0)
	default:
		j = b.node("A.joint", a, 0.5, 0, 0)
	}
	b.joint(j, def, anchor, false)
	return j, a, anchor
}

func joints() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		for _, jt := range jointTypes {
			b := newBuilder(fam)
			limits := jt.limits
			if fam == OMI && jt.name == "weld" {
				// OMI's own weld example: one limit with both axis kinds.
				l := fixed(xyz, xyz)
				limits = []any{l}
			}
			def := map[string]any{"limits": limits}
			if jt.drives != nil {
				def["drives"] = jt.drives
			}
			b.joints = append(b.joints, def)
			j, a, _ := jointScene(b, 0, "child")
			c := newCase(fmt.Sprintf("%s-joint-%s", fam, jt.name), fam, "joint", b)
			jointBroken(c, jt.name, j, a)
			out = append(out, c)
		}
	}
	// KHR places joints where OMI may not: on a body node, under a static
	// collider, under a kinematic body. Converting to OMI must place them
	// validly or warn.
	for _, where := range []string{"body", "static", "kinematic"} {
		b := newBuilder(KHR)
		b.joints = append(b.joints, map[string]any{"limits": jointTypes[1].limits})
		jointScene(b, 0, where)
		out = append(out, newCase("khr-joint-pin-on-"+where, KHR, "joint", b))
	}
	// OMI: a drive's "stiffness ... If not specified, the default value
	// is 0.0": a position target alone is valid OMI, invalid KHR.
	b := newBuilder(OMI)
	b.joints = append(b.joints, map[string]any{"limits": jointTypes[3].limits, "drives": []any{
		map[string]any{"type": "linear", "mode": "force", "axis": 0, "positionTarget": 0.1}}})
	jointScene(b, 0, "child")
	out = append(out, newCase("omi-joint-drive-position-without-stiffness", OMI, "joint", b))
	return out
}

// jointBroken adds the prohibited variants of joint type name (joint node
// j on body A's child) to c.
func jointBroken(c *Case, name string, j, a int) {
	jp := jointsPath(c.Family) + "[0]"
	switch name {
	case "hinge":
		c.broken("limit-min-above-max", jp+".limits[1]", "min is the minimum of the allowed range, max its maximum",
			func(d map[string]any) { at(d, jp+".limits[1]")["min"] = 1.5 })
	case "pin":
		c.broken("axis-3", jp+".limits[0].linearAxes", "must be in the range 0 to 2",
			func(d map[string]any) { at(d, jp+".limits[0]")["linearAxes"] = []any{0.0, 1.0, 3.0} })
	case "motor":
		c.broken("drive-axis-3", jp+".drives[0].axis", "The value must be 0 (X), 1 (Y), or 2 (Z)",
			func(d map[string]any) { at(d, jp+".drives[0]")["axis"] = 3.0 })
	case "spring":
		if c.Family == KHR {
			// The schema's dependencies go both ways, but a target
			// without its gain is a zero term (the KHR spec editor's
			// RigidBodies_Joint_09 is such a velocity motor), so only a
			// gain without its target is prohibited.
			c.broken("drive-stiffness-without-position", jp+".drives[0]", "stiffness requires positionTarget (the drive schema's dependencies)",
				func(d map[string]any) { delete(at(d, jp+".drives[0]"), "positionTarget") })
		}
	}
	if c.Family != OMI || name != "pin" {
		return
	}
	// OMI_physics_joint: "A joint must be on its own glTF node, it should
	// not be on the same node as a ... physics body"; a joint constrains
	// "dynamic bodies, or a dynamic body to a non-dynamic body" (the
	// README's own examples hang joints under static bodies, so one
	// dynamic side is what is required); the connected node "must be a
	// descendant of some kind of physics body node".
	onBody := fmt.Sprintf("nodes[%d].extensions.%s", a, extOMIJoint)
	c.broken("joint-on-body-node", onBody, "A joint must be on its own glTF node", func(d map[string]any) {
		n := obj(obj(arr(d["nodes"])[j])["extensions"])
		obj(obj(arr(d["nodes"])[a])["extensions"])[extOMIJoint] = n[extOMIJoint]
		delete(n, extOMIJoint)
	})
	jn := jointNodePath(OMI, j)
	c.broken("joint-between-kinematic-bodies", jn, "dynamic bodies, or a dynamic body to a non-dynamic body", func(d map[string]any) {
		for _, n := range arr(d["nodes"]) {
			if m := at(obj(n), "extensions."+extOMIBody+".motion"); m != nil {
				m["type"] = Kinematic
			}
		}
	})
	c.broken("connected-node-outside-bodies", jn, "The connected node must be a descendant of some kind of physics body node", func(d map[string]any) {
		// The scene's first root, a body, gets a plain sibling root.
		nodes := append(arr(d["nodes"]), map[string]any{"name": "Outside", "translation": []any{1.0, 3.0, 0.0}})
		d["nodes"] = nodes
		sc := obj(arr(d["scenes"])[0])
		sc["nodes"] = append(arr(sc["nodes"]), float64(len(nodes)-1))
		at(d, jn)["connectedNode"] = float64(len(nodes) - 1)
	})
}
