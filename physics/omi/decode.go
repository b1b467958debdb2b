package omi

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/qmuntal/gltf"
)

// Decode reads the OMI physics of doc into a model. It reads the current
// OMI_physics_shape, OMI_physics_body and OMI_physics_joint and these
// older forms, each migrated with a warning:
//   - the archived OMI_collider (full-height capsules and cylinders with
//     one radius, hull, isTrigger);
//   - the seed's OMI_physics_body with a "type" enum (static, kinematic,
//     character, rigid, vehicle, trigger), inertiaTensor[9] and node-level
//     OMI_physics_shape {shape} on the collider nodes;
//   - the seed's OMI_physics_joint (document constraints, node
//     constraints/nodeA/nodeB) — see MigrateJoints, which Decode applies;
//   - a capsule or cylinder "radius" member (early OMI_physics_shape), an
//     empty "trigger": {} (a compound trigger of the descendant trigger
//     nodes) and a motion without "type".
//
// OMI_physics_gravity is not part of the model; Encode keeps it as is.
// Decode does not modify doc, except that the seed's joint form, which
// needs attachment nodes the old form did not have, appends them (see
// MigrateJoints). References out of range are errors carrying the JSON
// path.
func Decode(doc *gltf.Document) (*physics.Model, []physics.Warning, error) {
	d := &decoder{legacyShape: map[int]int{}}
	return wire.Decode("omi", doc, &d.Decoder, d.run)
}

type decoder struct {
	wire.Decoder
	// legacyShape maps an OMI_collider collider index to its model shape.
	legacyShape map[int]int
	legacy      []legacyCollider
	// oldTypes holds the seed-form body type per node.
	oldTypes map[int]string
}

func (d *decoder) raw(exts gltf.Extensions, name, path string) (json.RawMessage, bool, error) {
	raw, ok, err := jsonx.Raw(exts, name)
	if err != nil {
		return nil, ok, physics.Errorf(path, "%v", err)
	}
	return raw, ok, nil
}

func (d *decoder) run() error {
	if err := d.readShapes(); err != nil {
		return err
	}
	if err := d.readLegacyColliders(); err != nil {
		return err
	}
	if err := d.readBodyDoc(); err != nil {
		return err
	}
	if err := d.readJointDoc(); err != nil {
		return err
	}
	d.oldTypes = map[int]string{}
	for i, n := range d.Doc.Nodes {
		if n == nil {
			continue
		}
		if err := d.readNode(i, n); err != nil {
			return err
		}
	}
	if err := d.resolveOldBodies(); err != nil {
		return err
	}
	if err := MigrateJoints(d.Doc, d.M, (*[]physics.Warning)(&d.Warnings)); err != nil {
		return err
	}
	return d.checkRefs()
}

func (d *decoder) readShapes() error {
	raw, ok, err := d.raw(d.Doc.Extensions, physics.ExtOMIShape, docShapes)
	if err != nil || !ok {
		return err
	}
	var sd struct {
		Shapes []json.RawMessage `json:"shapes"`
	}
	if err := jsonx.Unmarshal(raw, &sd, docShapes); err != nil {
		return err
	}
	for i, r := range sd.Shapes {
		p := fmt.Sprintf("%s.shapes[%d]", docShapes, i)
		s, err := d.decodeShape(r, p)
		if err != nil {
			return err
		}
		d.M.Shapes = append(d.M.Shapes, s)
	}
	return nil
}

// shapeIn is the shape as read, tolerant of the early "radius" member.
type shapeIn struct {
	Type     string       `json:"type"`
	Name     string       `json:"name"`
	Box      *wire.Box    `json:"box"`
	Sphere   *wire.Sphere `json:"sphere"`
	Capsule  *roundIn     `json:"capsule"`
	Cylinder *roundIn     `json:"cylinder"`
	Convex   *meshJSON    `json:"convex"`
	Trimesh  *meshJSON    `json:"trimesh"`
	wire.Meta
}

