package convert

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
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

// ErrInternal marks an error that is autocollide's fault, not the
// input's (the converted physics fails its own validate): the command
// exits 3 on it.
var ErrInternal = errors.New("an autocollide bug; please report it")

// Options tunes Convert.
type Options struct {
	// Strict makes every lossy item an error.
	Strict bool
	// Encode is passed to the target family's encoder.
	Encode physics.EncodeOptions
}

// Convert decodes the family doc does not target (any revision) and
// encodes the model in family to, joints included, replacing the source
// extensions. A document already in the target family is re-encoded in
// its current form (legacy revisions migrate). With strict, a lossy item
// is an error and doc is left unchanged (except that decoding the
// OMI_physics_joint Stage 1 form appends attachment nodes). A document whose physics
// physics/validate calls an error is refused unchanged (converting it
// would carry the error over or hide it), and the result is validated
// too: on an error there, doc is changed and must not be written.
func Convert(doc *gltf.Document, to physics.Family, strict bool) ([]physics.Warning, error) {
	return ConvertWith(doc, to, Options{Strict: strict})
}

// ConvertWith is Convert with options.
func ConvertWith(doc *gltf.Document, to physics.Family, opt Options) ([]physics.Warning, error) {
	target, err := codecs.For(to)
	if err != nil {
		return nil, fmt.Errorf("convert: target family: %w", err)
	}
	if doc == nil {
		return nil, errors.New("convert: nil document")
	}
	if err := validate.Errors(validate.Validate(doc, validate.Options{})); err != nil {
		return nil, fmt.Errorf("convert: the input's physics is invalid (fix it first): %w", err)
	}
	found := codecs.Detect(doc)
	if len(found) == 0 {
		return nil, errors.New("convert: the document carries no physics")
	}
	// The source is the first family present that is not the target,
	// else the target itself (re-encoded in its current form).
	source := found[0]
	for _, c := range found {
		if c.Family() != to {
			source = c
			break
		}
	}
	from := source.Family()
	m, warns, err := source.Decode(doc)
	if err != nil {
		return warns, fmt.Errorf("convert: %w", err)
	}
	var added []newNode
	if from == physics.KHR && to == physics.KHR {
		explicitGains(m)
	}
	if from != to {
		a := adapt(doc, m, to)
		if a.err != nil {
			return append(warns, a.warns...), fmt.Errorf("convert: %w", a.err)
		}
		m, added = a.m, a.added
		warns = append(warns, a.warns...)
	}
	if opt.Strict {
		for _, w := range warns {
			if w.Lossy {
				return warns, fmt.Errorf("convert (strict): %s: %s", w.Path, w.Message)
			}
		}
	}
	addNodes(doc, added)
	if err := target.Encode(doc, m, opt.Encode); err != nil {
		return warns, fmt.Errorf("convert: %w", err)
	}
	if from != to {
		source.Strip(doc)
	}
	if err := validate.Errors(validate.Validate(doc, validate.Options{})); err != nil {
		return warns, fmt.Errorf("convert: the converted physics does not validate: %w: %w", err, ErrInternal)
	}
	return warns, nil
}

// Adapt returns a copy of m that family to can express exactly and a
// warning per item changed (see the package comment), for a model built
// from doc by another reader than a codec (G4MF import). The nodes the
// copy refers to that doc lacks (OMI joints moved to a child node) are
// appended to doc; what to prohibits and cannot be rewritten is an error
// naming its JSON path.
func Adapt(doc *gltf.Document, m *physics.Model, to physics.Family) (*physics.Model, []physics.Warning, error) {
	a := adapt(doc, m, to)
	if a.err != nil {
		return nil, a.warns, a.err
	}
	addNodes(doc, a.added)
	return a.m, a.warns, nil
}

// adapt returns the adapter holding a copy of m that family to can
// express exactly (m), a warning per item changed (warns; see the package
// comment), the nodes the copy refers to that doc does not have yet
// (added: OMI joints moved to a child node; Convert appends them with
// addNodes) and, for what to prohibits and cannot be rewritten (a
// degenerate shape for KHR), an error naming its JSON path (err). Paths
// name the source document's items in the source family's terms. doc is
// not changed.
func adapt(doc *gltf.Document, m *physics.Model, to physics.Family) *adapter {
	a := &adapter{doc: doc, m: m.Clone()}
	switch to {
	case physics.KHR:
		a.toKHR()
	case physics.OMI:
		a.toOMI()
	}
	// Another family expresses the whole model: nothing to adapt.
	return a
}

type adapter struct {
	doc   *gltf.Document
	m     *physics.Model
	warns []physics.Warning
	added []newNode
	err   error
}

