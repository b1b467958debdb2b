package khr

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/qmuntal/gltf"
)

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
	if doc == nil {
		return nil, nil, fmt.Errorf("khr: decode: nil document")
	}
	d := decoder{doc: doc, m: physics.NewModel(), meshShapes: map[meshKey]int{}}
	if err := d.run(); err != nil {
		return nil, d.warns, fmt.Errorf("khr: decode: %w", err)
	}
	return d.m, d.warns, nil
}

type meshKey struct {
	mesh, node int
	convex     bool
}

type decoder struct {
	doc        *gltf.Document
	m          *physics.Model
	warns      []physics.Warning
	meshShapes map[meshKey]int
	old        bool // 2024 KHR_collision_shapes form
	nImplicit  int
}

func (d *decoder) warn(path, format string, args ...any) {
	d.warns = append(d.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (d *decoder) lossy(path, format string, args ...any) {
	d.warns = append(d.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...), Lossy: true})
}

func or(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func idx(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func deref[T any](p *[]T) []T {
	if p == nil {
		return nil
	}
	return append([]T{}, (*p)...)
}

func (d *decoder) run() error {
	raw, ok, err := jsonx.Raw(d.doc.Extensions, physics.ExtKHRShapes)
	if err != nil {
		return physics.Errorf(docShapes, "%v", err)
	}
	shapesPath := docShapes
	if !ok {
		raw, ok, err = jsonx.Raw(d.doc.Extensions, physics.ExtKHRCollisionShapes)
		if err != nil {
			return physics.Errorf("extensions."+physics.ExtKHRCollisionShapes, "%v", err)
		}
		if ok {
			d.old = true
			shapesPath = "extensions." + physics.ExtKHRCollisionShapes
			d.warn(shapesPath, "2024 KHR_collision_shapes form migrated to KHR_implicit_shapes and collider geometry")
		}
	}
	if ok {
		var sd struct {
			Shapes []shapeJSON `json:"shapes"`
		}
		if err := jsonx.Unmarshal(raw, &sd, shapesPath); err != nil {
			return err
		}
		for i, in := range sd.Shapes {
			s, err := d.shape(in, fmt.Sprintf("%s.shapes[%d]", shapesPath, i))
			if err != nil {
				return err
			}
			d.m.Shapes = append(d.m.Shapes, s)
		}
	}
	d.nImplicit = len(d.m.Shapes)
	if err := d.readDoc(); err != nil {
		return err
	}
	for i, n := range d.doc.Nodes {
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
	s := physics.Shape{Type: physics.ShapeType(in.Type), Name: in.Name, Extensions: jsonx.BytesMap(in.Extensions)}
	if len(in.Extras) > 0 {
		s.Extras = []byte(in.Extras)
	}
	round := func(r *roundJSON) {
		if r == nil {
			r = &roundJSON{}
		}
		s.Height = or(r.Height, DefaultRoundHeight)
		s.RadiusTop = or(r.RadiusTop, DefaultRoundRadius)
		s.RadiusBottom = or(r.RadiusBottom, DefaultRoundRadius)
	}
	switch s.Type {
	case physics.Box:
		s.Size = [3]float64{DefaultBoxSize, DefaultBoxSize, DefaultBoxSize}
		if in.Box != nil && in.Box.Size != nil {
			s.Size = *in.Box.Size
		}
	case physics.Sphere:
		s.Radius = DefaultSphereRadius
		if in.Sphere != nil {
			s.Radius = or(in.Sphere.Radius, DefaultSphereRadius)
		}
	case physics.Capsule:
		round(in.Capsule)
	case physics.Cylinder:
		round(in.Cylinder)
	case physics.Plane:
		if in.Plane != nil {
			s.PlaneSizeX, s.PlaneSizeZ = or(in.Plane.SizeX, 0), or(in.Plane.SizeZ, 0)
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
			d.lossy(p+".mesh", "skin and morph weights of a mesh shape are not kept (the undeformed mesh is used)")
		}
	default:
		return s, physics.Errorf(p+".type", "unknown shape type %q", in.Type)
	}
	return s, nil
}

func (d *decoder) readDoc() error {
	raw, ok, err := jsonx.Raw(d.doc.Extensions, physics.ExtKHRBodies)
	if err != nil {
		return physics.Errorf(docBodies, "%v", err)
	}
	if !ok {
		return nil
	}
	var bd bodyDoc
	if err := jsonx.Unmarshal(raw, &bd, docBodies); err != nil {
		return err
	}
	for _, mt := range bd.PhysicsMaterials {
		d.m.Materials = append(d.m.Materials, physics.Material{
			Name: mt.Name, StaticFriction: mt.StaticFriction, DynamicFriction: mt.DynamicFriction,
			Restitution: mt.Restitution, FrictionCombine: mt.FrictionCombine, RestitutionCombine: mt.RestitutionCombine,
		})
	}
	for _, f := range bd.CollisionFilters {
		d.m.Filters = append(d.m.Filters, physics.Filter{
			Name: f.Name, CollisionSystems: deref(f.CollisionSystems),
			CollideWithSystems: deref(f.CollideWithSystems), NotCollideWithSystems: deref(f.NotCollideWithSystems),
		})
	}
	for _, j := range bd.PhysicsJoints {
		def := physics.JointDef{Name: j.Name}
		for _, l := range j.Limits {
			def.Limits = append(def.Limits, physics.JointLimit{
				LinearAxes: deref(l.LinearAxes), AngularAxes: deref(l.AngularAxes),
				Min: l.Min, Max: l.Max, Stiffness: l.Stiffness, Damping: l.Damping,
			})
		}
		for _, dr := range j.Drives {
			def.Drives = append(def.Drives, physics.JointDrive{
				Type: dr.Type, Mode: dr.Mode, Axis: dr.Axis, MaxForce: dr.MaxForce,
				PositionTarget: dr.PositionTarget, VelocityTarget: dr.VelocityTarget, Stiffness: dr.Stiffness, Damping: dr.Damping,
			})
		}
		d.m.Joints = append(d.m.Joints, def)
	}
	return nil
}

func (d *decoder) readNode(i int, n *gltf.Node) error {
	p := fmt.Sprintf("nodes[%d].extensions.%s", i, physics.ExtKHRBodies)
	raw, ok, err := jsonx.Raw(n.Extensions, physics.ExtKHRBodies)
	if err != nil {
		return physics.Errorf(p, "%v", err)
	}
	if !ok {
		return nil
	}
	var b bodyJSON
	if err := jsonx.Unmarshal(raw, &b, p); err != nil {
		return err
	}
	chk := func(path string, v, n int, what string) error {
		if v < 0 || v >= n {
			return physics.Errorf(path, "index %d out of range (%d %s)", v, n, what)
		}
		return nil
	}
	nd := &physics.Node{}
	if mo := b.Motion; mo != nil {
		var probe struct {
			Motion json.RawMessage `json:"motion"`
		}
		if err := jsonx.Unmarshal(raw, &probe, p); err != nil {
			return err
		}
		if err := jsonx.CheckLengths(probe.Motion, jsonx.MotionArrays, p+".motion"); err != nil {
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
		nd.Motion = &physics.Motion{
			Type: t, Mass: mo.Mass, CenterOfMass: mo.CenterOfMass, InertiaDiagonal: mo.InertiaDiagonal,
			InertiaOrientation: mo.InertiaOrientation, LinearVelocity: mo.LinearVelocity,
			AngularVelocity: mo.AngularVelocity, GravityFactor: mo.GravityFactor,
		}
	}
	if c := b.Collider; c != nil {
		si, err := d.geometry(c.Geometry, c.Shape, i, p+".collider")
		if err != nil {
			return err
		}
		col := &physics.Collider{Shape: si, Material: idx(c.PhysicsMaterial), Filter: idx(c.CollisionFilter)}
		if col.Material >= 0 {
			if err := chk(p+".collider.physicsMaterial", col.Material, len(d.m.Materials), "physics materials"); err != nil {
				return err
			}
		}
		if col.Filter >= 0 {
			if err := chk(p+".collider.collisionFilter", col.Filter, len(d.m.Filters), "collision filters"); err != nil {
				return err
			}
		}
		nd.Collider = col
	}
	if t := b.Trigger; t != nil {
		tr := &physics.Trigger{Shape: -1, Filter: idx(t.CollisionFilter)}
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
			if err := chk(fmt.Sprintf("%s.trigger.nodes[%d]", p, k), c, len(d.doc.Nodes), "nodes"); err != nil {
				return err
			}
		}
		if len(t.Nodes) > 0 {
			tr.Nodes = append([]int(nil), t.Nodes...)
		}
		if tr.Filter >= 0 {
			if err := chk(p+".trigger.collisionFilter", tr.Filter, len(d.m.Filters), "collision filters"); err != nil {
				return err
			}
		}
		if tr.Shape < 0 && len(tr.Nodes) == 0 {
			d.lossy(p+".trigger", "empty trigger (neither geometry nor nodes) dropped")
		} else {
			nd.Trigger = tr
		}
	}
	if j := b.Joint; j != nil {
		if j.Joint == nil {
			return physics.Errorf(p+".joint.joint", "missing joint index")
		}
		if j.ConnectedNode == nil {
			return physics.Errorf(p+".joint.connectedNode", "missing connected node")
		}
		if err := chk(p+".joint.joint", *j.Joint, len(d.m.Joints), "joints"); err != nil {
			return err
		}
		if err := chk(p+".joint.connectedNode", *j.ConnectedNode, len(d.doc.Nodes), "nodes"); err != nil {
			return err
		}
		nd.Joint = &physics.Joint{Def: *j.Joint, ConnectedNode: *j.ConnectedNode, EnableCollision: j.EnableCollision != nil && *j.EnableCollision}
	}
	if nd.Motion != nil || nd.Collider != nil || nd.Trigger != nil || nd.Joint != nil {
		d.m.Nodes[i] = nd
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
			d.warn(p+".shape", "2024 form collider/trigger shape read without KHR_collision_shapes; indexing KHR_implicit_shapes")
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
		if *g.Mesh < 0 || *g.Mesh >= len(d.doc.Meshes) {
			return -1, physics.Errorf(gp+".mesh", "index %d out of range (%d meshes)", *g.Mesh, len(d.doc.Meshes))
		}
		return d.meshShape(meshKey{mesh: *g.Mesh, node: -1, convex: convex}), nil
	default:
		k := *g.Node
		if k < 0 || k >= len(d.doc.Nodes) || d.doc.Nodes[k] == nil {
			return -1, physics.Errorf(gp+".node", "index %d out of range (%d nodes)", k, len(d.doc.Nodes))
		}
		gn := d.doc.Nodes[k]
		if gn.Mesh == nil {
			return -1, physics.Errorf(gp+".node", "node %d has no mesh (geometry from its children only is not supported)", k)
		}
		if *gn.Mesh < 0 || *gn.Mesh >= len(d.doc.Meshes) {
			return -1, physics.Errorf(fmt.Sprintf("nodes[%d].mesh", k), "index %d out of range (%d meshes)", *gn.Mesh, len(d.doc.Meshes))
		}
		if len(gn.Children) > 0 || gn.Skin != nil || len(gn.Weights) > 0 {
			d.lossy(gp+".node", "geometry node %d has children, a skin or morph weights; only its own undeformed mesh %d is kept", k, *gn.Mesh)
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
	i := d.m.AddShape(s)
	d.meshShapes[k] = i
	return i
}
