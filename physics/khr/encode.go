package khr

import (
	"encoding/json"
	"fmt"
	"github.com/autocollide/autocollide/physics/internal/field"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
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
	if doc == nil || m == nil {
		return fmt.Errorf("khr: encode: nil document or model")
	}
	e := encoder{doc: doc, m: m, opt: opt, added: map[int]int{}}
	if err := e.build(); err != nil {
		return fmt.Errorf("khr: encode: %w", err)
	}
	physics.RemoveExtensions(doc, physics.ExtKHRShapes, physics.ExtKHRBodies, physics.ExtKHRCollisionShapes)
	for _, mesh := range e.addedOrder {
		name := fmt.Sprintf("mesh %d collision geometry", mesh)
		if doc.Meshes[mesh].Name != "" {
			name = doc.Meshes[mesh].Name + " collision geometry"
		}
		doc.Nodes = append(doc.Nodes, &gltf.Node{
			Name: name, Mesh: jsonx.Ptr(mesh),
			Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale,
		})
	}
	set := func(exts *gltf.Extensions, name string, raw json.RawMessage) {
		if *exts == nil {
			*exts = gltf.Extensions{}
		}
		(*exts)[name] = raw
		physics.DeclareUsed(doc, name)
	}
	if e.shapes != nil {
		set(&doc.Extensions, physics.ExtKHRShapes, e.shapes)
	}
	if e.bodies != nil {
		set(&doc.Extensions, physics.ExtKHRBodies, e.bodies)
	}
	for _, ni := range e.nodeOrder {
		set(&doc.Nodes[ni].Extensions, physics.ExtKHRBodies, e.nodeExt[ni])
	}
	if len(e.nodeOrder) > 0 && e.bodies == nil {
		// An empty document-level object is valid, and loaders that read
		// it unguarded (Babylon.js's) cannot open the file without it.
		set(&doc.Extensions, physics.ExtKHRBodies, json.RawMessage(`{}`))
	}
	return nil
}

type encoder struct {
	doc *gltf.Document
	m   *physics.Model
	opt Options

	khrIndex   []int // model shape index -> KHR_implicit_shapes index, -1 for mesh shapes
	shapes     json.RawMessage
	bodies     json.RawMessage
	nodeOrder  []int
	nodeExt    map[int]json.RawMessage
	added      map[int]int // mesh -> added node index
	addedOrder []int
}

