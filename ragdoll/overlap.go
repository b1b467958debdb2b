package ragdoll

import (
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Solid is a collider placed in world space, for telling which bodies
// overlap at rest: for spheres and untapered capsules the segment swept by
// Radius (exact), else (and for pairs of a round and a pointed solid) the
// points whose hull is the collider.
type Solid struct {
	Round  bool
	A, B   geom.Vec3 // the segment (A == B for a sphere)
	Radius float64
	Points []geom.Vec3
	box    geom.Box
}

// RoundOut scales the points of a round solid (RoundSolid): a sphere
// sampled with 16 meridians and 8 bands, inscribed, scaled out from its
// axis by more than 1/cos²(π/16) ≈ 1.04 holds the sphere, so a round
// solid beside a pointed one counts as overlapping it when it does, or
// comes within 5% of its radius.
const RoundOut = 1.05

// RoundSolid is the sphere or capsule of radius r around segment [a, b],
// pts points inscribed in it (at most 1/RoundOut inside its surface), which
// it pushes out from the segment by RoundOut.
func RoundSolid(a, b geom.Vec3, r float64, pts []geom.Vec3) Solid {
	s := Solid{Round: true, A: a, B: b, Radius: r, box: grown(a, b, r*RoundOut)}
	for _, p := range pts {
		c := closestOnSegment(a, b, p)
		s.Points = append(s.Points, c.Add(p.Sub(c).Scale(RoundOut)))
	}
	return s
}

// PointSolid is the convex hull of pts.
func PointSolid(pts []geom.Vec3) Solid {
	return Solid{Points: pts, box: geom.BoundsOf(pts)}
}

// Overlaps says whether two solids overlap (touching is not overlapping).
func (s Solid) Overlaps(o Solid) bool {
	if separable(s.box, o.box) {
		return false
	}
	if s.Round && o.Round {
		return SegmentDistance(s.A, s.B, o.A, o.B) < s.Radius+o.Radius
	}
	d, err := hull.Penetration(s.Points, o.Points)
	return err == nil && d > 0
}

// separable reports boxes apart on some axis (touching counts as apart).
func separable(a, b geom.Box) bool {
	for k := range 3 {
		if a.Max[k] <= b.Min[k] || b.Max[k] <= a.Min[k] {
			return true
		}
	}
	return false
}

// closestOnSegment is the point of segment [a, b] nearest p.
func closestOnSegment(a, b, p geom.Vec3) geom.Vec3 {
	d := b.Sub(a)
	l := d.Dot(d)
	if l == 0 {
		return a
	}
	t := min(max(p.Sub(a).Dot(d)/l, 0), 1)
	return a.Add(d.Scale(t))
}

// grown is the box around segment [a, b] grown by r.
func grown(a, b geom.Vec3, r float64) geom.Box {
	d := geom.Vec3{r, r, r}
	return geom.Box{Min: a.Min(b).Sub(d), Max: a.Max(b).Add(d)}
}

// SegmentDistance is the distance between segments [p1, q1] and [p2, q2]
// (Ericson, Real-Time Collision Detection, 5.1.9).
func SegmentDistance(p1, q1, p2, q2 geom.Vec3) float64 {
	d1, d2, r := q1.Sub(p1), q2.Sub(p2), p1.Sub(p2)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	clamp := func(x float64) float64 { return min(max(x, 0), 1) }
	var s, t float64
	switch {
	case a == 0 && e == 0:
	case a == 0:
		t = clamp(f / e)
	default:
		c := d1.Dot(r)
		if e == 0 {
			s = clamp(-c / a)
			break
		}
		b := d1.Dot(d2)
		if den := a*e - b*b; den > 0 {
			s = clamp((b*f - c*e) / den)
		}
		t = (b*s + f) / e
		switch {
		case t < 0:
			t, s = 0, clamp(-c/a)
		case t > 1:
			t, s = 1, clamp((b-c)/a)
		}
	}
	return p1.Add(d1.Scale(s)).Sub(p2.Add(d2.Scale(t))).Len()
}
