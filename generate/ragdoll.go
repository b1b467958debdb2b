package generate

import (
	"context"
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/ragdoll"
	"github.com/qmuntal/gltf"
)

// BodiesPerBone makes a ragdoll of every skinned mesh: a dynamic body on
// each significant bone, jointed to its parent bone's body (package
// ragdoll), its mass from its collider spread along the chains as real
// ragdoll tools do (ragdoll.StabilizeMasses), bodies that overlap at rest kept
// from colliding by collision filters (ragdollFilters). Meshes without a
// skin get one body per scene root, except under a root holding a
// ragdoll, where they get none.
const BodiesPerBone BodyMode = "bone"

// RagdollSettings tune BodiesPerBone; zero fields take package ragdoll's
// defaults. The bone colliders' method is Options.Collider.Method when it
// is capsule, box, sphere or hull, else capsule.
type RagdollSettings struct {
	// MinWeightShare and MinSize are ragdoll.Settings' (negative: no
	// minimum).
	MinWeightShare float64 `json:",omitempty"`
	MinSize        float64 `json:",omitempty"`
	// Threshold gives a vertex to every bone whose weight share reaches
	// WeightThreshold (ragdoll.Threshold) instead of its dominant bone
	// only.
	Threshold       bool    `json:",omitempty"`
	WeightThreshold float64 `json:",omitempty"`
	// Limits is the joint-limit table (nil: ragdoll.DefaultLimits).
	Limits []ragdoll.LimitRule `json:",omitempty"`
}

// RagdollReport says what a skin's ragdoll became.
type RagdollReport struct {
	// Skin is the skin's index (the first one's when several skins drive
	// one armature: then Skins lists them all), Nodes the skinned mesh
	// nodes they drive.
	Skin  int   `json:"skin"`
	Skins []int `json:"skins,omitempty"`
	Nodes []int `json:"nodes"`
	Bones int   `json:"bones"`
	// Bodies names the bones with a body, Merged the others ("bone →
	// body bone", or "bone → none" above the first body).
	Bodies []string `json:"bodies"`
	Merged []string `json:"merged"`
	// Joints are "child – parent (limit rule)", and Limits their limits,
	// one per joint in the same order.
	Joints []string      `json:"joints"`
	Limits []LimitReport `json:"limits,omitempty"`
	Mass   float64       `json:"mass"`
}

// ragdollParts sets the skinned parts of todo aside for ragdolls and
// returns the others, leaving out (with a note) those under a scene root
// that holds a ragdoll.
func (p *planner) ragdollParts(ex *mesh.Result, todo []int) []int {
	roots := map[int]bool{}
	for _, i := range todo {
		if ex.Parts[i].Influences != nil {
			p.plan.ragdoll = append(p.plan.ragdoll, i)
			roots[ex.Parts[i].Root] = true
		}
	}
	var rest []int
	for _, i := range todo {
		switch part := &ex.Parts[i]; {
		case part.Influences != nil:
		case roots[part.Root]:
			p.plan.notes = append(p.plan.notes, fmt.Sprintf("%s: not skinned, under a scene root with a ragdoll: no body", part.Name))
		default:
			rest = append(rest, i)
		}
	}
	return rest
}

// ragdolls makes one ragdoll of each armature driving the plan's
// skinned parts (armatures): bodies on the joint nodes, colliders,
// masses and joints, added to the model and the asset.
func (j *job) ragdolls(ctx context.Context) error {
	doc, parts := j.a.Doc, j.plan.ragdoll
	if len(parts) == 0 {
		return nil
	}
	parent := physics.Parents(doc)
	for _, g := range armatures(doc, j.ex, parts, parent) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if n, ok := underSkinnedMesh(doc, g.joints, parent); ok {
			j.noRagdoll(g, fmt.Sprintf("its joint %s is or lies under a skinned mesh node, whose transform glTF ignores", mesh.NodeName(doc, n)))
			continue
		}
		bones, skin := ragdollInput(doc, j.ex, g, j.world, parent)
		rd, err := ragdoll.Build(bones, skin, ragdollSettings(j.opt))
		if err != nil {
			j.noRagdoll(g, err.Error())
			continue
		}
		if err := j.writeRagdoll(g, rd); err != nil {
			return err
		}
	}
	return nil
}

