package wire

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/field"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/qmuntal/gltf"
)

// SetExtension sets extension name of exts (an extensions member of doc)
// to raw and declares it in doc's extensionsUsed.
func SetExtension(doc *gltf.Document, exts *gltf.Extensions, name string, raw json.RawMessage) {
	if *exts == nil {
		*exts = gltf.Extensions{}
	}
	(*exts)[name] = raw
	physics.DeclareUsed(doc, name)
}

// MetaOf returns the extensions and extras of s.
func MetaOf(s physics.Shape) Meta {
	m := Meta{Extensions: jsonx.RawMap(s.Extensions)}
	if len(s.Extras) > 0 {
		m.Extras = json.RawMessage(s.Extras)
	}
	return m
}

// EncodeShape returns the type and name of s and, for a box, sphere,
// capsule or cylinder, its sub-object with every parameter written,
// checked at p (the shape's path). It reports false for the other types.
func EncodeShape(s physics.Shape, p string) (Shape, bool, error) {
	sh := Shape{Type: string(s.Type), Name: s.Name}
	switch s.Type {
	case physics.Box:
		if err := field.FiniteArr(p+".box.size", &s.Size); err != nil {
			return sh, true, err
		}
		sh.Box = &Box{Size: jsonx.Ptr(s.Size)}
	case physics.Sphere:
		if err := field.Finite(p+".sphere.radius", s.Radius); err != nil {
			return sh, true, err
		}
		sh.Sphere = &Sphere{Radius: jsonx.Ptr(s.Radius)}
	case physics.Capsule, physics.Cylinder:
		if err := field.Finite(p+"."+string(s.Type), s.Height, s.RadiusBottom, s.RadiusTop); err != nil {
			return sh, true, err
		}
		r := &Round{Height: jsonx.Ptr(s.Height), RadiusBottom: jsonx.Ptr(s.RadiusBottom), RadiusTop: jsonx.Ptr(s.RadiusTop)}
		if s.Type == physics.Capsule {
			sh.Capsule = r
		} else {
			sh.Cylinder = r
		}
	default:
		return sh, false, nil
	}
	return sh, true, nil
}

// EncodeBodyDoc returns the materials and filters of m, checked at
// p.physicsMaterials[i] (p: the document extension's path).
func EncodeBodyDoc(m *physics.Model, p string) (BodyDoc, error) {
	var bd BodyDoc
	for i, mt := range m.Materials {
		mp := fmt.Sprintf("%s.physicsMaterials[%d]", p, i)
		for _, f := range []struct {
			n string
			v *float64
		}{{"staticFriction", mt.StaticFriction}, {"dynamicFriction", mt.DynamicFriction}, {"restitution", mt.Restitution}} {
			if err := field.FinitePtr(mp+"."+f.n, f.v); err != nil {
				return bd, err
			}
		}
		bd.PhysicsMaterials = append(bd.PhysicsMaterials, Material{
			Name: mt.Name, StaticFriction: mt.StaticFriction, DynamicFriction: mt.DynamicFriction,
			Restitution: mt.Restitution, FrictionCombine: mt.FrictionCombine, RestitutionCombine: mt.RestitutionCombine,
		})
	}
	for _, f := range m.Filters {
		bd.CollisionFilters = append(bd.CollisionFilters, Filter{
			Name: f.Name, CollisionSystems: field.Strings(f.CollisionSystems),
			CollideWithSystems: field.Strings(f.CollideWithSystems), NotCollideWithSystems: field.Strings(f.NotCollideWithSystems),
		})
	}
	return bd, nil
}

// EncodeJoints returns the joint descriptions defs, checked at
// p.physicsJoints[i] (p: the document extension's path).
func EncodeJoints(defs []physics.JointDef, p string) ([]JointDef, error) {
	var out []JointDef
	for i, d := range defs {
		js, err := encodeJointDef(d, fmt.Sprintf("%s.physicsJoints[%d]", p, i))
		if err != nil {
			return nil, err
		}
		out = append(out, js)
	}
	return out, nil
}

