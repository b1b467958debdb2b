package omi

import (
	"encoding/json"
	"fmt"
	"github.com/autocollide/autocollide/physics/internal/field"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/qmuntal/gltf"
)

// The defaults of OMI_physics_shape, written explicitly by Encode and
// assumed by Decode when a member is missing.
const (
	DefaultBoxSize        = 1.0
	DefaultSphereRadius   = 0.5
	DefaultCapsuleHeight  = 1.0
	DefaultCylinderHeight = 2.0
	DefaultRoundRadius    = 0.5
	DefaultMass           = 1.0
	docShapes             = "extensions." + physics.ExtOMIShape
	docBody               = "extensions." + physics.ExtOMIBody
	docJoint              = "extensions." + physics.ExtOMIJoint
)

// Encode replaces the OMI_physics_shape, OMI_physics_body and
// OMI_physics_joint content of doc (and any legacy OMI_collider) with m.
// OMI_physics_gravity and all other extensions are left untouched. Every
// shape parameter is written explicitly, shape sub-objects are always
// present, -1 indices are never written, and the extensions are declared
// in extensionsUsed only. A model OMI cannot express (a KHR plane, an
// empty trigger) or with an index out of range is an error located at
// the output's JSON path; nothing is changed then.
func Encode(doc *gltf.Document, m *physics.Model) error {
	if doc == nil || m == nil {
		return fmt.Errorf("omi: encode: nil document or model")
	}
	e := encoder{doc: doc, m: m}
	if err := e.build(); err != nil {
		return fmt.Errorf("omi: encode: %w", err)
	}
	physics.RemoveExtensions(doc, physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint, physics.ExtOMICollider)
	set := func(exts *gltf.Extensions, name string, raw json.RawMessage) {
		if *exts == nil {
			*exts = gltf.Extensions{}
		}
		(*exts)[name] = raw
		physics.DeclareUsed(doc, name)
	}
	if e.shapes != nil {
		set(&doc.Extensions, physics.ExtOMIShape, e.shapes)
	}
	if e.body != nil {
		set(&doc.Extensions, physics.ExtOMIBody, e.body)
	}
	if e.joints != nil {
		set(&doc.Extensions, physics.ExtOMIJoint, e.joints)
	}
	for _, ni := range e.nodeOrder {
		n := doc.Nodes[ni]
		if raw := e.nodeBody[ni]; raw != nil {
			set(&n.Extensions, physics.ExtOMIBody, raw)
		}
		if raw := e.nodeJoint[ni]; raw != nil {
			set(&n.Extensions, physics.ExtOMIJoint, raw)
		}
	}
	return nil
}

type encoder struct {
	doc *gltf.Document
	m   *physics.Model

	shapes, body, joints json.RawMessage
	nodeOrder            []int
	nodeBody, nodeJoint  map[int]json.RawMessage
}

