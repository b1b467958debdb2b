package omi

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
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
	if doc == nil {
		return nil, nil, fmt.Errorf("omi: decode: nil document")
	}
	d := decoder{doc: doc, m: physics.NewModel(), legacyShape: map[int]int{}}
	if err := d.run(); err != nil {
		return nil, d.warns, fmt.Errorf("omi: decode: %w", err)
	}
	return d.m, d.warns, nil
}

type decoder struct {
	doc   *gltf.Document
	m     *physics.Model
	warns []physics.Warning
	// legacyShape maps an OMI_collider collider index to its model shape.
	legacyShape map[int]int
	legacy      []legacyCollider
	// oldTypes holds the seed-form body type per node.
	oldTypes map[int]string
}

func (d *decoder) warn(path, format string, args ...any) {
	d.warns = append(d.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (d *decoder) lossy(path, format string, args ...any) {
	d.warns = append(d.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...), Lossy: true})
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
	for i, n := range d.doc.Nodes {
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
	if err := MigrateJoints(d.doc, d.m, &d.warns); err != nil {
		return err
	}
	return d.checkRefs()
}

func (d *decoder) readShapes() error {
	raw, ok, err := d.raw(d.doc.Extensions, physics.ExtOMIShape, docShapes)
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
		d.m.Shapes = append(d.m.Shapes, s)
	}
	return nil
}

// shapeIn is the shape as read, tolerant of the early "radius" member.
type shapeIn struct {
	Type       string                     `json:"type"`
	Name       string                     `json:"name"`
	Box        *boxJSON                   `json:"box"`
	Sphere     *sphereJSON                `json:"sphere"`
	Capsule    *roundIn                   `json:"capsule"`
	Cylinder   *roundIn                   `json:"cylinder"`
	Convex     *meshJSON                  `json:"convex"`
	Trimesh    *meshJSON                  `json:"trimesh"`
	Extensions map[string]json.RawMessage `json:"extensions"`
	Extras     json.RawMessage            `json:"extras"`
}

type roundIn struct {
	roundJSON
	Radius *float64 `json:"radius"`
}

