package preview

import (
	"fmt"
	"math"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// kind is a legend entry: a shape type of the kinds table, or
// kindTrigger.
type kind physics.ShapeType

const kindTrigger kind = "trigger"

// rgb is a linear colour with components in [0, 1].
type rgb [3]float32

// triggerColor draws triggers, whatever their shape: yellow.
var triggerColor = rgb{0.90, 0.78, 0.00}

// colorOf is the colour of a legend entry (the kinds table's for a shape).
func colorOf(k kind) rgb {
	if k == kindTrigger {
		return triggerColor
	}
	s, _ := kinds.ShapeOf(physics.ShapeType(k))
	return rgb(s.Color)
}

// Decomposition hues: the k-th convex piece of a body gets hue
// hueStart + k·golden ratio (mod 1), so neighbours in order differ widely.
const (
	hueStart      = 0.08
	hueStep       = 0.6180339887
	hueSaturation = 0.75
	hueValue      = 0.85
)

func hueColor(k int) rgb {
	h := math.Mod(hueStart+float64(k)*hueStep, 1) * 6
	i := math.Floor(h)
	f := h - i
	v, s := hueValue, hueSaturation
	p, q, t := v*(1-s), v*(1-s*f), v*(1-s*(1-f))
	var c [3]float64
	switch int(i) % 6 {
	case 0:
		c = [3]float64{v, t, p}
	case 1:
		c = [3]float64{q, v, p}
	case 2:
		c = [3]float64{p, v, t}
	case 3:
		c = [3]float64{p, q, v}
	case 4:
		c = [3]float64{t, p, v}
	default:
		c = [3]float64{v, p, q}
	}
	return rgb{float32(c[0]), float32(c[1]), float32(c[2])}
}

// renderPart is world-space render geometry with unit triangle normals.
type renderPart struct {
	verts   []geom.Vec3
	tris    [][3]uint32
	normals []geom.Vec3
}

// collider is a world-space collider ready to draw.
type collider struct {
	kind    kind
	color   rgb
	solid   solid
	normals []geom.Vec3
	creases [][2]uint32
	// frame says the collider counts toward the view framing (an
	// unbounded plane does not).
	frame bool
}

type scene struct {
	render    []renderPart
	colliders []collider
	stats     Stats
	kinds     map[kind]bool // which legend entries occur
	hues      bool          // some body has several convex colliders
	joints    []jointMark   // ragdoll joints
}

// pending is a collider read from the model, before placement.
type pending struct {
	node    int
	body    int
	shape   physics.Shape
	trigger bool
}

func buildScene(doc *gltf.Document) (*scene, error) {
	ex, err := mesh.Extract(doc)
	if err != nil {
		return nil, err
	}
	world, err := mesh.WorldTransforms(doc)
	if err != nil {
		return nil, err
	}
	model, fam, warns, err := codecs.Decode(doc)
	if err != nil {
		return nil, err
	}
	sc := &scene{stats: Stats{Family: string(fam), ByType: map[string]int{}}, kinds: map[kind]bool{}}
	for _, w := range warns {
		sc.stats.Warnings = append(sc.stats.Warnings, fmt.Sprintf("%s: %s", w.Path, w.Message))
	}
	for _, p := range ex.Parts {
		if len(p.Triangles) == 0 {
			continue
		}
		sc.render = append(sc.render, renderPart{verts: p.Vertices, tris: p.Triangles, normals: triNormals(p.Vertices, p.Triangles)})
		sc.stats.RenderTriangles += len(p.Triangles)
		sc.stats.RenderVertices += len(p.Vertices)
	}

	parent := physics.Parents(doc)
	inScene := make([]bool, len(doc.Nodes))
	for _, r := range ex.Roots {
		markSubtree(doc, r, inScene)
	}
	ids := make([]int, 0, len(model.Nodes))
	for i := range model.Nodes {
		if i >= 0 && i < len(doc.Nodes) && inScene[i] {
			ids = append(ids, i)
		}
	}
	sort.Ints(ids)
	bodyOf := func(i int) int {
		for steps := 0; i >= 0 && steps <= len(doc.Nodes); steps++ {
			if n := model.Nodes[i]; n != nil && n.Motion != nil {
				return i
			}
			i = parent[i]
		}
		return -1
	}
	shapeAt := func(i, s int, what string) (physics.Shape, error) {
		if s < 0 || s >= len(model.Shapes) {
			return physics.Shape{}, fmt.Errorf("nodes[%d]: %s shape %d out of range (%d shapes)", i, what, s, len(model.Shapes))
		}
		return model.Shapes[s], nil
	}
	var todo []pending
	for _, i := range ids {
		n := model.Nodes[i]
		if n.Motion != nil {
			sc.stats.Bodies++
		}
		if n.Collider != nil && n.Collider.Shape >= 0 {
			s, err := shapeAt(i, n.Collider.Shape, "collider")
			if err != nil {
				return nil, err
			}
			todo = append(todo, pending{node: i, body: bodyOf(i), shape: s})
		}
		if n.Trigger != nil && n.Trigger.Shape >= 0 {
			s, err := shapeAt(i, n.Trigger.Shape, "trigger")
			if err != nil {
				return nil, err
			}
			todo = append(todo, pending{node: i, body: bodyOf(i), shape: s, trigger: true})
		}
	}

	// Decomposition hues: bodies with several convex colliders.
	convexPerBody := map[int]int{}
	for _, p := range todo {
		if !p.trigger && p.shape.Type == physics.Convex {
			convexPerBody[p.body]++
		}
	}
	nextHue := map[int]int{}
	meshes := map[int]solid{}
	var planes []int // indices into sc.colliders of unbounded planes
	for _, p := range todo {
		c := collider{frame: true}
		local, tessellated := shapeSolid(p.shape)
		switch {
		case tessellated:
			if p.shape.Type == physics.Plane {
				c.frame = p.shape.PlaneSizeX > 0 && p.shape.PlaneSizeZ > 0
			}
		case p.shape.Type == physics.Convex, p.shape.Type == physics.Trimesh:
			m, ok := meshes[p.shape.Mesh]
			if !ok {
				if m, err = meshSolid(doc, p.shape.Mesh); err != nil {
					return nil, fmt.Errorf("nodes[%d]: collider mesh %d: %w", p.node, p.shape.Mesh, err)
				}
				meshes[p.shape.Mesh] = m
			}
			local = m
			if p.shape.Type == physics.Convex {
				local, err = convexOf(m)
				if err != nil {
					sc.stats.Warnings = append(sc.stats.Warnings, fmt.Sprintf("nodes[%d]: convex mesh %d: %v; drawn as its triangles", p.node, p.shape.Mesh, err))
				}
			}
		default:
			return nil, fmt.Errorf("nodes[%d]: unknown shape type %q", p.node, p.shape.Type)
		}
		c.kind = kind(p.shape.Type)
		c.color = colorOf(c.kind)
		switch {
		case p.trigger:
			c.color = triggerColor
			sc.kinds[kindTrigger] = true
			sc.stats.Triggers++
		default:
			sc.kinds[c.kind] = true
			sc.stats.Colliders++
			sc.stats.ByType[string(p.shape.Type)]++
			if p.shape.Type == physics.Convex {
				sc.stats.Hulls++
				sc.stats.HullVertices += len(local.verts)
				if convexPerBody[p.body] > 1 {
					c.color = hueColor(nextHue[p.body])
					nextHue[p.body]++
					sc.hues = true
				}
			}
		}
		c.creases = creases(local)
		c.solid = place(local, world[p.node])
		c.normals = triNormals(c.solid.verts, c.solid.tris)
		if !c.frame {
			planes = append(planes, len(sc.colliders))
		}
		sc.colliders = append(sc.colliders, c)
	}
	if len(planes) > 0 {
		sc.resizePlanes(planes, todo, world)
	}
	return sc, nil
}

// unboundedPlaneScale sizes an unbounded plane axis: this many times the
// diagonal of everything else drawn (the views then clip it).
const unboundedPlaneScale = 4

// resizePlanes rebuilds unbounded planes at a size the views can show.
func (sc *scene) resizePlanes(planes []int, todo []pending, world []geom.Mat4) {
	b := sc.bounds()
	size := unboundedPlaneScale * b.Diagonal()
	if size == 0 || math.IsInf(size, 0) || math.IsNaN(size) {
		size = 1
	}
	// Colliders were appended in todo order, so index k is todo[k].
	for _, k := range planes {
		s := todo[k].shape
		sx, sz := s.PlaneSizeX, s.PlaneSizeZ
		if sx <= 0 {
			sx = size
		}
		if sz <= 0 {
			sz = size
		}
		local, _ := shapeSolid(physics.Shape{Type: physics.Plane, PlaneSizeX: sx, PlaneSizeZ: sz})
		c := &sc.colliders[k]
		c.solid = place(local, world[todo[k].node])
		c.normals = triNormals(c.solid.verts, c.solid.tris)
		c.creases = creases(local)
	}
}

// bounds is the world box of everything that counts toward framing.
func (sc *scene) bounds() geom.Box {
	b := geom.EmptyBox()
	for _, p := range sc.render {
		for _, v := range p.verts {
			b = b.Extend(v)
		}
	}
	for _, c := range sc.colliders {
		if c.frame {
			for _, v := range c.solid.verts {
				b = b.Extend(v)
			}
		}
	}
	return b
}

func place(s solid, m geom.Mat4) solid {
	out := solid{verts: make([]geom.Vec3, len(s.verts)), tris: s.tris}
	for i, v := range s.verts {
		out.verts[i] = m.Point(v)
	}
	return out
}

func triNormals(v []geom.Vec3, tris [][3]uint32) []geom.Vec3 {
	n := make([]geom.Vec3, len(tris))
	for i, t := range tris {
		a := v[t[0]]
		n[i] = v[t[1]].Sub(a).Cross(v[t[2]].Sub(a)).Normalize()
	}
	return n
}

func markSubtree(doc *gltf.Document, root int, in []bool) {
	stack := []int{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if i < 0 || i >= len(in) || in[i] {
			continue
		}
		in[i] = true
		if doc.Nodes[i] != nil {
			stack = append(stack, doc.Nodes[i].Children...)
		}
	}
}

// meshSolid reads the triangles of every primitive of glTF mesh m in the
// mesh's own space, with identical positions merged so that crease edges
// can be found across split vertices. Point and line primitives are
// skipped: they enclose nothing.
func meshSolid(doc *gltf.Document, m int) (solid, error) {
	if m < 0 || m >= len(doc.Meshes) || doc.Meshes[m] == nil {
		return solid{}, fmt.Errorf("mesh %d does not exist", m)
	}
	var s solid
	for pi, prim := range doc.Meshes[m].Primitives {
		if prim == nil {
			continue
		}
		pos, idx, err := mesh.Primitive(doc, prim)
		if err != nil {
			return solid{}, fmt.Errorf("primitives[%d]: %w", pi, err)
		}
		base := uint32(len(s.verts))
		s.verts = append(s.verts, pos...)
		for _, t := range triangulate(prim.Mode, idx) {
			s.tris = append(s.tris, [3]uint32{base + t[0], base + t[1], base + t[2]})
		}
	}
	v, t := mesh.Weld(s.verts, s.tris, 0)
	return solid{verts: v, tris: t}, nil
}

// convexOf returns the convex hull of the mesh's vertices, which is what
// an engine builds from a convex shape whatever the mesh's triangles, or
// the mesh itself with the error when the hull cannot be built.
func convexOf(m solid) (solid, error) {
	if len(m.verts) == 0 {
		return m, nil
	}
	h, err := hull.Build(m.verts, hull.Options{MaxVertices: -1})
	if err != nil {
		return m, err
	}
	return solid{verts: h.Vertices, tris: h.Triangles}, nil
}

// triangulate turns an index list of a triangle mode into triangles.
func triangulate(mode gltf.PrimitiveMode, idx []uint32) [][3]uint32 {
	var out [][3]uint32
	switch mode {
	case gltf.PrimitiveTriangles:
		for i := 0; i+2 < len(idx); i += 3 {
			out = append(out, [3]uint32{idx[i], idx[i+1], idx[i+2]})
		}
	case gltf.PrimitiveTriangleStrip:
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				out = append(out, [3]uint32{idx[i], idx[i+1], idx[i+2]})
			} else {
				out = append(out, [3]uint32{idx[i+1], idx[i], idx[i+2]})
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 1; i+1 < len(idx); i++ {
			out = append(out, [3]uint32{idx[0], idx[i], idx[i+1]})
		}
	}
	return out
}
