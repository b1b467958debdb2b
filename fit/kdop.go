package fit

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// kdopNormals are the 13 slab normals of a 26-DOP (discrete oriented
// polytope): a cube's 3 axes, its 6 face diagonals and its 4 corner
// diagonals, unnormalised.
var kdopNormals = [13]geom.Vec3{
	{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
	{1, 1, 0}, {1, -1, 0}, {1, 0, 1}, {1, 0, -1}, {0, 1, 1}, {0, 1, -1},
	{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {-1, 1, 1},
}

// KDOP26 returns the vertices of the 26-DOP of points, in their frame: the
// intersection of the 13 slabs normal to kdopNormals that enclose every
// point, each widened on both sides by t·|n|₁, t being opt.Tolerance of the
// bounding-box diagonal and n the slab's unit normal (the slabs of the
// points grown by a cube of half-width t, so a box stays a box rather than
// getting facets of size t at its corners and edges), and then, if still
// thinner, to minWidth about its middle. The vertices' convex hull is that
// polytope, so it holds every point and lies inside the points'
// axis-aligned box grown by t. Vertices are
// found as the feasible intersections of three slab planes (Cramer's rule
// over the 26 planes' 2,600 triples), in a fixed order.
func KDOP26(points []geom.Vec3, minWidth float64, opt Options) ([]geom.Vec3, error) {
	in, err := Prepare(points)
	if err != nil {
		return nil, err
	}
	tol := opt.tolerance() * in.diag
	var normals [26]geom.Vec3
	var offsets [26]float64 // plane k: normals[k]·x ≤ offsets[k], x relative to in.origin
	for i, d := range kdopNormals {
		n := d.Scale(1 / d.Len())
		grow := tol * (math.Abs(n[0]) + math.Abs(n[1]) + math.Abs(n[2]))
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range in.points {
			s := n.Dot(p.Sub(in.origin))
			lo, hi = math.Min(lo, s), math.Max(hi, s)
		}
		lo, hi = lo-grow, hi+grow
		if w := hi - lo; w < minWidth {
			lo, hi = lo-(minWidth-w)/2, hi+(minWidth-w)/2
		}
		normals[2*i], offsets[2*i] = n, hi
		normals[2*i+1], offsets[2*i+1] = n.Scale(-1), -lo
	}
	eps := 1e-9 * (in.diag + minWidth)
	var out []geom.Vec3
	for a := 0; a < 26; a++ {
		for b := a + 1; b < 26; b++ {
			for c := b + 1; c < 26; c++ {
				x, ok := solve3(normals[a], normals[b], normals[c], offsets[a], offsets[b], offsets[c])
				if !ok || !insideAll(normals[:], offsets[:], x, eps) || nearAny(out, x, eps) {
					continue
				}
				out = append(out, x)
			}
		}
	}
	for i := range out {
		out[i] = out[i].Add(in.origin)
	}
	return out, nil
}

// solve3 intersects the planes nᵢ·x = dᵢ; ok is false when two of them
// are (nearly) parallel.
func solve3(n1, n2, n3 geom.Vec3, d1, d2, d3 float64) (geom.Vec3, bool) {
	c23, c31, c12 := n2.Cross(n3), n3.Cross(n1), n1.Cross(n2)
	det := n1.Dot(c23)
	if math.Abs(det) < 1e-9 {
		return geom.Vec3{}, false
	}
	return c23.Scale(d1).Add(c31.Scale(d2)).Add(c12.Scale(d3)).Scale(1 / det), true
}

func insideAll(normals []geom.Vec3, offsets []float64, x geom.Vec3, eps float64) bool {
	for k, n := range normals {
		if n.Dot(x) > offsets[k]+eps {
			return false
		}
	}
	return true
}

func nearAny(vs []geom.Vec3, x geom.Vec3, eps float64) bool {
	for _, v := range vs {
		if v.Sub(x).Len() <= eps {
			return true
		}
	}
	return false
}
