package omi

import "encoding/json"

// JSON forms of the current OMI extensions. Field order is output order.

type shapeDoc struct {
	Shapes     []shapeJSON                `json:"shapes"`
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	Extras     json.RawMessage            `json:"extras,omitempty"`
}

type shapeJSON struct {
	Type       string                     `json:"type"`
	Name       string                     `json:"name,omitempty"`
	Box        *boxJSON                   `json:"box,omitempty"`
	Sphere     *sphereJSON                `json:"sphere,omitempty"`
	Capsule    *roundJSON                 `json:"capsule,omitempty"`
	Cylinder   *roundJSON                 `json:"cylinder,omitempty"`
	Convex     *meshJSON                  `json:"convex,omitempty"`
	Trimesh    *meshJSON                  `json:"trimesh,omitempty"`
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	Extras     json.RawMessage            `json:"extras,omitempty"`
}

type boxJSON struct {
	Size *[3]float64 `json:"size,omitempty"`
}

type sphereJSON struct {
	Radius *float64 `json:"radius,omitempty"`
}

type roundJSON struct {
	Height       *float64 `json:"height,omitempty"`
	RadiusBottom *float64 `json:"radiusBottom,omitempty"`
	RadiusTop    *float64 `json:"radiusTop,omitempty"`
}

type meshJSON struct {
	Mesh *int `json:"mesh,omitempty"`
}

type bodyDoc struct {
	PhysicsMaterials []materialJSON `json:"physicsMaterials,omitempty"`
	CollisionFilters []filterJSON   `json:"collisionFilters,omitempty"`
}

type materialJSON struct {
	Name               string   `json:"name,omitempty"`
	StaticFriction     *float64 `json:"staticFriction,omitempty"`
	DynamicFriction    *float64 `json:"dynamicFriction,omitempty"`
	Restitution        *float64 `json:"restitution,omitempty"`
	FrictionCombine    string   `json:"frictionCombine,omitempty"`
	RestitutionCombine string   `json:"restitutionCombine,omitempty"`
}

type filterJSON struct {
	Name                  string    `json:"name,omitempty"`
	CollisionSystems      *[]string `json:"collisionSystems,omitempty"`
	CollideWithSystems    *[]string `json:"collideWithSystems,omitempty"`
	NotCollideWithSystems *[]string `json:"notCollideWithSystems,omitempty"`
}

type bodyJSON struct {
	Motion   *motionJSON   `json:"motion,omitempty"`
	Collider *colliderJSON `json:"collider,omitempty"`
	Trigger  *triggerJSON  `json:"trigger,omitempty"`
}

type motionJSON struct {
	Type               string      `json:"type"`
	Mass               *float64    `json:"mass,omitempty"`
	CenterOfMass       *[3]float64 `json:"centerOfMass,omitempty"`
	InertiaDiagonal    *[3]float64 `json:"inertiaDiagonal,omitempty"`
	InertiaOrientation *[4]float64 `json:"inertiaOrientation,omitempty"`
	LinearVelocity     *[3]float64 `json:"linearVelocity,omitempty"`
	AngularVelocity    *[3]float64 `json:"angularVelocity,omitempty"`
	GravityFactor      *float64    `json:"gravityFactor,omitempty"`
}

type colliderJSON struct {
	Shape           *int `json:"shape,omitempty"`
	PhysicsMaterial *int `json:"physicsMaterial,omitempty"`
	CollisionFilter *int `json:"collisionFilter,omitempty"`
}

type triggerJSON struct {
	Shape           *int  `json:"shape,omitempty"`
	Nodes           []int `json:"nodes,omitempty"`
	CollisionFilter *int  `json:"collisionFilter,omitempty"`
}

type jointDoc struct {
	PhysicsJoints []jointDefJSON `json:"physicsJoints,omitempty"`
	// Constraints is the seed's old document-level form (read only).
	Constraints []oldConstraintJSON `json:"constraints,omitempty"`
}

type jointDefJSON struct {
	Name   string      `json:"name,omitempty"`
	Limits []limitJSON `json:"limits,omitempty"`
	Drives []driveJSON `json:"drives,omitempty"`
}

type limitJSON struct {
	LinearAxes  *[]int   `json:"linearAxes,omitempty"`
	AngularAxes *[]int   `json:"angularAxes,omitempty"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Stiffness   *float64 `json:"stiffness,omitempty"`
	Damping     *float64 `json:"damping,omitempty"`
}

type driveJSON struct {
	Type           string   `json:"type"`
	Mode           string   `json:"mode"`
	Axis           int      `json:"axis"`
	MaxForce       *float64 `json:"maxForce,omitempty"`
	PositionTarget *float64 `json:"positionTarget,omitempty"`
	VelocityTarget *float64 `json:"velocityTarget,omitempty"`
	Stiffness      *float64 `json:"stiffness,omitempty"`
	Damping        *float64 `json:"damping,omitempty"`
}

type jointJSON struct {
	Joint           *int  `json:"joint,omitempty"`
	ConnectedNode   *int  `json:"connectedNode,omitempty"`
	EnableCollision *bool `json:"enableCollision,omitempty"`
	// The seed's old node-level form (read only).
	Constraints []int `json:"constraints,omitempty"`
	NodeA       *int  `json:"nodeA,omitempty"`
	NodeB       *int  `json:"nodeB,omitempty"`
}

type oldConstraintJSON struct {
	LinearAxes  []int    `json:"linearAxes,omitempty"`
	AngularAxes []int    `json:"angularAxes,omitempty"`
	LowerLimit  *float64 `json:"lowerLimit,omitempty"`
	UpperLimit  *float64 `json:"upperLimit,omitempty"`
	Stiffness   *float64 `json:"stiffness,omitempty"`
	Damping     *float64 `json:"damping,omitempty"`
}
