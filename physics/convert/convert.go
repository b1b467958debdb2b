// Package convert moves a document's physics between the OMI and KHR
// families: it decodes whichever family (any revision) the document
// carries, adapts the model to what the target family can express, and
// encodes it, warning per item where the mapping is lossy.
//
// Lossy items and the nearest faithful form chosen:
//
//	OMI → KHR
//	  static motion              dropped (KHR static = no motion); its colliders become independent static colliders
//	  shapeless compound collider dropped (KHR groups descendant colliders under the motion by itself)
//	  inertiaDiagonal with some but not all components 0
//	                             dropped (OMI 0 = engine-computed, KHR 0 = infinite)
//	  unreferenced convex/trimesh shape
//	                             dropped (KHR mesh geometry lives on colliders only)
//	  name/extras/extensions of a convex/trimesh shape
//	                             dropped (KHR mesh geometry has no shape object)
//	  OMI_physics_gravity        kept as is, with the document's OMI_physics_shape array so its shape
//	                             references resolve; KHR has no gravity and its trigger references dangle
//	KHR → OMI
//	  plane                      a box PlaneThickness thick, PlaneExtent wide where the plane is unbounded
//	  absent mass (engine-computed)
//	                             left unspecified, which OMI reads as 1 kg
//	  mass 0 (infinite)          kinematic motion without mass
//	  inertiaDiagonal component 0 (infinite)
//	                             dropped (engine-computed)
//	  geometry node with children, skin or weights (decoder warning)
//	                             the node's own undeformed mesh
//
// Exact rewrites that need no warning: an OMI absent mass becomes an
// explicit 1 kg in KHR; OMI inertiaDiagonal [0,0,0] becomes absent; an OMI
// joint limit with both linearAxes and angularAxes (KHR forbids it) is
// split into two limits with the same range, stiffness and damping.
package convert

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

// Named approximations of the KHR plane in OMI.
const (
	// PlaneThickness is the height (m) of the box standing for a plane.
	PlaneThickness = 0.01
	// PlaneExtent is the box width (m) along an unbounded plane axis.
	PlaneExtent = 1000.0
)

// Decode reads the physics of doc in whichever family it carries. A
// document carrying both is read as OMI, with a warning.
func Decode(doc *gltf.Document) (*physics.Model, physics.Family, []physics.Warning, error) {
	switch f := physics.Detect(doc); f {
	case physics.None:
		return physics.NewModel(), physics.None, nil, nil
	case physics.KHR:
		m, w, err := khr.Decode(doc)
		return m, f, w, err
	case physics.OMI:
		m, w, err := omi.Decode(doc)
		return m, f, w, err
	default:
		m, w, err := omi.Decode(doc)
		w = append(w, physics.Warning{Path: "extensionsUsed", Message: "document carries both families; the OMI physics was read", Lossy: true})
		return m, physics.OMI, w, err
	}
}

// Options tunes Convert.
type Options struct {
	// Strict makes every lossy item an error.
	Strict bool
	// KHR is passed to the KHR encoder.
	KHR khr.Options
}

// Convert decodes the family doc does not target (any revision) and
// encodes the model in family to, joints included, replacing the source
// extensions. A document already in the target family is re-encoded in
// its current form (legacy revisions migrate). With strict, a lossy item
// is an error and doc is left unchanged (except that decoding the seed's
// old OMI joint form appends attachment nodes). A document whose physics
// physics/validate calls an error is refused unchanged (converting it
// would carry the error over or hide it), and the result is validated
// too: on an error there, doc is changed and must not be written.
func Convert(doc *gltf.Document, to physics.Family, strict bool) ([]physics.Warning, error) {
	return ConvertWith(doc, to, Options{Strict: strict})
}

