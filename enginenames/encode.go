package enginenames

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// MaxHullVertices is the most vertices a UCX_ mesh may have.
const MaxHullVertices = 255

// ExtVisibility is the Khronos extension that hides a node (and its
// children) in viewers that read it; collision meshes carry it with
// visible false, declared in extensionsUsed only.
const ExtVisibility = "KHR_node_visibility"

// Collider is one generated collider to write by name.
type Collider struct {
	// Node is its generated node: a child of the body node (or of the
	// body's scale-cancelling child), posed in the body frame.
	Node int
	// Render is the node of the mesh instance it was made for.
	Render int
	// Shape is its shape; a Convex or Trimesh shape's Mesh is the
	// generated mesh holding Vertices and Triangles (in Node's frame).
	Shape     physics.Shape
	Vertices  []geom.Vec3
	Triangles [][3]uint32
	// Trigger says it is a trigger (no name convention has triggers).
	Trigger bool
	// Artist says Render is an artist's Unreal collision mesh that the
	// collider was read from: Unreal output keeps that mesh instead.
	Artist bool
}

// Body is one generated body and its colliders.
type Body struct {
	Node      int
	Motion    *physics.Motion
	Colliders []Collider
}

// Encode rewrites the generated bodies of a (journaled, so that a re-run
// undoes it) as the names of format Unreal or GodotNames, and returns a
// warning per collider the format cannot hold. binary says the output is
// a GLB (new meshes go into its BIN chunk).
func Encode(a *gltfio.Asset, bodies []Body, format physics.Family, binary bool) ([]string, error) {
	doc, err := a.TypedCopy()
	if err != nil {
		return nil, err
	}
	world, err := mesh.WorldTransforms(doc)
	if err != nil {
		return nil, err
	}
	e := &encoder{a: a, doc: doc, world: world, binary: binary, parent: map[int]int{}, counts: map[string]int{}, chosen: map[int]string{}}
	for c, p := range physics.Parents(doc) {
		if p >= 0 {
			e.parent[c] = p
		}
	}
	for i, n := range doc.Nodes {
		if n.Mesh != nil {
			for _, s := range names(doc, i) {
				e.counts[s]++
			}
		}
	}
	for _, b := range bodies {
		if err := e.mass(b); err != nil {
			return nil, err
		}
		var err error
		if format == Unreal {
			err = e.unreal(b)
		} else {
			err = e.godot(b)
		}
		if err != nil {
			return nil, err
		}
	}
	for p := range e.emptied {
		if o := e.node(p); len(o.Arr("children")) == 0 {
			// The children member was set by this run (the generated
			// nodes were appended to it), so the journal restores it.
			o.Delete("children")
		}
	}
	if e.hidden {
		used := a.Tree.Arr("extensionsUsed")
		if !slices.ContainsFunc(used, func(v any) bool { return v == ExtVisibility }) {
			if err := a.Set(append(append([]any{}, used...), ExtVisibility), "extensionsUsed"); err != nil {
				return nil, err
			}
		}
	}
	return e.warnings, nil
}

type encoder struct {
	a        *gltfio.Asset
	doc      *gltf.Document
	world    []geom.Mat4
	binary   bool
	parent   map[int]int
	counts   map[string]int // node and mesh names of mesh nodes -> how many carry them
	chosen   map[int]string // render node -> the name its collision meshes refer to
	index    map[string]int // prefix + render name -> next index
	emptied  map[int]bool
	hidden   bool
	warnings []string
}

func (e *encoder) node(i int) *gltfio.Object {
	o, _ := e.a.Tree.Arr("nodes")[i].(*gltfio.Object)
	return o
}

// mass writes a dynamic body's mass properties into the body node's
// extras.autocollide.body: neither naming convention can carry them.
func (e *encoder) mass(b Body) error {
	m := b.Motion
	if m == nil {
		return nil
	}
	o := gltfio.NewObject()
	o.Set("motion", string(m.Type))
	if m.Mass != nil {
		o.Set("mass", gltfio.Num(*m.Mass))
	}
	vec := func(k string, v []float64) {
		arr := make([]any, len(v))
		for i, f := range v {
			arr[i] = gltfio.Num(f)
		}
		o.Set(k, arr)
	}
	if m.CenterOfMass != nil {
		vec("centerOfMass", m.CenterOfMass[:])
	}
	if m.InertiaDiagonal != nil {
		vec("inertiaDiagonal", m.InertiaDiagonal[:])
	}
	if m.InertiaOrientation != nil {
		vec("inertiaOrientation", m.InertiaOrientation[:])
	}
	return e.a.Set(o, "nodes", b.Node, "extras", gltfio.MarkKey, "body")
}

