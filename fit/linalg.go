package fit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// vec2 is a point in a projection plane.
type vec2 [2]float64

func (a vec2) sub(b vec2) vec2       { return vec2{a[0] - b[0], a[1] - b[1]} }
func (a vec2) dot(b vec2) float64    { return a[0]*b[0] + a[1]*b[1] }
func cross2(o, a, b vec2) float64    { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
func (a vec2) len2() float64         { return a.dot(a) }
func (a vec2) scale(s float64) vec2  { return vec2{a[0] * s, a[1] * s} }
func (a vec2) add(b vec2) vec2       { return vec2{a[0] + b[0], a[1] + b[1]} }
func dist2(a, b vec2) float64        { return a.sub(b).len2() }
func mid2(a, b vec2) vec2            { return a.add(b).scale(0.5) }
func project(p, a, b geom.Vec3) vec2 { return vec2{p.Dot(a), p.Dot(b)} }

// hull2D returns the indices of the convex hull of q in counter-clockwise
// order (Andrew's monotone chain), without collinear points. Ties are broken
// by index so the result is deterministic.
func hull2D(q []vec2) []int {
	type key struct {
		x, y float64
		i    int
	}
	ks := make([]key, len(q))
	for i, p := range q {
		ks[i] = key{p[0], p[1], i}
	}
	slices.SortFunc(ks, func(a, b key) int {
		if c := cmp.Compare(a.x, b.x); c != 0 {
			return c
		}
		if c := cmp.Compare(a.y, b.y); c != 0 {
			return c
		}
		return a.i - b.i
	})
	// drop exact duplicates
	idx := make([]int, 0, len(ks))
	for i, k := range ks {
		if i == 0 || k.x != ks[i-1].x || k.y != ks[i-1].y {
			idx = append(idx, k.i)
		}
	}
	if len(idx) <= 2 {
		return idx
	}
	h := make([]int, 0, 2*len(idx))
	for _, k := range idx {
		for len(h) >= 2 && cross2(q[h[len(h)-2]], q[h[len(h)-1]], q[k]) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, k)
	}
	lower := len(h) + 1
	for i := len(idx) - 2; i >= 0; i-- {
		k := idx[i]
		for len(h) >= lower && cross2(q[h[len(h)-2]], q[h[len(h)-1]], q[k]) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, k)
	}
	return h[:len(h)-1]
}

// polygonArea is the area of the polygon q[idx[0]], q[idx[1]], ...
func polygonArea(q []vec2, idx []int) float64 {
	var a float64
	for i := range idx {
		p, r := q[idx[i]], q[idx[(i+1)%len(idx)]]
		a += p[0]*r[1] - p[1]*r[0]
	}
	return math.Abs(a) / 2
}

// scan validates the points and returns their bounding box and their
// principal axes: the eigenvectors of their covariance as the columns of a
// right-handed rotation, by decreasing variance.
func scan(points []geom.Vec3) (geom.Box, geom.Mat3, error) {
	lo, hi := points[0], points[0]
	for i, p := range points {
		if !p.IsFinite() {
			return geom.Box{}, geom.Mat3{}, fmt.Errorf("%w: index %d is %v", ErrNotFinite, i, p)
		}
		for k := 0; k < 3; k++ {
			if p[k] < lo[k] {
				lo[k] = p[k]
			}
			if p[k] > hi[k] {
				hi[k] = p[k]
			}
		}
	}
	return geom.Box{Min: lo, Max: hi}, eigenFrame(geom.Covariance(points)), nil
}

// eigenTolerance is geom.SymEigen's stopping tolerance for the principal
// axes (off-diagonal entries about 1e-15 of the diagonal).
const eigenTolerance = 1e-30

// eigenFrame returns the eigenvectors of the symmetric matrix a as the
// columns of a right-handed rotation, by decreasing eigenvalue (equal ones
// in the solver's order), the second made orthogonal to the first.
func eigenFrame(a geom.Mat3) geom.Mat3 {
	vals, v := geom.SymEigen(a, eigenTolerance)
	order := []int{0, 1, 2}
	sort.SliceStable(order, func(x, y int) bool { return vals[order[x]] > vals[order[y]] })
	e0, e1 := v.Col(order[0]).Normalize(), v.Col(order[1])
	e1 = e1.Sub(e0.Scale(e1.Dot(e0))).Normalize()
	return geom.FromCols(e0, e1, e0.Cross(e1))
}

