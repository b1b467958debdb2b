// Package inspect describes the physics a glTF file carries, for people
// and scripts (autocollide inspect): per rigid body its node, motion,
// mass, centre of mass, inertia and velocities, its colliders and
// triggers by shape type and size (hulls with their vertex counts), and
// the file's joints, physics materials and collision filters, with the
// extension family and revision they are written in.
//
// It reads through the physics decoders (physics/convert, which picks
// physics/omi or physics/khr), so any revision they read — the archived
// OMI_collider, the OMI Stage 1 proposals (OMI_physics_body's `type` enum,
// replaced by `motion` in 2023; OMI_physics_joint's constraints with
// nodeA/nodeB), the 2024 KHR_collision_shapes, the 2025 KHR geometry.node
// form — is described in the one current model.
// The JSON form follows inspect.schema.json (Schema).
package inspect

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

// Schema is the JSON Schema (draft 2020-12) of File's JSON form.
//
//go:embed inspect.schema.json
var Schema []byte

// File is what one glTF file carries.
type File struct {
	Path string `json:"file"`
	// Family is "omi", "khr" or "none"; Revision says which form of it
	// (see revision), and Extensions lists the physics extensions the
	// document uses.
	Family     string   `json:"family"`
	Revision   string   `json:"revision"`
	Extensions []string `json:"extensions"`
	// Generated is true when autocollide generated (some of) the
	// physics; Fingerprint is then what it recorded (see batch).
	Generated   bool    `json:"generated"`
	Fingerprint any     `json:"fingerprint,omitempty"`
	Summary     Summary `json:"summary"`
	Bodies      []Body  `json:"bodies"`
	// Unattached lists the colliders and triggers on no body (static
	// geometry for most engines).
	Unattached Attached `json:"unattached"`
	Joints     []Joint  `json:"joints"`
	// Ragdolls are the armatures whose bones carry jointed bodies.
	Ragdolls []Ragdoll `json:"ragdolls"`
	// Budgets are the mesh instances' collider budgets autocollide
	// recorded, and what each kept.
	Budgets   []Budget   `json:"budgets"`
	Materials []Material `json:"materials"`
	Filters   []Filter   `json:"filters"`
	// Warnings are the decoders' notes on older or questionable forms.
	Warnings []string `json:"warnings"`
}

// Summary counts what the file carries.
type Summary struct {
	Bodies       int            `json:"bodies"`
	Colliders    map[string]int `json:"colliders"`
	Triggers     int            `json:"triggers"`
	Joints       int            `json:"joints"`
	HullVertices int            `json:"hullVertices"`
}

// Body is a node with a motion, and the colliders and triggers on it
// and on its descendants that have no motion of their own.
type Body struct {
	Node               int         `json:"node"`
	Name               string      `json:"name"`
	Motion             string      `json:"motion"`
	Mass               *float64    `json:"mass"`
	CenterOfMass       *[3]float64 `json:"centerOfMass"`
	InertiaDiagonal    *[3]float64 `json:"inertiaDiagonal"`
	InertiaOrientation *[4]float64 `json:"inertiaOrientation"`
	LinearVelocity     *[3]float64 `json:"linearVelocity"`
	AngularVelocity    *[3]float64 `json:"angularVelocity"`
	GravityFactor      *float64    `json:"gravityFactor"`
	Attached
}

// Attached is the colliders and triggers of a body (or of none).
type Attached struct {
	Colliders []Collider `json:"colliders"`
	Triggers  []Trigger  `json:"triggers"`
}

// Shape is a collision shape's type and size, in the shape's own space
// (metres). Only the members of its type are set.
type Shape struct {
	Index        int         `json:"shape"`
	Type         string      `json:"type"`
	Name         string      `json:"name,omitempty"`
	Size         *[3]float64 `json:"size,omitempty"`
	Radius       *float64    `json:"radius,omitempty"`
	Height       *float64    `json:"height,omitempty"`
	RadiusTop    *float64    `json:"radiusTop,omitempty"`
	RadiusBottom *float64    `json:"radiusBottom,omitempty"`
	// Mesh, Vertices and Triangles describe a convex or trimesh shape's
	// glTF mesh.
	Mesh      *int `json:"mesh,omitempty"`
	Vertices  *int `json:"vertices,omitempty"`
	Triangles *int `json:"triangles,omitempty"`
	// PlaneSize and DoubleSided describe a KHR plane (0: unbounded).
	PlaneSize   *[2]float64 `json:"planeSize,omitempty"`
	DoubleSided *bool       `json:"doubleSided,omitempty"`
}

