package enginenames

import (
	"fmt"
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// NamedShape is a collider a name convention describes, placed in world
// space.
type NamedShape struct {
	// Node is the collision mesh's node, and Render (Unreal) the render
	// node it belongs to (-1 for Godot's hints).
	Node, Render int
	// Shape holds the type and, for a box, sphere or capsule, its
	// parameters; Pose places it in the world (capsules along its +Y).
	Shape physics.Shape
	Pose  geom.Mat4
	// Vertices and Triangles are a Convex or Trimesh shape's mesh, the
	// vertices in world space.
	Vertices  []geom.Vec3
	Triangles [][3]uint32
}

// NamedBody is a body a name convention describes: Godot's -rigid node
// (dynamic), or the scene root of a collision hint outside any (static).
type NamedBody struct {
	Node   int
	Motion physics.MotionType
	Shapes []NamedShape
}

// ReadUnreal reads the Unreal collision meshes of doc (buffers loaded):
// every mesh node named (node name, else mesh name) with a collision
// prefix whose render mesh, a mesh node named as the candidates say, is
// found. A UBX_ box, USP_ sphere or UCP_ capsule is read from its
// vertices in the node's frame (bounding box; farthest vertex; longest
// side as the axis), a UCX_ mesh as its vertices.
func ReadUnreal(doc *gltf.Document) ([]NamedShape, error) {
	world, err := mesh.WorldTransforms(doc)
	if err != nil {
		return nil, err
	}
	byName := map[string][]int{}
	for i, n := range doc.Nodes {
		if n.Mesh == nil || unrealOf(doc, i) != "" {
			continue
		}
		for _, s := range names(doc, i) {
			byName[s] = append(byName[s], i)
		}
	}
	var out []NamedShape
	for i, n := range doc.Nodes {
		name := unrealOf(doc, i)
		if name == "" {
			continue
		}
		t, cands, _ := ParseUnreal(name)
		render := -1
		for _, c := range cands {
			if rs := byName[c]; len(rs) > 0 {
				render = rs[0]
				break
			}
		}
		if render < 0 {
			continue
		}
		s, err := readShape(doc, i, *n.Mesh, world[i], t)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %q: %w", i, name, err)
		}
		s.Render = render
		out = append(out, s)
	}
	return out, nil
}

// unrealOf returns node i's Unreal collision name (its node name, else
// its mesh name), or "" when it has none or no mesh.
func unrealOf(doc *gltf.Document, i int) string {
	if doc.Nodes[i].Mesh == nil {
		return ""
	}
	for _, s := range names(doc, i) {
		if _, _, ok := ParseUnreal(s); ok {
			return s
		}
	}
	return ""
}

// ReadGodot reads Godot's hints of doc (buffers loaded): each -rigid node
// is a dynamic body; each mesh node with a collision hint is a collider
// (-col, -colonly: triangle mesh; -convcol, -convcolonly: convex) of the
// nearest -rigid node above it, else of its root, a static body.
func ReadGodot(doc *gltf.Document) ([]NamedBody, error) {
	world, err := mesh.WorldTransforms(doc)
	if err != nil {
		return nil, err
	}
	parent := physics.Parents(doc)
	bodies := map[int]*NamedBody{}
	body := func(n int, m physics.MotionType) *NamedBody {
		if b, ok := bodies[n]; ok {
			return b
		}
		b := &NamedBody{Node: n, Motion: m}
		bodies[n] = b
		return b
	}
	for i, n := range doc.Nodes {
		if ParseGodot(n.Name) == GodotRigid {
			body(i, physics.Dynamic)
		}
	}
	for i, n := range doc.Nodes {
		t, ok := ParseGodot(n.Name).Collider()
		if !ok || n.Mesh == nil {
			continue
		}
		owner := i
		for {
			if _, ok := bodies[owner]; ok && ParseGodot(doc.Nodes[owner].Name) == GodotRigid {
				break
			}
			up := parent[owner]
			if up < 0 {
				break
			}
			owner = up
		}
		s, err := readShape(doc, i, *n.Mesh, world[i], t)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %q: %w", i, n.Name, err)
		}
		s.Render = -1
		b := body(owner, physics.Static)
		b.Shapes = append(b.Shapes, s)
	}
	var out []NamedBody
	for _, b := range bodies {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(x, y NamedBody) int { return x.Node - y.Node })
	return out, nil
}