// noRagdoll reports a skin that gets no ragdoll: a warning saying why,
// and its parts with no colliders.
func (j *job) noRagdoll(g *skinGroup, why string) {
	a, ex, rep := j.a, j.ex, j.rep
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s (%s): %s: no ragdoll", g.label(), ex.Parts[g.parts[0]].Name, why))
	for _, i := range g.parts {
		p := &ex.Parts[i]
		rep.Parts = append(rep.Parts, PartReport{Body: p.Node, Node: p.Node, Name: partName(a.Doc, p), Triangles: len(p.Triangles), Method: None, Reason: "no ragdoll: " + why})
	}
}

// underSkinnedMesh returns a joint that is, or lies under, a node with a
// skinned mesh: a body there would not move what it claims to (glTF
// ignores that node's transform, and importers re-parent skinned meshes).
func underSkinnedMesh(doc *gltf.Document, joints []int, parent []int) (int, bool) {
	for _, j := range joints {
		for n := j; n >= 0; n = parent[n] {
			if doc.Nodes[n].Skin != nil && doc.Nodes[n].Mesh != nil {
				return j, true
			}
		}
	}
	return 0, false
}

// ragdollSettings are the ragdoll package's settings from the options.
func ragdollSettings(opt Options) ragdoll.Settings {
	r := opt.Body.Ragdoll
	s := ragdoll.Settings{MinWeightShare: r.MinWeightShare, MinSize: r.MinSize, WeightThreshold: r.WeightThreshold,
		MaxHullVertices: hullOptions(opt.Collider).MaxVertices, Limits: r.Limits}
	if r.Threshold {
		s.Assign = ragdoll.Threshold
	}
	switch m := ragdoll.Method(opt.Collider.Method); m {
	case ragdoll.Capsule, ragdoll.Box, ragdoll.Sphere, ragdoll.Hull:
		s.Method = m
	}
	return s
}

// ragdollBody is where one body of a ragdoll went.
type ragdollBody struct {
	node   int       // the node carrying the motion
	frame  int       // the node whose space is the body's Frame (node, or a child cancelling its scale)
	toNode geom.Mat4 // Frame to the carrying node's space
}

