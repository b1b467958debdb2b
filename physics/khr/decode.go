package khr

import (
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/qmuntal/gltf"
)

type meshKey struct {
	mesh, node int
	convex     bool
}

type decoder struct {
	wire.Decoder
	meshShapes map[meshKey]int
	old        bool // 2024 KHR_collision_shapes form
	nImplicit  int
}

// defaults are KHR_implicit_shapes' values for absent parameters.
var defaults = wire.Defaults{
	BoxSize: DefaultBoxSize, SphereRadius: DefaultSphereRadius,
	CapsuleHeight: DefaultRoundHeight, CylinderHeight: DefaultRoundHeight, RoundRadius: DefaultRoundRadius,
}

// Decode reads the KHR physics of doc into a model: the current
// KHR_implicit_shapes + KHR_physics_rigid_bodies with collider geometry
// {shape}, {mesh} (newest revision) or {node} (2025 revision), and the
// 2024 form (KHR_collision_shapes, collider/trigger {shape}, mesh shapes
// with a convexHull flag in the shape's KHR_physics_rigid_bodies
// extension). Implicit shapes keep their indices; each distinct mesh
// geometry becomes one Convex or Trimesh shape appended after them.
// Geometry nodes with children, skins or morph weights are read as their
// own mesh only, with a warning. doc is not modified. References out of
// range are errors carrying the JSON path.
func Decode(doc *gltf.Document) (*physics.Model, []physics.Warning, error) {
	d := &decoder{meshShapes: map[meshKey]int{}}
	return wire.Decode("khr", doc, &d.Decoder, d.run)
}

