package wire

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/qmuntal/gltf"
)

// Output is what an encoder writes into its document: nodes to append,
// then extension values in the order they are set, which is the order
// extensionsUsed lists them in.
type Output struct {
	nodes []*gltf.Node
	exts  []extension
}

type extension struct {
	node int // -1: the document
	name string
	raw  json.RawMessage
}

// AddNode appends n to the document's nodes.
func (o *Output) AddNode(n *gltf.Node) { o.nodes = append(o.nodes, n) }

// SetDoc sets the document-level extension name to raw.
func (o *Output) SetDoc(name string, raw json.RawMessage) {
	o.exts = append(o.exts, extension{node: -1, name: name, raw: raw})
}

// SetNode sets node i's extension name to raw.
func (o *Output) SetNode(i int, name string, raw json.RawMessage) {
	o.exts = append(o.exts, extension{node: i, name: name, raw: raw})
}

// Encode lets build encode m for doc into an Output and, only if it
// succeeds, removes the extensions names from doc and writes the output,
// declaring each extension set in extensionsUsed (and not in
// extensionsRequired). Errors are prefixed with "family: encode:".
func Encode(family string, doc *gltf.Document, m *physics.Model, build func(*Output) error, names ...string) error {
	if doc == nil || m == nil {
		return fmt.Errorf("%s: encode: nil document or model", family)
	}
	var out Output
	if err := build(&out); err != nil {
		return fmt.Errorf("%s: encode: %w", family, err)
	}
	physics.RemoveExtensions(doc, names...)
	doc.Nodes = append(doc.Nodes, out.nodes...)
	for _, x := range out.exts {
		exts := &doc.Extensions
		if x.node >= 0 {
			exts = &doc.Nodes[x.node].Extensions
		}
		if *exts == nil {
			*exts = gltf.Extensions{}
		}
		(*exts)[x.name] = x.raw
		physics.DeclareUsed(doc, x.name)
	}
	return nil
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
		if err := FiniteArr(p+".box.size", &s.Size); err != nil {
			return sh, true, err
		}
		sh.Box = &Box{Size: jsonx.Ptr(s.Size)}
	case physics.Sphere:
		if err := Finite(p+".sphere.radius", s.Radius); err != nil {
			return sh, true, err
		}
		sh.Sphere = &Sphere{Radius: jsonx.Ptr(s.Radius)}
	case physics.Capsule, physics.Cylinder:
		if err := Finite(p+"."+string(s.Type), s.Height, s.RadiusBottom, s.RadiusTop); err != nil {
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
			if err := FinitePtr(mp+"."+f.n, f.v); err != nil {
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
			Name: f.Name, CollisionSystems: Strings(f.CollisionSystems),
			CollideWithSystems: Strings(f.CollideWithSystems), NotCollideWithSystems: Strings(f.NotCollideWithSystems),
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
			if err := FinitePtr(lp+"."+f.n, f.v); err != nil {
				return js, err
			}
		}
		js.Limits = append(js.Limits, Limit{
			LinearAxes: Ints(l.LinearAxes), AngularAxes: Ints(l.AngularAxes),
			Min: l.Min, Max: l.Max, Stiffness: l.Stiffness, Damping: l.Damping,
		})
	}
	for i, d := range d.Drives {
		dp := fmt.Sprintf("%s.drives[%d]", p, i)
		for _, f := range []struct {
			n string
			v *float64
		}{{"maxForce", d.MaxForce}, {"positionTarget", d.PositionTarget}, {"velocityTarget", d.VelocityTarget}, {"stiffness", d.Stiffness}, {"damping", d.Damping}} {
			if err := FinitePtr(dp+"."+f.n, f.v); err != nil {
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
	if err := FinitePtr(p+".mass", mo.Mass); err != nil {
		return Motion{}, err
	}
	if nonNegativeMass && mo.Mass != nil && *mo.Mass < 0 {
		return Motion{}, physics.Errorf(p+".mass", "negative mass %g", *mo.Mass)
	}
	if err := FinitePtr(p+".gravityFactor", mo.GravityFactor); err != nil {
		return Motion{}, err
	}
	for _, a := range []struct {
		n string
		v *[3]float64
	}{{"centerOfMass", mo.CenterOfMass}, {"inertiaDiagonal", mo.InertiaDiagonal}, {"linearVelocity", mo.LinearVelocity}, {"angularVelocity", mo.AngularVelocity}} {
		if err := FiniteArr(p+"."+a.n, a.v); err != nil {
			return Motion{}, err
		}
	}
	if err := FiniteArr(p+".inertiaOrientation", mo.InertiaOrientation); err != nil {
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
		if err := Ref(p+".physicsMaterial", c.Material, nMat, "physics materials"); err != nil {
			return r, err
		}
		r.PhysicsMaterial = jsonx.Ptr(c.Material)
	}
	if c.Filter >= 0 {
		if err := Ref(p+".collisionFilter", c.Filter, nFil, "collision filters"); err != nil {
			return r, err
		}
		r.CollisionFilter = jsonx.Ptr(c.Filter)
	}
	return r, nil
}

// EncodeTrigger checks the trigger t at p (the trigger's path) and
// returns its nodes or collision filter, checked against nNodes nodes and
// nFil filters. A trigger has either a shape or nodes; shape, called for
// the first, checks and writes the family's shape (OMI) or geometry (KHR),
// which what names in errors ("a shape", "a geometry").
func EncodeTrigger(t *physics.Trigger, p, what string, nNodes, nFil int, shape func() error) (TriggerRefs, error) {
	var r TriggerRefs
	switch {
	case t.Shape >= 0 && len(t.Nodes) > 0:
		return r, physics.Errorf(p, "a trigger has either %s or nodes, not both", what)
	case t.Shape >= 0:
		if err := shape(); err != nil {
			return r, err
		}
		if t.Filter >= 0 {
			if err := Ref(p+".collisionFilter", t.Filter, nFil, "collision filters"); err != nil {
				return r, err
			}
			r.CollisionFilter = jsonx.Ptr(t.Filter)
		}
	case len(t.Nodes) > 0:
		for k, c := range t.Nodes {
			if err := Ref(fmt.Sprintf("%s.nodes[%d]", p, k), c, nNodes, "nodes"); err != nil {
				return r, err
			}
		}
		if t.Filter >= 0 {
			return r, physics.Errorf(p+".collisionFilter", "a compound trigger (nodes) cannot have a collision filter")
		}
		r.Nodes = append([]int(nil), t.Nodes...)
	default:
		return r, physics.Errorf(p, "empty trigger: neither %s nor nodes", what)
	}
	return r, nil
}

// CheckJoint checks a node joint's references at p (the joint object's
// path) against nJoints joint descriptions and nNodes nodes; it returns
// enableCollision as written (absent when false).
func CheckJoint(j *physics.Joint, p string, nJoints, nNodes int) (*bool, error) {
	if err := Ref(p+".joint", j.Def, nJoints, "joints"); err != nil {
		return nil, err
	}
	if err := Ref(p+".connectedNode", j.ConnectedNode, nNodes, "nodes"); err != nil {
		return nil, err
	}
	if j.EnableCollision {
		return jsonx.Ptr(true), nil
	}
	return nil, nil
}