// writeRagdoll adds the ragdoll rd of armature g, its bodies, colliders
// and joints, to the asset and the model.
func (j *job) writeRagdoll(g *skinGroup, rd *ragdoll.Ragdoll) error {
	a, ex, model, rep, joints, defs := j.a, j.ex, j.model, j.rep, g.joints, j.jointDefs
	rr := RagdollReport{Skin: g.skins[0], Bones: len(joints), Bodies: []string{}, Merged: []string{}, Joints: []string{}}
	if len(g.skins) > 1 {
		rr.Skins = g.skins
	}
	for _, i := range g.parts {
		rr.Nodes = append(rr.Nodes, ex.Parts[i].Node)
	}
	placed := make([]ragdollBody, len(rd.Bodies))
	cs := make([]Collider, len(rd.Bodies))
	for bi, b := range rd.Bodies {
		c, err := boneCollider(b)
		if err != nil {
			return fmt.Errorf("%s: ragdoll body %q: %w", ex.Parts[g.parts[0]].Name, b.Name, err)
		}
		cs[bi] = c
	}
	masses := ragdollMasses(rd, cs, j.opt.Body.Mass)
	filters, warning := ragdollFilters(model, rd, cs, joints, j.res.filter)
	if warning != "" {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %s", ex.Parts[g.parts[0]].Name, warning))
	}
	for bi, b := range rd.Bodies {
		rb, err := j.placeBody(joints[b.Bone], b)
		if err != nil {
			return err
		}
		placed[bi] = rb
		c := cs[bi]
		node := gltfio.NewObject()
		node.Set("name", sourceName(b.Name)+".collider")
		setPose(node, c.Translation, c.Rotation)
		if c.Hull != nil {
			m, err := a.AppendMesh(sourceName(b.Name)+".hull", c.Hull.Vertices, c.Hull.Triangles, j.opt.Encoding.Binary)
			if err != nil {
				return err
			}
			c.Shape.Mesh = m
		}
		idx, err := a.AppendNode(rb.frame, node)
		if err != nil {
			return err
		}
		model.Node(idx).Collider = &physics.Collider{Shape: model.AddShape(c.Shape), Material: j.res.material, Filter: filters[bi]}
		rep.Colliders[string(c.Shape.Type)]++
		br := BodyReport{Node: rb.node, Name: b.Name, Motion: physics.Dynamic, Colliders: 1}
		m := masses[bi]
		var mo *physics.Motion
		if err = m.err; err == nil {
			mo, err = boneMotion(m.body, rb.toNode)
		}
		if err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: mass: %v; left to the engine", b.Name, err))
			mo = &physics.Motion{Type: physics.Dynamic}
		} else {
			br.Volume, br.Mass, br.MassSource = m.volume, *mo.Mass, m.source
			rr.Mass += *mo.Mass
		}
		model.Node(rb.node).Motion = mo
		rep.BodyList = append(rep.BodyList, br)
		rep.Bodies++
		rr.Bodies = append(rr.Bodies, b.Name)
	}
	for _, m := range rd.Merged {
		into := "none"
		if m.Body >= 0 {
			into = rd.Bodies[m.Body].Name
		}
		rr.Merged = append(rr.Merged, fmt.Sprintf("%s → %s", boneLabel(a.Doc, joints[m.Bone]), into))
	}
	for _, jt := range rd.Joints {
		child, par := rd.Bodies[jt.Child], rd.Bodies[jt.Parent]
		def, ok := defs[jt.Rule+fmt.Sprint(jt.Limit)]
		if !ok {
			model.Joints = append(model.Joints, jointDef(jt.Rule, jt.Limit))
			def = len(model.Joints) - 1
			defs[jt.Rule+fmt.Sprint(jt.Limit)] = def
		}
		ji, err := appendPosed(a, placed[jt.Child].frame, sourceName(child.Name)+".joint", jt.ChildFrame)
		if err != nil {
			return err
		}
		ai, err := appendPosed(a, placed[jt.Parent].frame, sourceName(child.Name)+".joint.anchor", jt.ParentFrame)
		if err != nil {
			return err
		}
		model.Node(ji).Joint = &physics.Joint{Def: def, ConnectedNode: ai}
		rr.Joints = append(rr.Joints, fmt.Sprintf("%s – %s (%s)", child.Name, par.Name, jt.Rule))
		rr.Limits = append(rr.Limits, limitReport(jt))
	}
	if rd.Unweighted > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %d vertices without weights belong to no body", g.label(), rd.Unweighted))
	}
	pr := PartReport{Body: placed[0].node, Node: rr.Nodes[0], Name: partName(a.Doc, &ex.Parts[g.parts[0]]),
		Method: Method(ragdollSettings(j.opt).Method), Colliders: len(rd.Bodies),
		Reason: fmt.Sprintf("ragdoll: %d bodies on %d bones, %d joints", len(rd.Bodies), len(joints), len(rd.Joints))}
	if pr.Method == "" {
		pr.Method = Capsule
	}
	for _, i := range g.parts {
		pr.Triangles += len(ex.Parts[i].Triangles)
	}
	rep.Parts = append(rep.Parts, pr)
	rep.Ragdolls = append(rep.Ragdolls, rr)
	return nil
}

func boneLabel(doc *gltf.Document, n int) string {
	if doc.Nodes[n].Name != "" {
		return doc.Nodes[n].Name
	}
	return fmt.Sprintf("node%d", n)
}

// placeBody picks the node carrying a body on joint node n: n itself,
// unless n carries a mesh, a camera or a light, which must not move with
// the body: then a new child with the same world pose. Its colliders and
// joint frames go on a child that cancels the node's scale when it has
// one.
func (j *job) placeBody(n int, b ragdoll.Body) (ragdollBody, error) {
	a := j.a
	node := a.Doc.Nodes[n]
	rb := ragdollBody{node: n, frame: n}
	w := j.world[n]
	if _, light := node.Extensions["KHR_lights_punctual"]; node.Mesh != nil || node.Camera != nil || light {
		c := gltfio.NewObject()
		c.Set("name", sourceName(b.Name)+".body")
		idx, err := a.AppendNode(n, c)
		if err != nil {
			return rb, err
		}
		rb.node, rb.frame = idx, idx
	}
	inv, ok := w.Inverse()
	if !ok {
		return rb, fmt.Errorf("%s: singular world transform", mesh.NodeName(a.Doc, n))
	}
	rb.toNode = inv.Mul(b.Frame)
	if rb.toNode.IsIdentity() {
		return rb, nil
	}
	c := gltfio.NewObject()
	c.Set("name", sourceName(b.Name)+".colliders")
	if s, diagonal := rb.toNode.ScaleOnly(); diagonal {
		c.Set("scale", []any{gltfio.Num(s[0]), gltfio.Num(s[1]), gltfio.Num(s[2])})
	} else {
		m := rb.toNode.GLTF()
		vals := make([]any, 16)
		for i, v := range m {
			vals[i] = gltfio.Num(v)
		}
		c.Set("matrix", vals)
	}
	idx, err := a.AppendNode(rb.node, c)
	if err != nil {
		return rb, err
	}
	rb.frame = idx
	return rb, nil
}

