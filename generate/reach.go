package generate

import (
	"math"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/physics"
)

// A decomposition's hull strays from the mesh by at most the concavity
// threshold; a primitive put in a part's place may overshoot the part's
// hull by 15 % of its volume, which on a large part is room enough to
// stick out by several thresholds in one place (a box over a truck's
// sloped hood, over the mouth of a cup's wall): gap, or an opening
// bridged, that the decomposition's search paid a hull to avoid. So a
// part's primitive may also reach at most one threshold past the part's
// hull (primitiveReach).

// reachSamples is how many azimuths (and twice as many polar steps) a
// round primitive's surface is sampled at: the sampled reach is within
// r·(1−cos(π/reachSamples)) of the exact one, 0.5 % of the radius.
const reachSamples = 32

// concavityReach is the concavity threshold of a decomposition of
// vertices under opt, in their units: max(Concavity·diagonal,
// AbsConcavity), as decompose sets it.
func concavityReach(vertices []geom.Vec3, opt ColliderSettings) float64 {
	rel := opt.Concavity
	if rel <= 0 {
		rel = decompose.DefaultConcavity
	}
	return math.Max(rel*geom.BoundsOf(vertices).Diagonal(), opt.AbsConcavity)
}

// primitiveReach returns how far the primitive collider c reaches past the
// convex hull h: the largest distance from a point of c to h. Distance to
// a convex set is convex, so it is largest at an extreme point of c: a
// box's corners, a cylinder's rims, a capsule's caps, a sphere's surface
// (round ones sampled, see reachSamples).
func primitiveReach(c Collider, h *hull.Hull) float64 {
	pl := hullPlanes(h)
	worst := 0.0
	for _, x := range extremePoints(c) {
		worst = math.Max(worst, hullDist(h, pl, x))
	}
	return worst
}

// extremePoints returns points of c that include its extreme points (for
// a round shape, samples of them).
func extremePoints(c Collider) []geom.Vec3 {
	if c.Convex != nil {
		return c.Convex.Vertices
	}
	s := c.Shape
	r := math.Max(s.Radius, math.Max(s.RadiusTop, s.RadiusBottom))
	var local []geom.Vec3
	switch s.Type {
	case physics.Cylinder:
		for a := 0; a < reachSamples; a++ {
			ph := 2 * math.Pi * float64(a) / reachSamples
			c, sn := math.Cos(ph), math.Sin(ph)
			local = append(local, geom.Vec3{s.RadiusBottom * c, -s.Height / 2, s.RadiusBottom * sn},
				geom.Vec3{s.RadiusTop * c, s.Height / 2, s.RadiusTop * sn})
		}
	case physics.Sphere, physics.Capsule:
		ys := []float64{0}
		if s.Type == physics.Capsule {
			ys = []float64{-s.Height / 2, s.Height / 2}
		}
		for a := 0; a < reachSamples; a++ {
			ph := 2 * math.Pi * float64(a) / reachSamples
			for b := 0; b <= reachSamples/2; b++ {
				th := 2 * math.Pi * float64(b) / reachSamples
				dir := geom.Vec3{math.Sin(th) * math.Cos(ph), math.Cos(th), math.Sin(th) * math.Sin(ph)}
				for _, y := range ys {
					local = append(local, dir.Scale(r).Add(geom.Vec3{0, y, 0}))
				}
			}
		}
	}
	out := make([]geom.Vec3, len(local))
	for i, l := range local {
		out[i] = c.Rotation.Rotate(l).Add(c.Translation)
	}
	return out
}

// hullPlane is a face plane of a hull: n·x = d, n a unit outward normal.
type hullPlane struct {
	n geom.Vec3
	d float64
}

func hullPlanes(h *hull.Hull) []hullPlane {
	out := make([]hullPlane, 0, len(h.Triangles))
	for _, t := range h.Triangles {
		a, b, c := h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if l := n.Len(); l > 0 {
			n = n.Scale(1 / l)
			out = append(out, hullPlane{n, n.Dot(a)})
		}
	}
	return out
}

// hullDist is the distance from x to the convex hull h (pl its face
// planes): 0 inside, else the distance to the nearest of its triangles.
func hullDist(h *hull.Hull, pl []hullPlane, x geom.Vec3) float64 {
	inside := true
	for _, p := range pl {
		if p.n.Dot(x) > p.d {
			inside = false
			break
		}
	}
	if inside {
		return 0
	}
	best := math.Inf(1)
	for _, t := range h.Triangles {
		best = math.Min(best, geom.PointTriangleDist2(x, h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]))
	}
	return math.Sqrt(best)
}
