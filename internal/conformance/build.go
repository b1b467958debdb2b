package conformance

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Family is the physics extension family a document is written in.
type Family string

// The families.
const (
	OMI Family = "omi"
	KHR Family = "khr"
	// Legacy is the archived OMI_collider.
	Legacy Family = "omi-legacy"
)

// Extension names, as the specifications spell them.
const (
	extOMIShape  = "OMI_physics_shape"
	extOMIBody   = "OMI_physics_body"
	extOMIJoint  = "OMI_physics_joint"
	extOMILegacy = "OMI_collider"
	extKHRShapes = "KHR_implicit_shapes"
	extKHRBodies = "KHR_physics_rigid_bodies"
)

// Motion kinds of the matrix.
const (
	Static    = "static"
	Kinematic = "kinematic"
	Dynamic   = "dynamic"
)

// builder assembles one document in one family. Node and shape indices
// are returned as they will be in the written file.
type builder struct {
	fam        Family
	nodes      []map[string]any
	roots      []int
	shapes     []any
	materials  []any
	filters    []any
	joints     []any
	extra      map[string]any // further top-level members (images, ...)
	extRequire []string
}

func newBuilder(fam Family) *builder { return &builder{fam: fam, extra: map[string]any{}} }

// node adds a node named name under parent (-1: a scene root; -2: in no
// scene) at translation t (nil: none) and returns its index.
func (b *builder) node(name string, parent int, t ...float64) int {
	n := map[string]any{"name": name}
	if len(t) == 3 {
		n["translation"] = t
	}
	b.nodes = append(b.nodes, n)
	i := len(b.nodes) - 1
	switch {
	case parent == -1:
		b.roots = append(b.roots, i)
	case parent >= 0:
		p := b.nodes[parent]
		ch, _ := p["children"].([]int)
		p["children"] = append(ch, i)
	}
	return i
}

// ext returns node n's extension object name, creating it.
func (b *builder) ext(n int, name string) map[string]any {
	exts, _ := b.nodes[n]["extensions"].(map[string]any)
	if exts == nil {
		exts = map[string]any{}
		b.nodes[n]["extensions"] = exts
	}
	e, _ := exts[name].(map[string]any)
	if e == nil {
		e = map[string]any{}
		exts[name] = e
	}
	return e
}

// bodyExt is node n's rigid-body extension object of the family.
func (b *builder) bodyExt(n int) map[string]any {
	if b.fam == KHR {
		return b.ext(n, extKHRBodies)
	}
	return b.ext(n, extOMIBody)
}

// shape adds an implicit shape (box, sphere, capsule, cylinder, plane)
// with its parameters and returns its index. Both families nest the
// parameters under a member named after the type.
func (b *builder) shape(typ string, params map[string]any) int {
	b.shapes = append(b.shapes, map[string]any{"type": typ, typ: params})
	return len(b.shapes) - 1
}

// motion makes node n a body of the given kind with the extra motion
// members m. OMI writes the type; KHR writes no motion for a static body
// and isKinematic for a kinematic one.
func (b *builder) motion(n int, kind string, m map[string]any) {
	mo := map[string]any{}
	for k, v := range m {
		mo[k] = v
	}
	if b.fam == KHR {
		switch kind {
		case Static:
			return
		case Kinematic:
			mo["isKinematic"] = true
		}
	} else {
		mo["type"] = kind
	}
	b.bodyExt(n)["motion"] = mo
}

// geometry is where a collider's or trigger's geometry comes from.
type geometry struct {
	shape  int  // an implicit shape; -1 for a mesh
	mesh   int  // a glTF mesh (OMI convex/trimesh, KHR geometry.mesh)
	node   int  // KHR geometry.node (the 2025 revision); -1: use mesh
	hull   bool // the mesh's convex hull rather than the mesh itself
	filter int  // -1: default
}

func implicit(s int) geometry { return geometry{shape: s, node: -1, filter: -1} }

// meshShape is the OMI shape of a mesh geometry (convex or trimesh),
// added once per mesh and kind.
func (b *builder) meshShape(g geometry) int {
	typ := "trimesh"
	if g.hull {
		typ = "convex"
	}
	want := map[string]any{"type": typ, typ: map[string]any{"mesh": g.mesh}}
	for i, s := range b.shapes {
		if equalJSON(s, want) {
			return i
		}
	}
	b.shapes = append(b.shapes, want)
	return len(b.shapes) - 1
}

