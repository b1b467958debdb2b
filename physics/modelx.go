package physics

import (
	"maps"
	"slices"
)

// NodeIndices returns the indices of the nodes carrying physics, ascending.
func (m *Model) NodeIndices() []int {
	return slices.Sorted(maps.Keys(m.Nodes))
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Clone returns a deep copy of m.
func (m *Model) Clone() *Model {
	c := &Model{
		Shapes:    make([]Shape, len(m.Shapes)),
		Materials: make([]Material, len(m.Materials)),
		Filters:   make([]Filter, len(m.Filters)),
		Joints:    make([]JointDef, len(m.Joints)),
		Nodes:     make(map[int]*Node, len(m.Nodes)),
	}
	for i, s := range m.Shapes {
		s.GeometryNode = clonePtr(s.GeometryNode)
		s.Extras = slices.Clone(s.Extras)
		if s.Extensions != nil {
			e := make(map[string][]byte, len(s.Extensions))
			for k, v := range s.Extensions {
				e[k] = slices.Clone(v)
			}
			s.Extensions = e
		}
		c.Shapes[i] = s
	}
	for i, mt := range m.Materials {
		mt.StaticFriction = clonePtr(mt.StaticFriction)
		mt.DynamicFriction = clonePtr(mt.DynamicFriction)
		mt.Restitution = clonePtr(mt.Restitution)
		c.Materials[i] = mt
	}
	for i, f := range m.Filters {
		f.CollisionSystems = slices.Clone(f.CollisionSystems)
		f.CollideWithSystems = slices.Clone(f.CollideWithSystems)
		f.NotCollideWithSystems = slices.Clone(f.NotCollideWithSystems)
		c.Filters[i] = f
	}
	for i, j := range m.Joints {
		d := JointDef{Name: j.Name}
		for _, l := range j.Limits {
			l.LinearAxes = slices.Clone(l.LinearAxes)
			l.AngularAxes = slices.Clone(l.AngularAxes)
			l.Min, l.Max = clonePtr(l.Min), clonePtr(l.Max)
			l.Stiffness, l.Damping = clonePtr(l.Stiffness), clonePtr(l.Damping)
			d.Limits = append(d.Limits, l)
		}
		for _, dr := range j.Drives {
			dr.MaxForce = clonePtr(dr.MaxForce)
			dr.PositionTarget, dr.VelocityTarget = clonePtr(dr.PositionTarget), clonePtr(dr.VelocityTarget)
			dr.Stiffness, dr.Damping = clonePtr(dr.Stiffness), clonePtr(dr.Damping)
			d.Drives = append(d.Drives, dr)
		}
		c.Joints[i] = d
	}
	for k, n := range m.Nodes {
		if n == nil {
			continue
		}
		cn := &Node{}
		if n.Motion != nil {
			mo := *n.Motion
			mo.Mass = clonePtr(mo.Mass)
			mo.CenterOfMass = clonePtr(mo.CenterOfMass)
			mo.InertiaDiagonal = clonePtr(mo.InertiaDiagonal)
			mo.InertiaOrientation = clonePtr(mo.InertiaOrientation)
			mo.LinearVelocity = clonePtr(mo.LinearVelocity)
			mo.AngularVelocity = clonePtr(mo.AngularVelocity)
			mo.GravityFactor = clonePtr(mo.GravityFactor)
			cn.Motion = &mo
		}
		cn.Collider = clonePtr(n.Collider)
		if n.Trigger != nil {
			t := *n.Trigger
			t.Nodes = slices.Clone(t.Nodes)
			cn.Trigger = &t
		}
		cn.Joint = clonePtr(n.Joint)
		c.Nodes[k] = cn
	}
	return c
}

// NewCollider returns a collider of shape s with the default material and
// filter (-1). Prefer it to a literal: a zero Material or Filter means
// index 0, not the default.
func NewCollider(s int) *Collider { return &Collider{Shape: s, Material: -1, Filter: -1} }

// NewTrigger returns a trigger of shape s with the default filter.
func NewTrigger(s int) *Trigger { return &Trigger{Shape: s, Filter: -1} }

// NewCompoundTrigger returns a compound trigger of the given descendant
// trigger nodes (no shape, no filter).
func NewCompoundTrigger(nodes ...int) *Trigger {
	return &Trigger{Shape: -1, Nodes: append([]int(nil), nodes...), Filter: -1}
}
