package khr

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/qmuntal/gltf"
)

// The defaults of KHR_implicit_shapes, written explicitly by Encode and
// assumed by Decode when a member is missing. They differ from OMI's.
const (
	DefaultBoxSize      = 1.0
	DefaultSphereRadius = 0.5
	DefaultRoundHeight  = 0.5  // capsule and cylinder
	DefaultRoundRadius  = 0.25 // capsule and cylinder

	docShapes = "extensions." + physics.ExtKHRShapes
	docBodies = "extensions." + physics.ExtKHRBodies
)

// Options tunes the KHR encoding.
type Options struct {
	// GeometryNode writes mesh geometry in the 2025 form
	// collider.geometry.node instead of the newest collider.geometry.mesh.
	// The node referenced for a Convex or Trimesh shape is, in order of
	// preference: the shape's own GeometryNode (as read from such a file)
	// if that node still carries the shape's mesh; the collider or trigger
	// node itself if it carries the mesh and has no skin, morph weights or
	// children (whose meshes would join the geometry); otherwise a node
	// added at the end of doc.Nodes, outside every scene, carrying only
	// the mesh, named "<mesh name> collision geometry" (one per mesh).
	// The added node has an identity transform: the 2025 README allows
	// geometry nodes outside the scene hierarchy, so their mesh is read
	// relative to the referenced node and placed in the collider's frame,
	// as with geometry.mesh.
	GeometryNode bool
}

// Encode replaces the KHR_implicit_shapes and KHR_physics_rigid_bodies
// content of doc (and any legacy KHR_collision_shapes) with m. Implicit
// shapes keep their relative model order in KHR_implicit_shapes; convex
// and trimesh shapes become collider geometry {mesh, convexHull}. Static
// motions are written as no motion (KHR's static), kinematic ones as
// isKinematic. Every shape parameter is written explicitly and the
// extensions are declared in extensionsUsed only. Whenever nodes carry
// KHR_physics_rigid_bodies, so does the document (an empty object when it
// has no materials, filters or joints to hold). Errors carry the
// output's JSON path; nothing is changed then.
func Encode(doc *gltf.Document, m *physics.Model, opt Options) error {
	e := &encoder{doc: doc, m: m, opt: opt, added: map[int]int{}}
	return wire.Encode("khr", doc, m, e.build, physics.ExtKHRShapes, physics.ExtKHRBodies, physics.ExtKHRCollisionShapes)
}

type encoder struct {
	doc *gltf.Document
	m   *physics.Model
	opt Options

	khrIndex   []int       // model shape index -> KHR_implicit_shapes index, -1 for mesh shapes
	added      map[int]int // mesh -> added node index
	addedOrder []int
}

