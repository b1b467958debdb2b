package fit

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Distance-query parameters.
const (
	// gjkIterations caps the iterations of one distance query.
	gjkIterations = 64
	// gjkRelTol stops a query once the support point no longer brings the
	// closest point nearer by this fraction of the squared distance.
	gjkRelTol = 1e-10
	// gjkAbsTol (times the diagonal) ends a query whose duality gap is
	// below its square: points on the hull's surface converge to it.
	gjkAbsTol = 1e-9
)

// maxGap estimates the largest distance from the surface of s to the convex
// hull: it spreads about n samples over the surface and returns the largest
// of their exact distances to the hull.
func (in *Input) maxGap(s Shape, n int) float64 {
	var g float64
	start := 0
	for _, p := range surfaceSamples(s, n) {
		var d float64
		d, start = in.hullDistance(p.Sub(in.origin), start)
		g = math.Max(g, d)
	}
	return g
}

// surfaceSamples spreads about n points over the surface of s (input frame).
// Boxes: a square grid on each face, its corners and edges included.
// Spheres: a Fibonacci spiral. Capsules: a spiral on each hemisphere and a
// grid on the side. Cylinders: rims, a polar grid on each cap and a grid on
// the side.
func surfaceSamples(s Shape, n int) []geom.Vec3 {
	var local []geom.Vec3
	switch s.Kind {
	case KindBox, KindAABB:
		h := s.Size.Scale(0.5)
		k := max(2, int(math.Sqrt(float64(n)/6)))
		for face := 0; face < 6; face++ {
			ax, sgn := face/2, float64(face%2*2-1)
			u, v := (ax+1)%3, (ax+2)%3
			for i := 0; i <= k; i++ {
				for j := 0; j <= k; j++ {
					var p geom.Vec3
					p[ax] = sgn * h[ax]
					p[u] = h[u] * (2*float64(i)/float64(k) - 1)
					p[v] = h[v] * (2*float64(j)/float64(k) - 1)
					local = append(local, p)
				}
			}
		}
	case KindSphere:
		for _, d := range fibonacci(n) {
			local = append(local, d.Scale(s.Radius))
		}
	case KindCapsule, KindCylinder:
		r, hh := s.Radius, s.Height/2
		ring := max(8, int(math.Sqrt(float64(n))))
		rows := max(2, n/(3*ring))
		for i := 0; i <= rows; i++ {
			y := -hh + 2*hh*float64(i)/float64(rows)
			for j := 0; j < ring; j++ {
				a := 2 * math.Pi * float64(j) / float64(ring)
				local = append(local, geom.Vec3{r * math.Cos(a), y, r * math.Sin(a)})
			}
		}
		for _, d := range fibonacci(max(2, n/3)) {
			y := math.Copysign(hh, d[1])
			if s.Kind == KindCapsule {
				local = append(local, geom.Vec3{r * d[0], y + r*d[1], r * d[2]})
			} else { // a point of the cap disc, evenly by area
				rho := r * math.Sqrt(1-d[1]*d[1])
				az := math.Atan2(d[2], d[0])
				local = append(local, geom.Vec3{rho * math.Cos(az), y, rho * math.Sin(az)})
			}
		}
	}
	m := s.Rotation.Mat3()
	out := make([]geom.Vec3, len(local))
	for i, p := range local {
		out[i] = s.Center.Add(m.MulVec(p))
	}
	return out
}

