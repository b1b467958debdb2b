package wire

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/qmuntal/gltf"
)

// Decoder is the state a family's decoder shares with the other's: the
// document read, the model built and the warnings so far.
type Decoder struct {
	Doc *gltf.Document
	M   *physics.Model
	Warnings
}

// Raw returns the JSON of extension name in exts (see jsonx.Raw), an
// error being reported at path.
func (d *Decoder) Raw(exts gltf.Extensions, name, path string) (json.RawMessage, bool, error) {
	raw, ok, err := jsonx.Raw(exts, name)
	if err != nil {
		return nil, ok, physics.Errorf(path, "%v", err)
	}
	return raw, ok, nil
}

// Read returns extension name of exts decoded as a T, or nil when exts has
// no such extension. Errors are reported at path.
func Read[T any](d *Decoder, exts gltf.Extensions, name, path string) (*T, error) {
	raw, ok, err := d.Raw(exts, name, path)
	if err != nil || !ok {
		return nil, err
	}
	v := new(T)
	if err := jsonx.Unmarshal(raw, v, path); err != nil {
		return nil, err
	}
	return v, nil
}

// Decode sets d to read doc into a new model and calls run. Errors are
// prefixed with "family: decode:"; the warnings are returned either way.
// A nil doc is an error.
func Decode(family string, doc *gltf.Document, d *Decoder, run func() error) (*physics.Model, []physics.Warning, error) {
	if doc == nil {
		return nil, nil, fmt.Errorf("%s: decode: nil document", family)
	}
	d.Doc, d.M = doc, physics.NewModel()
	if err := run(); err != nil {
		return nil, d.Warnings, fmt.Errorf("%s: decode: %w", family, err)
	}
	return d.M, d.Warnings, nil
}

// Warnings collects a decoder's warnings in the order they arise.
type Warnings []physics.Warning

// Warn records the migration of an older form at path.
func (w *Warnings) Warn(path, format string, args ...any) {
	*w = append(*w, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...)})
}

// Lossy records, at path, an item whose meaning could not be kept exactly.
func (w *Warnings) Lossy(path, format string, args ...any) {
	*w = append(*w, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...), Lossy: true})
}