// ConvertWith is Convert with options.
func ConvertWith(doc *gltf.Document, to physics.Family, opt Options) ([]physics.Warning, error) {
	if to != physics.OMI && to != physics.KHR {
		return nil, fmt.Errorf("convert: target family %q: want omi or khr", to)
	}
	if doc == nil {
		return nil, errors.New("convert: nil document")
	}
	var (
		m     *physics.Model
		warns []physics.Warning
		err   error
	)
	if err := validate.Errors(validate.Validate(doc, validate.Options{})); err != nil {
		return nil, fmt.Errorf("convert: the input's physics is invalid (fix it first): %w", err)
	}
	from := physics.Detect(doc)
	switch {
	case from == physics.None:
		return nil, errors.New("convert: the document carries no physics")
	case from == physics.Both && to == physics.KHR, from == physics.OMI:
		from = physics.OMI
		m, warns, err = omi.Decode(doc)
	case from == physics.Both:
		from = physics.KHR
		m, warns, err = khr.Decode(doc)
	default:
		m, warns, err = khr.Decode(doc)
	}
	if err != nil {
		return warns, fmt.Errorf("convert: %w", err)
	}
	if from != to {
		var more []physics.Warning
		m, more = Adapt(doc, m, to)
		warns = append(warns, more...)
	}
	if opt.Strict {
		for _, w := range warns {
			if w.Lossy {
				return warns, fmt.Errorf("convert (strict): %s: %s", w.Path, w.Message)
			}
		}
	}
	switch to {
	case physics.OMI:
		err = omi.Encode(doc, m)
	default:
		err = khr.Encode(doc, m, opt.KHR)
	}
	if err != nil {
		return warns, fmt.Errorf("convert: %w", err)
	}
	if from != to {
		if to == physics.KHR {
			drop := []string{physics.ExtOMIBody, physics.ExtOMIJoint, physics.ExtOMICollider}
			if _, ok := doc.Extensions[physics.ExtOMIGravity]; !ok && !hasNodeExt(doc, physics.ExtOMIGravity) {
				drop = append(drop, physics.ExtOMIShape)
			}
			physics.RemoveExtensions(doc, drop...)
		} else {
			physics.RemoveExtensions(doc, physics.ExtKHRShapes, physics.ExtKHRBodies, physics.ExtKHRCollisionShapes)
		}
	}
	if err := validate.Errors(validate.Validate(doc, validate.Options{})); err != nil {
		return warns, fmt.Errorf("convert: the converted physics does not validate (an autocollide bug): %w", err)
	}
	return warns, nil
}

// Adapt returns a copy of m that family to can express exactly, and a
// warning per item changed (see the package comment). Paths name the
// source document's items in the source family's terms.
func Adapt(doc *gltf.Document, m *physics.Model, to physics.Family) (*physics.Model, []physics.Warning) {
	a := adapter{doc: doc, m: m.Clone()}
	if to == physics.KHR {
		a.toKHR()
	} else {
		a.toOMI()
	}
	return a.m, a.warns
}

type adapter struct {
	doc   *gltf.Document
	m     *physics.Model
	warns []physics.Warning
}

func (a *adapter) lossy(path, format string, args ...any) {
	a.warns = append(a.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...), Lossy: true})
}

func omiBody(n int) string { return fmt.Sprintf("nodes[%d].extensions.%s", n, physics.ExtOMIBody) }
func khrBody(n int) string { return fmt.Sprintf("nodes[%d].extensions.%s", n, physics.ExtKHRBodies) }
func zeroCount(v [3]float64) int {
	n := 0
	for _, x := range v {
		if x == 0 {
			n++
		}
	}
	return n
}