// orthoFrame returns two unit vectors a, b such that (a, b, n) is a
// right-handed orthonormal frame; n must be a unit vector.
func orthoFrame(n geom.Vec3) (a, b geom.Vec3) {
	if math.Abs(n[0]) < 0.6 {
		a = geom.Vec3{1, 0, 0}
	} else if math.Abs(n[1]) < 0.6 {
		a = geom.Vec3{0, 1, 0}
	} else {
		a = geom.Vec3{0, 0, 1}
	}
	a = a.Sub(n.Scale(a.Dot(n))).Normalize()
	b = n.Cross(a)
	return a, b
}

// axisFrame returns a right-handed rotation whose second column (local +Y)
// is the unit vector u.
func axisFrame(u geom.Vec3) geom.Mat3 {
	a, b := orthoFrame(u) // (a, b, u) right-handed, so (b, u, a) is too
	return geom.FromCols(b, u, a)
}

// orthonormalize makes the columns of m a right-handed orthonormal frame
// (Gram-Schmidt on the first two columns).
func orthonormalize(m geom.Mat3) geom.Mat3 {
	e0 := m.Col(0).Normalize()
	e1 := m.Col(1)
	e1 = e1.Sub(e0.Scale(e1.Dot(e0))).Normalize()
	return geom.FromCols(e0, e1, e0.Cross(e1))
}

// rotAbout returns the rotation by angle about the unit axis (Rodrigues).
func rotAbout(axis geom.Vec3, angle float64) geom.Mat3 {
	c, s := math.Cos(angle), math.Sin(angle)
	x, y, z := axis[0], axis[1], axis[2]
	t := 1 - c
	return geom.Mat3{
		{t*x*x + c, t*x*y - s*z, t*x*z + s*y},
		{t*x*y + s*z, t*y*y + c, t*y*z - s*x},
		{t*x*z - s*y, t*y*z + s*x, t*z*z + c},
	}
}

// fibonacci returns n nearly uniform unit vectors on the sphere (n >= 1),
// ordered along a spiral so consecutive directions are neighbours.
func fibonacci(n int) []geom.Vec3 {
	out := make([]geom.Vec3, n)
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range out {
		z := 1 - (2*float64(i)+1)/float64(n)
		r := math.Sqrt(math.Max(0, 1-z*z))
		phi := golden * float64(i)
		out[i] = geom.Vec3{r * math.Cos(phi), r * math.Sin(phi), z}
	}
	return out
}

// supportIndex returns the index of a support point maximising d·p,
// hill-climbing the hull graph from start when adjacency is known and
// scanning every point otherwise.
func (in *Input) supportIndex(d geom.Vec3, start int) int {
	pts := in.support
	if in.adj == nil {
		best, bi := math.Inf(-1), 0
		for i, p := range pts {
			if v := p.Dot(d); v > best {
				best, bi = v, i
			}
		}
		return bi
	}
	cur := start
	best := pts[cur].Dot(d)
	for {
		next := cur
		for _, j := range in.adj[cur] {
			if v := pts[j].Dot(d); v > best {
				best, next = v, int(j)
			}
		}
		if next == cur {
			return cur
		}
		cur = next
	}
}

// searchSet returns the points the orientation searches run on: every
// support point when there are few, otherwise the core set — the extreme
// support points along opt.CoreDirections directions.
func (in *Input) searchSet(opt Options) []geom.Vec3 { return in.memoFor(opt).set }

func (in *Input) computeSearchSet(opt Options) []geom.Vec3 {
	if len(in.support) <= opt.exactMax() {
		return in.support
	}
	return in.core(opt.coreDirections())
}

// core returns the extreme support points along n Fibonacci directions,
// in support order.
func (in *Input) core(n int) []geom.Vec3 {
	dirs := fibonacci(n)
	seen := make([]bool, len(in.support))
	var idx []int
	cur := 0
	for _, d := range dirs {
		cur = in.supportIndex(d, cur)
		if !seen[cur] {
			seen[cur] = true
			idx = append(idx, cur)
		}
	}
	sort.Ints(idx)
	core := make([]geom.Vec3, len(idx))
	for i, k := range idx {
		core[i] = in.support[k]
	}
	return core
}