// Collider is a solid collider on a node.
type Collider struct {
	Node int    `json:"node"`
	Name string `json:"name"`
	// Shape is absent for an OMI compound collider parent.
	Shape *Shape `json:"shape"`
	// Material and Filter index Materials and Filters; -1 is the default.
	Material int `json:"material"`
	Filter   int `json:"filter"`
}

// Trigger is a trigger volume on a node: a shape, or a compound of
// descendant trigger nodes.
type Trigger struct {
	Node   int    `json:"node"`
	Name   string `json:"name"`
	Shape  *Shape `json:"shape"`
	Nodes  []int  `json:"nodes"`
	Filter int    `json:"filter"`
}

// Joint connects its node to another under a joint definition.
type Joint struct {
	Node            int     `json:"node"`
	Name            string  `json:"name"`
	ConnectedNode   int     `json:"connectedNode"`
	EnableCollision bool    `json:"enableCollision"`
	Def             int     `json:"def"`
	DefName         string  `json:"defName"`
	Limits          []Limit `json:"limits"`
	Drives          []Drive `json:"drives"`
}

// Limit is a joint limit.
type Limit struct {
	LinearAxes  []int    `json:"linearAxes"`
	AngularAxes []int    `json:"angularAxes"`
	Min         *float64 `json:"min"`
	Max         *float64 `json:"max"`
	Stiffness   *float64 `json:"stiffness"`
	Damping     *float64 `json:"damping"`
}

// Drive is a joint drive.
type Drive struct {
	Type           string   `json:"type"`
	Mode           string   `json:"mode"`
	Axis           int      `json:"axis"`
	MaxForce       *float64 `json:"maxForce"`
	PositionTarget *float64 `json:"positionTarget"`
	VelocityTarget *float64 `json:"velocityTarget"`
	Stiffness      *float64 `json:"stiffness"`
	Damping        *float64 `json:"damping"`
}

// Material is a physics material.
type Material struct {
	Index              int      `json:"index"`
	Name               string   `json:"name"`
	StaticFriction     *float64 `json:"staticFriction"`
	DynamicFriction    *float64 `json:"dynamicFriction"`
	Restitution        *float64 `json:"restitution"`
	FrictionCombine    string   `json:"frictionCombine"`
	RestitutionCombine string   `json:"restitutionCombine"`
}

// Filter is a collision filter.
type Filter struct {
	Index                 int      `json:"index"`
	Name                  string   `json:"name"`
	CollisionSystems      []string `json:"collisionSystems"`
	CollideWithSystems    []string `json:"collideWithSystems"`
	NotCollideWithSystems []string `json:"notCollideWithSystems"`
}