func (d *decoder) run() error {
	raw, ok, err := d.Raw(d.Doc.Extensions, physics.ExtKHRShapes, docShapes)
	if err != nil {
		return err
	}
	shapesPath := docShapes
	if !ok {
		raw, ok, err = d.Raw(d.Doc.Extensions, physics.ExtKHRCollisionShapes, "extensions."+physics.ExtKHRCollisionShapes)
		if err != nil {
			return err
		}
		if ok {
			d.old = true
			shapesPath = "extensions." + physics.ExtKHRCollisionShapes
			d.Warn(shapesPath, "2024 KHR_collision_shapes form migrated to KHR_implicit_shapes and collider geometry")
		}
	}
	if ok {
		var sd wire.ShapeDoc[shapeJSON]
		if err := jsonx.Unmarshal(raw, &sd, shapesPath); err != nil {
			return err
		}
		for i, in := range sd.Shapes {
			s, err := d.shape(in, fmt.Sprintf("%s.shapes[%d]", shapesPath, i))
			if err != nil {
				return err
			}
			d.M.Shapes = append(d.M.Shapes, s)
		}
	}
	d.nImplicit = len(d.M.Shapes)
	if err := d.readDoc(); err != nil {
		return err
	}
	for i, n := range d.Doc.Nodes {
		if n == nil {
			continue
		}
		if err := d.readNode(i, n); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) shape(in shapeJSON, p string) (physics.Shape, error) {
	s, ok := in.Shape.Model(in.Meta, defaults)
	if ok {
		return s, nil
	}
	switch s.Type {
	case physics.Plane:
		if in.Plane != nil {
			s.PlaneSizeX, s.PlaneSizeZ = wire.Or(in.Plane.SizeX, 0), wire.Or(in.Plane.SizeZ, 0)
			s.DoubleSided = in.Plane.DoubleSided != nil && *in.Plane.DoubleSided
		}
	case "mesh":
		if !d.old || in.Mesh == nil || in.Mesh.Mesh == nil {
			return s, physics.Errorf(p+".mesh", "a mesh shape needs mesh.mesh (2024 form only)")
		}
		s.Mesh = *in.Mesh.Mesh
		s.Type = physics.Trimesh
		if raw, ok := in.Extensions[physics.ExtKHRBodies]; ok {
			var e struct {
				ConvexHull bool `json:"convexHull"`
			}
			if err := jsonx.Unmarshal(raw, &e, p+".extensions."+physics.ExtKHRBodies); err != nil {
				return s, err
			}
			if e.ConvexHull {
				s.Type = physics.Convex
			}
			delete(s.Extensions, physics.ExtKHRBodies)
			if len(s.Extensions) == 0 {
				s.Extensions = nil
			}
		}
		if in.Mesh.Skin != nil || len(in.Mesh.Weights) > 0 || (in.Mesh.UseNodeWeights != nil && *in.Mesh.UseNodeWeights) {
			d.Lossy(p+".mesh", "skin and morph weights of a mesh shape are not kept (the undeformed mesh is used)")
		}
	default:
		return s, physics.Errorf(p+".type", "unknown shape type %q", in.Type)
	}
	return s, nil
}

func (d *decoder) readDoc() error {
	bd, err := wire.Read[bodyDoc](&d.Decoder, d.Doc.Extensions, physics.ExtKHRBodies, docBodies)
	if err != nil || bd == nil {
		return err
	}
	bd.AppendTo(d.M)
	wire.AppendJoints(d.M, bd.PhysicsJoints)
	return nil
}

func (d *decoder) readNode(i int, n *gltf.Node) error {
	p := fmt.Sprintf("nodes[%d].extensions.%s", i, physics.ExtKHRBodies)
	raw, ok, err := d.Raw(n.Extensions, physics.ExtKHRBodies, p)
	if err != nil || !ok {
		return err
	}
	var b bodyJSON
	if err := jsonx.Unmarshal(raw, &b, p); err != nil {
		return err
	}
	nd := &physics.Node{}
	if mo := b.Motion; mo != nil {
		if err := wire.CheckMotionLengths(raw, p); err != nil {
			return err
		}
		if mo.Mass != nil && *mo.Mass < 0 {
			return physics.Errorf(p+".motion.mass", "negative mass %g", *mo.Mass)
		}
		if mo.InertiaDiagonal != nil {
			for k, v := range mo.InertiaDiagonal {
				if v < 0 {
					return physics.Errorf(fmt.Sprintf("%s.motion.inertiaDiagonal[%d]", p, k), "negative moment %g", v)
				}
			}
		}
		t := physics.Dynamic
		if mo.IsKinematic != nil && *mo.IsKinematic {
			t = physics.Kinematic
		}
		nd.Motion = mo.Model(t)
	}
	if c := b.Collider; c != nil {
		si, err := d.geometry(c.Geometry, c.Shape, i, p+".collider")
		if err != nil {
			return err
		}
		col := &physics.Collider{Shape: si, Material: wire.Index(c.PhysicsMaterial), Filter: wire.Index(c.CollisionFilter)}
		if col.Material >= 0 {
			if err := wire.Ref(p+".collider.physicsMaterial", col.Material, len(d.M.Materials), "physics materials"); err != nil {
				return err
			}
		}
		if col.Filter >= 0 {
			if err := wire.Ref(p+".collider.collisionFilter", col.Filter, len(d.M.Filters), "collision filters"); err != nil {
				return err
			}
		}
		nd.Collider = col
	}
	if t := b.Trigger; t != nil {
		tr := &physics.Trigger{Shape: -1, Filter: wire.Index(t.CollisionFilter)}
		if (t.Geometry != nil || t.Shape != nil) && len(t.Nodes) > 0 {
			return physics.Errorf(p+".trigger", "a trigger has either a geometry or nodes, not both")
		}
		if t.Geometry != nil || t.Shape != nil {
			si, err := d.geometry(t.Geometry, t.Shape, i, p+".trigger")
			if err != nil {
				return err
			}
			tr.Shape = si
		}
		for k, c := range t.Nodes {
			if err := wire.Ref(fmt.Sprintf("%s.trigger.nodes[%d]", p, k), c, len(d.Doc.Nodes), "nodes"); err != nil {
				return err
			}
		}
		if len(t.Nodes) > 0 {
			tr.Nodes = append([]int(nil), t.Nodes...)
		}
		if tr.Filter >= 0 {
			if err := wire.Ref(p+".trigger.collisionFilter", tr.Filter, len(d.M.Filters), "collision filters"); err != nil {
				return err
			}
		}
		if tr.Shape < 0 && len(tr.Nodes) == 0 {
			d.Lossy(p+".trigger", "empty trigger (neither geometry nor nodes) dropped")
		} else {
			nd.Trigger = tr
		}
	}
	if j := b.Joint; j != nil {
		jt, err := wire.DecodeJoint(j.Joint, j.ConnectedNode, j.EnableCollision, p+".joint")
		if err != nil {
			return err
		}
		if err := wire.Ref(p+".joint.joint", jt.Def, len(d.M.Joints), "joints"); err != nil {
			return err
		}
		if err := wire.Ref(p+".joint.connectedNode", jt.ConnectedNode, len(d.Doc.Nodes), "nodes"); err != nil {
			return err
		}
		nd.Joint = jt
	}
	if nd.Motion != nil || nd.Collider != nil || nd.Trigger != nil || nd.Joint != nil {
		d.M.Nodes[i] = nd
	}
	return nil
}

// geometry resolves a collider or trigger geometry (or the 2024 shape
// index) to a model shape index.
func (d *decoder) geometry(g *geometryJSON, oldShape *int, node int, p string) (int, error) {
	if g == nil {
		if oldShape == nil {
			return -1, physics.Errorf(p+".geometry", "missing geometry")
		}
		if !d.old {
			d.Warn(p+".shape", "2024 form collider/trigger shape read without KHR_collision_shapes; indexing KHR_implicit_shapes")
		}
		if *oldShape < 0 || *oldShape >= d.nImplicit {
			return -1, physics.Errorf(p+".shape", "index %d out of range (%d shapes)", *oldShape, d.nImplicit)
		}
		return *oldShape, nil
	}
	gp := p + ".geometry"
	n := 0
	for _, v := range []*int{g.Shape, g.Mesh, g.Node} {
		if v != nil {
			n++
		}
	}
	if n != 1 {
		return -1, physics.Errorf(gp, "exactly one of shape, mesh or node is required (got %d)", n)
	}
	convex := g.ConvexHull != nil && *g.ConvexHull
	switch {
	case g.Shape != nil:
		if *g.Shape < 0 || *g.Shape >= d.nImplicit {
			return -1, physics.Errorf(gp+".shape", "index %d out of range (%d shapes)", *g.Shape, d.nImplicit)
		}
		return *g.Shape, nil
	case g.Mesh != nil:
		if *g.Mesh < 0 || *g.Mesh >= len(d.Doc.Meshes) {
			return -1, physics.Errorf(gp+".mesh", "index %d out of range (%d meshes)", *g.Mesh, len(d.Doc.Meshes))
		}
		return d.meshShape(meshKey{mesh: *g.Mesh, node: -1, convex: convex}), nil
	default:
		k := *g.Node
		if k < 0 || k >= len(d.Doc.Nodes) || d.Doc.Nodes[k] == nil {
			return -1, physics.Errorf(gp+".node", "index %d out of range (%d nodes)", k, len(d.Doc.Nodes))
		}
		gn := d.Doc.Nodes[k]
		if gn.Mesh == nil {
			return -1, physics.Errorf(gp+".node", "node %d has no mesh (geometry from its children only is not supported)", k)
		}
		if *gn.Mesh < 0 || *gn.Mesh >= len(d.Doc.Meshes) {
			return -1, physics.Errorf(fmt.Sprintf("nodes[%d].mesh", k), "index %d out of range (%d meshes)", *gn.Mesh, len(d.Doc.Meshes))
		}
		if len(gn.Children) > 0 || gn.Skin != nil || len(gn.Weights) > 0 {
			d.Lossy(gp+".node", "geometry node %d has children, a skin or morph weights; only its own undeformed mesh %d is kept", k, *gn.Mesh)
		}
		return d.meshShape(meshKey{mesh: *gn.Mesh, node: k, convex: convex}), nil
	}
}

func (d *decoder) meshShape(k meshKey) int {
	if i, ok := d.meshShapes[k]; ok {
		return i
	}
	s := physics.Shape{Type: physics.Trimesh, Mesh: k.mesh}
	if k.convex {
		s.Type = physics.Convex
	}
	if k.node >= 0 {
		s.GeometryNode = jsonx.Ptr(k.node)
	}
	i := d.M.AddShape(s)
	d.meshShapes[k] = i
	return i
}