func (e *encoder) build() error {
	m := e.m
	var sd shapeDoc
	e.khrIndex = make([]int, len(m.Shapes))
	for i, s := range m.Shapes {
		e.khrIndex[i] = -1
		p := fmt.Sprintf("%s.shapes[%d]", docShapes, len(sd.Shapes))
		js := shapeJSON{Type: string(s.Type), Name: s.Name, Extensions: jsonx.RawMap(s.Extensions)}
		if len(s.Extras) > 0 {
			js.Extras = json.RawMessage(s.Extras)
		}
		switch s.Type {
		case physics.Box:
			if err := field.FiniteArr(p+".box.size", &s.Size); err != nil {
				return err
			}
			js.Box = &boxJSON{Size: jsonx.Ptr(s.Size)}
		case physics.Sphere:
			if err := field.Finite(p+".sphere.radius", s.Radius); err != nil {
				return err
			}
			js.Sphere = &sphereJSON{Radius: jsonx.Ptr(s.Radius)}
		case physics.Capsule, physics.Cylinder:
			if err := field.Finite(p+"."+string(s.Type), s.Height, s.RadiusBottom, s.RadiusTop); err != nil {
				return err
			}
			r := &roundJSON{Height: jsonx.Ptr(s.Height), RadiusBottom: jsonx.Ptr(s.RadiusBottom), RadiusTop: jsonx.Ptr(s.RadiusTop)}
			if s.Type == physics.Capsule {
				js.Capsule = r
			} else {
				js.Cylinder = r
			}
		case physics.Plane:
			if err := field.Finite(p+".plane", s.PlaneSizeX, s.PlaneSizeZ); err != nil {
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
		case physics.Convex, physics.Trimesh:
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
		e.shapes = raw
	}

	var bd bodyDoc
	for i, mt := range m.Materials {
		p := fmt.Sprintf("%s.physicsMaterials[%d]", docBodies, i)
		for _, f := range []struct {
			n string
			v *float64
		}{{"staticFriction", mt.StaticFriction}, {"dynamicFriction", mt.DynamicFriction}, {"restitution", mt.Restitution}} {
			if err := field.FinitePtr(p+"."+f.n, f.v); err != nil {
				return err
			}
		}
		bd.PhysicsMaterials = append(bd.PhysicsMaterials, materialJSON{
			Name: mt.Name, StaticFriction: mt.StaticFriction, DynamicFriction: mt.DynamicFriction,
			Restitution: mt.Restitution, FrictionCombine: mt.FrictionCombine, RestitutionCombine: mt.RestitutionCombine,
		})
	}
	for _, f := range m.Filters {
		bd.CollisionFilters = append(bd.CollisionFilters, filterJSON{
			Name: f.Name, CollisionSystems: field.Strings(f.CollisionSystems),
			CollideWithSystems: field.Strings(f.CollideWithSystems), NotCollideWithSystems: field.Strings(f.NotCollideWithSystems),
		})
	}
	for i, d := range m.Joints {
		p := fmt.Sprintf("%s.physicsJoints[%d]", docBodies, i)
		js := jointDefJSON{Name: d.Name}
		for k, l := range d.Limits {
			lp := fmt.Sprintf("%s.limits[%d]", p, k)
			for _, f := range []struct {
				n string
				v *float64
			}{{"min", l.Min}, {"max", l.Max}, {"stiffness", l.Stiffness}, {"damping", l.Damping}} {
				if err := field.FinitePtr(lp+"."+f.n, f.v); err != nil {
					return err
				}
			}
			js.Limits = append(js.Limits, limitJSON{
				LinearAxes: field.Ints(l.LinearAxes), AngularAxes: field.Ints(l.AngularAxes),
				Min: l.Min, Max: l.Max, Stiffness: l.Stiffness, Damping: l.Damping,
			})
		}
		for k, d := range d.Drives {
			dp := fmt.Sprintf("%s.drives[%d]", p, k)
			for _, f := range []struct {
				n string
				v *float64
			}{{"maxForce", d.MaxForce}, {"positionTarget", d.PositionTarget}, {"velocityTarget", d.VelocityTarget}, {"stiffness", d.Stiffness}, {"damping", d.Damping}} {
				if err := field.FinitePtr(dp+"."+f.n, f.v); err != nil {
					return err
				}
			}
			js.Drives = append(js.Drives, driveJSON{
				Type: d.Type, Mode: d.Mode, Axis: d.Axis, MaxForce: d.MaxForce,
				PositionTarget: d.PositionTarget, VelocityTarget: d.VelocityTarget, Stiffness: d.Stiffness, Damping: d.Damping,
			})
		}
		bd.PhysicsJoints = append(bd.PhysicsJoints, js)
	}
	if len(bd.PhysicsMaterials)+len(bd.CollisionFilters)+len(bd.PhysicsJoints) > 0 {
		raw, err := jsonx.Marshal(bd)
		if err != nil {
			return err
		}
		e.bodies = raw
	}

	e.nodeExt = map[int]json.RawMessage{}
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
			cj := &colliderJSON{Geometry: g}
			if c.Material >= 0 {
				if err := field.Ref(p+".physicsMaterial", c.Material, len(m.Materials), "physics materials"); err != nil {
					return err
				}
				cj.PhysicsMaterial = jsonx.Ptr(c.Material)
			}
			if c.Filter >= 0 {
				if err := field.Ref(p+".collisionFilter", c.Filter, len(m.Filters), "collision filters"); err != nil {
					return err
				}
				cj.CollisionFilter = jsonx.Ptr(c.Filter)
			}
			b.Collider = cj
		}
		if t := n.Trigger; t != nil {
			p := bp + ".trigger"
			tj := &triggerJSON{}
			switch {
			case t.Shape >= 0 && len(t.Nodes) > 0:
				return physics.Errorf(p, "a trigger has either a geometry or nodes, not both")
			case t.Shape >= 0:
				g, err := e.geometry(t.Shape, ni, p+".geometry")
				if err != nil {
					return err
				}
				tj.Geometry = g
				if t.Filter >= 0 {
					if err := field.Ref(p+".collisionFilter", t.Filter, len(m.Filters), "collision filters"); err != nil {
						return err
					}
					tj.CollisionFilter = jsonx.Ptr(t.Filter)
				}
			case len(t.Nodes) > 0:
				for k, c := range t.Nodes {
					if err := field.Ref(fmt.Sprintf("%s.nodes[%d]", p, k), c, len(e.doc.Nodes), "nodes"); err != nil {
						return err
					}
				}
				if t.Filter >= 0 {
					return physics.Errorf(p+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
				}
				tj.Nodes = append([]int(nil), t.Nodes...)
			default:
				return physics.Errorf(p, "empty trigger: neither a geometry nor nodes")
			}
			b.Trigger = tj
		}
		if j := n.Joint; j != nil {
			p := bp + ".joint"
			if err := field.Ref(p+".joint", j.Def, len(m.Joints), "joints"); err != nil {
				return err
			}
			if err := field.Ref(p+".connectedNode", j.ConnectedNode, len(e.doc.Nodes), "nodes"); err != nil {
				return err
			}
			jj := &jointJSON{ConnectedNode: jsonx.Ptr(j.ConnectedNode), Joint: jsonx.Ptr(j.Def)}
			if j.EnableCollision {
				jj.EnableCollision = jsonx.Ptr(true)
			}
			b.Joint = jj
		}
		if b.Motion == nil && b.Collider == nil && b.Trigger == nil && b.Joint == nil {
			continue // a static motion alone: KHR's static is no motion
		}
		raw, err := jsonx.Marshal(b)
		if err != nil {
			return err
		}
		e.nodeOrder = append(e.nodeOrder, ni)
		e.nodeExt[ni] = raw
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
	if err := field.FinitePtr(p+".mass", mo.Mass); err != nil {
		return nil, err
	}
	if mo.Mass != nil && *mo.Mass < 0 {
		return nil, physics.Errorf(p+".mass", "negative mass %g", *mo.Mass)
	}
	if err := field.FinitePtr(p+".gravityFactor", mo.GravityFactor); err != nil {
		return nil, err
	}
	for _, a := range []struct {
		n string
		v *[3]float64
	}{{"centerOfMass", mo.CenterOfMass}, {"inertiaDiagonal", mo.InertiaDiagonal}, {"linearVelocity", mo.LinearVelocity}, {"angularVelocity", mo.AngularVelocity}} {
		if err := field.FiniteArr(p+"."+a.n, a.v); err != nil {
			return nil, err
		}
	}
	if err := field.FiniteArr(p+".inertiaOrientation", mo.InertiaOrientation); err != nil {
		return nil, err
	}
	mj.Mass, mj.CenterOfMass = mo.Mass, mo.CenterOfMass
	mj.InertiaDiagonal, mj.InertiaOrientation = mo.InertiaDiagonal, mo.InertiaOrientation
	mj.LinearVelocity, mj.AngularVelocity, mj.GravityFactor = mo.LinearVelocity, mo.AngularVelocity, mo.GravityFactor
	return mj, nil
}

// geometry returns the geometry object for model shape si used on node ni.
func (e *encoder) geometry(si, ni int, p string) (*geometryJSON, error) {
	if err := field.Ref(p, si, len(e.m.Shapes), "shapes"); err != nil {
		return nil, err
	}
	s := e.m.Shapes[si]
	if k := e.khrIndex[si]; k >= 0 {
		return &geometryJSON{Shape: jsonx.Ptr(k)}, nil
	}
	if err := field.Ref(p+".mesh", s.Mesh, len(e.doc.Meshes), "meshes"); err != nil {
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