// roundIn is a capsule or cylinder with the early form's single radius.
type roundIn struct {
	wire.Round
	Radius *float64 `json:"radius"`
}

// defaults are OMI_physics_shape's values for absent parameters.
var defaults = wire.Defaults{
	BoxSize: DefaultBoxSize, SphereRadius: DefaultSphereRadius,
	CapsuleHeight: DefaultCapsuleHeight, CylinderHeight: DefaultCylinderHeight, RoundRadius: DefaultRoundRadius,
}

func (d *decoder) decodeShape(r json.RawMessage, p string) (physics.Shape, error) {
	var in shapeIn
	if err := jsonx.Unmarshal(r, &in, p); err != nil {
		return physics.Shape{}, err
	}
	// round reads the early single radius as both radii.
	round := func(rj *roundIn, sub string) *wire.Round {
		if rj == nil {
			return nil
		}
		if rj.Radius != nil {
			d.Warn(p+"."+sub+".radius", "early form: radius read as radiusTop and radiusBottom")
			if rj.RadiusTop == nil {
				rj.RadiusTop = rj.Radius
			}
			if rj.RadiusBottom == nil {
				rj.RadiusBottom = rj.Radius
			}
		}
		return &rj.Round
	}
	sh := wire.Shape{Type: in.Type, Name: in.Name, Box: in.Box, Sphere: in.Sphere}
	switch physics.ShapeType(in.Type) {
	case physics.Capsule:
		sh.Capsule = round(in.Capsule, "capsule")
	case physics.Cylinder:
		sh.Cylinder = round(in.Cylinder, "cylinder")
	}
	s, ok := sh.Model(in.Meta, defaults)
	if ok {
		return s, nil
	}
	var mj *meshJSON
	switch s.Type {
	case physics.Convex:
		mj = in.Convex
	case physics.Trimesh:
		mj = in.Trimesh
	default:
		return s, physics.Errorf(p+".type", "unknown shape type %q", in.Type)
	}
	if mj == nil || mj.Mesh == nil || *mj.Mesh < 0 {
		return s, physics.Errorf(p+"."+in.Type+".mesh", "a %s shape needs a mesh index", in.Type)
	}
	s.Mesh = *mj.Mesh
	return s, nil
}

type legacyCollider struct {
	Type      string      `json:"type"`
	IsTrigger bool        `json:"isTrigger"`
	Size      *[3]float64 `json:"size"`
	Radius    *float64    `json:"radius"`
	Height    *float64    `json:"height"`
	Mesh      *int        `json:"mesh"`
}

// or is wire.Or under the name legacy.go uses.
var or = wire.Or

// Defaults of the archived OMI_collider.
const (
	legacyRadius = 0.5
	legacyHeight = 2.0
)

func (d *decoder) readLegacyColliders() error {
	p := "extensions." + physics.ExtOMICollider
	raw, ok, err := d.raw(d.Doc.Extensions, physics.ExtOMICollider, p)
	if err != nil || !ok {
		return err
	}
	var cd struct {
		Colliders []legacyCollider `json:"colliders"`
	}
	if err := jsonx.Unmarshal(raw, &cd, p); err != nil {
		return err
	}
	d.legacy = cd.Colliders
	for i, c := range cd.Colliders {
		cp := fmt.Sprintf("%s.colliders[%d]", p, i)
		s := physics.Shape{}
		r := wire.Or(c.Radius, legacyRadius)
		switch c.Type {
		case "box":
			s.Type, s.Size = physics.Box, [3]float64{1, 1, 1}
			if c.Size != nil {
				s.Size = *c.Size
			}
		case "sphere":
			s.Type, s.Radius = physics.Sphere, r
		case "capsule":
			h := wire.Or(c.Height, legacyHeight)
			s.Type, s.RadiusTop, s.RadiusBottom, s.Height = physics.Capsule, r, r, h-2*r
			if s.Height < 0 {
				d.Lossy(cp+".height", "legacy full height %g is below the diameter %g; mid-height clamped to 0", h, 2*r)
				s.Height = 0
			}
		case "cylinder":
			s.Type, s.RadiusTop, s.RadiusBottom, s.Height = physics.Cylinder, r, r, wire.Or(c.Height, legacyHeight)
		case "hull", "trimesh":
			s.Type = physics.Convex
			if c.Type == "trimesh" {
				s.Type = physics.Trimesh
			}
			if c.Mesh == nil || *c.Mesh < 0 {
				return physics.Errorf(cp+".mesh", "a %s collider needs a mesh index", c.Type)
			}
			s.Mesh = *c.Mesh
		default:
			return physics.Errorf(cp+".type", "unknown legacy collider type %q", c.Type)
		}
		d.legacyShape[i] = d.M.AddShape(s)
	}
	d.Warn(p, "legacy OMI_collider migrated to OMI_physics_shape/OMI_physics_body (capsule height converted from full height to mid-height)")
	return nil
}