// khrGeometry is the KHR geometry object of g.
func khrGeometry(g geometry) map[string]any {
	switch {
	case g.shape >= 0:
		return map[string]any{"shape": g.shape}
	case g.node >= 0:
		return map[string]any{"node": g.node, "convexHull": g.hull}
	}
	return map[string]any{"mesh": g.mesh, "convexHull": g.hull}
}

// volume is the object of a collider or trigger of geometry g with
// physics material mat (-1: none; triggers have none) and g's filter.
func (b *builder) volume(g geometry, mat int) map[string]any {
	v := map[string]any{}
	if b.fam == KHR {
		v["geometry"] = khrGeometry(g)
	} else {
		s := g.shape
		if s < 0 {
			s = b.meshShape(g)
		}
		v["shape"] = s
	}
	if mat >= 0 {
		v["physicsMaterial"] = mat
	}
	if g.filter >= 0 {
		v["collisionFilter"] = g.filter
	}
	return v
}

// collider puts a collider of geometry g on node n with physics material
// mat and the filter g.filter (-1: none).
func (b *builder) collider(n int, g geometry, mat int) { b.bodyExt(n)["collider"] = b.volume(g, mat) }

// trigger puts a trigger of geometry g on node n.
func (b *builder) trigger(n int, g geometry) { b.bodyExt(n)["trigger"] = b.volume(g, -1) }

// compound makes node n a compound trigger of the descendant trigger
// nodes given.
func (b *builder) compound(n int, nodes ...int) {
	b.bodyExt(n)["trigger"] = map[string]any{"nodes": nodes}
}

// joint puts a joint with description def on node n, connected to node c.
func (b *builder) joint(n, def, c int, enableCollision bool) {
	j := map[string]any{"joint": def, "connectedNode": c}
	if enableCollision {
		j["enableCollision"] = true
	}
	if b.fam == KHR {
		b.bodyExt(n)["joint"] = j
		return
	}
	e := b.ext(n, extOMIJoint)
	for k, v := range j {
		e[k] = v
	}
}

// doc returns the document as JSON values (maps, []any, float64).
func (b *builder) doc() map[string]any {
	data, views, accessors, meshes := buffers()
	d := map[string]any{
		"asset":       map[string]any{"version": "2.0", "generator": "autocollide conformance suite"},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": b.roots}},
		"nodes":       b.nodes,
		"meshes":      meshes,
		"accessors":   accessors,
		"bufferViews": views,
		"buffers":     []any{map[string]any{"byteLength": len(data)}},
	}
	for k, v := range b.extra {
		d[k] = v
	}
	exts := map[string]any{}
	var used []string
	use := func(name string) {
		if !slices.Contains(used, name) {
			used = append(used, name)
		}
	}
	for _, n := range b.nodes {
		if e, ok := n["extensions"].(map[string]any); ok {
			for name := range e {
				use(name)
			}
		}
	}
	switch b.fam {
	case KHR:
		if len(b.shapes) > 0 {
			exts[extKHRShapes] = map[string]any{"shapes": b.shapes}
			use(extKHRShapes)
		}
		body := map[string]any{}
		for k, v := range map[string][]any{"physicsMaterials": b.materials, "collisionFilters": b.filters, "physicsJoints": b.joints} {
			if len(v) > 0 {
				body[k] = v
			}
		}
		if len(body) > 0 {
			exts[extKHRBodies] = body
			use(extKHRBodies)
		}
	case OMI:
		if len(b.shapes) > 0 {
			exts[extOMIShape] = map[string]any{"shapes": b.shapes}
			use(extOMIShape)
		}
		body := map[string]any{}
		for k, v := range map[string][]any{"physicsMaterials": b.materials, "collisionFilters": b.filters} {
			if len(v) > 0 {
				body[k] = v
			}
		}
		if len(body) > 0 {
			exts[extOMIBody] = body
			use(extOMIBody)
		}
		if len(b.joints) > 0 {
			exts[extOMIJoint] = map[string]any{"physicsJoints": b.joints}
			use(extOMIJoint)
		}
	case Legacy:
		exts[extOMILegacy] = map[string]any{"colliders": b.shapes}
		use(extOMILegacy)
	}
	if len(exts) > 0 {
		d["extensions"] = exts
	}
	slices.Sort(used)
	if len(used) > 0 {
		d["extensionsUsed"] = used
	}
	if len(b.extRequire) > 0 {
		d["extensionsRequired"] = b.extRequire
	}
	return clone(d)
}

func equalJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
