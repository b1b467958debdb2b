package physics

import "math"

// The sizes a collider may have, in metres. Below MinShapeSize a shape
// is far under any engine's collision tolerance (millimetres) and its
// mass under a nanogram: such a size is a unit or data error (a cube of
// denormal floats). Above MaxShapeSize (10,000 km) the inertia of a solid
// steel body no longer fits in a float32, which is what engines store.
// Generate refuses mesh instances outside this range and validate warns
// about shapes outside it.
const (
	MinShapeSize = 1e-6
	MaxShapeSize = 1e7
)

// MaxFloat32 is the largest value an engine reading float32 can hold;
// masses and inertia above it become infinite.
const MaxFloat32 = math.MaxFloat32
