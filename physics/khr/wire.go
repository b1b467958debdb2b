package khr

import "encoding/json"

// JSON forms of the current KHR extensions (and, for reading, the 2025
// geometry.node and 2024 KHR_collision_shapes forms). Field order is
// output order.

type shapeDoc struct {
	Shapes []shapeJSON `json:"shapes"`
}

type shapeJSON struct {
	Type       string                     `json:"type"`
	Name       string                     `json:"name,omitempty"`
	Box        *boxJSON                   `json:"box,omitempty"`
	Sphere     *sphereJSON                `json:"sphere,omitempty"`
	Capsule    *roundJSON                 `json:"capsule,omitempty"`
	Cylinder   *roundJSON                 `json:"cylinder,omitempty"`
	Plane      *planeJSON                 `json:"plane,omitempty"`
	Mesh       *oldMeshJSON               `json:"mesh,omitempty"` // 2024 KHR_collision_shapes only
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

type planeJSON struct {
	SizeX       *float64 `json:"sizeX,omitempty"`
	SizeZ       *float64 `json:"sizeZ,omitempty"`
	DoubleSided *bool    `json:"doubleSided,omitempty"`
}

type oldMeshJSON struct {
	Mesh           *int      `json:"mesh,omitempty"`
	Skin           *int      `json:"skin,omitempty"`
	Weights        []float64 `json:"weights,omitempty"`
	UseNodeWeights *bool     `json:"useNodeWeights,omitempty"`
}

type bodyDoc struct {
	PhysicsMaterials []materialJSON `json:"physicsMaterials,omitempty"`
	CollisionFilters []filterJSON   `json:"collisionFilters,omitempty"`
	PhysicsJoints    []jointDefJSON `json:"physicsJoints,omitempty"`
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

type bodyJSON struct {
	Motion   *motionJSON   `json:"motion,omitempty"`
	Collider *colliderJSON `json:"collider,omitempty"`
	Trigger  *triggerJSON  `json:"trigger,omitempty"`
	Joint    *jointJSON    `json:"joint,omitempty"`
}

type motionJSON struct {
	IsKinematic        *bool       `json:"isKinematic,omitempty"`
	Mass               *float64    `json:"mass,omitempty"`
	CenterOfMass       *[3]float64 `json:"centerOfMass,omitempty"`
	InertiaDiagonal    *[3]float64 `json:"inertiaDiagonal,omitempty"`
	InertiaOrientation *[4]float64 `json:"inertiaOrientation,omitempty"`
	LinearVelocity     *[3]float64 `json:"linearVelocity,omitempty"`
	AngularVelocity    *[3]float64 `json:"angularVelocity,omitempty"`
	GravityFactor      *float64    `json:"gravityFactor,omitempty"`
}

type geometryJSON struct {
	Shape      *int  `json:"shape,omitempty"`
	Mesh       *int  `json:"mesh,omitempty"`
	Node       *int  `json:"node,omitempty"`
	ConvexHull *bool `json:"convexHull,omitempty"`
}

type colliderJSON struct {
	Geometry        *geometryJSON `json:"geometry,omitempty"`
	Shape           *int          `json:"shape,omitempty"` // 2024 form only
	PhysicsMaterial *int          `json:"physicsMaterial,omitempty"`
	CollisionFilter *int          `json:"collisionFilter,omitempty"`
}

type triggerJSON struct {
	Geometry        *geometryJSON `json:"geometry,omitempty"`
	Shape           *int          `json:"shape,omitempty"` // 2024 form only
	Nodes           []int         `json:"nodes,omitempty"`
	CollisionFilter *int          `json:"collisionFilter,omitempty"`
}

type jointJSON struct {
	ConnectedNode   *int  `json:"connectedNode,omitempty"`
	Joint           *int  `json:"joint,omitempty"`
	EnableCollision *bool `json:"enableCollision,omitempty"`
}