// readShape reads shape type t from mesh m of node i, whose world
// transform is w.
func readShape(doc *gltf.Document, i, m int, w geom.Mat4, t physics.ShapeType) (NamedShape, error) {
	if m < 0 || m >= len(doc.Meshes) {
		return NamedShape{}, fmt.Errorf("no mesh %d", m)
	}
	var local []geom.Vec3
	var tris [][3]uint32
	for _, prim := range doc.Meshes[m].Primitives {
		pos, idx, err := mesh.Primitive(doc, prim)
		if err != nil {
			return NamedShape{}, err
		}
		base := uint32(len(local))
		local = append(local, pos...)
		for k := 0; k+2 < len(idx); k += 3 {
			tris = append(tris, [3]uint32{base + idx[k], base + idx[k+1], base + idx[k+2]})
		}
	}
	if len(local) == 0 {
		return NamedShape{}, fmt.Errorf("mesh %d has no vertices", m)
	}
	s := NamedShape{Node: i, Shape: physics.Shape{Type: t, Mesh: m}}
	if t == physics.Convex || t == physics.Trimesh {
		s.Pose = geom.Identity4()
		for _, v := range local {
			s.Vertices = append(s.Vertices, w.Point(v))
		}
		s.Triangles = tris
		return s, nil
	}
	// The node's rigid frame r and what remains of its transform (scale):
	// the shape is read from the vertices in r.
	r, rest := rigid(w)
	pts := make([]geom.Vec3, len(local))
	for k, v := range local {
		pts[k] = rest.MulVec(v)
	}
	b := geom.BoundsOf(pts)
	c, size := b.Center(), b.Size()
	s.Pose = r.Mul(geom.TRS(c, geom.IdentityQuat(), geom.Vec3{1, 1, 1}))
	switch t {
	case physics.Box:
		s.Shape.Size = [3]float64(size)
	case physics.Sphere:
		for _, p := range pts {
			s.Shape.Radius = math.Max(s.Shape.Radius, p.Sub(c).Len())
		}
	case physics.Capsule:
		axis := 1
		for k := 0; k < 3; k++ {
			if size[k] > size[axis] {
				axis = k
			}
		}
		rad := 0.0
		for _, p := range pts {
			d := p.Sub(c)
			d[axis] = 0
			rad = math.Max(rad, d.Len())
		}
		s.Shape.RadiusTop, s.Shape.RadiusBottom = rad, rad
		s.Shape.Height = math.Max(size[axis]-2*rad, 0)
		// +Y onto the axis found.
		turn := [3]geom.Quat{{0, 0, -math.Sqrt2 / 2, math.Sqrt2 / 2}, geom.IdentityQuat(), {math.Sqrt2 / 2, 0, 0, math.Sqrt2 / 2}}
		s.Pose = s.Pose.Mul(geom.TRS(geom.Vec3{}, turn[axis], geom.Vec3{1, 1, 1}))
	}
	return s, nil
}

// rigid splits w into its rigid frame (geom.Mat4.Rigid; w's translation
// alone when w is flat) and the linear rest, w = frame · rest.
func rigid(w geom.Mat4) (geom.Mat4, geom.Mat3) {
	t, q, _, err := w.Rigid()
	if err != nil {
		t, q = w.Translation(), geom.IdentityQuat()
	}
	return geom.TRS(t, q, geom.Vec3{1, 1, 1}), q.Mat3().Transpose().Mul(w.Linear())
}