func (a *adapter) toKHR() {
	m := a.m
	referenced := make([]bool, len(m.Shapes))
	for _, ni := range m.NodeIndices() {
		n := m.Nodes[ni]
		p := omiBody(ni)
		if mo := n.Motion; mo != nil {
			if mo.Type == physics.Static {
				a.lossy(p+".motion", "static body: KHR has no static motion; dropped, its colliders become independent static colliders")
				n.Motion = nil
			} else {
				if mo.Mass == nil {
					mo.Mass = ptr(omi.DefaultMass)
				}
				if d := mo.InertiaDiagonal; d != nil {
					switch zeroCount(*d) {
					case 3:
						mo.InertiaDiagonal, mo.InertiaOrientation = nil, nil
					case 0:
					default:
						a.lossy(p+".motion.inertiaDiagonal", "partly zero inertia (OMI: engine-computed) has no KHR form (0 = infinite); dropped, the engine computes it")
						mo.InertiaDiagonal, mo.InertiaOrientation = nil, nil
					}
				}
			}
		}
		if c := n.Collider; c != nil {
			if c.Shape < 0 {
				a.lossy(p+".collider", "shapeless compound collider: KHR colliders need a geometry; dropped (descendant colliders still form the body)")
				n.Collider = nil
			} else if c.Shape < len(referenced) {
				referenced[c.Shape] = true
			}
		}
		if t := n.Trigger; t != nil && t.Shape >= 0 && t.Shape < len(referenced) {
			referenced[t.Shape] = true
		}
		if n.Motion == nil && n.Collider == nil && n.Trigger == nil && n.Joint == nil {
			delete(m.Nodes, ni)
		}
	}
	for i, s := range m.Shapes {
		if s.Type != physics.Convex && s.Type != physics.Trimesh {
			continue
		}
		p := fmt.Sprintf("extensions.%s.shapes[%d]", physics.ExtOMIShape, i)
		switch {
		case !referenced[i]:
			a.lossy(p, "unreferenced %s shape: KHR mesh geometry exists only on colliders and triggers; dropped", s.Type)
		case s.Name != "" || len(s.Extras) > 0 || len(s.Extensions) > 0:
			a.lossy(p, "the name, extras and extensions of a %s shape are not kept: KHR mesh geometry has no shape object", s.Type)
		}
	}
	for i := range m.Joints {
		var limits []physics.JointLimit
		for _, l := range m.Joints[i].Limits {
			if len(l.LinearAxes) > 0 && len(l.AngularAxes) > 0 {
				lin, ang := l, l
				lin.AngularAxes, ang.LinearAxes = nil, nil
				ang.Min, ang.Max, ang.Stiffness, ang.Damping = clone(l.Min), clone(l.Max), clone(l.Stiffness), clone(l.Damping)
				limits = append(limits, lin, ang)
				continue
			}
			limits = append(limits, l)
		}
		m.Joints[i].Limits = limits
	}
	if _, ok := a.doc.Extensions[physics.ExtOMIGravity]; ok || hasNodeExt(a.doc, physics.ExtOMIGravity) {
		a.lossy("extensions."+physics.ExtOMIGravity, "KHR has no gravity: OMI_physics_gravity is kept as is, with the OMI_physics_shape shapes it refers to; its trigger references no longer resolve")
	}
}

func hasNodeExt(doc *gltf.Document, name string) bool {
	for _, n := range doc.Nodes {
		if n != nil {
			if _, ok := n.Extensions[name]; ok {
				return true
			}
		}
	}
	return false
}

func (a *adapter) toOMI() {
	m := a.m
	for i := range m.Shapes {
		s := &m.Shapes[i]
		if s.Type != physics.Plane {
			continue
		}
		x, z := s.PlaneSizeX, s.PlaneSizeZ
		if x <= 0 {
			x = PlaneExtent
		}
		if z <= 0 {
			z = PlaneExtent
		}
		a.lossy(fmt.Sprintf("extensions.%s.shapes[%d]", physics.ExtKHRShapes, i),
			"OMI has no plane: approximated by a box %g × %g × %g m centred on the plane", x, PlaneThickness, z)
		*s = physics.Shape{Type: physics.Box, Name: s.Name, Size: [3]float64{x, PlaneThickness, z}, Extras: s.Extras, Extensions: s.Extensions}
	}
	for _, ni := range m.NodeIndices() {
		mo := m.Nodes[ni].Motion
		if mo == nil {
			continue
		}
		p := khrBody(ni) + ".motion"
		switch {
		case mo.Mass == nil && mo.Type == physics.Dynamic:
			a.lossy(p+".mass", "engine-computed mass has no OMI form; left unspecified, which OMI reads as 1 kg")
		case mo.Mass != nil && *mo.Mass == 0:
			mo.Mass = nil
			if mo.Type == physics.Dynamic {
				mo.Type = physics.Kinematic
				a.lossy(p+".mass", "infinite mass (0) has no OMI form; written as a kinematic body")
			}
		}
		if d := mo.InertiaDiagonal; d != nil && zeroCount(*d) > 0 {
			a.lossy(p+".inertiaDiagonal", "infinite moments (0) have no OMI form (0 = engine-computed); inertia dropped")
			mo.InertiaDiagonal, mo.InertiaOrientation = nil, nil
		}
	}
}

func ptr(v float64) *float64 { return &v }

func clone(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return ptr(*p)
}