func (d *decoder) readBodyDoc() error {
	raw, ok, err := d.raw(d.Doc.Extensions, physics.ExtOMIBody, docBody)
	if err != nil || !ok {
		return err
	}
	var bd wire.BodyDoc
	if err := jsonx.Unmarshal(raw, &bd, docBody); err != nil {
		return err
	}
	bd.AppendTo(d.M)
	return nil
}

// Defaults of the seed's old joint constraints, which differ from the
// current limit defaults (no stiffness = infinitely stiff, damping 0).
const (
	oldDamping = 1.0
)

func (d *decoder) readJointDoc() error {
	raw, ok, err := d.raw(d.Doc.Extensions, physics.ExtOMIJoint, docJoint)
	if err != nil || !ok {
		return err
	}
	var jd jointDoc
	if err := jsonx.Unmarshal(raw, &jd, docJoint); err != nil {
		return err
	}
	wire.AppendJoints(d.M, jd.PhysicsJoints)
	return nil
}

// oldBody is the seed's node-level OMI_physics_body.
type oldBody struct {
	Type            string      `json:"type"`
	Mass            *float64    `json:"mass"`
	LinearVelocity  *[3]float64 `json:"linearVelocity"`
	AngularVelocity *[3]float64 `json:"angularVelocity"`
	CenterOfMass    *[3]float64 `json:"centerOfMass"`
	InertiaTensor   *[9]float64 `json:"inertiaTensor"`
}

