package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Cuts are not capped, so a side of a cut can be one solid region whose
// surface is several connected components: a slab of a thick plate cut on
// four sides keeps only its top and bottom faces. Hulled apart, the two
// faces give two flat hulls and the solid between them belongs to no hull
// (a pocket). joinSolid finds such components and keeps them together.

// raysPerPlane bounds the segments of one component on one cap plane that
// cast rays (both ways), to bound the cost on fine meshes.
const raysPerPlane = 64

// splitSide returns the parts of one side of a cut: its connected pieces,
// pieces that bound one solid region joined (see joinSolid), or the whole
// side when it has too many pieces.
func (d *decomposer) splitSide(s soup, caps []capRef) []*part {
	label, n := componentLabels(s.t)
	switch {
	case n > maxComponents:
		for i := range label {
			label[i] = 0
		}
		n = 1
	case n > 1 && d.solid != nil:
		n = joinSolid(s.t, label, n, caps, d.solid, capTol*d.diag)
	}
	out := make([]*part, n)
	for i := range out {
		out[i] = &part{caps: caps}
	}
	for i, t := range s.t {
		p := out[label[i]]
		p.tris = append(p.tris, t)
		p.inner = append(p.inner, s.in != nil && s.in[i])
	}
	return out
}

// seg2 is a triangle edge lying on a cap plane, in the plane's (u,v)
// coordinates, and the component of its triangle.
type seg2 struct {
	a, b [2]float64
	comp int32
}

// joinSolid merges components that bound one solid region through a cap
// plane. On each cap plane, the triangle edges lying on the plane (both
// ends within tol) outline the solid's cross-section there. From the
// midpoint of (a sample of) each component's segments, a ray in the plane,
// perpendicular to the segment, is cast both ways; when the first segment
// it meets belongs to another component and the gap between them is inside
// the solid (tree is the whole input), the two components bound the same
// region and are joined. The gap lies in the side's convex cell (both ends
// do), so the joined part is one region of the solid. It relabels label in
// place (labels in order of first triangle) and returns the new count.
func joinSolid(ts []tri, label []int32, n int, caps []capRef, tree *bvh, tol float64) int {
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int32) {
		a, b = find(a), find(b)
		if a < b {
			parent[b] = a
		} else if b < a {
			parent[a] = b
		}
	}
	joined := 0
	var segs []seg2
	byComp := make([][]int32, n)
	for _, c := range caps {
		if joined == n-1 {
			break
		}
		sec := c.sec
		segs = segs[:0]
		for k := range byComp {
			byComp[k] = byComp[k][:0]
		}
		for i, t := range ts {
			var on [3]bool
			for k := 0; k < 3; k++ {
				on[k] = math.Abs(sec.pl.eval(t[k])) <= tol
			}
			for k := 0; k < 3; k++ {
				j := (k + 1) % 3
				if on[k] && on[j] && t[k] != t[j] {
					byComp[label[i]] = append(byComp[label[i]], int32(len(segs)))
					segs = append(segs, seg2{sec.to2(t[k]), sec.to2(t[j]), label[i]})
				}
			}
		}
		present := 0
		for _, idx := range byComp {
			if len(idx) > 0 {
				present++
			}
		}
		if present < 2 {
			continue
		}
		for comp, idx := range byComp {
			stride := (len(idx) + raysPerPlane - 1) / raysPerPlane
			for j := 0; j < len(idx); j += stride {
				s := segs[idx[j]]
				ex, ey := s.b[0]-s.a[0], s.b[1]-s.a[1]
				l := math.Hypot(ex, ey)
				if l <= tol {
					continue
				}
				o := [2]float64{(s.a[0] + s.b[0]) / 2, (s.a[1] + s.b[1]) / 2}
				for _, sign := range []float64{1, -1} {
					r := [2]float64{-sign * ey / l, sign * ex / l}
					hit, th := firstSegment(segs, o, r, tol)
					if hit < 0 || find(segs[hit].comp) == find(int32(comp)) {
						continue
					}
					if gapInSolid(sec, o, r, th, tree) {
						union(int32(comp), segs[hit].comp)
						joined++
					}
				}
			}
		}
	}
	if joined == 0 {
		return n
	}
	// Relabel by first triangle.
	newLabel := make([]int32, n)
	for i := range newLabel {
		newLabel[i] = -1
	}
	m := 0
	for i, l := range label {
		r := find(l)
		if newLabel[r] < 0 {
			newLabel[r] = int32(m)
			m++
		}
		label[i] = newLabel[r]
	}
	return m
}

// firstSegment returns the index of the segment that the ray o + t·r
// (t > tol) crosses first, and that t; -1 when it crosses none.
func firstSegment(segs []seg2, o, r [2]float64, tol float64) (int, float64) {
	best, bt := -1, math.Inf(1)
	for i, s := range segs {
		ex, ey := s.b[0]-s.a[0], s.b[1]-s.a[1]
		den := r[0]*ey - r[1]*ex
		if den == 0 {
			continue
		}
		ax, ay := s.a[0]-o[0], s.a[1]-o[1]
		t := (ax*ey - ay*ex) / den
		u := (ax*r[1] - ay*r[0]) / den
		if t > tol && t < bt && u >= 0 && u <= 1 {
			best, bt = i, t
		}
	}
	return best, bt
}

// gapInSolid reports whether the gap o + t·r, 0 < t < th, on the plane of
// sec, is inside the solid: its midpoint and quarter points are.
func gapInSolid(sec *section, o, r [2]float64, th float64, tree *bvh) bool {
	for _, f := range []float64{0.5, 0.25, 0.75} {
		x, y := o[0]+f*th*r[0], o[1]+f*th*r[1]
		p := sec.pl.n.Scale(sec.pl.d).Add(sec.u.Scale(x)).Add(sec.v.Scale(y))
		if !tree.insideSolid(p) {
			return false
		}
	}
	return true
}

// componentLabels labels the triangles by edge- or vertex-connected
// component (corners welded by exact position), numbered in order of first
// triangle, and returns the labels and the count.
func componentLabels(ts []tri) ([]int32, int) {
	parent := make([]int32, len(ts))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	owner := make(map[geom.Vec3]int32, len(ts)*2)
	for i, t := range ts {
		for _, v := range t {
			if o, ok := owner[v]; ok {
				a, b := find(o), find(int32(i))
				if a < b {
					parent[b] = a
				} else if b < a {
					parent[a] = b
				}
			} else {
				owner[v] = int32(i)
			}
		}
	}
	label := make([]int32, len(ts))
	ids := make(map[int32]int32)
	for i := range ts {
		r := find(int32(i))
		k, ok := ids[r]
		if !ok {
			k = int32(len(ids))
			ids[r] = k
		}
		label[i] = k
	}
	return label, len(ids)
}