func (e *encoder) build(out *wire.Output) error {
	m := e.m
	var sd wire.ShapeDoc[shapeJSON]
	e.khrIndex = make([]int, len(m.Shapes))
	for i, s := range m.Shapes {
		e.khrIndex[i] = -1
		p := fmt.Sprintf("%s.shapes[%d]", docShapes, len(sd.Shapes))
		sh, ok, err := wire.EncodeShape(s, p)
		if err != nil {
			return err
		}
		js := shapeJSON{Shape: sh, Meta: wire.MetaOf(s)}
		switch {
		case ok:
		case s.Type == physics.Plane:
			if err := wire.Finite(p+".plane", s.PlaneSizeX, s.PlaneSizeZ); err != nil {
				return err
			}
			pl := &planeJSON{DoubleSided: jsonx.Ptr(s.DoubleSided)}
			if s.PlaneSizeX > 0 {
				pl.SizeX = jsonx.Ptr(s.PlaneSizeX)
			}
			if s.PlaneSizeZ > 0 {
				pl.SizeZ = jsonx.Ptr(s.PlaneSizeZ)
			}
			js.Plane = pl
		case s.Type == physics.Convex, s.Type == physics.Trimesh:
			continue
		default:
			return physics.Errorf(p+".type", "unknown shape type %q", s.Type)
		}
		e.khrIndex[i] = len(sd.Shapes)
		sd.Shapes = append(sd.Shapes, js)
	}
	if len(sd.Shapes) > 0 {
		raw, err := jsonx.Marshal(sd)
		if err != nil {
			return err
		}
		out.SetDoc(physics.ExtKHRShapes, raw)
	}

	common, err := wire.EncodeBodyDoc(m, docBodies)
	if err != nil {
		return err
	}
	joints, err := wire.EncodeJoints(m.Joints, docBodies)
	if err != nil {
		return err
	}
	bd := bodyDoc{BodyDoc: common, PhysicsJoints: joints}
	docSet := len(bd.PhysicsMaterials)+len(bd.CollisionFilters)+len(bd.PhysicsJoints) > 0
	if docSet {
		raw, err := jsonx.Marshal(bd)
		if err != nil {
			return err
		}
		out.SetDoc(physics.ExtKHRBodies, raw)
	}
	nodes := 0

	for _, ni := range m.NodeIndices() {
		n := m.Nodes[ni]
		if n == nil {
			continue
		}
		np := fmt.Sprintf("nodes[%d]", ni)
		if ni < 0 || ni >= len(e.doc.Nodes) || e.doc.Nodes[ni] == nil {
			return physics.Errorf(np, "node index %d out of range (%d nodes)", ni, len(e.doc.Nodes))
		}
		bp := np + ".extensions." + physics.ExtKHRBodies
		var b bodyJSON
		if mo := n.Motion; mo != nil {
			mj, err := encodeMotion(mo, bp+".motion")
			if err != nil {
				return err
			}
			b.Motion = mj
		}
		if c := n.Collider; c != nil {
			p := bp + ".collider"
			if c.Shape < 0 {
				return physics.Errorf(p+".geometry", "KHR colliders need a geometry (a shapeless OMI compound collider must be converted)")
			}
			g, err := e.geometry(c.Shape, ni, p+".geometry")
			if err != nil {
				return err
			}
			refs, err := wire.EncodeColliderRefs(c, p, len(m.Materials), len(m.Filters))
			if err != nil {
				return err
			}
			b.Collider = &colliderJSON{Geometry: g, ColliderRefs: refs}
		}
		if t := n.Trigger; t != nil {
			p := bp + ".trigger"
			tj := &triggerJSON{}
			refs, err := wire.EncodeTrigger(t, p, "a geometry", len(e.doc.Nodes), len(m.Filters), func() error {
				g, err := e.geometry(t.Shape, ni, p+".geometry")
				tj.Geometry = g
				return err
			})
			if err != nil {
				return err
			}
			tj.TriggerRefs = refs
			b.Trigger = tj
		}
		if j := n.Joint; j != nil {
			enable, err := wire.CheckJoint(j, bp+".joint", len(m.Joints), len(e.doc.Nodes))
			if err != nil {
				return err
			}
			b.Joint = &jointJSON{ConnectedNode: jsonx.Ptr(j.ConnectedNode), Joint: jsonx.Ptr(j.Def), EnableCollision: enable}
		}
		if b.Motion == nil && b.Collider == nil && b.Trigger == nil && b.Joint == nil {
			continue // a static motion alone: KHR's static is no motion
		}
		raw, err := jsonx.Marshal(b)
		if err != nil {
			return err
		}
		out.SetNode(ni, physics.ExtKHRBodies, raw)
		nodes++
	}
	if nodes > 0 && !docSet {
		// An empty document-level object is valid, and loaders that read
		// it unguarded (Babylon.js's) cannot open the file without it.
		out.SetDoc(physics.ExtKHRBodies, json.RawMessage(`{}`))
	}
	for _, mesh := range e.addedOrder {
		name := fmt.Sprintf("mesh %d collision geometry", mesh)
		if e.doc.Meshes[mesh].Name != "" {
			name = e.doc.Meshes[mesh].Name + " collision geometry"
		}
		out.AddNode(&gltf.Node{
			Name: name, Mesh: jsonx.Ptr(mesh),
			Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale,
		})
	}
	return nil
}

func encodeMotion(mo *physics.Motion, p string) (*motionJSON, error) {
	mj := &motionJSON{}
	switch mo.Type {
	case physics.Static:
		return nil, nil
	case physics.Kinematic:
		mj.IsKinematic = jsonx.Ptr(true)
	case physics.Dynamic:
	default:
		return nil, physics.Errorf(p, "unknown motion type %q", mo.Type)
	}
	common, err := wire.EncodeMotion(mo, p, true)
	if err != nil {
		return nil, err
	}
	mj.Motion = common
	return mj, nil
}

// geometry returns the geometry object for model shape si used on node ni.
func (e *encoder) geometry(si, ni int, p string) (*geometryJSON, error) {
	if err := wire.Ref(p, si, len(e.m.Shapes), "shapes"); err != nil {
		return nil, err
	}
	s := e.m.Shapes[si]
	if k := e.khrIndex[si]; k >= 0 {
		return &geometryJSON{Shape: jsonx.Ptr(k)}, nil
	}
	if err := wire.Ref(p+".mesh", s.Mesh, len(e.doc.Meshes), "meshes"); err != nil {
		return nil, err
	}
	hull := jsonx.Ptr(s.Type == physics.Convex)
	if !e.opt.GeometryNode {
		return &geometryJSON{Mesh: jsonx.Ptr(s.Mesh), ConvexHull: hull}, nil
	}
	return &geometryJSON{Node: jsonx.Ptr(e.meshNode(s, ni)), ConvexHull: hull}, nil
}

// meshNode picks the node whose mesh stands for s (see Options).
func (e *encoder) meshNode(s physics.Shape, ni int) int {
	hasMesh := func(k int) bool {
		if k < 0 || k >= len(e.doc.Nodes) || e.doc.Nodes[k] == nil {
			return false
		}
		n := e.doc.Nodes[k]
		return n.Mesh != nil && *n.Mesh == s.Mesh
	}
	if s.GeometryNode != nil && hasMesh(*s.GeometryNode) {
		return *s.GeometryNode
	}
	if n := e.doc.Nodes[ni]; hasMesh(ni) && n.Skin == nil && len(n.Weights) == 0 && len(n.Children) == 0 {
		return ni
	}
	if k, ok := e.added[s.Mesh]; ok {
		return k
	}
	k := len(e.doc.Nodes) + len(e.addedOrder)
	e.added[s.Mesh] = k
	e.addedOrder = append(e.addedOrder, s.Mesh)
	return k
}