func (d *decoder) readNode(i int, n *gltf.Node) error {
	np := fmt.Sprintf("nodes[%d].extensions.", i)
	// Current or seed-form OMI_physics_body.
	if raw, ok, err := d.raw(n.Extensions, physics.ExtOMIBody, np+physics.ExtOMIBody); err != nil {
		return err
	} else if ok {
		var probe map[string]json.RawMessage
		if err := jsonx.Unmarshal(raw, &probe, np+physics.ExtOMIBody); err != nil {
			return err
		}
		if _, old := probe["type"]; old {
			if err := d.readOldBody(i, raw, np+physics.ExtOMIBody); err != nil {
				return err
			}
		} else if err := d.readBody(i, raw, np+physics.ExtOMIBody); err != nil {
			return err
		}
	}
	// The seed's node-level OMI_physics_shape {shape}: a collider (or, under
	// a seed trigger body, a trigger), resolved in resolveOldBodies.
	if raw, ok, err := d.raw(n.Extensions, physics.ExtOMIShape, np+physics.ExtOMIShape); err != nil {
		return err
	} else if ok {
		p := np + physics.ExtOMIShape
		var s struct {
			Shape *int `json:"shape"`
		}
		if err := jsonx.Unmarshal(raw, &s, p); err != nil {
			return err
		}
		if s.Shape != nil && *s.Shape >= 0 {
			nd := d.M.Node(i)
			if nd.Collider != nil {
				return physics.Errorf(p, "node has both a seed-form shape and a collider")
			}
			nd.Collider = &physics.Collider{Shape: *s.Shape, Material: -1, Filter: -1}
			d.Warn(p, "seed form: node-level OMI_physics_shape read as an OMI_physics_body collider")
		}
	}
	// Legacy OMI_collider node reference.
	if raw, ok, err := d.raw(n.Extensions, physics.ExtOMICollider, np+physics.ExtOMICollider); err != nil {
		return err
	} else if ok {
		p := np + physics.ExtOMICollider + ".collider"
		var c struct {
			Collider *int `json:"collider"`
		}
		if err := jsonx.Unmarshal(raw, &c, np+physics.ExtOMICollider); err != nil {
			return err
		}
		if c.Collider == nil {
			return physics.Errorf(p, "missing collider index")
		}
		si, ok := d.legacyShape[*c.Collider]
		if !ok {
			return physics.Errorf(p, "index %d out of range (%d colliders)", *c.Collider, len(d.legacy))
		}
		nd := d.M.Node(i)
		if d.legacy[*c.Collider].IsTrigger {
			if nd.Trigger != nil {
				return physics.Errorf(p, "node has both a legacy trigger and a trigger")
			}
			nd.Trigger = &physics.Trigger{Shape: si, Filter: -1}
		} else {
			if nd.Collider != nil {
				return physics.Errorf(p, "node has both a legacy collider and a collider")
			}
			nd.Collider = &physics.Collider{Shape: si, Material: -1, Filter: -1}
		}
	}
	if raw, ok, err := d.raw(n.Extensions, physics.ExtOMIJoint, np+physics.ExtOMIJoint); err != nil {
		return err
	} else if ok {
		p := np + physics.ExtOMIJoint
		var j jointJSON
		if err := jsonx.Unmarshal(raw, &j, p); err != nil {
			return err
		}
		if j.Constraints != nil || j.NodeA != nil || j.NodeB != nil {
			return nil // seed form, handled by MigrateJoints
		}
		jt, err := wire.DecodeJoint(j.Joint, j.ConnectedNode, j.EnableCollision, p)
		if err != nil {
			return err
		}
		d.M.Node(i).Joint = jt
	}
	return nil
}

func (d *decoder) readBody(i int, raw json.RawMessage, p string) error {
	var b bodyJSON
	if err := jsonx.Unmarshal(raw, &b, p); err != nil {
		return err
	}
	nd := d.M.Node(i)
	if mo := b.Motion; mo != nil {
		if err := wire.CheckMotionLengths(raw, p); err != nil {
			return err
		}
		t := physics.MotionType(mo.Type)
		switch t {
		case physics.Static, physics.Kinematic, physics.Dynamic:
		case "":
			t = physics.Dynamic
			d.Lossy(p+".motion.type", "motion without the required type read as dynamic")
		default:
			return physics.Errorf(p+".motion.type", "unknown motion type %q", mo.Type)
		}
		nd.Motion = mo.Model(t)
	}
	if c := b.Collider; c != nil {
		if nd.Collider != nil {
			return physics.Errorf(p+".collider", "node has two colliders")
		}
		nd.Collider = &physics.Collider{Shape: wire.IndexOrNone(c.Shape), Material: wire.IndexOrNone(c.PhysicsMaterial), Filter: wire.IndexOrNone(c.CollisionFilter)}
	}
	if t := b.Trigger; t != nil {
		tr := &physics.Trigger{Shape: wire.IndexOrNone(t.Shape), Filter: wire.IndexOrNone(t.CollisionFilter)}
		if tr.Shape >= 0 && len(t.Nodes) > 0 {
			return physics.Errorf(p+".trigger", "a trigger has either a shape or nodes, not both")
		}
		if len(t.Nodes) > 0 {
			tr.Nodes = append([]int(nil), t.Nodes...)
		}
		if tr.Shape < 0 && len(tr.Nodes) == 0 {
			tr.Nodes = d.descendantTriggers(i)
			d.Warn(p+".trigger", "empty trigger read as a compound trigger of its descendant trigger nodes %v", tr.Nodes)
			if len(tr.Nodes) == 0 {
				d.Lossy(p+".trigger", "empty trigger without descendant triggers dropped")
				tr = nil
			}
		}
		if tr != nil {
			nd.Trigger = tr
		}
	}
	return nil
}

