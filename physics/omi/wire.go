package omi

import (
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/wire"
)

// JSON forms of the current OMI extensions; the members KHR defines alike
// are wire's. Field order is output order.

// JSON paths of the document-level extensions, for errors and warnings.
const (
	docShapes = "extensions." + physics.ExtOMIShape
	docBody   = "extensions." + physics.ExtOMIBody
	docJoint  = "extensions." + physics.ExtOMIJoint
)

type shapeJSON struct {
	wire.Shape
	Convex  *meshJSON `json:"convex,omitempty"`
	Trimesh *meshJSON `json:"trimesh,omitempty"`
	wire.Meta
}

type meshJSON struct {
	Mesh *int `json:"mesh,omitempty"`
}

type bodyJSON struct {
	Motion   *motionJSON   `json:"motion,omitempty"`
	Collider *colliderJSON `json:"collider,omitempty"`
	Trigger  *triggerJSON  `json:"trigger,omitempty"`
}

type motionJSON struct {
	Type string `json:"type"`
	wire.Motion
}

type colliderJSON struct {
	Shape *int `json:"shape,omitempty"`
	wire.ColliderRefs
}

type triggerJSON struct {
	Shape *int `json:"shape,omitempty"`
	wire.TriggerRefs
}

type jointDoc struct {
	PhysicsJoints []wire.JointDef `json:"physicsJoints,omitempty"`
	// Constraints is the document-level form of the OMI_physics_joint
	// Stage 1 proposal (read only).
	Constraints []oldConstraintJSON `json:"constraints,omitempty"`
}

// jointJSON is a node's OMI_physics_joint. Unlike KHR's joint, joint comes
// before connectedNode.
type jointJSON struct {
	Joint           *int  `json:"joint,omitempty"`
	ConnectedNode   *int  `json:"connectedNode,omitempty"`
	EnableCollision *bool `json:"enableCollision,omitempty"`
	// The node-level form of the OMI_physics_joint Stage 1 proposal (read
	// only).
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
