package g4mf

import (
	"fmt"
	"math"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	physvalidate "github.com/autocollide/autocollide/physics/validate"
)

// Generator is written to asset.generator.
const Generator = "autocollide"

// ExportFile reads a glTF file with its physics and writes it as a 3D
// G4MF file (.g4tf or .g4b by out's name). It returns one warning per
// item G4MF cannot express.
func ExportFile(in, out string) ([]string, error) {
	if !IsName(out) {
		return nil, fmt.Errorf("%s: output must end in .g4tf or .g4b", out)
	}
	a, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		return nil, err
	}
	f, warns, err := Export(a.Doc)
	if err != nil {
		return warns, fmt.Errorf("%s: %w", in, err)
	}
	return warns, f.Save(out)
}

// comTolerance (m) is the largest centre-of-mass offset treated as zero:
// offsets below a nanometre are rounding noise of the mass computation
// and get no extra node.
const comTolerance = 1e-9

// exporter carries the state of one Export.
type exporter struct {
	doc    *gltf.Document
	model  *physics.Model
	family physics.Family // the family model was read from
	b      *builder
	warns  []string
	meshes map[int]int // glTF mesh → G4MF mesh (-1: not exportable)
	shapes []int       // model shape → G4MF shape
	world  []geom.Mat4
}

// conformalTolerance bounds how far a shape node's basis may be from
// orthogonal with equal lengths (relative) before a warning: G4MF
// requires shape nodes to be conformal.
const conformalTolerance = 1e-6

func conformal(m geom.Mat4) bool {
	l := m.Linear()
	a, b, c := l.Col(0), l.Col(1), l.Col(2)
	s := a.Len()
	return math.Abs(b.Len()-s) <= conformalTolerance*s && math.Abs(c.Len()-s) <= conformalTolerance*s &&
		math.Abs(a.Dot(b)) <= conformalTolerance*s*s && math.Abs(a.Dot(c)) <= conformalTolerance*s*s && math.Abs(b.Dot(c)) <= conformalTolerance*s*s
}

// Export converts a glTF document and its physics (either family, any
// revision, read with physics/convert.Decode) into a 3D G4MF file. The
// node hierarchy of the default scene is kept (node 0 is a new root
// without a transform holding the scene's root nodes); each glTF mesh
// becomes one G4MF mesh in its own space with a surface per triangle
// primitive, instanced by meshInstance nodes. A glTF node carrying
// several things (mesh, body, collider, trigger) is split, as G4MF
// requires: the body stays on the node, the rest go to child nodes.
// A body whose centre of mass is off its origin has its node moved to
// the centre of mass and a child node undoing the move, under which its
// content sits (G4MF bodies have their centre of mass at the origin).
func Export(doc *gltf.Document) (*File, []string, error) {
	if err := physvalidate.Errors(physvalidate.Validate(doc, physvalidate.Options{})); err != nil {
		return nil, nil, fmt.Errorf("the input's physics is invalid (fix it first): %w", err)
	}
	model, fam, dw, err := codecs.Decode(doc)
	if err != nil {
		return nil, nil, err
	}
	world, err := mesh.WorldTransforms(doc) // checks cycles, parents, depth
	if err != nil {
		return nil, nil, err
	}
	f := &File{Tree: gltfio.NewObject()}
	asset := gltfio.NewObject()
	asset.Set("dimension", gltfio.IntNum(3))
	asset.Set("generator", Generator)
	f.Tree.Set("asset", asset)
	e := &exporter{doc: doc, model: model, family: fam, b: newBuilder(f, false), meshes: map[int]int{}, world: world}
	for _, w := range dw {
		e.warn("%s", w.String())
	}
	e.itemWarnings()
	// Shapes first (their meshes are needed), in model order.
	for i, s := range model.Shapes {
		mi := -1
		if s.Type == physics.Convex || s.Type == physics.Trimesh {
			mi = e.mesh(s.Mesh)
			if mi < 0 {
				e.warn("shapes[%d]: mesh %d could not be exported; shape left empty", i, s.Mesh)
				s.Type = ""
			}
		}
		o, ws := shapeObject(s, mi)
		for _, w := range ws {
			e.warn("shapes[%d]: %s", i, w)
		}
		if len(s.Extras) > 0 || len(s.Extensions) > 0 {
			e.warn("shapes[%d]: extras and extensions dropped", i)
		}
		e.shapes = append(e.shapes, e.b.push("shapes", o))
	}
	rootObj := gltfio.NewObject()
	rootObj.Set("name", e.b.name("Root"))
	root := e.b.node(rootObj)
	for _, r := range sceneRoots(doc) {
		if err := e.node(r, root, 1); err != nil {
			return nil, e.warns, err
		}
	}
	e.b.finish()
	ordered := gltfio.NewObject()
	for _, k := range []string{"asset", "nodes", "meshes", "shapes", "accessors", "bufferViews", "buffers"} {
		if v, ok := f.Tree.Get(k); ok {
			ordered.Set(k, v)
		}
	}
	f.Tree = ordered
	return f, e.warns, nil
}