// appendPosed appends a node named name under node parent, at pose f
// in parent's space, and returns its index.
func appendPosed(a *gltfio.Asset, parent int, name string, f ragdoll.Pose) (int, error) {
	n := gltfio.NewObject()
	n.Set("name", name)
	setPose(n, f.Position, f.Rotation)
	return a.AppendNode(parent, n)
}

// setPose writes a translation and a rotation on a node, when they are
// not the identity.
func setPose(node *gltfio.Object, t geom.Vec3, q geom.Quat) {
	if t != (geom.Vec3{}) {
		node.Set("translation", []any{gltfio.Num(t[0]), gltfio.Num(t[1]), gltfio.Num(t[2])})
	}
	if q != geom.IdentityQuat() && q != (geom.Quat{}) {
		node.Set("rotation", []any{gltfio.Num(q[0]), gltfio.Num(q[1]), gltfio.Num(q[2]), gltfio.Num(q[3])})
	}
}

// boneCollider turns a ragdoll body's collider into generate's, in the
// body's Frame.
func boneCollider(b ragdoll.Body) (Collider, error) {
	c := b.Collider
	if c.Method == ragdoll.Hull {
		return convexCollider(c.Hull, Hull, c.Hull.Reduced), nil
	}
	k, ok := kinds.ByFit(c.Shape.Kind)
	if !ok {
		return Collider{}, fmt.Errorf("no collider kind fits %v", c.Shape.Kind)
	}
	return fitted(b.Points, c.Shape, k), nil
}

// ragdollFilters returns the collision filter of each ragdoll body's
// collider (indices into model.Filters, -1 for none), adding those it
// needs: two bodies of a ragdoll whose colliders overlap at rest, other
// than a jointed pair (the joints disable those), must not collide, or
// the engine pushes them apart on the first step and the joints between
// them open (Jolt's RagdollSettings::DisableParentChildCollisions and
// Unreal's physics assets do the same). Each such body gets a filter
// with a collision system of its own ("<bone>.ragdoll<node>") and the
// systems of the bodies it overlaps as notCollideWithSystems, on top of
// the profile's filter (base, -1 for none). A profile filter that lists
// collideWithSystems cannot take notCollideWithSystems beside it: the
// bodies keep it, and the returned warning says so.
func ragdollFilters(model *physics.Model, rd *ragdoll.Ragdoll, cs []Collider, joints []int, base int) ([]int, string) {
	out := make([]int, len(rd.Bodies))
	for i := range out {
		out[i] = base
	}
	apart := restOverlaps(rd, cs)
	if !slices.ContainsFunc(apart, func(o []int) bool { return len(o) > 0 }) {
		return out, ""
	}
	var from physics.Filter
	if base >= 0 {
		from = model.Filters[base]
		if len(from.CollideWithSystems) > 0 {
			return out, "the profile's collision filter lists collideWithSystems, so the ragdoll's bodies that overlap at rest cannot be kept from colliding"
		}
	}
	system := func(i int) string {
		return fmt.Sprintf("%s.ragdoll%d", sourceName(rd.Bodies[i].Name), joints[rd.Bodies[i].Bone])
	}
	for i, others := range apart {
		if len(others) == 0 {
			continue
		}
		f := physics.Filter{Name: system(i),
			CollisionSystems:      append(slices.Clone(from.CollisionSystems), system(i)),
			NotCollideWithSystems: slices.Clone(from.NotCollideWithSystems)}
		for _, o := range others {
			f.NotCollideWithSystems = append(f.NotCollideWithSystems, system(o))
		}
		model.Filters = append(model.Filters, f)
		out[i] = len(model.Filters) - 1
	}
	return out, ""
}

