package geom

import "math"

// PointTriangleDist2 is the squared distance from p to the triangle abc
// (closest-point regions after Ericson, Real-Time Collision Detection
// 5.1.5); a degenerate triangle falls back to its nearest edge.
func PointTriangleDist2(p, a, b, c Vec3) float64 {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return ap.Len2()
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return bp.Len2()
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		return p.Sub(a.Add(ab.Scale(v))).Len2()
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return cp.Len2()
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return p.Sub(a.Add(ac.Scale(w))).Len2()
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return p.Sub(b.Add(c.Sub(b).Scale(w))).Len2()
	}
	den := va + vb + vc
	if den == 0 || math.IsNaN(den) {
		// Degenerate: fall back to the nearest edge.
		return math.Min(PointSegmentDist2(p, a, b), math.Min(PointSegmentDist2(p, b, c), PointSegmentDist2(p, c, a)))
	}
	v, w := vb/den, vc/den
	return p.Sub(a.Add(ab.Scale(v)).Add(ac.Scale(w))).Len2()
}

// PointSegmentDist2 is the squared distance from p to the segment ab.
func PointSegmentDist2(p, a, b Vec3) float64 {
	ab := b.Sub(a)
	l2 := ab.Len2()
	if l2 == 0 {
		return p.Sub(a).Len2()
	}
	t := p.Sub(a).Dot(ab) / l2
	t = math.Max(0, math.Min(1, t))
	return p.Sub(a.Add(ab.Scale(t))).Len2()
}
