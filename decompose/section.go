package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// section is the cross-section of a part by a cutting plane, kept so that a
// hull sample lying on the cut can be tested against the solid's slice
// (CoACD closes cuts with a cap; we only remember its outline).
type section struct {
	pl   plane
	u, v geom.Vec3 // in-plane basis with u×v = pl.n
	// segs[0] and segs[1] are the outlines seen from the positive and the
	// negative side, in (u,v) coordinates, oriented so that the solid is on
	// their left for consistently wound input. They differ only by the
	// triangle edges lying in the plane, which belong to the side of their
	// triangle (a cut through a row of vertices has no crossing triangles).
	segs [2][][2][2]float64
}

func (s *section) addSegment(side int, p, q geom.Vec3, t tri) {
	nt := t[1].Sub(t[0]).Cross(t[2].Sub(t[0]))
	dir := s.pl.n.Cross(nt)
	if q.Sub(p).Dot(dir) < 0 {
		p, q = q, p
	}
	s.segs[side] = append(s.segs[side], [2][2]float64{s.to2(p), s.to2(q)})
}

func (s *section) to2(p geom.Vec3) [2]float64 { return [2]float64{p.Dot(s.u), p.Dot(s.v)} }

// outside returns 0 when the in-plane point x is inside the outline seen
// from the given side (+1 or −1) (non-zero winding or odd crossing count, so
// that inconsistently wound or overlapping input counts as solid), otherwise
// its distance to the outline. Once that distance is known to be at most
// floor, it may return any value up to floor (the caller only needs to
// know it is no more).
func (s *section) outside(x geom.Vec3, side int8, floor float64) float64 {
	q := s.to2(x)
	wind, cross := 0, 0
	best := math.Inf(1)
	segs := s.segs[0]
	if side < 0 {
		segs = s.segs[1]
	}
	for _, sg := range segs {
		a, b := sg[0], sg[1]
		if a[1] <= q[1] && b[1] > q[1] {
			cross++
			if (b[0]-a[0])*(q[1]-a[1])-(q[0]-a[0])*(b[1]-a[1]) > 0 {
				wind++
			}
		} else if b[1] <= q[1] && a[1] > q[1] {
			cross++
			if (b[0]-a[0])*(q[1]-a[1])-(q[0]-a[0])*(b[1]-a[1]) < 0 {
				wind--
			}
		}
	}
	if wind != 0 || cross%2 == 1 {
		return 0
	}
	// Outside: the distance to the outline (a second pass; most probes
	// on a cap are inside and stop above).
	floor2 := floor * floor
	for _, sg := range segs {
		if d := segDist2D(q, sg[0], sg[1]); d < best {
			best = d
			if best <= floor2 {
				break
			}
		}
	}
	return math.Sqrt(best)
}

func segDist2D(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	px, py := p[0]-a[0], p[1]-a[1]
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, (px*dx+py*dy)/l2))
	}
	ex, ey := px-t*dx, py-t*dy
	return ex*ex + ey*ey
}

func planeBasis(n geom.Vec3) (u, v geom.Vec3) {
	a := geom.Vec3{1, 0, 0}
	if math.Abs(n[0]) > 0.6 {
		a = geom.Vec3{0, 1, 0}
	}
	u = a.Sub(n.Scale(a.Dot(n))).Normalize()
	v = n.Cross(u)
	return u, v
}