// Describe reads the physics of a file loaded with gltfio.LoadRaw (an
// autocollide output keeps what it generated).
func Describe(a *gltfio.Asset) (*File, error) {
	doc := a.Doc
	m, fam, warns, err := codecs.Decode(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Path, err)
	}
	f := &File{
		Path: a.Path, Family: string(fam), Revision: revision(a, fam), Extensions: physicsExtensions(doc),
		Generated: a.HasGenerated(),
		Summary:   Summary{Colliders: map[string]int{}},
		Bodies:    []Body{}, Unattached: Attached{Colliders: []Collider{}, Triggers: []Trigger{}},
		Joints: []Joint{}, Materials: []Material{}, Filters: []Filter{}, Warnings: []string{},
	}
	if fam == physics.None {
		f.Family = "none"
	}
	if v, ok := a.GeneratedExtra(gltfio.FingerprintKey); ok {
		f.Fingerprint = v
	}
	for _, w := range warns {
		f.Warnings = append(f.Warnings, w.Path+": "+w.Message)
	}
	name := func(i int) string {
		if i >= 0 && i < len(doc.Nodes) && doc.Nodes[i] != nil {
			return doc.Nodes[i].Name
		}
		return ""
	}
	nodes := m.NodeIndices()
	parent := physics.Parents(doc)
	bodyOf := owningBodies(m, parent)
	at := map[int]int{} // body node → index in f.Bodies
	for _, i := range nodes {
		mo := m.Nodes[i].Motion
		if mo == nil {
			continue
		}
		at[i] = len(f.Bodies)
		f.Bodies = append(f.Bodies, Body{
			Node: i, Name: name(i), Motion: string(mo.Type), Mass: mo.Mass, CenterOfMass: mo.CenterOfMass,
			InertiaDiagonal: mo.InertiaDiagonal, InertiaOrientation: mo.InertiaOrientation,
			LinearVelocity: mo.LinearVelocity, AngularVelocity: mo.AngularVelocity, GravityFactor: mo.GravityFactor,
			Attached: Attached{Colliders: []Collider{}, Triggers: []Trigger{}},
		})
	}
	hullVerts := map[int]bool{}
	for _, i := range nodes {
		n := m.Nodes[i]
		target := &f.Unattached
		if b, ok := bodyOf[i]; ok {
			target = &f.Bodies[at[b]].Attached
		}
		if c := n.Collider; c != nil {
			col := Collider{Node: i, Name: name(i), Shape: shape(doc, m, c.Shape), Material: c.Material, Filter: c.Filter}
			target.Colliders = append(target.Colliders, col)
			if col.Shape != nil {
				f.Summary.Colliders[col.Shape.Type]++
				if col.Shape.Type == string(physics.Convex) && col.Shape.Vertices != nil && !hullVerts[c.Shape] {
					hullVerts[c.Shape] = true
					f.Summary.HullVertices += *col.Shape.Vertices
				}
			} else {
				f.Summary.Colliders["compound"]++
			}
		}
		if t := n.Trigger; t != nil {
			target.Triggers = append(target.Triggers, Trigger{Node: i, Name: name(i), Shape: shape(doc, m, t.Shape), Nodes: orEmpty(t.Nodes), Filter: t.Filter})
			f.Summary.Triggers++
		}
		if j := n.Joint; j != nil {
			jo := Joint{Node: i, Name: name(i), ConnectedNode: j.ConnectedNode, EnableCollision: j.EnableCollision, Def: j.Def, Limits: []Limit{}, Drives: []Drive{}}
			if j.Def >= 0 && j.Def < len(m.Joints) {
				d := m.Joints[j.Def]
				jo.DefName = d.Name
				for _, l := range d.Limits {
					jo.Limits = append(jo.Limits, Limit{LinearAxes: orEmpty(l.LinearAxes), AngularAxes: orEmpty(l.AngularAxes), Min: l.Min, Max: l.Max, Stiffness: l.Stiffness, Damping: l.Damping})
				}
				for _, d := range d.Drives {
					jo.Drives = append(jo.Drives, Drive{Type: d.Type, Mode: d.Mode, Axis: d.Axis, MaxForce: d.MaxForce, PositionTarget: d.PositionTarget, VelocityTarget: d.VelocityTarget, Stiffness: d.Stiffness, Damping: d.Damping})
				}
			}
			f.Joints = append(f.Joints, jo)
		}
	}
	f.Summary.Bodies, f.Summary.Joints = len(f.Bodies), len(f.Joints)
	f.Ragdolls = ragdolls(doc, f, parent)
	var bwarns []string
	f.Budgets, bwarns = budgets(a, m)
	f.Warnings = append(f.Warnings, bwarns...)
	for i, mat := range m.Materials {
		f.Materials = append(f.Materials, Material{Index: i, Name: mat.Name, StaticFriction: mat.StaticFriction, DynamicFriction: mat.DynamicFriction,
			Restitution: mat.Restitution, FrictionCombine: mat.FrictionCombine, RestitutionCombine: mat.RestitutionCombine})
	}
	for i, fl := range m.Filters {
		f.Filters = append(f.Filters, Filter{Index: i, Name: fl.Name, CollisionSystems: orEmpty(fl.CollisionSystems),
			CollideWithSystems: orEmpty(fl.CollideWithSystems), NotCollideWithSystems: orEmpty(fl.NotCollideWithSystems)})
	}
	return f, nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// owningBodies maps each node carrying physics to the nearest node with
// a motion among itself and its ancestors, when there is one.
func owningBodies(m *physics.Model, parent []int) map[int]int {
	out := map[int]int{}
	for i := range m.Nodes {
		for p, steps := i, 0; p >= 0 && p < len(parent) && steps <= len(parent); p, steps = parent[p], steps+1 {
			if n := m.Nodes[p]; n != nil && n.Motion != nil {
				out[i] = p
				break
			}
		}
	}
	return out
}