// motion returns mo in G4MF's meaning, with a warning per value that
// meaning cannot keep. G4MF reads an absent mass as 1 kg and a zero
// inertia as "computed by the engine", as OMI does; KHR reads an absent
// mass as engine-computed and zero mass or moments as infinite, which
// G4MF cannot express (the same choices as convert's KHR → OMI).
func (e *exporter) motion(n int, mo *physics.Motion) *physics.Motion {
	if e.family != physics.KHR {
		return mo
	}
	p := fmt.Sprintf("nodes[%d].extensions.%s.motion", n, physics.ExtKHRBodies)
	out := *mo
	switch {
	case mo.Mass == nil && mo.Type == physics.Dynamic:
		e.warn("%s.mass: engine-computed mass has no G4MF form; left unspecified, which G4MF reads as 1 kg", p)
	case mo.Mass != nil && *mo.Mass == 0:
		out.Mass = nil
		if mo.Type == physics.Dynamic {
			out.Type = physics.Kinematic
			e.warn("%s.mass: infinite mass (0) has no G4MF form (0 or absent is 1 kg); written as a kinematic body", p)
		}
	}
	if d := mo.InertiaDiagonal; d != nil && (d[0] == 0 || d[1] == 0 || d[2] == 0) {
		out.InertiaDiagonal, out.InertiaOrientation = nil, nil
		e.warn("%s.inertiaDiagonal: infinite moments (0) have no G4MF form (0 = computed by the engine); inertia dropped", p)
	}
	return &out
}

func (e *exporter) warn(format string, args ...any) {
	e.warns = append(e.warns, fmt.Sprintf(format, args...))
}

// itemWarnings lists the document-level things G4MF output leaves out.
func (e *exporter) itemWarnings() {
	for i := range e.model.Materials {
		e.warn("physics material %d: G4MF has no physics materials; dropped", i)
	}
	for i := range e.model.Filters {
		e.warn("collision filter %d: G4MF has no collision filters; dropped", i)
	}
	for i := range e.model.Joints {
		e.warn("joint %d: G4MF has no joints; dropped", i)
	}
	for i := range e.doc.Materials {
		e.warn("materials[%d]: render materials are not exported", i)
	}
	if len(e.doc.Animations) > 0 {
		e.warn("animations: %d not exported", len(e.doc.Animations))
	}
	if len(e.doc.Scenes) > 1 {
		e.warn("scenes: only the default scene is exported (%d present)", len(e.doc.Scenes))
	}
}

func sceneRoots(doc *gltf.Document) []int {
	if len(doc.Scenes) > 0 {
		s := 0
		if doc.Scene != nil && *doc.Scene < len(doc.Scenes) {
			s = *doc.Scene
		}
		return doc.Scenes[s].Nodes
	}
	child := map[int]bool{}
	for _, n := range doc.Nodes {
		for _, c := range n.Children {
			child[c] = true
		}
	}
	var r []int
	for i := range doc.Nodes {
		if !child[i] {
			r = append(r, i)
		}
	}
	return r
}

