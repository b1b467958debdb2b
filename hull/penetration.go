package hull

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Penetration returns how deep the convex hulls of two point sets
// overlap: the length of the shortest translation that separates them
// (the distance from the origin to the boundary of their Minkowski
// difference A − B, when the origin lies inside it), or 0 when they are
// apart or only touch. It is exact up to the hull's plane tolerance; the
// cost is one hull of len(a)·len(b) points, so callers pass hull
// vertices, not raw meshes. A flat difference (two coplanar flat sets)
// has no inside and gives 0.
func Penetration(a, b []geom.Vec3) (float64, error) {
	if len(a) == 0 || len(b) == 0 {
		return 0, nil
	}
	ba, bb := geom.BoundsOf(a), geom.BoundsOf(b)
	// Parting the boxes along an axis parts the sets: that bounds the
	// depth from above.
	bound := math.Inf(1)
	for i := 0; i < 3; i++ {
		bound = min(bound, ba.Max[i]-bb.Min[i], bb.Max[i]-ba.Min[i])
	}
	if !(bound > 0) {
		return 0, nil
	}
	diff := make([]geom.Vec3, 0, len(a)*len(b))
	for _, p := range a {
		for _, q := range b {
			diff = append(diff, p.Sub(q))
		}
	}
	h, err := Build(diff, Options{MaxVertices: -1})
	if err != nil {
		return 0, err
	}
	if h.Degenerate != NotDegenerate {
		return 0, nil
	}
	depth := math.Inf(1)
	for _, t := range h.Triangles {
		v0, v1, v2 := h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]
		n := v1.Sub(v0).Cross(v2.Sub(v0))
		l := n.Len()
		if l == 0 {
			continue
		}
		// The outward plane n·x = d; the origin is d inside it.
		depth = min(depth, n.Dot(v0)/l)
	}
	if !(depth > 0) || math.IsInf(depth, 1) {
		return 0, nil
	}
	return min(depth, bound), nil
}