// descendantTriggers lists, ascending, the descendants of node i carrying
// an OMI_physics_body trigger with a shape, not crossing nodes with their
// own motion.
func (d *decoder) descendantTriggers(i int) []int {
	var out []int
	var walk func(k int, depth int)
	walk = func(k int, depth int) {
		if k < 0 || k >= len(d.Doc.Nodes) || d.Doc.Nodes[k] == nil || depth > len(d.Doc.Nodes) {
			return
		}
		for _, c := range d.Doc.Nodes[k].Children {
			if c < 0 || c >= len(d.Doc.Nodes) || d.Doc.Nodes[c] == nil {
				continue
			}
			raw, ok, err := jsonx.Raw(d.Doc.Nodes[c].Extensions, physics.ExtOMIBody)
			if ok && err == nil {
				var b bodyJSON
				if json.Unmarshal(raw, &b) == nil {
					if b.Motion != nil {
						continue
					}
					if b.Trigger != nil && wire.IndexOrNone(b.Trigger.Shape) >= 0 {
						out = append(out, c)
					}
				}
			}
			walk(c, depth+1)
		}
	}
	walk(i, 0)
	slices.Sort(out)
	return slices.Compact(out)
}

func (d *decoder) readOldBody(i int, raw json.RawMessage, p string) error {
	var b oldBody
	if err := jsonx.Unmarshal(raw, &b, p); err != nil {
		return err
	}
	nd := d.M.Node(i)
	d.oldTypes[i] = b.Type
	mo := &physics.Motion{Mass: b.Mass, LinearVelocity: b.LinearVelocity, AngularVelocity: b.AngularVelocity, CenterOfMass: b.CenterOfMass}
	switch b.Type {
	case "static":
		mo.Type = physics.Static
	case "kinematic":
		mo.Type = physics.Kinematic
	case "character":
		mo.Type = physics.Kinematic
		d.Lossy(p+".type", "seed body type character read as kinematic")
	case "rigid":
		mo.Type = physics.Dynamic
	case "vehicle":
		mo.Type = physics.Dynamic
		d.Lossy(p+".type", "seed body type vehicle read as dynamic")
	case "trigger":
		mo = nil // its shapes become triggers in resolveOldBodies
	default:
		return physics.Errorf(p+".type", "unknown seed body type %q", b.Type)
	}
	if mo != nil && b.InertiaTensor != nil {
		diag, q, err := principal(*b.InertiaTensor)
		if err != nil {
			return physics.Errorf(p+".inertiaTensor", "%v", err)
		}
		if diag != [3]float64{} {
			mo.InertiaDiagonal = &diag
			if q != [4]float64{0, 0, 0, 1} {
				mo.InertiaOrientation = &q
			}
		}
		d.Warn(p+".inertiaTensor", "seed inertiaTensor converted to inertiaDiagonal and inertiaOrientation")
	}
	nd.Motion = mo
	d.Warn(p, "seed form of OMI_physics_body (type %q) migrated to motion", b.Type)
	return nil
}

