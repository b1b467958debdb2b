// Package wire holds what the OMI and KHR codecs share. First, the JSON
// forms that OMI_physics_shape/body/joint and KHR_implicit_shapes/
// KHR_physics_rigid_bodies define alike — physics materials, collision
// filters, joint descriptions with their limits and drives, the box,
// sphere, capsule and cylinder parameters, the motion members, a
// collider's and a trigger's references — with their checked mapping to
// and from the physics model. Second, the steps both codecs take alike:
// Encode (build everything, then replace the extensions), Decode and Read
// (read extensions, collect warnings) and the per-member checks (Finite,
// Ref), whose errors carry the JSON path.
//
// Field order is output order. Where the families differ (shape defaults,
// the motion type, which negative values are refused, the order of a
// node joint's members) the difference is a parameter or stays in the
// family's own package.
package wire

import "encoding/json"

// Material is a document-level physics material.
type Material struct {
	Name               string   `json:"name,omitempty"`
	StaticFriction     *float64 `json:"staticFriction,omitempty"`
	DynamicFriction    *float64 `json:"dynamicFriction,omitempty"`
	Restitution        *float64 `json:"restitution,omitempty"`
	FrictionCombine    string   `json:"frictionCombine,omitempty"`
	RestitutionCombine string   `json:"restitutionCombine,omitempty"`
}

// Filter is a document-level collision filter.
type Filter struct {
	Name                  string    `json:"name,omitempty"`
	CollisionSystems      *[]string `json:"collisionSystems,omitempty"`
	CollideWithSystems    *[]string `json:"collideWithSystems,omitempty"`
	NotCollideWithSystems *[]string `json:"notCollideWithSystems,omitempty"`
}

// BodyDoc holds the document-level members of OMI_physics_body, which
// KHR_physics_rigid_bodies has too (followed there by physicsJoints).
type BodyDoc struct {
	PhysicsMaterials []Material `json:"physicsMaterials,omitempty"`
	CollisionFilters []Filter   `json:"collisionFilters,omitempty"`
}

// JointDef is a document-level joint description.
type JointDef struct {
	Name   string  `json:"name,omitempty"`
	Limits []Limit `json:"limits,omitempty"`
	Drives []Drive `json:"drives,omitempty"`
}

// Limit is one limit of a joint description.
type Limit struct {
	LinearAxes  *[]int   `json:"linearAxes,omitempty"`
	AngularAxes *[]int   `json:"angularAxes,omitempty"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Stiffness   *float64 `json:"stiffness,omitempty"`
	Damping     *float64 `json:"damping,omitempty"`
}

// Drive is one drive of a joint description.
type Drive struct {
	Type           string   `json:"type"`
	Mode           string   `json:"mode"`
	Axis           int      `json:"axis"`
	MaxForce       *float64 `json:"maxForce,omitempty"`
	PositionTarget *float64 `json:"positionTarget,omitempty"`
	VelocityTarget *float64 `json:"velocityTarget,omitempty"`
	Stiffness      *float64 `json:"stiffness,omitempty"`
	Damping        *float64 `json:"damping,omitempty"`
}

// ShapeDoc is the document-level shapes extension of a family whose shape
// is S.
type ShapeDoc[S any] struct {
	Shapes []S `json:"shapes"`
}

// Shape holds the leading members of a shape in both families: its type,
// name and the sub-objects of the shape types both define. A family's
// shape embeds it first, then its own types' sub-objects, then Meta.
type Shape struct {
	Type     string  `json:"type"`
	Name     string  `json:"name,omitempty"`
	Box      *Box    `json:"box,omitempty"`
	Sphere   *Sphere `json:"sphere,omitempty"`
	Capsule  *Round  `json:"capsule,omitempty"`
	Cylinder *Round  `json:"cylinder,omitempty"`
}

// Box is a box shape's parameters.
type Box struct {
	Size *[3]float64 `json:"size,omitempty"`
}

// Sphere is a sphere shape's parameters.
type Sphere struct {
	Radius *float64 `json:"radius,omitempty"`
}

// Round is a capsule's or a cylinder's parameters.
type Round struct {
	Height       *float64 `json:"height,omitempty"`
	RadiusBottom *float64 `json:"radiusBottom,omitempty"`
	RadiusTop    *float64 `json:"radiusTop,omitempty"`
}

// Meta holds the members every shape may carry besides its parameters.
// A family's shape embeds it last.
type Meta struct {
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	Extras     json.RawMessage            `json:"extras,omitempty"`
}

// Motion holds the motion members both families define. OMI's motion
// embeds it after its required "type"; KHR's after "isKinematic".
type Motion struct {
	Mass               *float64    `json:"mass,omitempty"`
	CenterOfMass       *[3]float64 `json:"centerOfMass,omitempty"`
	InertiaDiagonal    *[3]float64 `json:"inertiaDiagonal,omitempty"`
	InertiaOrientation *[4]float64 `json:"inertiaOrientation,omitempty"`
	LinearVelocity     *[3]float64 `json:"linearVelocity,omitempty"`
	AngularVelocity    *[3]float64 `json:"angularVelocity,omitempty"`
	GravityFactor      *float64    `json:"gravityFactor,omitempty"`
}

// TriggerRefs holds a trigger's members besides its shape: a compound's
// nodes, or the collision filter of a trigger with a shape. A family's
// trigger embeds it after its shape (OMI) or geometry (KHR).
type TriggerRefs struct {
	Nodes           []int `json:"nodes,omitempty"`
	CollisionFilter *int  `json:"collisionFilter,omitempty"`
}

// ColliderRefs holds a collider's references into the document-level
// materials and filters. A family's collider embeds it after its shape
// (OMI) or geometry (KHR).
type ColliderRefs struct {
	PhysicsMaterial *int `json:"physicsMaterial,omitempty"`
	CollisionFilter *int `json:"collisionFilter,omitempty"`
}
