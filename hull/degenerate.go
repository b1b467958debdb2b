package hull

import (
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// degenerateHullPoints returns, for normalized points p that are flat or
// line-like, the corners of a slab or box that contains them with the
// documented thickness (see Degeneracy). t is the initial simplex found by
// initialSimplex on p. The result spans a volume and goes through the
// ordinary quickhull.
func degenerateHullPoints(p []geom.Vec3, deg Degeneracy, t [4]int32, halfT float64) []geom.Vec3 {
	a := p[t[0]]
	u := p[t[1]].Sub(a).Normalize()
	switch deg {
	case Flat:
		n := p[t[1]].Sub(a).Cross(p[t[2]].Sub(a)).Normalize()
		w := n.Cross(u)
		ext := 0.0
		pts2 := make([][2]float64, len(p))
		for i, q := range p {
			r := q.Sub(a)
			ext = math.Max(ext, math.Abs(n.Dot(r)))
			pts2[i] = [2]float64{u.Dot(r), w.Dot(r)}
		}
		H := ext + halfT
		ring := hull2D(pts2)
		out := make([]geom.Vec3, 0, 2*len(ring))
		for _, s := range []float64{-H, H} {
			for _, q := range ring {
				out = append(out, a.Add(u.Scale(q[0])).Add(w.Scale(q[1])).Add(n.Scale(s)))
			}
		}
		return out
	default: // Line
		// The coordinate axis least aligned with u gives a stable normal.
		k := 0
		for j := 1; j < 3; j++ {
			if math.Abs(u[j]) < math.Abs(u[k]) {
				k = j
			}
		}
		var axis geom.Vec3
		axis[k] = 1
		v := u.Cross(axis).Normalize()
		w := u.Cross(v)
		tmin, tmax, r := math.Inf(1), math.Inf(-1), 0.0
		for _, q := range p {
			d := q.Sub(a)
			s := u.Dot(d)
			tmin, tmax = math.Min(tmin, s), math.Max(tmax, s)
			r = math.Max(r, d.Sub(u.Scale(s)).Len())
		}
		H := r + halfT
		var out []geom.Vec3
		for _, s := range []float64{tmin, tmax} {
			for _, dv := range []float64{-H, H} {
				for _, dw := range []float64{-H, H} {
					out = append(out, a.Add(u.Scale(s)).Add(v.Scale(dv)).Add(w.Scale(dw)))
				}
			}
		}
		return out
	}
}

// hull2D returns the 2D convex hull of pts counter-clockwise, without
// collinear points (Andrew's monotone chain).
func hull2D(pts [][2]float64) [][2]float64 {
	s := append([][2]float64(nil), pts...)
	sort.Slice(s, func(i, j int) bool {
		if s[i][0] != s[j][0] {
			return s[i][0] < s[j][0]
		}
		return s[i][1] < s[j][1]
	})
	cross := func(o, a, b [2]float64) float64 {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	var h [][2]float64
	for _, q := range s {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	lower := len(h) + 1
	for i := len(s) - 2; i >= 0; i-- {
		q := s[i]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h[:len(h)-1]
}

// minPointHalfSize is the smallest half size of the cube built for a
// point input.
const minPointHalfSize = 1e-100

// pointHull returns the cube built around inputs whose points all
// coincide (Point degeneracy), in the input coordinates.
func pointHull(points []geom.Vec3, n normalized, halfT float64) (*Hull, error) {
	m := n.maxAbs
	// At least minPointHalfSize, so that tiny coordinates keep a cube
	// whose vertices are distinct and whose products do not underflow.
	H := n.diag/2 + math.Max(math.Max(halfT*n.diag, 1e-9*m), minPointHalfSize)
	h := &Hull{Degenerate: Point, Dropped: len(points) - len(n.orig)}
	for i := 0; i < 8; i++ {
		d := geom.Vec3{-H, -H, -H}
		for k := 0; k < 3; k++ {
			if i>>k&1 == 1 {
				d[k] = H
			}
		}
		h.Vertices = append(h.Vertices, n.center.Add(d))
	}
	// Vertex i has x = bit 0, y = bit 1, z = bit 2; quads outward.
	quads := [6][4]uint32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	for _, q := range quads {
		h.Triangles = append(h.Triangles, [3]uint32{q[0], q[1], q[2]}, [3]uint32{q[0], q[2], q[3]})
	}
	if err := Validate(h, points); err != nil {
		return nil, err
	}
	return h, nil
}
