package omi

import "github.com/autocollide/autocollide/physics/internal/wire"

// The defaults of OMI_physics_shape (and OMI_physics_body's mass),
// written explicitly by Encode and assumed by Decode when a member is
// missing. They differ from KHR's.
const (
	DefaultBoxSize        = 1.0
	DefaultSphereRadius   = 0.5
	DefaultCapsuleHeight  = 1.0
	DefaultCylinderHeight = 2.0
	DefaultRoundRadius    = 0.5
	DefaultMass           = 1.0
)

// defaults are the shape defaults as wire takes them.
var defaults = wire.Defaults{
	BoxSize: DefaultBoxSize, SphereRadius: DefaultSphereRadius,
	CapsuleHeight: DefaultCapsuleHeight, CylinderHeight: DefaultCylinderHeight, RoundRadius: DefaultRoundRadius,
}
