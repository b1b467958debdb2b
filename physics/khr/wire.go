package khr

import "github.com/autocollide/autocollide/physics/internal/wire"

// JSON forms of the current KHR extensions (and, for reading, the 2025
// geometry.node and 2024 KHR_collision_shapes forms); the members OMI
// defines alike are wire's. Field order is output order.

type shapeJSON struct {
	wire.Shape
	Plane *planeJSON   `json:"plane,omitempty"`
	Mesh  *oldMeshJSON `json:"mesh,omitempty"` // 2024 KHR_collision_shapes only
	wire.Meta
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

// bodyDoc is the document-level KHR_physics_rigid_bodies: OMI_physics_body's
// members, then the joint descriptions (which OMI keeps in
// OMI_physics_joint).
type bodyDoc struct {
	wire.BodyDoc
	PhysicsJoints []wire.JointDef `json:"physicsJoints,omitempty"`
}

type bodyJSON struct {
	Motion   *motionJSON   `json:"motion,omitempty"`
	Collider *colliderJSON `json:"collider,omitempty"`
	Trigger  *triggerJSON  `json:"trigger,omitempty"`
	Joint    *jointJSON    `json:"joint,omitempty"`
}

// motionJSON has no motion type: no motion is static, isKinematic marks
// a kinematic one.
type motionJSON struct {
	IsKinematic *bool `json:"isKinematic,omitempty"`
	wire.Motion
}

type geometryJSON struct {
	Shape      *int  `json:"shape,omitempty"`
	Mesh       *int  `json:"mesh,omitempty"`
	Node       *int  `json:"node,omitempty"`
	ConvexHull *bool `json:"convexHull,omitempty"`
}

type colliderJSON struct {
	Geometry *geometryJSON `json:"geometry,omitempty"`
	Shape    *int          `json:"shape,omitempty"` // 2024 form only
	wire.ColliderRefs
}

type triggerJSON struct {
	Geometry *geometryJSON `json:"geometry,omitempty"`
	Shape    *int          `json:"shape,omitempty"` // 2024 form only
	wire.TriggerRefs
}

// jointJSON is a node's joint. Unlike OMI_physics_joint, connectedNode
// comes before joint.
type jointJSON struct {
	ConnectedNode   *int  `json:"connectedNode,omitempty"`
	Joint           *int  `json:"joint,omitempty"`
	EnableCollision *bool `json:"enableCollision,omitempty"`
}