// shape describes model shape s (nil for -1 or out of range).
func shape(doc *gltf.Document, m *physics.Model, s int) *Shape {
	if s < 0 || s >= len(m.Shapes) {
		return nil
	}
	sh := m.Shapes[s]
	out := &Shape{Index: s, Type: string(sh.Type), Name: sh.Name}
	f := func(v float64) *float64 { return &v }
	switch sh.Type {
	case physics.Box:
		size := sh.Size
		out.Size = &size
	case physics.Sphere:
		out.Radius = f(sh.Radius)
	case physics.Capsule, physics.Cylinder:
		out.Height, out.RadiusTop, out.RadiusBottom = f(sh.Height), f(sh.RadiusTop), f(sh.RadiusBottom)
	case physics.Plane:
		out.PlaneSize = &[2]float64{sh.PlaneSizeX, sh.PlaneSizeZ}
		ds := sh.DoubleSided
		out.DoubleSided = &ds
	case physics.Convex, physics.Trimesh:
		mesh := sh.Mesh
		out.Mesh = &mesh
		if mesh >= 0 && mesh < len(doc.Meshes) && doc.Meshes[mesh] != nil {
			v, t := meshCounts(doc, doc.Meshes[mesh])
			out.Vertices, out.Triangles = &v, &t
		}
	}
	return out
}

// meshCounts returns a mesh's declared vertices (POSITION counts) and
// triangles (of its triangle primitives).
func meshCounts(doc *gltf.Document, mesh *gltf.Mesh) (verts, tris int) {
	count := func(i int) int {
		if i >= 0 && i < len(doc.Accessors) && doc.Accessors[i] != nil {
			return int(doc.Accessors[i].Count)
		}
		return 0
	}
	for _, p := range mesh.Primitives {
		pos, ok := p.Attributes[gltf.POSITION]
		if !ok {
			continue
		}
		v := count(pos)
		verts += v
		n := v
		if p.Indices != nil {
			n = count(*p.Indices)
		}
		switch p.Mode {
		case gltf.PrimitiveTriangles:
			tris += n / 3
		case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
			tris += max(n-2, 0)
		}
	}
	return verts, tris
}

// physicsExtensions lists the physics extensions the document uses.
func physicsExtensions(doc *gltf.Document) []string {
	out := []string{}
	for _, e := range codecs.Extensions() {
		if slices.Contains(doc.ExtensionsUsed, e) {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// revision names the form of the family the file is written in, from
// the raw JSON: for OMI "current", "Stage 1 (...)" (the Stage 1
// proposals: OMI_physics_body with a `type` enum, OMI_physics_joint with
// nodeA/nodeB) or "OMI_collider (archived)"; for KHR "current"
// (collider geometry.mesh or shape), "2025 (geometry.node)" or "2024
// (KHR_collision_shapes)".
func revision(a *gltfio.Asset, fam physics.Family) string {
	used := func(e string) bool {
		return slices.Contains(a.Doc.ExtensionsUsed, e) || a.Tree.Obj("extensions").Obj(e) != nil
	}
	nodeExt := func(e string, test func(*gltfio.Object) bool) bool {
		for _, n := range a.Tree.Arr("nodes") {
			o, _ := n.(*gltfio.Object)
			if x := o.Obj("extensions").Obj(e); x != nil && test(x) {
				return true
			}
		}
		return false
	}
	switch fam {
	case physics.OMI:
		switch {
		case used(physics.ExtOMICollider) || nodeExt(physics.ExtOMICollider, func(*gltfio.Object) bool { return true }):
			return "OMI_collider (archived)"
		case nodeExt(physics.ExtOMIBody, func(x *gltfio.Object) bool { _, ok := x.Get("type"); return ok }):
			return "Stage 1 (OMI_physics_body type)"
		case nodeExt(physics.ExtOMIJoint, func(x *gltfio.Object) bool { _, ok := x.Get("nodeA"); return ok }):
			return "Stage 1 (OMI_physics_joint nodeA/nodeB)"
		}
		return "current"
	case physics.KHR:
		geomNode := func(x *gltfio.Object) bool {
			for _, k := range []string{"collider", "trigger"} {
				if _, ok := x.Obj(k).Obj("geometry").Get("node"); ok {
					return true
				}
			}
			return false
		}
		switch {
		case used(physics.ExtKHRCollisionShapes):
			return "2024 (KHR_collision_shapes)"
		case nodeExt(physics.ExtKHRBodies, geomNode):
			return "2025 (geometry.node)"
		}
		return "current"
	}
	return ""
}