// setTransform writes a glTF node's local transform (plus an extra
// translation com in its own space) as G4MF position and rotor + scale,
// or basis when the node has a matrix or a negative scale.
func setTransform(o *gltfio.Object, n *gltf.Node, com geom.Vec3) {
	m := n.MatrixOrDefault()
	q := geom.Quat(n.RotationOrDefault()).Normalize()
	s := geom.Vec3(n.ScaleOrDefault())
	t := geom.Vec3(n.TranslationOrDefault())
	local := geom.Mat4FromGLTF(m).Mul(geom.TRS(t, q, s))
	pos := local.Point(com)
	if pos != (geom.Vec3{}) {
		o.Set("position", nums(pos[:]...))
	}
	useBasis := m != [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} || s[0] <= 0 || s[1] <= 0 || s[2] <= 0
	if useBasis {
		l := local.Linear()
		var b []float64
		for j := 0; j < 3; j++ {
			c := l.Col(j)
			b = append(b, c[:]...)
		}
		o.Set("basis", nums(b...))
		return
	}
	if q != geom.IdentityQuat() {
		if q[3] < 0 {
			q = geom.Quat{-q[0], -q[1], -q[2], -q[3]}
		}
		setPose(o, geom.Vec3{}, q)
	}
	switch {
	case s == geom.Vec3{1, 1, 1}:
	case s[0] == s[1] && s[1] == s[2]:
		o.Set("scale", nums(s[0]))
	default:
		o.Set("scale", nums(s[:]...))
	}
}