func or(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func (d *decoder) decodeShape(r json.RawMessage, p string) (physics.Shape, error) {
	var in shapeIn
	if err := jsonx.Unmarshal(r, &in, p); err != nil {
		return physics.Shape{}, err
	}
	s := physics.Shape{Type: physics.ShapeType(in.Type), Name: in.Name,
		Extensions: jsonx.BytesMap(in.Extensions)}
	if len(in.Extras) > 0 {
		s.Extras = []byte(in.Extras)
	}
	round := func(rj *roundIn, sub string, defH float64) {
		if rj == nil {
			rj = &roundIn{}
		}
		if rj.Radius != nil {
			d.warn(p+"."+sub+".radius", "early form: radius read as radiusTop and radiusBottom")
			if rj.RadiusTop == nil {
				rj.RadiusTop = rj.Radius
			}
			if rj.RadiusBottom == nil {
				rj.RadiusBottom = rj.Radius
			}
		}
		s.Height = or(rj.Height, defH)
		s.RadiusTop = or(rj.RadiusTop, DefaultRoundRadius)
		s.RadiusBottom = or(rj.RadiusBottom, DefaultRoundRadius)
	}
	mesh := func(mj *meshJSON, sub string) error {
		if mj == nil || mj.Mesh == nil || *mj.Mesh < 0 {
			return physics.Errorf(p+"."+sub+".mesh", "a %s shape needs a mesh index", sub)
		}
		s.Mesh = *mj.Mesh
		return nil
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
		round(in.Capsule, "capsule", DefaultCapsuleHeight)
	case physics.Cylinder:
		round(in.Cylinder, "cylinder", DefaultCylinderHeight)
	case physics.Convex:
		if err := mesh(in.Convex, "convex"); err != nil {
			return s, err
		}
	case physics.Trimesh:
		if err := mesh(in.Trimesh, "trimesh"); err != nil {
			return s, err
		}
	default:
		return s, physics.Errorf(p+".type", "unknown shape type %q", in.Type)
	}
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

// Defaults of the archived OMI_collider.
const (
	legacyRadius = 0.5
	legacyHeight = 2.0
)

func (d *decoder) readLegacyColliders() error {
	p := "extensions." + physics.ExtOMICollider
	raw, ok, err := d.raw(d.doc.Extensions, physics.ExtOMICollider, p)
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
		r := or(c.Radius, legacyRadius)
		switch c.Type {
		case "box":
			s.Type, s.Size = physics.Box, [3]float64{1, 1, 1}
			if c.Size != nil {
				s.Size = *c.Size
			}
		case "sphere":
			s.Type, s.Radius = physics.Sphere, r
		case "capsule":
			h := or(c.Height, legacyHeight)
			s.Type, s.RadiusTop, s.RadiusBottom, s.Height = physics.Capsule, r, r, h-2*r
			if s.Height < 0 {
				d.lossy(cp+".height", "legacy full height %g is below the diameter %g; mid-height clamped to 0", h, 2*r)
				s.Height = 0
			}
		case "cylinder":
			s.Type, s.RadiusTop, s.RadiusBottom, s.Height = physics.Cylinder, r, r, or(c.Height, legacyHeight)
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
		d.legacyShape[i] = d.m.AddShape(s)
	}
	d.warn(p, "legacy OMI_collider migrated to OMI_physics_shape/OMI_physics_body (capsule height converted from full height to mid-height)")
	return nil
}

func (d *decoder) readBodyDoc() error {
	raw, ok, err := d.raw(d.doc.Extensions, physics.ExtOMIBody, docBody)
	if err != nil || !ok {
		return err
	}
	var bd bodyDoc
	if err := jsonx.Unmarshal(raw, &bd, docBody); err != nil {
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
	return nil
}

func deref[T any](p *[]T) []T {
	if p == nil {
		return nil
	}
	return append([]T{}, (*p)...)
}

// Defaults of the seed's old joint constraints, which differ from the
// current limit defaults (no stiffness = infinitely stiff, damping 0).
const (
	oldDamping = 1.0
)

func (d *decoder) readJointDoc() error {
	raw, ok, err := d.raw(d.doc.Extensions, physics.ExtOMIJoint, docJoint)
	if err != nil || !ok {
		return err
	}
	var jd jointDoc
	if err := jsonx.Unmarshal(raw, &jd, docJoint); err != nil {
		return err
	}
	for _, j := range jd.PhysicsJoints {
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
			nd := d.m.Node(i)
			if nd.Collider != nil {
				return physics.Errorf(p, "node has both a seed-form shape and a collider")
			}
			nd.Collider = &physics.Collider{Shape: *s.Shape, Material: -1, Filter: -1}
			d.warn(p, "seed form: node-level OMI_physics_shape read as an OMI_physics_body collider")
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
		nd := d.m.Node(i)
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
		if j.Joint == nil {
			return physics.Errorf(p+".joint", "missing joint index")
		}
		if j.ConnectedNode == nil {
			return physics.Errorf(p+".connectedNode", "missing connected node")
		}
		d.m.Node(i).Joint = &physics.Joint{Def: *j.Joint, ConnectedNode: *j.ConnectedNode, EnableCollision: j.EnableCollision != nil && *j.EnableCollision}
	}
	return nil
}

func idx(p *int) int {
	if p == nil || *p < 0 {
		return -1
	}
	return *p
}

func (d *decoder) readBody(i int, raw json.RawMessage, p string) error {
	var b bodyJSON
	if err := jsonx.Unmarshal(raw, &b, p); err != nil {
		return err
	}
	nd := d.m.Node(i)
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
		t := physics.MotionType(mo.Type)
		switch t {
		case physics.Static, physics.Kinematic, physics.Dynamic:
		case "":
			t = physics.Dynamic
			d.lossy(p+".motion.type", "motion without the required type read as dynamic")
		default:
			return physics.Errorf(p+".motion.type", "unknown motion type %q", mo.Type)
		}
		nd.Motion = &physics.Motion{
			Type: t, Mass: mo.Mass, CenterOfMass: mo.CenterOfMass, InertiaDiagonal: mo.InertiaDiagonal,
			InertiaOrientation: mo.InertiaOrientation, LinearVelocity: mo.LinearVelocity,
			AngularVelocity: mo.AngularVelocity, GravityFactor: mo.GravityFactor,
		}
	}
	if c := b.Collider; c != nil {
		if nd.Collider != nil {
			return physics.Errorf(p+".collider", "node has two colliders")
		}
		nd.Collider = &physics.Collider{Shape: idx(c.Shape), Material: idx(c.PhysicsMaterial), Filter: idx(c.CollisionFilter)}
	}
	if t := b.Trigger; t != nil {
		tr := &physics.Trigger{Shape: idx(t.Shape), Filter: idx(t.CollisionFilter)}
		if tr.Shape >= 0 && len(t.Nodes) > 0 {
			return physics.Errorf(p+".trigger", "a trigger has either a shape or nodes, not both")
		}
		if len(t.Nodes) > 0 {
			tr.Nodes = append([]int(nil), t.Nodes...)
		}
		if tr.Shape < 0 && len(tr.Nodes) == 0 {
			tr.Nodes = d.descendantTriggers(i)
			d.warn(p+".trigger", "empty trigger read as a compound trigger of its descendant trigger nodes %v", tr.Nodes)
			if len(tr.Nodes) == 0 {
				d.lossy(p+".trigger", "empty trigger without descendant triggers dropped")
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
		if k < 0 || k >= len(d.doc.Nodes) || d.doc.Nodes[k] == nil || depth > len(d.doc.Nodes) {
			return
		}
		for _, c := range d.doc.Nodes[k].Children {
			if c < 0 || c >= len(d.doc.Nodes) || d.doc.Nodes[c] == nil {
				continue
			}
			raw, ok, err := jsonx.Raw(d.doc.Nodes[c].Extensions, physics.ExtOMIBody)
			if ok && err == nil {
				var b bodyJSON
				if json.Unmarshal(raw, &b) == nil {
					if b.Motion != nil {
						continue
					}
					if b.Trigger != nil && idx(b.Trigger.Shape) >= 0 {
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
	nd := d.m.Node(i)
	d.oldTypes[i] = b.Type
	mo := &physics.Motion{Mass: b.Mass, LinearVelocity: b.LinearVelocity, AngularVelocity: b.AngularVelocity, CenterOfMass: b.CenterOfMass}
	switch b.Type {
	case "static":
		mo.Type = physics.Static
	case "kinematic":
		mo.Type = physics.Kinematic
	case "character":
		mo.Type = physics.Kinematic
		d.lossy(p+".type", "seed body type character read as kinematic")
	case "rigid":
		mo.Type = physics.Dynamic
	case "vehicle":
		mo.Type = physics.Dynamic
		d.lossy(p+".type", "seed body type vehicle read as dynamic")
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
		d.warn(p+".inertiaTensor", "seed inertiaTensor converted to inertiaDiagonal and inertiaOrientation")
	}
	nd.Motion = mo
	d.warn(p, "seed form of OMI_physics_body (type %q) migrated to motion", b.Type)
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
			if depth > len(d.doc.Nodes) {
				return
			}
			if nd := d.m.Nodes[k]; nd != nil && nd.Collider != nil && nd.Collider.Shape >= 0 && (k == bi || d.oldTypes[k] == "") {
				nd.Trigger = &physics.Trigger{Shape: nd.Collider.Shape, Filter: -1}
				nd.Collider = nil
				members = append(members, k)
			}
			for _, c := range d.doc.Nodes[k].Children {
				if c >= 0 && c < len(d.doc.Nodes) && d.doc.Nodes[c] != nil {
					if _, other := d.oldTypes[c]; other {
						continue
					}
					walk(c, depth+1)
				}
			}
		}
		walk(bi, 0)
		nd := d.m.Node(bi)
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
	m, doc := d.m, d.doc
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