// restOverlaps returns, for each body of the ragdoll, the other bodies
// (ascending) whose colliders cs (in the bodies' Frames) overlap its own
// at rest, leaving out the jointed pairs (ragdoll.Ragdoll.RestOverlaps).
func restOverlaps(rd *ragdoll.Ragdoll, cs []Collider) [][]int {
	solids := make([]ragdoll.Solid, len(rd.Bodies))
	for i, b := range rd.Bodies {
		solids[i] = solidAtRest(cs[i], b.Frame)
	}
	return rd.RestOverlaps(solids)
}

// solidAtRest places a collider given in a body frame f in world space.
func solidAtRest(c Collider, f geom.Mat4) ragdoll.Solid {
	sh := c.Shape
	q := c.Rotation
	if q == (geom.Quat{}) {
		q = geom.IdentityQuat()
	}
	at := func(p geom.Vec3) geom.Vec3 { return f.Point(q.Rotate(p).Add(c.Translation)) }
	local := colliderPoints(c) // a hull's own vertices: not to be changed
	pts := make([]geom.Vec3, len(local))
	for i, p := range local {
		pts[i] = f.Point(p)
	}
	switch {
	case sh.Type == physics.Sphere:
		p := at(geom.Vec3{})
		return ragdoll.RoundSolid(p, p, sh.Radius, pts)
	case sh.Type == physics.Capsule && sh.RadiusTop == sh.RadiusBottom:
		return ragdoll.RoundSolid(at(geom.Vec3{0, sh.Height / 2, 0}), at(geom.Vec3{0, -sh.Height / 2, 0}), sh.RadiusTop, pts)
	}
	return ragdoll.PointSolid(pts)
}

// boneMass is a ragdoll body's mass, or why it has none.
type boneMass struct {
	body   mass.Body // in the body's Frame
	volume float64
	source string
	err    error
}

// ragdollMasses returns the masses of the ragdoll's bodies from their
// colliders cs (in their Frames) and the profile's mass spec, stabilized
// (ragdoll.StabilizeMasses).
func ragdollMasses(rd *ragdoll.Ragdoll, cs []Collider, spec Mass) []boneMass {
	out := make([]boneMass, len(rd.Bodies))
	for i := range rd.Bodies {
		m := &out[i]
		var props mass.Properties
		if props, m.source, m.err = BodyMass(context.Background(), nil, []Collider{cs[i]}); m.err == nil {
			m.body, m.err = spec.Body(props)
			m.volume = props.Volume
		}
	}
	parent := make([]int, len(rd.Bodies))
	ok := make([]bool, len(rd.Bodies))
	bodies := make([]mass.Body, len(rd.Bodies))
	for i, b := range rd.Bodies {
		parent[i], ok[i], bodies[i] = b.Parent, out[i].err == nil, out[i].body
	}
	ragdoll.StabilizeMasses(bodies, parent, ok)
	for i := range out {
		out[i].body = bodies[i]
	}
	return out
}

// boneMotion is the dynamic motion of a body whose mass properties are
// in its Frame, written in the carrying node's space (toNode maps Frame
// into it).
func boneMotion(b mass.Body, toNode geom.Mat4) (*physics.Motion, error) {
	c := toNode.Point(b.CenterOfMass)
	if !c.IsFinite() {
		return nil, fmt.Errorf("non-finite centre of mass %v", c)
	}
	m, com, diag, q := b.Mass, [3]float64(c), b.InertiaDiagonal, [4]float64(b.InertiaOrientation)
	return &physics.Motion{Type: physics.Dynamic, Mass: &m, CenterOfMass: &com, InertiaDiagonal: &diag, InertiaOrientation: &q}, nil
}

// jointDef is the joint description of a limit: the joint frames pinned
// together, swing within the limit's cone (one 2D limit when it is round,
// else one per swing axis) and twist about +Y within its range.
func jointDef(rule string, l ragdoll.Limit) physics.JointDef {
	zero := 0.0
	lim := func(axes []int, a float64) physics.JointLimit {
		lo, hi := -a, a
		return physics.JointLimit{AngularAxes: axes, Min: &lo, Max: &hi}
	}
	d := physics.JointDef{Name: rule, Limits: []physics.JointLimit{{LinearAxes: []int{0, 1, 2}, Min: &zero, Max: &zero}}}
	if l.Swing1 == l.Swing2 {
		d.Limits = append(d.Limits, lim([]int{0, 2}, l.Swing1))
	} else {
		d.Limits = append(d.Limits, lim([]int{0}, l.Swing1), lim([]int{2}, l.Swing2))
	}
	d.Limits = append(d.Limits, lim([]int{1}, l.Twist))
	return d
}