// unreal writes each collider of b as a UBX_/USP_/UCP_/UCX_ node and mesh
// beside its render node.
func (e *encoder) unreal(b Body) error {
	for _, c := range b.Colliders {
		switch {
		case c.Trigger:
			e.warnings = append(e.warnings, fmt.Sprintf("%s: Unreal's collision names have no triggers; trigger left out", e.label(c.Render)))
			e.drop(c)
			continue
		case c.Shape.Type == physics.Trimesh:
			e.warnings = append(e.warnings, fmt.Sprintf("%s: Unreal's collision names have no triangle meshes (Unreal uses the render mesh as complex collision); left out", e.label(c.Render)))
			e.drop(c)
			continue
		case c.Artist:
			// The artist's UCX_ mesh stays as it was: the plan stopped it
			// rendering, which Unreal output undoes.
			if err := e.restoreMesh(c.Render); err != nil {
				return err
			}
			e.drop(c)
			continue
		}
		if err := e.unrealCollider(c); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) unrealCollider(c Collider) error {
	s := c.Shape
	t := s.Type
	var sol solid
	switch t {
	case physics.Box:
		sol = boxSolid(geom.Vec3(s.Size))
	case physics.Sphere:
		sol = sphereSolid(s.Radius, false)
	case physics.Capsule:
		if math.Abs(s.RadiusTop-s.RadiusBottom) <= 1e-12*math.Max(s.RadiusTop, s.RadiusBottom) {
			sol = capsuleSolid(s.RadiusTop, s.Height, false)
		} else {
			t, sol = physics.Convex, taperedSolid(s.RadiusTop, s.RadiusBottom, s.Height)
		}
	case physics.Cylinder:
		t, sol = physics.Convex, cylinderSolid(s.RadiusTop, s.RadiusBottom, s.Height)
	case physics.Convex:
		if len(c.Vertices) > MaxHullVertices {
			return fmt.Errorf("%s: a hull of %d vertices; Unreal's UCX_ meshes take at most %d (--max-hull-vertices %d)", e.label(c.Render), len(c.Vertices), MaxHullVertices, MaxHullVertices)
		}
		sol = solid{v: c.Vertices, t: c.Triangles}
	default:
		return fmt.Errorf("%s: Unreal has no collision name for a %s shape", e.label(c.Render), s.Type)
	}
	render, err := e.renderName(c.Render)
	if err != nil {
		return err
	}
	if e.index == nil {
		e.index = map[string]int{}
	}
	key := unrealPrefix(t) + render
	name := unrealName(t, render, e.index[key])
	e.index[key]++

	p, hasParent := e.parent[c.Render]
	pw := geom.Identity4()
	if hasParent {
		pw = e.world[p]
	}
	inv, ok := pw.Inverse()
	if !ok {
		return fmt.Errorf("%s: its parent's transform is singular", e.label(c.Render))
	}
	local := inv.Mul(e.world[c.Node])
	o := e.node(c.Node)
	tr, q, sc, ok := decompose(local)
	m := s.Mesh
	if !ok {
		// A sheared parent: no TRS places the shape; its vertices are
		// placed instead (exact in world space, deformed in the node).
		placed := make([]geom.Vec3, len(sol.v))
		for i, v := range sol.v {
			placed[i] = local.Point(v)
		}
		sol.v = placed
		tr, q, sc = geom.Vec3{}, geom.IdentityQuat(), geom.Vec3{1, 1, 1}
		e.warnings = append(e.warnings, fmt.Sprintf("%s: its parent's transform is sheared: %s's vertices are placed in the parent's space", e.label(c.Render), name))
	}
	if s.Type == physics.Convex {
		if mo, isMesh := e.a.Tree.Arr("meshes")[m].(*gltfio.Object); isMesh && ok {
			mo.Set("name", name)
		} else if isMesh {
			mo.Delete("name") // replaced by the placed copy below
		}
	}
	if s.Type != physics.Convex || !ok {
		if m, err = e.a.AppendMesh(name, sol.v, sol.t, e.binary); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	o.Set("name", name)
	setTransform(o, tr, q, sc)
	o.Set("mesh", gltfio.IntNum(m))
	e.hide(o)
	return e.move(c.Node, c.Render)
}

// godot writes b's colliders as -convcolonly / -colonly nodes where they
// are, and a dynamic body node as -rigid.
func (e *encoder) godot(b Body) error {
	if b.Motion != nil {
		switch b.Motion.Type {
		case physics.Dynamic:
			name := e.doc.Nodes[b.Node].Name
			if ParseGodot(name) != GodotRigid {
				if name == "" {
					name = fmt.Sprintf("node%d", b.Node)
				}
				if err := e.a.Set(name+GodotRigid.String(), "nodes", b.Node, "name"); err != nil {
					return err
				}
			}
		case physics.Kinematic:
			e.warnings = append(e.warnings, fmt.Sprintf("%s: Godot's name hints have no kinematic body; written as a static one", e.label(b.Node)))
		}
	}
	for _, c := range b.Colliders {
		if c.Trigger {
			e.warnings = append(e.warnings, fmt.Sprintf("%s: Godot's name hints have no triggers; trigger left out", e.label(c.Render)))
			e.drop(c)
			continue
		}
		s := c.Shape
		hint, m := GodotConvColOnly, s.Mesh
		var sol solid
		switch s.Type {
		case physics.Trimesh:
			hint = GodotColOnly
		case physics.Convex:
		case physics.Box:
			sol = boxSolid(geom.Vec3(s.Size))
		case physics.Sphere:
			sol = sphereSolid(s.Radius, true)
		case physics.Capsule:
			sol = taperedSolid(s.RadiusTop, s.RadiusBottom, s.Height)
		case physics.Cylinder:
			sol = cylinderSolid(s.RadiusTop, s.RadiusBottom, s.Height)
		default:
			return fmt.Errorf("%s: Godot has no name hint for a %s shape", e.label(c.Render), s.Type)
		}
		o := e.node(c.Node)
		old, _ := o.Get("name")
		name, _ := old.(string)
		name += hint.String()
		if sol.v != nil {
			var err error
			if m, err = e.a.AppendMesh(name, sol.v, sol.t, e.binary); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		o.Set("name", name)
		o.Set("mesh", gltfio.IntNum(m))
		e.hide(o)
	}
	return nil
}

// hide marks a collision node invisible for viewers (KHR_node_visibility).
func (e *encoder) hide(o *gltfio.Object) {
	v := gltfio.NewObject()
	v.Set("visible", false)
	ext := o.Obj("extensions")
	if _, ok := o.Get("extensions"); !ok {
		ext = gltfio.NewObject()
		o.Set("extensions", ext)
	}
	ext.Set(ExtVisibility, v)
	e.hidden = true
}

// move makes generated node n a child of render's parent (a scene root
// when render is one).
func (e *encoder) move(n, render int) error {
	e.detach(n)
	if p, ok := e.parent[render]; ok {
		children := append(append([]any{}, e.node(p).Arr("children")...), gltfio.IntNum(n))
		e.parent[n] = p
		return e.a.Set(children, "nodes", p, "children")
	}
	for s, sc := range e.a.Tree.Arr("scenes") {
		so, _ := sc.(*gltfio.Object)
		roots := so.Arr("nodes")
		if slices.ContainsFunc(roots, func(v any) bool { i, ok := asInt(v); return ok && i == render }) {
			if err := e.a.Set(append(append([]any{}, roots...), gltfio.IntNum(n)), "scenes", s, "nodes"); err != nil {
				return err
			}
		}
	}
	delete(e.parent, n)
	return nil
}

// drop leaves collider c out: its node is taken out of the scene and
// its generated mesh, if any, unnamed, so that neither is read as a
// collision mesh (the node stays, unused: it may hold the undo record).
func (e *encoder) drop(c Collider) {
	e.detach(c.Node)
	e.node(c.Node).Delete("name")
	if t := c.Shape.Type; t == physics.Convex || t == physics.Trimesh {
		if mo, ok := e.a.Tree.Arr("meshes")[c.Shape.Mesh].(*gltfio.Object); ok {
			mo.Delete("name")
		}
	}
}

// detach takes generated node n out of its parent's children.
func (e *encoder) detach(n int) {
	p, ok := e.parent[n]
	if !ok {
		return
	}
	po := e.node(p)
	var kept []any
	for _, v := range po.Arr("children") {
		if i, ok := asInt(v); !ok || i != n {
			kept = append(kept, v)
		}
	}
	// The parent's children were set by this run (n was appended to
	// them): the journal holds their original, so they change in place.
	po.Set("children", kept)
	if e.emptied == nil {
		e.emptied = map[int]bool{}
	}
	e.emptied[p] = true
	delete(e.parent, n)
}

// restoreMesh gives node n back the mesh it had in the input.
func (e *encoder) restoreMesh(n int) error {
	src := e.a.Doc.Nodes[n]
	if src.Mesh == nil {
		return nil
	}
	if err := e.a.Set(gltfio.IntNum(*src.Mesh), "nodes", n, "mesh"); err != nil {
		return err
	}
	if src.Skin != nil {
		return e.a.Set(gltfio.IntNum(*src.Skin), "nodes", n, "skin")
	}
	return nil
}

// renderName is the name the collision meshes of render node r refer to:
// its node name, else its mesh name, when no other mesh node carries it;
// else the node is renamed "<name>.<index>" (journaled), which is unique.
func (e *encoder) renderName(r int) (string, error) {
	if s, ok := e.chosen[r]; ok {
		return s, nil
	}
	base := ""
	for _, s := range names(e.doc, r) {
		if base == "" {
			base = s
		}
		if e.counts[s] == 1 {
			e.chosen[r] = s
			return s, nil
		}
	}
	if base == "" {
		base = "node"
	}
	s := fmt.Sprintf("%s.%d", base, r)
	for k := 2; e.counts[s] > 0; k++ {
		s = fmt.Sprintf("%s.%d.%d", base, r, k)
	}
	if err := e.a.Set(s, "nodes", r, "name"); err != nil {
		return "", err
	}
	e.counts[s] = 1
	e.chosen[r] = s
	return s, nil
}

// label names node i in messages.
func (e *encoder) label(i int) string { return mesh.NodeName(e.doc, i) }

// names returns the distinct non-empty node and mesh names of node i.
func names(doc *gltf.Document, i int) []string {
	var out []string
	if s := doc.Nodes[i].Name; s != "" {
		out = append(out, s)
	}
	if m := doc.Nodes[i].Mesh; m != nil && *m < len(doc.Meshes) {
		if s := doc.Meshes[*m].Name; s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// decompose splits an affine m into translation, rotation and scale when
// its axes are orthogonal (m = T·R·S); ok is false for a shear or a zero
// scale.
func decompose(m geom.Mat4) (geom.Vec3, geom.Quat, geom.Vec3, bool) {
	t, q, s, err := m.Rigid()
	if err != nil {
		return geom.Vec3{}, geom.Quat{}, geom.Vec3{}, false
	}
	lin := m.Linear()
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if math.Abs(lin.Col(i).Dot(lin.Col(j))/(s[i]*s[j])) > 1e-9 {
				return geom.Vec3{}, geom.Quat{}, geom.Vec3{}, false
			}
		}
	}
	return t, q, s, true
}

// setTransform writes a TRS on a node, leaving out identity parts.
func setTransform(o *gltfio.Object, t geom.Vec3, q geom.Quat, s geom.Vec3) {
	for _, k := range []string{"matrix", "translation", "rotation", "scale"} {
		o.Delete(k)
	}
	num := func(v ...float64) []any {
		out := make([]any, len(v))
		for i, f := range v {
			out[i] = gltfio.Num(f)
		}
		return out
	}
	if t != (geom.Vec3{}) {
		o.Set("translation", num(t[0], t[1], t[2]))
	}
	if q != geom.IdentityQuat() {
		o.Set("rotation", num(q[0], q[1], q[2], q[3]))
	}
	if math.Abs(s[0]-1) > 1e-12 || math.Abs(s[1]-1) > 1e-12 || math.Abs(s[2]-1) > 1e-12 {
		o.Set("scale", num(s[0], s[1], s[2]))
	}
}

func asInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}
