package enginenames

import (
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/kinds"
)

// Tessellation of round primitives: segments around the axis, and
// latitude bands of a sphere (even, so that the equator is a ring).
const (
	segments = 16
	bands    = 8
)

// solid is a closed convex triangle mesh around the origin, outward
// wound (counter-clockwise seen from outside, as glTF's front faces).
type solid struct {
	v []geom.Vec3
	t [][3]uint32
}

// boxSolid is the axis-aligned box of full extents size, centred on the
// origin: its 8 corners.
func boxSolid(size geom.Vec3) solid {
	v, t := kinds.BoxSolid(size)
	return solid{v, t}
}

// stack is the closed solid through the rings (top to bottom) with a pole
// vertex above the first and below the last: poles at heights top and
// bottom on the axis (kinds.RingStack, segments around).
func stack(top float64, rings []geom.Circle, bottom float64) solid {
	v, t := kinds.RingStack(top, rings, bottom, segments)
	return solid{v, t}
}

// latitude returns the rings of a sphere of radius r from band i0 to i1
// (0 is the north pole, bands the south one), shifted by dy.
func latitude(r float64, i0, i1 int, dy float64) []geom.Circle {
	return geom.Latitudes(dy, r, bands, i0, i1)
}

// sphereSolid is a sphere of radius r: on the sphere (every vertex at
// distance r, as Unreal fits its USP_ sphere to them) unless cover asks
// for one around it (every face at least r from the centre).
func sphereSolid(r float64, cover bool) solid {
	if cover {
		r *= coverFactor
	}
	return stack(r, latitude(r, 1, bands-1, 0), -r)
}

// capsuleSolid is a capsule along +Y with hemisphere centres at ±h/2 and
// radius r: on the capsule or, with cover, around it.
func capsuleSolid(r, h float64, cover bool) solid {
	if cover {
		r *= coverFactor
	}
	rings := append(latitude(r, 1, bands/2, h/2), latitude(r, bands/2, bands-1, -h/2)...)
	return stack(h/2+r, rings, -h/2-r)
}

// cylinderSolid is a cylinder along +Y of full height h, radii rTop and
// rBottom, around the cylinder (its side faces touch it).
func cylinderSolid(rTop, rBottom, h float64) solid {
	k := 1 / math.Cos(math.Pi/segments)
	return stack(h/2, []geom.Circle{{Y: h / 2, R: rTop * k}, {Y: -h / 2, R: rBottom * k}}, -h/2)
}

// taperedSolid is a capsule of unequal radii (Unreal has none) as a
// convex solid around it: the hull of its two spheres' covers.
func taperedSolid(rTop, rBottom, h float64) solid {
	kt, kb := rTop*coverFactor, rBottom*coverFactor
	rings := append(latitude(kt, 1, bands/2, h/2), latitude(kb, bands/2, bands-1, -h/2)...)
	return stack(h/2+kt, rings, -h/2-kb)
}

// coverFactor scales the unit sphere's stack so that each of its faces
// lies at least 1 from the centre: 1 over the smallest face distance.
var coverFactor = func() float64 {
	s := stack(1, latitude(1, 1, bands-1, 0), -1)
	d := math.Cos(math.Pi / segments) // the side faces between equator rings of a capsule
	for _, t := range s.t {
		n := s.v[t[1]].Sub(s.v[t[0]]).Cross(s.v[t[2]].Sub(s.v[t[0]]))
		if l := n.Len(); l > 0 {
			d = math.Min(d, math.Abs(n.Scale(1/l).Dot(s.v[t[0]])))
		}
	}
	return 1 / d
}()