// resolveOldBodies turns the seed-form shape nodes under a seed trigger
// body into triggers and gives the trigger body a compound trigger.
func (d *decoder) resolveOldBodies() error {
	for _, bi := range sortedKeys(d.oldTypes) {
		if d.oldTypes[bi] != "trigger" {
			continue
		}
		var members []int
		var walk func(k, depth int)
		walk = func(k, depth int) {
			if depth > len(d.Doc.Nodes) {
				return
			}
			if nd := d.M.Nodes[k]; nd != nil && nd.Collider != nil && nd.Collider.Shape >= 0 && (k == bi || d.oldTypes[k] == "") {
				nd.Trigger = &physics.Trigger{Shape: nd.Collider.Shape, Filter: -1}
				nd.Collider = nil
				members = append(members, k)
			}
			for _, c := range d.Doc.Nodes[k].Children {
				if c >= 0 && c < len(d.Doc.Nodes) && d.Doc.Nodes[c] != nil {
					if _, other := d.oldTypes[c]; other {
						continue
					}
					walk(c, depth+1)
				}
			}
		}
		walk(bi, 0)
		nd := d.M.Node(bi)
		if len(members) == 1 && members[0] == bi {
			continue
		}
		members = slices.DeleteFunc(members, func(k int) bool { return k == bi })
		if len(members) > 0 && nd.Trigger == nil {
			slices.Sort(members)
			nd.Trigger = &physics.Trigger{Shape: -1, Nodes: members, Filter: -1}
		}
	}
	return nil
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkRefs verifies every index of the model against the document.
func (d *decoder) checkRefs() error {
	m, doc := d.M, d.Doc
	for i, s := range m.Shapes {
		if (s.Type == physics.Convex || s.Type == physics.Trimesh) && (s.Mesh < 0 || s.Mesh >= len(doc.Meshes)) {
			return physics.Errorf(fmt.Sprintf("%s.shapes[%d].%s.mesh", docShapes, i, s.Type), "index %d out of range (%d meshes)", s.Mesh, len(doc.Meshes))
		}
		for _, v := range []float64{s.Radius, s.Height, s.RadiusTop, s.RadiusBottom, s.Size[0], s.Size[1], s.Size[2]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return physics.Errorf(fmt.Sprintf("%s.shapes[%d]", docShapes, i), "not a finite number")
			}
		}
	}
	chk := func(path string, i, n int, what string) error {
		if i >= n {
			return physics.Errorf(path, "index %d out of range (%d %s)", i, n, what)
		}
		return nil
	}
	for _, ni := range m.NodeIndices() {
		n := m.Nodes[ni]
		bp := fmt.Sprintf("nodes[%d].extensions.%s", ni, physics.ExtOMIBody)
		if c := n.Collider; c != nil {
			for _, e := range []error{
				chk(bp+".collider.shape", c.Shape, len(m.Shapes), "shapes"),
				chk(bp+".collider.physicsMaterial", c.Material, len(m.Materials), "physics materials"),
				chk(bp+".collider.collisionFilter", c.Filter, len(m.Filters), "collision filters"),
			} {
				if e != nil {
					return e
				}
			}
		}
		if t := n.Trigger; t != nil {
			if err := chk(bp+".trigger.shape", t.Shape, len(m.Shapes), "shapes"); err != nil {
				return err
			}
			if err := chk(bp+".trigger.collisionFilter", t.Filter, len(m.Filters), "collision filters"); err != nil {
				return err
			}
			for k, c := range t.Nodes {
				if c < 0 || c >= len(doc.Nodes) {
					return physics.Errorf(fmt.Sprintf("%s.trigger.nodes[%d]", bp, k), "index %d out of range (%d nodes)", c, len(doc.Nodes))
				}
			}
		}
		if j := n.Joint; j != nil {
			jp := fmt.Sprintf("nodes[%d].extensions.%s", ni, physics.ExtOMIJoint)
			if j.Def < 0 || j.Def >= len(m.Joints) {
				return physics.Errorf(jp+".joint", "index %d out of range (%d joints)", j.Def, len(m.Joints))
			}
			if j.ConnectedNode < 0 || j.ConnectedNode >= len(doc.Nodes) {
				return physics.Errorf(jp+".connectedNode", "index %d out of range (%d nodes)", j.ConnectedNode, len(doc.Nodes))
			}
		}
	}
	return nil
}
