package kinds

import (
	"math"

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
	h := geom.Vec3{size[0] / 2, size[1] / 2, size[2] / 2}
	var s solid
	for i := range 8 {
		s.verts = append(s.verts, geom.Vec3{sign(i&1, h[0]), sign(i&2, h[1]), sign(i&4, h[2])})
	}
	// Each face as a quad of corner indices, counter-clockwise from outside.
	faces := [6][4]uint32{
		{0, 2, 6, 4}, // −X
		{1, 5, 7, 3}, // +X
		{0, 4, 5, 1}, // −Y
		{2, 3, 7, 6}, // +Y
		{0, 1, 3, 2}, // −Z
		{4, 6, 7, 5}, // +Z
	}
	for _, f := range faces {
		s.tris = append(s.tris, [3]uint32{f[0], f[1], f[2]}, [3]uint32{f[0], f[2], f[3]})
	}
	return s
}

func sign(bit int, v float64) float64 {
	if bit != 0 {
		return v
	}
	return -v
}

// profilePoint is a point (radius, y) of a profile revolved around +Y.
type profilePoint struct{ r, y float64 }

// revolve sweeps a profile, listed from bottom to top, around local +Y.
// Points with zero radius become single pole vertices; repeated points are
// skipped. Triangles are wound consistently.
func revolve(profile []profilePoint) solid {
	var s solid
	type ring struct {
		first uint32
		pole  bool
	}
	var rings []ring
	var last profilePoint
	for i, p := range profile {
		if p.r < 0 {
			p.r = 0
		}
		if i > 0 && p == last {
			continue
		}
		last = p
		first := uint32(len(s.verts))
		if p.r == 0 {
			s.verts = append(s.verts, geom.Vec3{0, p.y, 0})
			rings = append(rings, ring{first, true})
			continue
		}
		for j := range RoundSegments {
			a := 2 * math.Pi * float64(j) / RoundSegments
			s.verts = append(s.verts, geom.Vec3{p.r * math.Sin(a), p.y, p.r * math.Cos(a)})
		}
		rings = append(rings, ring{first, false})
	}
	at := func(r ring, j int) uint32 {
		if r.pole {
			return r.first
		}
		return r.first + uint32(j%RoundSegments)
	}
	for k := 1; k < len(rings); k++ {
		a, b := rings[k-1], rings[k]
		if a.pole && b.pole {
			continue
		}
		for j := range RoundSegments {
			a0, a1, b0, b1 := at(a, j), at(a, j+1), at(b, j), at(b, j+1)
			if !a.pole {
				s.tris = append(s.tris, [3]uint32{a0, a1, b1})
			}
			if !b.pole {
				s.tris = append(s.tris, [3]uint32{a0, b1, b0})
			}
		}
	}
	return s
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
