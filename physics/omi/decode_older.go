package omi

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/qmuntal/gltf"
)

// Decode's reading of the older forms: the archived OMI_collider and the
// OMI_physics_body and OMI_physics_joint Stage 1 forms of 2023 (a body
// "type" enum, node-level OMI_physics_shape; joints: see MigrateJoints in
// legacy.go).

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
	raw, ok, err := d.Raw(d.Doc.Extensions, physics.ExtOMICollider, p)
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
			// A capsule no taller than its diameter is a sphere (engines
			// clamp the height to it); both current forms forbid height 0.
			h := wire.Or(c.Height, legacyHeight)
			s.Type, s.RadiusTop, s.RadiusBottom, s.Height = physics.Capsule, r, r, h-2*r
			if s.Height <= 0 {
				s = physics.Shape{Type: physics.Sphere, Radius: r}
				if h < 2*r {
					d.Lossy(cp+".height", "legacy capsule full height %g is below its diameter %g: read as a sphere of radius %g", h, 2*r, r)
				}
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

// readColliderRef reads node i's OMI_collider {collider}: a collider, or
// a trigger for an isTrigger collider.
func (d *decoder) readColliderRef(i int, n *gltf.Node, np string) error {
	raw, ok, err := d.Raw(n.Extensions, physics.ExtOMICollider, np+physics.ExtOMICollider)
	if err != nil || !ok {
		return err
	}
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
	return nil
}

// Defaults of the OMI_physics_joint Stage 1 constraints, which differ from
// the current limit defaults (no stiffness = infinitely stiff, damping 0).
const (
	oldDamping = 1.0
)

// oldBody is the node-level OMI_physics_body of the Stage 1 form.
type oldBody struct {
	Type            string      `json:"type"`
	Mass            *float64    `json:"mass"`
	LinearVelocity  *[3]float64 `json:"linearVelocity"`
	AngularVelocity *[3]float64 `json:"angularVelocity"`
	CenterOfMass    *[3]float64 `json:"centerOfMass"`
	InertiaTensor   *[9]float64 `json:"inertiaTensor"`
}

// readStage1Shape reads node i's OMI_physics_shape {shape} of the
// OMI_physics_body Stage 1 form: a collider (or, under a Stage 1 trigger
// body, a trigger, see resolveOldBodies).
func (d *decoder) readStage1Shape(i int, n *gltf.Node, np string) error {
	raw, ok, err := d.Raw(n.Extensions, physics.ExtOMIShape, np+physics.ExtOMIShape)
	if err != nil || !ok {
		return err
	}
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
			return physics.Errorf(p, "node has both a Stage 1 node-level shape and a collider")
		}
		nd.Collider = &physics.Collider{Shape: *s.Shape, Material: -1, Filter: -1}
		d.Warn(p, "OMI_physics_body Stage 1 form: node-level OMI_physics_shape read as an OMI_physics_body collider")
	}
	return nil
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
		d.Lossy(p+".type", "Stage 1 body type character read as kinematic")
	case "rigid":
		mo.Type = physics.Dynamic
	case "vehicle":
		mo.Type = physics.Dynamic
		d.Lossy(p+".type", "Stage 1 body type vehicle read as dynamic")
	case "trigger":
		mo = nil // its shapes become triggers in resolveOldBodies
	default:
		return physics.Errorf(p+".type", "unknown Stage 1 body type %q", b.Type)
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
		d.Warn(p+".inertiaTensor", "Stage 1 inertiaTensor converted to inertiaDiagonal and inertiaOrientation")
	}
	nd.Motion = mo
	d.Warn(p, "OMI_physics_body Stage 1 form (type %q) migrated to motion", b.Type)
	return nil
}

// resolveOldBodies turns the Stage 1 shape nodes under a Stage 1 trigger
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