// hullDistance returns the distance from p (local coordinates) to the
// convex hull of the support points, by Gilbert's algorithm (GJK against a
// point), and the index of the last support vertex to warm-start the next
// query.
func (in *Input) hullDistance(p geom.Vec3, start int) (float64, int) {
	var w [4]geom.Vec3
	w[0] = in.support[start]
	nw := 1
	x := w[0]
	// Every x is a point of the hull, so |x−p| only overestimates: keep the
	// smallest in case round-off makes the iteration cycle.
	best := math.Inf(1)
	absTol := gjkAbsTol * in.diag * gjkAbsTol * in.diag
	for it := 0; it < gjkIterations; it++ {
		v := x.Sub(p)
		vv := v.Len2()
		best = math.Min(best, vv)
		if vv == 0 {
			return 0, start
		}
		start = in.supportIndex(v.Scale(-1), start)
		s := in.support[start]
		if gap := v.Dot(x.Sub(s)); gap <= gjkRelTol*vv || gap <= absTol {
			break
		}
		for _, q := range w[:nw] {
			if q == s { // no new support point: no progress possible
				return math.Sqrt(best), start
			}
		}
		w[nw] = s
		nw++
		x, nw = closestOnSimplex(p, &w, nw)
		if nw == 4 { // p is inside the tetrahedron
			return 0, start
		}
	}
	return math.Sqrt(math.Min(best, x.Sub(p).Len2())), start
}

// closestOnSimplex returns the point of the simplex w[:n] (n = 2, 3 or 4)
// closest to p and shrinks w to the vertices that span it. When n = 4 and p
// lies inside, it returns p with n = 4.
func closestOnSimplex(p geom.Vec3, w *[4]geom.Vec3, n int) (geom.Vec3, int) {
	switch n {
	case 2:
		return closestOnSegment(p, w)
	case 3:
		return closestOnTriangle(p, w)
	}
	// Tetrahedron: check each face whose plane separates p from the
	// opposite vertex; keep the nearest result.
	faces := [4][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}}
	best, bestD := geom.Vec3{}, math.Inf(1)
	var bestW [4]geom.Vec3
	bestN := 0
	outside := false
	for _, f := range faces {
		a, b, c, o := w[f[0]], w[f[1]], w[f[2]], w[f[3]]
		nrm := b.Sub(a).Cross(c.Sub(a))
		sp, so := nrm.Dot(p.Sub(a)), nrm.Dot(o.Sub(a))
		if sp*so >= 0 && !(so == 0) {
			continue // p on the same side as the opposite vertex
		}
		outside = true
		t := [4]geom.Vec3{a, b, c}
		x, m := closestOnTriangle(p, &t)
		if d := x.Sub(p).Len2(); d < bestD {
			best, bestD, bestW, bestN = x, d, t, m
		}
	}
	if !outside {
		return p, 4
	}
	*w = bestW
	return best, bestN
}

func closestOnSegment(p geom.Vec3, w *[4]geom.Vec3) (geom.Vec3, int) {
	a, b := w[0], w[1]
	ab := b.Sub(a)
	den := ab.Len2()
	t := 0.0
	if den > 0 {
		t = p.Sub(a).Dot(ab) / den
	}
	switch {
	case t <= 0:
		return a, 1
	case t >= 1:
		w[0] = b
		return b, 1
	}
	return a.Add(ab.Scale(t)), 2
}

// closestOnTriangle follows Ericson's Voronoi-region test (Real-Time
// Collision Detection, 5.1.5) and keeps the vertices of the feature found.
func closestOnTriangle(p geom.Vec3, w *[4]geom.Vec3) (geom.Vec3, int) {
	a, b, c := w[0], w[1], w[2]
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a, 1
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		w[0] = b
		return b, 1
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		w[0], w[1] = a, b
		return a.Add(ab.Scale(v)), 2
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		w[0] = c
		return c, 1
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		v := d2 / (d2 - d6)
		w[0], w[1] = a, c
		return a.Add(ac.Scale(v)), 2
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		v := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		w[0], w[1] = b, c
		return b.Add(c.Sub(b).Scale(v)), 2
	}
	den := va + vb + vc
	if den == 0 { // degenerate triangle: fall back to its edge ab
		return closestOnSegment(p, w)
	}
	v, u := vb/den, vc/den
	return a.Add(ab.Scale(v)).Add(ac.Scale(u)), 3
}
