package mesh

import (
	"errors"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// MaxPrecisionRatio bounds how far from the origin a mesh instance may
// lie relative to its own size: world coordinates are float64, so at
// 1e9 sizes away a coordinate still resolves 2e-7 of the size (what
// float32 resolves near the origin). Beyond it (a 2 m cube at 1e308 m)
// the arithmetic of world space keeps nothing of the mesh's shape.
const MaxPrecisionRatio = 1e9

// degenerateTolerance is the smallest |det| of a world transform's
// linear part, relative to the product of its column lengths, that is
// not a collapse to a plane or a line (a zero scale or a singular
// matrix).
const degenerateTolerance = 1e-12

// checkRotation refuses a rotation that is not finite or is zero, which
// Normalize would otherwise silently turn into no rotation.
func checkRotation(q geom.Quat) error {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	switch {
	case math.IsNaN(l) || math.IsInf(l, 0):
		return errors.New("rotation is not finite")
	case l < 1e-6:
		return errors.New("rotation is a zero quaternion")
	}
	return nil
}

// checkWorld refuses the world transform of a mesh instance that
// flattens it (a zero scale on the node or a parent, a singular matrix)
// or puts it so far from the origin, relative to its mesh-space size,
// that world coordinates lose its shape (see MaxPrecisionRatio). Its
// messages give the node's scale and distance, which the JSON holds, but
// not those of a GPU instance (inAccessor: its transform is read from an
// accessor) nor the mesh's size: values read from buffers, which may be
// any file's bytes, never appear in a message.
func checkWorld(w geom.Mat4, vertices []geom.Vec3, inAccessor bool) error {
	lin := w.Linear()
	prod, minScale := 1.0, math.Inf(1)
	for j := 0; j < 3; j++ {
		s := lin.Col(j).Len()
		prod *= s
		minScale = min(minScale, s)
	}
	if minScale == 0 || math.Abs(lin.Det()) <= degenerateTolerance*prod {
		if inAccessor {
			return errors.New("world transform is degenerate: it flattens the mesh")
		}
		return fmt.Errorf("world transform is degenerate (scale %.3g along one axis): it flattens the mesh", minScale)
	}
	ext := geom.BoundsOf(vertices).Size()
	size := max(ext[0], ext[1], ext[2]) * minScale
	t := w.Translation()
	dist := max(math.Abs(t[0]), math.Abs(t[1]), math.Abs(t[2]))
	if size > 0 && dist > size*MaxPrecisionRatio {
		if inAccessor {
			return fmt.Errorf("placed over %g times its size from the origin: world coordinates lose its shape", MaxPrecisionRatio)
		}
		return fmt.Errorf("placed %.3g m from the origin, over %g times its size: world coordinates lose its shape", dist, MaxPrecisionRatio)
	}
	return nil
}

// instanceName prefixes a GPU instance's messages (the node is named by
// the caller).
func instanceName(p Part) string {
	if p.Instance < 0 {
		return ""
	}
	return fmt.Sprintf("%s: instance %d: ", extInstancing, p.Instance)
}
