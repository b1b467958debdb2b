package main

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// The physics a conversion must keep, as the specifications define it:
// each family's defaults filled in, so that two files that say the same
// thing in their families' words compare equal.

// confModel is a file's decoded physics.
type confModel struct {
	fam    physics.Family
	m      *physics.Model
	nodes  []*gltfNode
	meshes []string // mesh geometry summaries (a conversion may renumber meshes)
}

type gltfNode struct {
	mesh     *int
	children []int
}

// readModel decodes the physics of a glTF file.
func readModel(p string) (*confModel, error) {
	a, err := gltfio.LoadRaw(p, gltfio.Limits{})
	if err != nil {
		return nil, err
	}
	m, fam, _, err := codecs.Decode(a.Doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	cm := &confModel{fam: fam, m: m}
	for _, n := range a.Doc.Nodes {
		cm.nodes = append(cm.nodes, &gltfNode{mesh: n.Mesh, children: n.Children})
	}
	doc, err := gltf.Open(p) // with the buffers' data
	if err != nil {
		return nil, err
	}
	for _, m := range doc.Meshes {
		cm.meshes = append(cm.meshes, meshSummary(doc, m))
	}
	return cm, nil
}

// meshSummary describes a mesh's geometry independently of how it is
// stored: its distinct positions, triangles and bounds.
func meshSummary(doc *gltf.Document, m *gltf.Mesh) string {
	points := map[[3]float32]bool{}
	tris := 0
	lo, hi := [3]float32{}, [3]float32{}
	for _, pr := range m.Primitives {
		pi, ok := pr.Attributes[gltf.POSITION]
		if !ok || pi >= len(doc.Accessors) {
			return "unreadable"
		}
		pos, err := modeler.ReadPosition(doc, doc.Accessors[pi], nil)
		if err != nil {
			return "unreadable: " + err.Error()
		}
		n := len(pos)
		if pr.Indices != nil && *pr.Indices < len(doc.Accessors) {
			n = doc.Accessors[*pr.Indices].Count
		}
		tris += n / 3
		for _, p := range pos {
			for k := range 3 {
				p[k] = float32(math.Round(float64(p[k])*1e4) / 1e4)
			}
			if len(points) == 0 {
				lo, hi = p, p
			}
			for k := range 3 {
				lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
			}
			points[p] = true
		}
	}
	return fmt.Sprintf("(%d points, %d triangles, %v..%v)", len(points), tris, lo, hi)
}

// g formats a number for comparison (float32 precision, as files hold).
func g(x float64) string { return fmt.Sprintf("%.6g", x) }

func gp(p *float64, def float64) string {
	if p == nil {
		return g(def)
	}
	return g(*p)
}

func gv(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = g(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// motion is the motion as the specs define it; "" for a static body (or
// none: "Static bodies ... Specifying a static body is optional").
func (cm *confModel) motion(mo *physics.Motion) string {
	if mo == nil || mo.Type == physics.Static {
		return ""
	}
	v3 := func(p *[3]float64) string {
		if p == nil {
			return gv([]float64{0, 0, 0})
		}
		return gv(p[:])
	}
	vel := "lin " + v3(mo.LinearVelocity) + " ang " + v3(mo.AngularVelocity)
	if mo.Type == physics.Kinematic {
		// "treat the rigid body as having infinite mass": mass members do
		// not apply.
		return "kinematic " + vel
	}
	mass := "engine"
	switch {
	case mo.Mass != nil && *mo.Mass == 0 && cm.fam == physics.KHR:
		mass = "infinite"
	case mo.Mass != nil:
		mass = g(*mo.Mass)
	case cm.fam == physics.OMI:
		mass = g(1) // "If not specified, the default value is 1 kilogram."
	}
	inertia := "engine"
	if d := mo.InertiaDiagonal; d != nil {
		parts := make([]string, 3)
		for i, x := range d {
			switch {
			case x == 0 && cm.fam == physics.KHR:
				parts[i] = "infinite"
			case x == 0:
				parts[i] = "engine" // OMI: "If zero ... automatically calculated"
			default:
				parts[i] = g(x)
			}
		}
		if parts[0] != "engine" || parts[1] != "engine" || parts[2] != "engine" {
			q := []float64{0, 0, 0, 1}
			if mo.InertiaOrientation != nil {
				q = mo.InertiaOrientation[:]
			}
			inertia = strings.Join(parts, ",") + " q " + gv(q)
		}
	}
	return fmt.Sprintf("dynamic mass %s com %s inertia %s %s gravity %s", mass, v3(mo.CenterOfMass), inertia, vel, gp(mo.GravityFactor, 1))
}

// shape is shape i as the specs define it ("" for none).
func (cm *confModel) shape(i int) string {
	if i < 0 || i >= len(cm.m.Shapes) {
		return ""
	}
	s := cm.m.Shapes[i]
	switch s.Type {
	case physics.Box:
		return "box " + gv(s.Size[:])
	case physics.Sphere:
		return "sphere " + g(s.Radius)
	case physics.Capsule, physics.Cylinder:
		return fmt.Sprintf("%s h %s top %s bottom %s", s.Type, g(s.Height), g(s.RadiusTop), g(s.RadiusBottom))
	case physics.Plane:
		return fmt.Sprintf("plane %s %s %v", g(s.PlaneSizeX), g(s.PlaneSizeZ), s.DoubleSided)
	case physics.Convex, physics.Trimesh:
		mesh := s.Mesh
		if n := s.GeometryNode; n != nil && *n >= 0 && *n < len(cm.nodes) && cm.nodes[*n].mesh != nil {
			mesh = *cm.nodes[*n].mesh
		}
		if mesh >= 0 && mesh < len(cm.meshes) {
			return fmt.Sprintf("%s mesh %s", s.Type, cm.meshes[mesh])
		}
		return fmt.Sprintf("%s mesh %d", s.Type, mesh)
	}
	return string(s.Type)
}

func (cm *confModel) material(i int) string {
	var mt physics.Material
	if i >= 0 && i < len(cm.m.Materials) {
		mt = cm.m.Materials[i]
	}
	comb := func(s string) string {
		if s == "" {
			return "average"
		}
		return s
	}
	return fmt.Sprintf("friction %s/%s restitution %s combine %s/%s", gp(mt.StaticFriction, 0.6), gp(mt.DynamicFriction, 0.6),
		gp(mt.Restitution, 0), comb(mt.FrictionCombine), comb(mt.RestitutionCombine))
}

func (cm *confModel) filter(i int) string {
	if i < 0 || i >= len(cm.m.Filters) {
		return "all"
	}
	f := cm.m.Filters[i]
	list := func(s []string) string { s = slices.Clone(s); sort.Strings(s); return strings.Join(s, ",") }
	return fmt.Sprintf("in [%s] with [%s] not [%s]", list(f.CollisionSystems), list(f.CollideWithSystems), list(f.NotCollideWithSystems))
}

// jointDef is joint description i, limits split per axis kind and
// sorted, defaults filled.
func (cm *confModel) jointDef(i int) string {
	if i < 0 || i >= len(cm.m.Joints) {
		return "none"
	}
	var parts []string
	for _, l := range cm.m.Joints[i].Limits {
		rest := fmt.Sprintf("min %s max %s stiffness %s damping %s", gpInf(l.Min, "-inf"), gpInf(l.Max, "inf"), gpInf(l.Stiffness, "inf"), gp(l.Damping, 0))
		for _, ax := range []struct {
			kind string
			axes []int
		}{{"linear", l.LinearAxes}, {"angular", l.AngularAxes}} {
			if len(ax.axes) > 0 {
				a := slices.Clone(ax.axes)
				slices.Sort(a)
				parts = append(parts, fmt.Sprintf("limit %s %v %s", ax.kind, a, rest))
			}
		}
	}
	for _, d := range cm.m.Joints[i].Drives {
		parts = append(parts, fmt.Sprintf("drive %s %s axis %d maxForce %s position %s velocity %s stiffness %s damping %s",
			d.Type, d.Mode, d.Axis, gpInf(d.MaxForce, "inf"), gpInf(d.PositionTarget, "none"), gpInf(d.VelocityTarget, "none"), gp(d.Stiffness, 0), gp(d.Damping, 0)))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

func gpInf(p *float64, def string) string {
	if p == nil {
		return def
	}
	return g(*p)
}

// confItem is one item of a file's physics and the JSON paths a warning
// about it may name.
type confItem struct {
	key, value string
	paths      []string
}

// items lists the physics of the file item by item: per node its motion,
// collider (shape, material, filter) and trigger; the joints as a
// multiset of descriptions (a conversion may move a joint to another
// node, see #21 item 3).
func (cm *confModel) items() map[string]confItem {
	out := map[string]confItem{}
	add := func(key, value string, paths ...string) { out[key] = confItem{key, value, paths} }
	var joints []string
	for _, ni := range cm.m.NodeIndices() {
		n := cm.m.Nodes[ni]
		np := fmt.Sprintf("nodes[%d]", ni)
		if mo := cm.motion(n.Motion); mo != "" {
			add(np+" motion", mo, np)
		}
		if c := n.Collider; c != nil && c.Shape >= 0 {
			add(np+" collider", cm.shape(c.Shape), np, fmt.Sprintf("shapes[%d]", c.Shape))
			add(np+" collider material", cm.material(c.Material), np, fmt.Sprintf("physicsMaterials[%d]", c.Material))
			add(np+" collider filter", cm.filter(c.Filter), np, fmt.Sprintf("collisionFilters[%d]", c.Filter))
		}
		if tr := n.Trigger; tr != nil {
			v := cm.shape(tr.Shape)
			if len(tr.Nodes) > 0 {
				v = fmt.Sprintf("compound %v", tr.Nodes)
			}
			add(np+" trigger", v, np, fmt.Sprintf("shapes[%d]", tr.Shape))
			add(np+" trigger filter", cm.filter(tr.Filter), np, fmt.Sprintf("collisionFilters[%d]", tr.Filter))
		}
		if j := n.Joint; j != nil {
			joints = append(joints, fmt.Sprintf("%s collide %v", cm.jointDef(j.Def), j.EnableCollision))
		}
	}
	sort.Strings(joints)
	for i, j := range joints {
		add(fmt.Sprintf("joint %d", i), j, "physicsJoints", "joint")
	}
	return out
}

// lost compares the physics before and after a conversion: each item that
// changed must be named by a warning (its path holding one of the item's
// paths) of one of the steps, and no step may repeat a warning. It returns
// the problems.
func lost(before, after *confModel, steps ...[]string) error {
	probs := repeated(steps)
	warns := slices.Concat(steps...)
	a, b := before.items(), after.items()
	keys := slices.Sorted(mapKeys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		x, y := a[k], b[k]
		if x.value == y.value {
			continue
		}
		paths := append(x.paths, y.paths...)
		if !slices.ContainsFunc(warns, func(w string) bool {
			return slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(w, p) })
		}) {
			probs = append(probs, fmt.Sprintf("%s: %q became %q with no warning", k, x.value, y.value))
		}
	}
	if len(probs) > 0 {
		return fmt.Errorf("%s", strings.Join(probs, "; "))
	}
	return nil
}

// repeated lists the warnings a step gave twice.
func repeated(steps [][]string) []string {
	var probs []string
	for _, warns := range steps {
		seen := map[string]bool{}
		for _, w := range warns {
			if seen[w] {
				probs = append(probs, "warned twice: "+w)
			}
			seen[w] = true
		}
	}
	return probs
}

// kindWords are, per kind of item, the words one of which a warning about
// a change of that kind must hold when nodes cannot be matched.
var kindWords = map[string][]string{
	"motion": {"motion", "mass", "inertia", "velocity", "gravity"}, "collider": {"shape", "collider", "plane"},
	"collider material": {"material"}, "collider filter": {"filter"}, "trigger": {"trigger", "shape"},
	"trigger filter": {"filter"}, "joint": {"joint"},
}

// lostAnyNode is lost for a conversion that rebuilds the node hierarchy
// (G4MF): the items of each kind are compared as multisets, and a change
// must be named by a warning holding a word of its kind.
func lostAnyNode(before, after *confModel, steps ...[]string) error {
	warns := slices.Concat(steps...)
	group := func(cm *confModel) map[string][]string {
		out := map[string][]string{}
		for k, it := range cm.items() {
			kind := "joint"
			if _, rest, ok := strings.Cut(k, " "); ok && strings.HasPrefix(k, "nodes[") {
				kind = rest
			}
			out[kind] = append(out[kind], it.value)
		}
		for _, v := range out {
			sort.Strings(v)
		}
		return out
	}
	a, b := group(before), group(after)
	probs := repeated(steps)
	for _, kind := range slices.Sorted(mapKeys(kindWords)) {
		if slices.Equal(a[kind], b[kind]) {
			continue
		}
		if !slices.ContainsFunc(warns, func(w string) bool {
			return slices.ContainsFunc(kindWords[kind], func(word string) bool { return strings.Contains(w, word) })
		}) {
			probs = append(probs, fmt.Sprintf("%s: %q became %q with no warning", kind, a[kind], b[kind]))
		}
	}
	if len(probs) > 0 {
		return fmt.Errorf("%s", strings.Join(probs, "; "))
	}
	return nil
}

// warnings returns the warning lines of a command's stderr for input in,
// without the file prefix.
func warnings(stderr, in string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if w, ok := strings.CutPrefix(l, in+": warning: "); ok {
			out = append(out, w)
		}
	}
	return out
}

// jointRules checks OMI_physics_joint's placement rules in an OMI model:
// "The joint node must have a dynamic body ancestor node"; "A joint must
// be on its own glTF node"; the connected node "must be a descendant of
// some kind of physics body node". A warning naming the joint's node
// excuses it ("or warn that it cannot", #21 item 3).
func jointRules(cm *confModel, warns []string) error {
	parent := map[int]int{}
	for i, n := range cm.nodes {
		for _, c := range n.children {
			parent[c] = i
		}
	}
	motion := func(k int) *physics.Motion {
		if n := cm.m.Nodes[k]; n != nil {
			return n.Motion
		}
		return nil
	}
	var probs []string
	for _, ni := range cm.m.NodeIndices() {
		n := cm.m.Nodes[ni]
		if n.Joint == nil {
			continue
		}
		var bad []string
		if n.Motion != nil || n.Collider != nil || n.Trigger != nil {
			bad = append(bad, "the joint is on a physics body node")
		}
		// The body a node belongs to: its nearest self-or-ancestor motion.
		bodyOf := func(k int, self bool) *physics.Motion {
			if !self {
				k, self = parent[k]
				if !self {
					return nil
				}
			}
			for ok := true; ok; k, ok = parent[k] {
				if mo := motion(k); mo != nil {
					return mo
				}
			}
			return nil
		}
		jb, cb := bodyOf(ni, false), bodyOf(n.Joint.ConnectedNode, true)
		if jb == nil {
			bad = append(bad, "the joint node is in no body")
		}
		if cb == nil {
			bad = append(bad, fmt.Sprintf("the connected node %d is in no body", n.Joint.ConnectedNode))
		}
		if jb != nil && cb != nil && jb.Type != physics.Dynamic && cb.Type != physics.Dynamic {
			bad = append(bad, "neither side is a dynamic body")
		}
		np := fmt.Sprintf("nodes[%d]", ni)
		if len(bad) > 0 && !slices.ContainsFunc(warns, func(w string) bool { return strings.Contains(w, np) && strings.Contains(w, "joint") }) {
			probs = append(probs, np+": "+strings.Join(bad, ", "))
		}
	}
	if len(probs) > 0 {
		return fmt.Errorf("OMI joint rules: %s", strings.Join(probs, "; "))
	}
	return nil
}

// TestConformanceChecksCatch: the suite's comparisons fail on what they
// must catch.
func TestConformanceChecksCatch(t *testing.T) {
	model := func(fam physics.Family, mass float64) *confModel {
		m := physics.NewModel()
		m.Node(0).Motion = &physics.Motion{Type: physics.Dynamic, Mass: &mass}
		m.Node(0).Collider = physics.NewCollider(m.AddShape(physics.Shape{Type: physics.Sphere, Radius: 0.5}))
		m.Joints = []physics.JointDef{{Limits: []physics.JointLimit{{LinearAxes: []int{0, 1, 2}, AngularAxes: []int{1}}}}}
		m.Node(1).Joint = &physics.Joint{Def: 0, ConnectedNode: 0}
		return &confModel{fam: fam, m: m, nodes: []*gltfNode{{children: []int{1}}, {}}}
	}
	a, b := model(physics.OMI, 2), model(physics.KHR, 3)
	if lost(a, a, nil) != nil || lost(a, model(physics.KHR, 2), nil) != nil {
		t.Error("equal physics reported lost")
	}
	if lost(a, b, nil) == nil {
		t.Error("a changed mass passes without a warning")
	}
	w := "nodes[0].extensions.KHR_physics_rigid_bodies.motion.mass: changed"
	if err := lost(a, b, []string{w}); err != nil {
		t.Errorf("a warned change: %v", err)
	}
	if lost(a, b, []string{w, w}) == nil {
		t.Error("a repeated warning passes")
	}
	if err := lost(a, b, []string{w}, []string{w}); err != nil {
		t.Errorf("one warning in each of two steps: %v", err)
	}
	if lostAnyNode(b, b, nil) != nil || lostAnyNode(a, b, nil) == nil || lostAnyNode(a, b, []string{"mass changed"}) != nil {
		t.Error("lostAnyNode does not tell a changed motion")
	}
	// OMI's weld limit (both axis kinds) equals KHR's split limits.
	split := model(physics.KHR, 2)
	split.m.Joints[0].Limits = []physics.JointLimit{{AngularAxes: []int{1}}, {LinearAxes: []int{2, 1, 0}}}
	if err := lost(a, split, nil); err != nil {
		t.Errorf("split limits: %v", err)
	}
	a.m.Node(2).Collider = physics.NewCollider(0)
	if lost(a, split, nil) == nil {
		t.Error("a dropped collider passes")
	}
	// The joint node's ancestor (node 0) is dynamic; on node 0 itself it
	// is on a body node.
	if err := jointRules(a, nil); err != nil {
		t.Errorf("a valid OMI joint: %v", err)
	}
	a.m.Node(0).Joint, a.m.Nodes[1].Joint = a.m.Nodes[1].Joint, nil
	if jointRules(a, nil) == nil {
		t.Error("a joint on its body node passes")
	}
	if jointRules(a, []string{"nodes[0].extensions.KHR_physics_rigid_bodies.joint: cannot place it"}) != nil {
		t.Error("a warned joint placement fails")
	}
	out := "f.gltf: error: extensions.X.shapes[0].box.size[1]: zero\nf.gltf: warning: nodes[2]: w\n"
	if errorAt(1, out, "f.gltf", "extensions.X.shapes[0].box") != nil {
		t.Error("an error under the path is not found")
	}
	if errorAt(1, out, "f.gltf", "nodes[2]") == nil || errorAt(1, out, "f.gltf", "extensions.X.shapes[0].bo") == nil {
		t.Error("a warning or a path prefix counts as the error")
	}
	if errorAt(0, out, "f.gltf", "extensions.X.shapes[0].box") == nil {
		t.Error("exit 0 passes")
	}
}
