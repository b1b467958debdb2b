package main

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/obj"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// roundSegments is how many segments a sphere's, capsule's or cylinder's
// circles get when a primitive collider is turned into a hull for the
// fidelity figures; the points are pushed out so that the polygon
// circumscribes each circle (a cylinder's hull contains the cylinder; a
// sphere's and a capsule's grid is grown by 1/cos² of half a segment, a
// radius at most 1% too large at 32 segments).
const roundSegments = 32

// colliderSet is the colliders of one file as hulls in the file's world
// frame, with how many colliders of each shape type it has.
type colliderSet struct {
	hulls  []*hull.Hull
	shapes map[physics.ShapeType]int
	// convexVertices is the distinct points of the convex colliders' meshes.
	convexVertices int
}

// count is the number of colliders.
func (s colliderSet) count() int {
	n := 0
	for _, c := range s.shapes {
		n += c
	}
	return n
}

// readColliders decodes a glTF file's physics (any family) and returns
// every collider of its default scene as a hull in world space: convex
// shapes from their mesh's points, primitives from points on their
// surface (see roundSegments). Trimesh and plane colliders are counted but
// left out of the hulls.
func readColliders(path string) (colliderSet, error) {
	set := colliderSet{shapes: map[physics.ShapeType]int{}}
	doc, err := gltf.Open(path)
	if err != nil {
		return set, fmt.Errorf("%s: %w", path, err)
	}
	model, _, _, err := codecs.Decode(doc)
	if err != nil {
		return set, fmt.Errorf("%s: %w", path, err)
	}
	if model == nil {
		return set, fmt.Errorf("%s: no physics", path)
	}
	var walk func(n int, parent geom.Mat4, depth int) error
	walk = func(n int, parent geom.Mat4, depth int) error {
		if n < 0 || n >= len(doc.Nodes) || depth > 64 {
			return fmt.Errorf("%s: nodes[%d]: missing or too deep", path, n)
		}
		node := doc.Nodes[n]
		world := parent.Mul(localMatrix(node))
		if pn := model.Nodes[n]; pn != nil && pn.Collider != nil && pn.Collider.Shape >= 0 {
			if pn.Collider.Shape >= len(model.Shapes) {
				return fmt.Errorf("%s: nodes[%d]: collider shape %d missing", path, n, pn.Collider.Shape)
			}
			s := model.Shapes[pn.Collider.Shape]
			set.shapes[s.Type]++
			pts, err := shapePoints(doc, s)
			if err != nil {
				return fmt.Errorf("%s: nodes[%d]: %w", path, n, err)
			}
			if s.Type == physics.Convex {
				set.convexVertices += distinct(pts)
			}
			if pts != nil {
				for i, p := range pts {
					pts[i] = world.Point(p)
				}
				h, err := hull.Build(pts, hull.Options{MaxVertices: 1 << 20})
				if err != nil {
					return fmt.Errorf("%s: nodes[%d]: hull of the %s collider: %w", path, n, s.Type, err)
				}
				set.hulls = append(set.hulls, h)
			}
		}
		for _, c := range node.Children {
			if err := walk(c, world, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range sceneRoots(doc) {
		if err := walk(r, geom.Identity4(), 0); err != nil {
			return set, err
		}
	}
	if set.count() == 0 {
		return set, fmt.Errorf("%s: no colliders in the scene", path)
	}
	return set, nil
}

func sceneRoots(doc *gltf.Document) []int {
	if doc.Scene != nil && *doc.Scene < len(doc.Scenes) {
		return doc.Scenes[*doc.Scene].Nodes
	}
	if len(doc.Scenes) > 0 {
		return doc.Scenes[0].Nodes
	}
	return nil
}

func localMatrix(node *gltf.Node) geom.Mat4 {
	if node.Matrix != gltf.DefaultMatrix && node.Matrix != [16]float64{} {
		return geom.Mat4FromGLTF(node.Matrix)
	}
	r := node.RotationOrDefault()
	return geom.TRS(geom.Vec3(node.TranslationOrDefault()), geom.Quat{r[0], r[1], r[2], r[3]}, geom.Vec3(node.ScaleOrDefault()))
}

// shapePoints returns points whose hull is the shape (in its own space),
// or nil for shapes measured as no hull (trimesh, plane).
func shapePoints(doc *gltf.Document, s physics.Shape) ([]geom.Vec3, error) {
	switch s.Type {
	case physics.Convex:
		if s.Mesh < 0 || s.Mesh >= len(doc.Meshes) {
			return nil, fmt.Errorf("convex shape: meshes[%d] missing", s.Mesh)
		}
		var pts []geom.Vec3
		for i, p := range doc.Meshes[s.Mesh].Primitives {
			pos, _, err := mesh.Primitive(doc, p)
			if err != nil {
				return nil, fmt.Errorf("meshes[%d].primitives[%d]: %w", s.Mesh, i, err)
			}
			pts = append(pts, pos...)
		}
		return pts, nil
	case physics.Box:
		var pts []geom.Vec3
		for i := 0; i < 8; i++ {
			p := geom.Vec3{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2}
			for a := 0; a < 3; a++ {
				if i&(1<<a) != 0 {
					p[a] = -p[a]
				}
			}
			pts = append(pts, p)
		}
		return pts, nil
	case physics.Sphere:
		return capsulePoints(0, s.Radius, s.Radius), nil
	case physics.Capsule:
		return capsulePoints(s.Height, s.RadiusTop, s.RadiusBottom), nil
	case physics.Cylinder:
		grow := 1 / math.Cos(math.Pi/roundSegments)
		var pts []geom.Vec3
		for _, end := range []struct{ y, r float64 }{{s.Height / 2, s.RadiusTop}, {-s.Height / 2, s.RadiusBottom}} {
			for i := 0; i < roundSegments; i++ {
				a := 2 * math.Pi * float64(i) / roundSegments
				pts = append(pts, geom.Vec3{end.r * grow * math.Cos(a), end.y, end.r * grow * math.Sin(a)})
			}
		}
		return pts, nil
	}
	return nil, nil
}

// capsulePoints samples two hemispheres of radii top and bottom centred at
// ±height/2 on y (a sphere when height is 0), grown to circumscribe.
func capsulePoints(height, top, bottom float64) []geom.Vec3 {
	c := math.Cos(math.Pi / roundSegments)
	grow := 1 / (c * c)
	var pts []geom.Vec3
	for _, end := range []struct{ y, r, sign float64 }{{height / 2, top, 1}, {-height / 2, bottom, -1}} {
		for j := 0; j <= roundSegments/4; j++ {
			phi := math.Pi / 2 * float64(j) / float64(roundSegments/4) // 0 at the equator
			for i := 0; i < roundSegments; i++ {
				a := 2 * math.Pi * float64(i) / roundSegments
				r := end.r * grow
				pts = append(pts, geom.Vec3{r * math.Cos(phi) * math.Cos(a), end.y + end.sign*r*math.Sin(phi), r * math.Cos(phi) * math.Sin(a)})
			}
		}
	}
	return pts
}

// writeAsset writes a GLB holding the mesh (world space) on one node and,
// when hulls is not nil, that node as a dynamic OMI body whose colliders
// are the hulls (each on a child node, a convex shape of its own mesh),
// encoded by the project's OMI codec. Mass is left to the reader.
func writeAsset(path string, m *obj.Mesh, hulls []*hull.Hull) error {
	doc := gltf.NewDocument()
	doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	doc.Scene = gltf.Index(0)
	doc.Meshes = append(doc.Meshes, meshOf(doc, "asset", m.Vertices, m.Triangles))
	doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "asset", Mesh: gltf.Index(0)})
	if hulls != nil {
		model := physics.NewModel()
		model.Node(0).Motion = &physics.Motion{Type: physics.Dynamic}
		for i, h := range hulls {
			mi := len(doc.Meshes)
			doc.Meshes = append(doc.Meshes, meshOf(doc, fmt.Sprintf("hull%d", i), h.Vertices, h.Triangles))
			ni := len(doc.Nodes)
			doc.Nodes = append(doc.Nodes, &gltf.Node{Name: fmt.Sprintf("hull%d", i)})
			doc.Nodes[0].Children = append(doc.Nodes[0].Children, ni)
			shape := model.AddShape(physics.Shape{Type: physics.Convex, Mesh: mi})
			model.Node(ni).Collider = &physics.Collider{Shape: shape, Material: -1, Filter: -1}
		}
		codec, err := codecs.For(physics.OMI)
		if err != nil {
			return err
		}
		if err := codec.Encode(doc, model, physics.EncodeOptions{}); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := gltf.SaveBinary(doc, path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func meshOf(doc *gltf.Document, name string, vs []geom.Vec3, ts [][3]uint32) *gltf.Mesh {
	pos := make([][3]float32, len(vs))
	for i, v := range vs {
		pos[i] = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	}
	idx := make([]uint32, 0, 3*len(ts))
	for _, t := range ts {
		idx = append(idx, t[0], t[1], t[2])
	}
	return &gltf.Mesh{Name: name, Primitives: []*gltf.Primitive{{
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, pos)},
		Indices:    gltf.Index(modeler.WriteIndices(doc, idx)),
	}}}
}

func distinct(pts []geom.Vec3) int {
	seen := map[geom.Vec3]bool{}
	for _, p := range pts {
		seen[p] = true
	}
	return len(seen)
}