// node exports glTF node n as a child of G4MF node parent.
func (e *exporter) node(n, parent, depth int) error {
	if depth > mesh.MaxDepth {
		return fmt.Errorf("nodes[%d]: hierarchy too deep", n)
	}
	gn := e.doc.Nodes[n]
	path := fmt.Sprintf("nodes[%d]", n)
	ph := e.model.Nodes[n]
	if ph == nil {
		ph = &physics.Node{}
	}
	base := gn.Name
	if base == "" {
		base = fmt.Sprintf("Node%d", n)
	}
	o := gltfio.NewObject()
	o.Set("name", e.b.name(base))
	var com geom.Vec3
	if ph.Motion != nil && ph.Motion.CenterOfMass != nil && geom.Vec3(*ph.Motion.CenterOfMass).Len() > comTolerance {
		com = geom.Vec3(*ph.Motion.CenterOfMass)
	}
	setTransform(o, gn, com)
	self := e.b.node(o)
	e.b.child(parent, self)
	content := self
	if com != (geom.Vec3{}) {
		c := gltfio.NewObject()
		c.Set("name", e.b.name(base+"_CenterOfMassOffset"))
		setPose(c, com.Scale(-1), geom.IdentityQuat())
		content = e.b.node(c)
		e.b.child(self, content)
		e.warn("%s: centre of mass %v is off the node's origin; the node moved there and child %q undoes the move", path, [3]float64(com), base+"_CenterOfMassOffset")
	}
	// What the node carries besides a body.
	type thing struct {
		key string
		obj *gltfio.Object
	}
	var things []thing
	if gn.Mesh != nil {
		if mi := e.mesh(*gn.Mesh); mi >= 0 {
			mo := gltfio.NewObject()
			mo.Set("mesh", gltfio.IntNum(mi))
			things = append(things, thing{"meshInstance", mo})
		}
	}
	if c := ph.Collider; c != nil {
		if c.Shape < 0 || c.Shape >= len(e.shapes) {
			e.warn("%s: collider without a shape (compound parent) has no G4MF form; dropped", path)
		} else {
			co := gltfio.NewObject()
			co.Set("shape", gltfio.IntNum(e.shapes[c.Shape]))
			things = append(things, thing{"collider", co})
		}
		if c.Material >= 0 {
			e.warn("%s: collider physics material dropped", path)
		}
		if c.Filter >= 0 {
			e.warn("%s: collider collision filter dropped", path)
		}
	}
	if t := ph.Trigger; t != nil {
		trigObj := gltfio.NewObject()
		if t.Shape >= 0 && t.Shape < len(e.shapes) {
			trigObj.Set("shape", gltfio.IntNum(e.shapes[t.Shape]))
		}
		if t.Filter >= 0 {
			e.warn("%s: trigger collision filter dropped", path)
		}
		switch {
		case trigObj.Len() > 0:
			things = append(things, thing{"trigger", trigObj})
		case len(t.Nodes) > 0:
			// A G4MF trigger has one shape: a compound trigger is its
			// child trigger nodes, each exported with its own shape.
			e.warn("%s: compound trigger (and its collision filter) written as its %d trigger nodes: a G4MF trigger has one shape", path, len(t.Nodes))
		default:
			e.warn("%s: trigger without a shape or nodes dropped", path)
		}
	}
	if (ph.Collider != nil || ph.Trigger != nil) && !conformal(e.world[n]) {
		e.warn("%s: shape node is not conformal (non-uniform scale or shear), which G4MF forbids; written as is", path)
	}
	if ph.Joint != nil {
		e.warn("%s: joint dropped (G4MF has no joints)", path)
	}
	if gn.Camera != nil {
		e.warn("%s: camera not exported", path)
	}
	if gn.Skin != nil {
		e.warn("%s: skin not exported (mesh written at its bind pose)", path)
	}
	if len(gn.Weights) > 0 {
		e.warn("%s: morph weights not exported (mesh written without targets)", path)
	}
	exts := make([]string, 0, len(gn.Extensions))
	for k := range gn.Extensions {
		exts = append(exts, k)
	}
	sort.Strings(exts)
	for _, k := range exts {
		switch k {
		case "OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint", "OMI_collider",
			"KHR_physics_rigid_bodies", "KHR_implicit_shapes", "KHR_collision_shapes":
		default:
			e.warn("%s.extensions.%s: not exported", path, k)
		}
	}
	onSelf := ph.Motion == nil && len(things) == 1
	for _, t := range things {
		target := self
		if !onSelf {
			c := gltfio.NewObject()
			suffix := map[string]string{"meshInstance": "_Mesh", "collider": "_Collider", "trigger": "_Trigger"}[t.key]
			c.Set("name", e.b.name(base+suffix))
			target = e.b.node(c)
			e.b.child(content, target)
		}
		no := e.b.f.Tree.Arr("nodes")[target].(*gltfio.Object)
		if t.key == "meshInstance" {
			no.Set("meshInstance", t.obj)
		} else {
			no.Set("physics", physicsObject(t.key, t.obj))
		}
	}
	if ph.Motion != nil {
		o.Set("physics", physicsObject("motion", motionObject(e.motion(n, ph.Motion))))
	}
	for _, c := range gn.Children {
		if err := e.node(c, content, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// mesh returns the G4MF mesh for glTF mesh m, exporting it on first use
// (-1 with a warning when it cannot be decoded).
func (e *exporter) mesh(m int) int {
	if g, ok := e.meshes[m]; ok {
		return g
	}
	e.meshes[m] = -1
	if m < 0 || m >= len(e.doc.Meshes) {
		e.warn("meshes[%d]: does not exist", m)
		return -1
	}
	var vs []geom.Vec3
	var surfaces [][][3]uint32
	for pi, p := range e.doc.Meshes[m].Primitives {
		path := fmt.Sprintf("meshes[%d].primitives[%d]", m, pi)
		if p.Mode != gltf.PrimitiveTriangles && p.Mode != gltf.PrimitiveTriangleStrip && p.Mode != gltf.PrimitiveTriangleFan {
			e.warn("%s: points and lines are not exported", path)
			continue
		}
		if _, ok := p.Attributes[gltf.POSITION]; !ok {
			e.warn("%s: no POSITION; skipped", path)
			continue
		}
		v, idx, err := mesh.Primitive(e.doc, p)
		if err != nil {
			e.warn("%s: %v; skipped", path, err)
			continue
		}
		if len(p.Targets) > 0 {
			e.warn("%s: morph targets not exported", path)
		}
		tris := triangles(p.Mode, idx)
		if len(tris) == 0 {
			continue
		}
		if len(vs)+len(v) > math.MaxUint32 {
			e.warn("%s: too many vertices; skipped", path)
			continue
		}
		off := uint32(len(vs))
		for i := range tris {
			for c := range tris[i] {
				tris[i][c] += off
			}
		}
		vs = append(vs, v...)
		surfaces = append(surfaces, tris)
	}
	if len(surfaces) == 0 {
		e.warn("meshes[%d]: no triangles to export", m)
		return -1
	}
	g := e.b.meshSurfaces(vs, surfaces)
	e.meshes[m] = g
	return g
}

// triangles expands a triangle list, strip or fan.
func triangles(mode gltf.PrimitiveMode, idx []uint32) [][3]uint32 {
	var t [][3]uint32
	switch mode {
	case gltf.PrimitiveTriangleStrip:
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				t = append(t, [3]uint32{idx[i], idx[i+1], idx[i+2]})
			} else {
				t = append(t, [3]uint32{idx[i+1], idx[i], idx[i+2]})
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 1; i+1 < len(idx); i++ {
			t = append(t, [3]uint32{idx[0], idx[i], idx[i+1]})
		}
	default:
		for i := 0; i+2 < len(idx); i += 3 {
			t = append(t, [3]uint32{idx[i], idx[i+1], idx[i+2]})
		}
	}
	return t
}
