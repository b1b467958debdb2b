package kinds

import (
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
)

// Tessellation density of round shapes: RoundSegments segments around
// local +Y, and arcSteps latitude steps per half turn of a profile arc
// (11.25° each, like the segments; the chord error is then under 0.5% of
// the radius).
const (
	RoundSegments = 32
	arcSteps      = 16
)

// solid is a triangle mesh in a shape's own frame.
type solid struct {
	verts []geom.Vec3
	tris  [][3]uint32
}

// tessellation makes a shape row's Tessellate from a solid's maker.
func tessellation(f func(s physics.Shape) solid) func(physics.Shape) ([]geom.Vec3, [][3]uint32) {
	return func(s physics.Shape) ([]geom.Vec3, [][3]uint32) {
		m := f(s)
		return m.verts, m.tris
	}
}

// boxSolid returns a box of full extents size centred on the origin.
func boxSolid(size [3]float64) solid {
	v, t := BoxSolid(size)
	return solid{v, t}
}

// profilePoint is a point (radius, y) of a profile revolved around +Y.
type profilePoint struct{ r, y float64 }

// revolve sweeps a profile, listed from a bottom pole (radius 0) up to a
// top pole, around local +Y as a RingStack of RoundSegments: repeated
// points and rings of radius 0 between the poles (a degenerate shape's)
// are skipped, and the stack closes at the first pole above a ring.
func revolve(profile []profilePoint) solid {
	if len(profile) == 0 {
		return solid{}
	}
	bottom, top := profile[0].y, profile[len(profile)-1].y
	var rings []geom.Circle // bottom to top
	for i, p := range profile[1:] {
		if p.r <= 0 {
			if len(rings) > 0 {
				top = p.y
				break
			}
			continue
		}
		if p == profile[i] {
			continue
		}
		rings = append(rings, geom.Circle{Y: p.y, R: p.r})
	}
	slices.Reverse(rings)
	v, t := RingStack(top, rings, bottom, RoundSegments)
	return solid{v, t}
}

// arc appends points of a circle of radius r centred at (0, cy), latitude
// from lo to hi (radians, 0 at the equator), arcSteps per half turn.
func arc(pts []profilePoint, r, cy, lo, hi float64) []profilePoint {
	steps := max(1, int(math.Ceil((hi-lo)/math.Pi*arcSteps-1e-9)))
	for i := 0; i <= steps; i++ {
		t := lo + (hi-lo)*float64(i)/float64(steps)
		rr := r * math.Cos(t)
		if math.Abs(t) >= math.Pi/2 {
			rr = 0 // exact poles, not rings of radius 1e-17
		}
		pts = append(pts, profilePoint{rr, cy + r*math.Sin(t)})
	}
	return pts
}

func sphereSolid(radius float64) solid {
	return revolve(arc(nil, radius, 0, -math.Pi/2, math.Pi/2))
}

// capsuleSolid is the convex hull of two spheres on local Y: radius
// bottom at y = −height/2 and radius top at y = +height/2. With unequal
// radii the side is the cone tangent to both, which touches the spheres
// at latitude φ, sin φ = (bottom − top) / height.
func capsuleSolid(top, bottom, height float64) solid {
	phi := 0.0
	switch {
	case height <= 0:
		phi = math.Copysign(math.Pi/2, bottom-top)
		if bottom == top {
			phi = 0
		}
	default:
		phi = math.Asin(math.Max(-1, math.Min(1, (bottom-top)/height)))
	}
	var pts []profilePoint
	pts = arc(pts, bottom, -height/2, -math.Pi/2, phi)
	pts = arc(pts, top, height/2, phi, math.Pi/2)
	return revolve(pts)
}

// cylinderSolid is a (possibly truncated) cone of full height along Y.
func cylinderSolid(top, bottom, height float64) solid {
	return revolve([]profilePoint{{0, -height / 2}, {bottom, -height / 2}, {top, height / 2}, {0, height / 2}})
}

// planeSolid is the quad y = 0, sizeX by sizeZ, as two triangles.
func planeSolid(sizeX, sizeZ float64) solid {
	x, z := sizeX/2, sizeZ/2
	return solid{
		verts: []geom.Vec3{{-x, 0, -z}, {x, 0, -z}, {x, 0, z}, {-x, 0, z}},
		tris:  [][3]uint32{{0, 3, 2}, {0, 2, 1}},
	}
}