// Or returns *p, or def when the member is absent.
func Or(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// Index returns *p, or -1 (no reference) when the member is absent. A
// present negative value is kept for the range checks that follow (KHR,
// which has no -1 default).
func Index(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// IndexOrNone returns *p, or -1 when the member is absent or negative
// (OMI, whose index members default to -1, meaning none).
func IndexOrNone(p *int) int {
	if p == nil || *p < 0 {
		return -1
	}
	return *p
}

func copyOf[T any](p *[]T) []T {
	if p == nil {
		return nil
	}
	return append([]T{}, (*p)...)
}

// Defaults are a family's values for absent shape parameters.
type Defaults struct {
	BoxSize, SphereRadius, CapsuleHeight, CylinderHeight, RoundRadius float64
}

// Model returns the model shape sh describes, carrying meta, with def
// for absent parameters. It reports false, with only the type, name and
// meta set, for a type Shape has no sub-object for.
func (sh Shape) Model(meta Meta, def Defaults) (physics.Shape, bool) {
	s := physics.Shape{Type: physics.ShapeType(sh.Type), Name: sh.Name, Extensions: jsonx.BytesMap(meta.Extensions)}
	if len(meta.Extras) > 0 {
		s.Extras = []byte(meta.Extras)
	}
	round := func(r *Round, height float64) {
		if r == nil {
			r = &Round{}
		}
		s.Height = Or(r.Height, height)
		s.RadiusTop = Or(r.RadiusTop, def.RoundRadius)
		s.RadiusBottom = Or(r.RadiusBottom, def.RoundRadius)
	}
	switch s.Type {
	case physics.Box:
		s.Size = [3]float64{def.BoxSize, def.BoxSize, def.BoxSize}
		if sh.Box != nil && sh.Box.Size != nil {
			s.Size = *sh.Box.Size
		}
	case physics.Sphere:
		s.Radius = def.SphereRadius
		if sh.Sphere != nil {
			s.Radius = Or(sh.Sphere.Radius, def.SphereRadius)
		}
	case physics.Capsule:
		round(sh.Capsule, def.CapsuleHeight)
	case physics.Cylinder:
		round(sh.Cylinder, def.CylinderHeight)
	default:
		return s, false
	}
	return s, true
}

// AppendTo appends the materials and filters of b to m.
func (b BodyDoc) AppendTo(m *physics.Model) {
	for _, mt := range b.PhysicsMaterials {
		m.Materials = append(m.Materials, physics.Material{
			Name: mt.Name, StaticFriction: mt.StaticFriction, DynamicFriction: mt.DynamicFriction,
			Restitution: mt.Restitution, FrictionCombine: mt.FrictionCombine, RestitutionCombine: mt.RestitutionCombine,
		})
	}
	for _, f := range b.CollisionFilters {
		m.Filters = append(m.Filters, physics.Filter{
			Name: f.Name, CollisionSystems: copyOf(f.CollisionSystems),
			CollideWithSystems: copyOf(f.CollideWithSystems), NotCollideWithSystems: copyOf(f.NotCollideWithSystems),
		})
	}
}

// AppendJoints appends the joint descriptions defs to m.
func AppendJoints(m *physics.Model, defs []JointDef) {
	for _, j := range defs {
		def := physics.JointDef{Name: j.Name}
		for _, l := range j.Limits {
			def.Limits = append(def.Limits, physics.JointLimit{
				LinearAxes: copyOf(l.LinearAxes), AngularAxes: copyOf(l.AngularAxes),
				Min: l.Min, Max: l.Max, Stiffness: l.Stiffness, Damping: l.Damping,
			})
		}
		for _, dr := range j.Drives {
			def.Drives = append(def.Drives, physics.JointDrive{
				Type: dr.Type, Mode: dr.Mode, Axis: dr.Axis, MaxForce: dr.MaxForce,
				PositionTarget: dr.PositionTarget, VelocityTarget: dr.VelocityTarget, Stiffness: dr.Stiffness, Damping: dr.Damping,
			})
		}
		m.Joints = append(m.Joints, def)
	}
}

// CheckMotionLengths reports, at p.motion, an array member of the motion
// of the body object body whose length is wrong (encoding/json would pad
// or truncate it silently).
func CheckMotionLengths(body json.RawMessage, p string) error {
	var probe struct {
		Motion json.RawMessage `json:"motion"`
	}
	if err := jsonx.Unmarshal(body, &probe, p); err != nil {
		return err
	}
	return jsonx.CheckLengths(probe.Motion, jsonx.MotionArrays, p+".motion")
}

// Model returns the model motion of type t with mo's members.
func (mo Motion) Model(t physics.MotionType) *physics.Motion {
	return &physics.Motion{
		Type: t, Mass: mo.Mass, CenterOfMass: mo.CenterOfMass, InertiaDiagonal: mo.InertiaDiagonal,
		InertiaOrientation: mo.InertiaOrientation, LinearVelocity: mo.LinearVelocity,
		AngularVelocity: mo.AngularVelocity, GravityFactor: mo.GravityFactor,
	}
}

// DecodeJoint returns the model joint of a node joint object at p, whose
// joint and connectedNode members are required. Their range is the
// caller's to check.
func DecodeJoint(joint, connectedNode *int, enableCollision *bool, p string) (*physics.Joint, error) {
	if joint == nil {
		return nil, physics.Errorf(p+".joint", "missing joint index")
	}
	if connectedNode == nil {
		return nil, physics.Errorf(p+".connectedNode", "missing connected node")
	}
	return &physics.Joint{Def: *joint, ConnectedNode: *connectedNode, EnableCollision: enableCollision != nil && *enableCollision}, nil
}
