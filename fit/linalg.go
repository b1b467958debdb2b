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

// scan validates the points and returns, in one pass, their bounding box
// and their principal axes: the eigenvectors of their covariance as the
// columns of a right-handed rotation, by decreasing variance. Sums are taken
// relative to the first point, which keeps them accurate far from the
// origin.
func scan(points []geom.Vec3) (geom.Box, geom.Mat3, error) {
	p0 := points[0]
	lo, hi := p0, p0
	var s geom.Vec3
	var xx, xy, xz, yy, yz, zz float64
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
		x, y, z := p[0]-p0[0], p[1]-p0[1], p[2]-p0[2]
		s[0], s[1], s[2] = s[0]+x, s[1]+y, s[2]+z
		xx, xy, xz = xx+x*x, xy+x*y, xz+x*z
		yy, yz, zz = yy+y*y, yz+y*z, zz+z*z
	}
	n := float64(len(points))
	m := s.Scale(1 / n)
	c := geom.Mat3{
		{xx/n - m[0]*m[0], xy/n - m[0]*m[1], xz/n - m[0]*m[2]},
		{0, yy/n - m[1]*m[1], yz/n - m[1]*m[2]},
		{0, 0, zz/n - m[2]*m[2]},
	}
	c[1][0], c[2][0], c[2][1] = c[0][1], c[0][2], c[1][2]
	return geom.Box{Min: lo, Max: hi}, eigenFrame(c), nil
}

// eigenFrame diagonalises the symmetric matrix a with cyclic Jacobi
// rotations and returns its eigenvectors as the columns of a right-handed
// rotation, sorted by decreasing eigenvalue.
func eigenFrame(a geom.Mat3) geom.Mat3 {
	v := geom.Identity3()
	for sweep := 0; sweep < 50; sweep++ {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		diag := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2]
		if off <= 1e-30*diag || off == 0 {
			break
		}
		for p := 0; p < 2; p++ {
			for q := p + 1; q < 3; q++ {
				if a[p][q] == 0 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < 3; k++ { // a = a·J
					akp, akq := a[k][p], a[k][q]
					a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < 3; k++ { // a = Jᵀ·a
					apk, aqk := a[p][k], a[q][k]
					a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := 0; k < 3; k++ {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	order := []int{0, 1, 2}
	sort.SliceStable(order, func(x, y int) bool { return a[order[x]][order[x]] > a[order[y]][order[y]] })
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