func encodeJointDef(d physics.JointDef, p string) (JointDef, error) {
	js := JointDef{Name: d.Name}
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
		js.Limits = append(js.Limits, Limit{
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
		js.Drives = append(js.Drives, Drive{
			Type: d.Type, Mode: d.Mode, Axis: d.Axis, MaxForce: d.MaxForce,
			PositionTarget: d.PositionTarget, VelocityTarget: d.VelocityTarget, Stiffness: d.Stiffness, Damping: d.Damping,
		})
	}
	return js, nil
}

// EncodeMotion returns the shared members of mo, checked at p (the
// motion's path): finite numbers, and a mass not below 0 when
// nonNegativeMass (KHR refuses a negative mass; OMI writes it).
func EncodeMotion(mo *physics.Motion, p string, nonNegativeMass bool) (Motion, error) {
	if err := field.FinitePtr(p+".mass", mo.Mass); err != nil {
		return Motion{}, err
	}
	if nonNegativeMass && mo.Mass != nil && *mo.Mass < 0 {
		return Motion{}, physics.Errorf(p+".mass", "negative mass %g", *mo.Mass)
	}
	if err := field.FinitePtr(p+".gravityFactor", mo.GravityFactor); err != nil {
		return Motion{}, err
	}
	for _, a := range []struct {
		n string
		v *[3]float64
	}{{"centerOfMass", mo.CenterOfMass}, {"inertiaDiagonal", mo.InertiaDiagonal}, {"linearVelocity", mo.LinearVelocity}, {"angularVelocity", mo.AngularVelocity}} {
		if err := field.FiniteArr(p+"."+a.n, a.v); err != nil {
			return Motion{}, err
		}
	}
	if err := field.FiniteArr(p+".inertiaOrientation", mo.InertiaOrientation); err != nil {
		return Motion{}, err
	}
	return Motion{
		Mass: mo.Mass, CenterOfMass: mo.CenterOfMass,
		InertiaDiagonal: mo.InertiaDiagonal, InertiaOrientation: mo.InertiaOrientation,
		LinearVelocity: mo.LinearVelocity, AngularVelocity: mo.AngularVelocity, GravityFactor: mo.GravityFactor,
	}, nil
}

// EncodeColliderRefs returns the material and filter references of c,
// checked at p (the collider's path) against nMat materials and nFil
// filters; -1 is not written.
func EncodeColliderRefs(c *physics.Collider, p string, nMat, nFil int) (ColliderRefs, error) {
	var r ColliderRefs
	if c.Material >= 0 {
		if err := field.Ref(p+".physicsMaterial", c.Material, nMat, "physics materials"); err != nil {
			return r, err
		}
		r.PhysicsMaterial = jsonx.Ptr(c.Material)
	}
	if c.Filter >= 0 {
		if err := field.Ref(p+".collisionFilter", c.Filter, nFil, "collision filters"); err != nil {
			return r, err
		}
		r.CollisionFilter = jsonx.Ptr(c.Filter)
	}
	return r, nil
}

// EncodeTriggerNodes returns a copy of the nodes of the compound trigger
// t, checked at p (the trigger's path) against nNodes nodes; a compound
// trigger has no collision filter in either family.
func EncodeTriggerNodes(t *physics.Trigger, p string, nNodes int) ([]int, error) {
	for k, c := range t.Nodes {
		if err := field.Ref(fmt.Sprintf("%s.nodes[%d]", p, k), c, nNodes, "nodes"); err != nil {
			return nil, err
		}
	}
	if t.Filter >= 0 {
		return nil, physics.Errorf(p+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
	}
	return append([]int(nil), t.Nodes...), nil
}

// CheckJoint checks a node joint's references at p (the joint object's
// path) against nJoints joint descriptions and nNodes nodes; it returns
// enableCollision as written (absent when false).
func CheckJoint(j *physics.Joint, p string, nJoints, nNodes int) (*bool, error) {
	if err := field.Ref(p+".joint", j.Def, nJoints, "joints"); err != nil {
		return nil, err
	}
	if err := field.Ref(p+".connectedNode", j.ConnectedNode, nNodes, "nodes"); err != nil {
		return nil, err
	}
	if j.EnableCollision {
		return jsonx.Ptr(true), nil
	}
	return nil, nil
}
