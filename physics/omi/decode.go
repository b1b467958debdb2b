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
//   - the OMI_physics_body Stage 1 form (before the 2023 motion/collider/
//     trigger restructure) with a "type" enum (static, kinematic,
//     character, rigid, vehicle, trigger), inertiaTensor[9] and node-level
//     OMI_physics_shape {shape} on the collider nodes;
//   - the OMI_physics_joint Stage 1 form (document constraints, node
//     constraints/nodeA/nodeB) — see MigrateJoints, which Decode applies;
//   - a capsule or cylinder "radius" member (early OMI_physics_shape), an
//     empty "trigger": {} (a compound trigger of the descendant trigger
//     nodes) and a motion without "type".
//
// OMI_physics_gravity is not part of the model; Encode keeps it as is.
// Decode does not modify doc, except that the Stage 1 joint form, which
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
	// oldTypes holds the Stage 1 body type per node.
	oldTypes map[int]string
}

func (d *decoder) run() error {
	if err := d.readShapes(); err != nil {
		return err
	}
	if err := d.readLegacyColliders(); err != nil {
		return err
	}
	if err := d.readDocs(); err != nil {
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
	raw, ok, err := d.Raw(d.Doc.Extensions, physics.ExtOMIShape, docShapes)
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

// readDocs reads the document-level OMI_physics_body (materials and
// filters) and OMI_physics_joint (joint descriptions).
func (d *decoder) readDocs() error {
	bd, err := wire.Read[wire.BodyDoc](&d.Decoder, d.Doc.Extensions, physics.ExtOMIBody, docBody)
	if err != nil {
		return err
	}
	if bd != nil {
		bd.AppendTo(d.M)
	}
	jd, err := wire.Read[jointDoc](&d.Decoder, d.Doc.Extensions, physics.ExtOMIJoint, docJoint)
	if err != nil {
		return err
	}
	if jd != nil {
		wire.AppendJoints(d.M, jd.PhysicsJoints)
	}
	return nil
}

func (d *decoder) readNode(i int, n *gltf.Node) error {
	np := fmt.Sprintf("nodes[%d].extensions.", i)
	// Current or Stage 1 OMI_physics_body.
	if raw, ok, err := d.Raw(n.Extensions, physics.ExtOMIBody, np+physics.ExtOMIBody); err != nil {
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
	if err := d.readStage1Shape(i, n, np); err != nil {
		return err
	}
	if err := d.readColliderRef(i, n, np); err != nil {
		return err
	}
	if raw, ok, err := d.Raw(n.Extensions, physics.ExtOMIJoint, np+physics.ExtOMIJoint); err != nil {
		return err
	} else if ok {
		p := np + physics.ExtOMIJoint
		var j jointJSON
		if err := jsonx.Unmarshal(raw, &j, p); err != nil {
			return err
		}
		if j.Constraints != nil || j.NodeA != nil || j.NodeB != nil {
			return nil // Stage 1 form, handled by MigrateJoints
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