func (e *encoder) build() error {
	m := e.m
	if len(m.Shapes) > 0 {
		sd := shapeDoc{Shapes: make([]shapeJSON, len(m.Shapes))}
		for i, s := range m.Shapes {
			js, err := encodeShape(s, fmt.Sprintf("%s.shapes[%d]", docShapes, i), len(e.doc.Meshes))
			if err != nil {
				return err
			}
			sd.Shapes[i] = js
		}
		raw, err := jsonx.Marshal(sd)
		if err != nil {
			return err
		}
		e.shapes = raw
	}
	if len(m.Materials) > 0 || len(m.Filters) > 0 {
		var bd bodyDoc
		for i, mt := range m.Materials {
			p := fmt.Sprintf("%s.physicsMaterials[%d]", docBody, i)
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
		raw, err := jsonx.Marshal(bd)
		if err != nil {
			return err
		}
		e.body = raw
	}
	if len(m.Joints) > 0 {
		var jd jointDoc
		for i, d := range m.Joints {
			js, err := encodeJointDef(d, fmt.Sprintf("%s.physicsJoints[%d]", docJoint, i))
			if err != nil {
				return err
			}
			jd.PhysicsJoints = append(jd.PhysicsJoints, js)
		}
		raw, err := jsonx.Marshal(jd)
		if err != nil {
			return err
		}
		e.joints = raw
	}
	e.nodeBody = map[int]json.RawMessage{}
	e.nodeJoint = map[int]json.RawMessage{}
	for _, ni := range m.NodeIndices() {
		n := m.Nodes[ni]
		if n == nil || (n.Motion == nil && n.Collider == nil && n.Trigger == nil && n.Joint == nil) {
			continue
		}
		np := fmt.Sprintf("nodes[%d]", ni)
		if ni < 0 || ni >= len(e.doc.Nodes) || e.doc.Nodes[ni] == nil {
			return physics.Errorf(np, "node index %d out of range (%d nodes)", ni, len(e.doc.Nodes))
		}
		e.nodeOrder = append(e.nodeOrder, ni)
		bp := np + ".extensions." + physics.ExtOMIBody
		if n.Motion != nil || n.Collider != nil || n.Trigger != nil {
			var b bodyJSON
			if n.Motion != nil {
				mj, err := e.encodeMotion(n.Motion, bp+".motion")
				if err != nil {
					return err
				}
				b.Motion = mj
			}
			if c := n.Collider; c != nil {
				cj := &colliderJSON{}
				p := bp + ".collider"
				if c.Shape >= 0 {
					if err := field.Ref(p+".shape", c.Shape, len(m.Shapes), "shapes"); err != nil {
						return err
					}
					cj.Shape = jsonx.Ptr(c.Shape)
				}
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
				tj := &triggerJSON{}
				p := bp + ".trigger"
				switch {
				case t.Shape >= 0 && len(t.Nodes) > 0:
					return physics.Errorf(p, "a trigger has either a shape or nodes, not both")
				case t.Shape >= 0:
					if err := field.Ref(p+".shape", t.Shape, len(m.Shapes), "shapes"); err != nil {
						return err
					}
					tj.Shape = jsonx.Ptr(t.Shape)
				case len(t.Nodes) > 0:
					for k, c := range t.Nodes {
						if err := field.Ref(fmt.Sprintf("%s.nodes[%d]", p, k), c, len(e.doc.Nodes), "nodes"); err != nil {
							return err
						}
					}
					tj.Nodes = append([]int(nil), t.Nodes...)
					if t.Filter >= 0 {
						return physics.Errorf(p+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
					}
				default:
					return physics.Errorf(p, "empty trigger: neither a shape nor nodes")
				}
				if t.Filter >= 0 {
					if err := field.Ref(p+".collisionFilter", t.Filter, len(m.Filters), "collision filters"); err != nil {
						return err
					}
					tj.CollisionFilter = jsonx.Ptr(t.Filter)
				}
				b.Trigger = tj
			}
			raw, err := jsonx.Marshal(b)
			if err != nil {
				return err
			}
			e.nodeBody[ni] = raw
		}
		if j := n.Joint; j != nil {
			p := np + ".extensions." + physics.ExtOMIJoint
			if err := field.Ref(p+".joint", j.Def, len(m.Joints), "joints"); err != nil {
				return err
			}
			if err := field.Ref(p+".connectedNode", j.ConnectedNode, len(e.doc.Nodes), "nodes"); err != nil {
				return err
			}
			jj := jointJSON{Joint: jsonx.Ptr(j.Def), ConnectedNode: jsonx.Ptr(j.ConnectedNode)}
			if j.EnableCollision {
				jj.EnableCollision = jsonx.Ptr(true)
			}
			raw, err := jsonx.Marshal(jj)
			if err != nil {
				return err
			}
			e.nodeJoint[ni] = raw
		}
	}
	return nil
}

func encodeShape(s physics.Shape, p string, meshes int) (shapeJSON, error) {
	js := shapeJSON{Type: string(s.Type), Name: s.Name, Extensions: jsonx.RawMap(s.Extensions)}
	if len(s.Extras) > 0 {
		js.Extras = json.RawMessage(s.Extras)
	}
	switch s.Type {
	case physics.Box:
		if err := field.FiniteArr(p+".box.size", &s.Size); err != nil {
			return js, err
		}
		js.Box = &boxJSON{Size: jsonx.Ptr(s.Size)}
	case physics.Sphere:
		if err := field.Finite(p+".sphere.radius", s.Radius); err != nil {
			return js, err
		}
		js.Sphere = &sphereJSON{Radius: jsonx.Ptr(s.Radius)}
	case physics.Capsule, physics.Cylinder:
		sub := "." + string(s.Type)
		if err := field.Finite(p+sub, s.Height, s.RadiusBottom, s.RadiusTop); err != nil {
			return js, err
		}
		r := &roundJSON{Height: jsonx.Ptr(s.Height), RadiusBottom: jsonx.Ptr(s.RadiusBottom), RadiusTop: jsonx.Ptr(s.RadiusTop)}
		if s.Type == physics.Capsule {
			js.Capsule = r
		} else {
			js.Cylinder = r
		}
	case physics.Convex, physics.Trimesh:
		sub := p + "." + string(s.Type) + ".mesh"
		if err := field.Ref(sub, s.Mesh, meshes, "meshes"); err != nil {
			return js, err
		}
		mj := &meshJSON{Mesh: jsonx.Ptr(s.Mesh)}
		if s.Type == physics.Convex {
			js.Convex = mj
		} else {
			js.Trimesh = mj
		}
	case physics.Plane:
		return js, physics.Errorf(p+".type", "OMI_physics_shape has no plane shape (convert it first)")
	default:
		return js, physics.Errorf(p+".type", "unknown shape type %q", s.Type)
	}
	return js, nil
}

func (e *encoder) encodeMotion(mo *physics.Motion, p string) (*motionJSON, error) {
	switch mo.Type {
	case physics.Static, physics.Kinematic, physics.Dynamic:
	default:
		return nil, physics.Errorf(p+".type", "unknown motion type %q", mo.Type)
	}
	if err := field.FinitePtr(p+".mass", mo.Mass); err != nil {
		return nil, err
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
	return &motionJSON{
		Type: string(mo.Type), Mass: mo.Mass, CenterOfMass: mo.CenterOfMass,
		InertiaDiagonal: mo.InertiaDiagonal, InertiaOrientation: mo.InertiaOrientation,
		LinearVelocity: mo.LinearVelocity, AngularVelocity: mo.AngularVelocity, GravityFactor: mo.GravityFactor,
	}, nil
}

func encodeJointDef(d physics.JointDef, p string) (jointDefJSON, error) {
	js := jointDefJSON{Name: d.Name}
	for i, l := range d.Limits {
		lp := fmt.Sprintf("%s.limits[%d]", p, i)
		for _, f := range []struct {
			n string
			v *float64
		}{{"min", l.Min}, {"max", l.Max}, {"stiffness", l.Stiffness}, {"damping", l.Damping}} {
			if err := field.FinitePtr(lp+"."+f.n, f.v); err != nil {
				return js, err
			}
		}
		js.Limits = append(js.Limits, limitJSON{
			LinearAxes: field.Ints(l.LinearAxes), AngularAxes: field.Ints(l.AngularAxes),
			Min: l.Min, Max: l.Max, Stiffness: l.Stiffness, Damping: l.Damping,
		})
	}
	for i, d := range d.Drives {
		dp := fmt.Sprintf("%s.drives[%d]", p, i)
		for _, f := range []struct {
			n string
			v *float64
		}{{"maxForce", d.MaxForce}, {"positionTarget", d.PositionTarget}, {"velocityTarget", d.VelocityTarget}, {"stiffness", d.Stiffness}, {"damping", d.Damping}} {
			if err := field.FinitePtr(dp+"."+f.n, f.v); err != nil {
				return js, err
			}
		}
		js.Drives = append(js.Drives, driveJSON{
			Type: d.Type, Mode: d.Mode, Axis: d.Axis, MaxForce: d.MaxForce,
			PositionTarget: d.PositionTarget, VelocityTarget: d.VelocityTarget, Stiffness: d.Stiffness, Damping: d.Damping,
		})
	}
	return js, nil
}