func (a *adapter) lossy(path, format string, args ...any) {
	a.warns = append(a.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...), Lossy: true})
}

// note records an exact rewrite the user may want to know about.
func (a *adapter) note(path, format string, args ...any) {
	a.warns = append(a.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...)})
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
	for i := range m.Shapes {
		a.shapeToKHR(i)
	}
	if a.err != nil {
		return
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
		for k := range m.Joints[i].Drives {
			a.driveToKHR(&m.Joints[i].Drives[k], fmt.Sprintf("extensions.%s.physicsJoints[%d].drives[%d]", physics.ExtOMIJoint, i, k))
		}
	}
	if omi.HasGravity(a.doc) {
		a.lossy("extensions."+physics.ExtOMIGravity, "KHR has no gravity: OMI_physics_gravity is kept as is, with the OMI_physics_shape shapes it refers to; its trigger references no longer resolve")
	}
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
	a.added = a.placeJointsForOMI(len(a.doc.Nodes))
}

// shapeToKHR rewrites OMI shape i into what KHR_implicit_shapes allows,
// which prohibits degenerate shapes: a capsule of mid-height 0 (which OMI
// allows) is a sphere; a zero size that has no KHR form is an error.
func (a *adapter) shapeToKHR(i int) {
	s := &a.m.Shapes[i]
	p := fmt.Sprintf("extensions.%s.shapes[%d].%s", physics.ExtOMIShape, i, s.Type)
	if s.Type == physics.Capsule && s.Height == 0 && max(s.RadiusTop, s.RadiusBottom) > 0 {
		r := max(s.RadiusTop, s.RadiusBottom)
		if s.RadiusTop != s.RadiusBottom {
			a.lossy(p+".height", "a tapered capsule of height 0 has no KHR form (degenerate shapes are prohibited): written as a sphere of the larger radius %g", r)
		} else {
			a.note(p+".height", "a capsule of height 0 is a sphere (KHR prohibits degenerate shapes): written as a sphere of radius %g", r)
		}
		*s = physics.Shape{Type: physics.Sphere, Name: s.Name, Radius: r, Extras: s.Extras, Extensions: s.Extensions}
		return
	}
	zero := ""
	switch s.Type {
	case physics.Box:
		for k, x := range s.Size {
			if x == 0 {
				zero = fmt.Sprintf(".size[%d]", k)
			}
		}
	case physics.Sphere:
		if s.Radius == 0 {
			zero = ".radius"
		}
	case physics.Capsule, physics.Cylinder:
		if s.RadiusTop == 0 && s.RadiusBottom == 0 {
			a.fail(p, "both radii are zero")
			return
		}
		if s.Height == 0 {
			zero = ".height"
		}
	}
	if zero != "" {
		a.fail(p+zero, "zero")
	}
}

// fail records the first degenerate shape, which KHR cannot hold.
func (a *adapter) fail(path, what string) {
	if a.err == nil {
		a.err = physics.Errorf(path, "%s: KHR_implicit_shapes prohibits degenerate shapes; fix the shape", what)
	}
}

// driveToKHR writes OMI drive d (at p) in the form KHR's schema requires,
// a target with its gain: OMI gains default to 0, so a missing stiffness
// or damping is written as 0; a damping without velocity target damps
// towards rest (target 0); a stiffness without position target has no
// effect and is dropped.
func (a *adapter) driveToKHR(d *physics.JointDrive, p string) {
	if d.PositionTarget != nil && d.Stiffness == nil {
		d.Stiffness = ptr(0)
	}
	if d.VelocityTarget != nil && d.Damping == nil {
		d.Damping = ptr(0)
	}
	if d.Damping != nil && d.VelocityTarget == nil {
		d.VelocityTarget = ptr(0)
		a.note(p+".damping", "damping without velocityTarget: written with velocityTarget 0 (damping towards rest), as KHR requires the pair")
	}
	if d.Stiffness != nil && d.PositionTarget == nil {
		d.Stiffness = nil
		a.note(p+".stiffness", "stiffness without positionTarget has no effect: dropped, as KHR requires the pair")
	}
}

// explicitGains writes a KHR drive target's missing gain as its default 0,
// an exact rewrite: the KHR schema's dependencies want the pair, and
// fastgltf refuses a drive without stiffness.
func explicitGains(m *physics.Model) {
	for i := range m.Joints {
		for k := range m.Joints[i].Drives {
			d := &m.Joints[i].Drives[k]
			if d.PositionTarget != nil && d.Stiffness == nil {
				d.Stiffness = ptr(0)
			}
			if d.VelocityTarget != nil && d.Damping == nil {
				d.Damping = ptr(0)
			}
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
