package omi

import (
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/qmuntal/gltf"
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
	e := &encoder{doc: doc, m: m}
	return wire.Encode("omi", doc, m, e.build, physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint, physics.ExtOMICollider)
}

type encoder struct {
	doc *gltf.Document
	m   *physics.Model
}

func (e *encoder) build(out *wire.Output) error {
	m := e.m
	if len(m.Shapes) > 0 {
		sd := wire.ShapeDoc[shapeJSON]{Shapes: make([]shapeJSON, len(m.Shapes))}
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
		out.SetDoc(physics.ExtOMIShape, raw)
	}
	if len(m.Materials) > 0 || len(m.Filters) > 0 {
		bd, err := wire.EncodeBodyDoc(m, docBody)
		if err != nil {
			return err
		}
		raw, err := jsonx.Marshal(bd)
		if err != nil {
			return err
		}
		out.SetDoc(physics.ExtOMIBody, raw)
	}
	if len(m.Joints) > 0 {
		joints, err := wire.EncodeJoints(m.Joints, docJoint)
		if err != nil {
			return err
		}
		raw, err := jsonx.Marshal(jointDoc{PhysicsJoints: joints})
		if err != nil {
			return err
		}
		out.SetDoc(physics.ExtOMIJoint, raw)
	}
	for _, ni := range m.NodeIndices() {
		n := m.Nodes[ni]
		if n == nil || (n.Motion == nil && n.Collider == nil && n.Trigger == nil && n.Joint == nil) {
			continue
		}
		np := fmt.Sprintf("nodes[%d]", ni)
		if ni < 0 || ni >= len(e.doc.Nodes) || e.doc.Nodes[ni] == nil {
			return physics.Errorf(np, "node index %d out of range (%d nodes)", ni, len(e.doc.Nodes))
		}
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
					if err := wire.Ref(p+".shape", c.Shape, len(m.Shapes), "shapes"); err != nil {
						return err
					}
					cj.Shape = jsonx.Ptr(c.Shape)
				}
				refs, err := wire.EncodeColliderRefs(c, p, len(m.Materials), len(m.Filters))
				if err != nil {
					return err
				}
				cj.ColliderRefs = refs
				b.Collider = cj
			}
			if t := n.Trigger; t != nil {
				tj := &triggerJSON{}
				p := bp + ".trigger"
				refs, err := wire.EncodeTrigger(t, p, "a shape", len(e.doc.Nodes), len(m.Filters), func() error {
					if err := wire.Ref(p+".shape", t.Shape, len(m.Shapes), "shapes"); err != nil {
						return err
					}
					tj.Shape = jsonx.Ptr(t.Shape)
					return nil
				})
				if err != nil {
					return err
				}
				tj.TriggerRefs = refs
				b.Trigger = tj
			}
			raw, err := jsonx.Marshal(b)
			if err != nil {
				return err
			}
			out.SetNode(ni, physics.ExtOMIBody, raw)
		}
		if j := n.Joint; j != nil {
			p := np + ".extensions." + physics.ExtOMIJoint
			enable, err := wire.CheckJoint(j, p, len(m.Joints), len(e.doc.Nodes))
			if err != nil {
				return err
			}
			raw, err := jsonx.Marshal(jointJSON{Joint: jsonx.Ptr(j.Def), ConnectedNode: jsonx.Ptr(j.ConnectedNode), EnableCollision: enable})
			if err != nil {
				return err
			}
			out.SetNode(ni, physics.ExtOMIJoint, raw)
		}
	}
	return nil
}

func encodeShape(s physics.Shape, p string, meshes int) (shapeJSON, error) {
	sh, ok, err := wire.EncodeShape(s, p)
	js := shapeJSON{Shape: sh, Meta: wire.MetaOf(s)}
	if ok {
		return js, err
	}
	switch s.Type {
	case physics.Convex, physics.Trimesh:
		sub := p + "." + string(s.Type) + ".mesh"
		if err := wire.Ref(sub, s.Mesh, meshes, "meshes"); err != nil {
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
	common, err := wire.EncodeMotion(mo, p, false)
	if err != nil {
		return nil, err
	}
	return &motionJSON{Type: string(mo.Type), Motion: common}, nil
}
