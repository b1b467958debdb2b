package hull

import (
	"github.com/autocollide/autocollide/geom"
)

// coplanarRegions groups the triangles of a closed mesh into polygons:
// starting from each unassigned triangle in order, it grows a region over
// adjacent triangles whose three vertices all lie within tol of the seed
// triangle's plane and whose normal points the same way. It returns each
// triangle's region and the region count. Deterministic: regions are
// numbered in triangle order.
func coplanarRegions(v []geom.Vec3, tris [][3]uint32, tol float64) ([]int32, int) {
	ei := newEdgeIndex(len(v), tris)
	region := make([]int32, len(tris))
	for i := range region {
		region[i] = -1
	}
	count := 0
	var stack []int32
	for i, t := range tris {
		if region[i] >= 0 {
			continue
		}
		r := int32(count)
		count++
		n := v[t[1]].Sub(v[t[0]]).Cross(v[t[2]].Sub(v[t[0]])).Normalize()
		d := n.Dot(v[t[0]])
		region[i] = r
		stack = append(stack[:0], int32(i))
		for len(stack) > 0 {
			ti := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			tt := tris[ti]
			for k := 0; k < 3; k++ {
				j := ei.owner(tt[(k+1)%3], tt[k])
				if j < 0 || region[j] >= 0 {
					continue
				}
				u := tris[j]
				m := v[u[1]].Sub(v[u[0]]).Cross(v[u[2]].Sub(v[u[0]]))
				if m.Dot(n) <= 0 {
					continue
				}
				in := true
				for _, x := range u {
					if dd := n.Dot(v[x]) - d; dd > tol || dd < -tol {
						in = false
						break
					}
				}
				if in {
					region[j] = r
					stack = append(stack, j)
				}
			}
		}
	}
	return region, count
}

// PolygonCount returns how many polygons the closed triangle mesh (v, tris)
// has once adjacent triangles within tol of a common plane are merged.
// Coordinates and tol are in the same unit; Hull.Polygons applies it with
// CoplanarTolerance relative to the hull's diagonal.
func PolygonCount(v []geom.Vec3, tris [][3]uint32, tol float64) int {
	_, n := coplanarRegions(v, tris, tol)
	return n
}

// edgeIndex finds, for a triangle mesh, the triangle that owns a directed
// edge, without a hash map: outgoing edges are grouped by start vertex.
type edgeIndex struct {
	start []int32 // start[v]..start[v+1] index into to/tri
	to    []uint32
	tri   []int32
}

func newEdgeIndex(nv int, tris [][3]uint32) edgeIndex {
	e := edgeIndex{start: make([]int32, nv+1), to: make([]uint32, 3*len(tris)), tri: make([]int32, 3*len(tris))}
	for _, t := range tris {
		for _, a := range t {
			e.start[a+1]++
		}
	}
	for v := 0; v < nv; v++ {
		e.start[v+1] += e.start[v]
	}
	fill := append([]int32(nil), e.start[:nv]...)
	for i, t := range tris {
		for k := 0; k < 3; k++ {
			a := t[k]
			e.to[fill[a]] = t[(k+1)%3]
			e.tri[fill[a]] = int32(i)
			fill[a]++
		}
	}
	return e
}

// owner returns the triangle with directed edge a→b (the first one if
// several), or -1.
func (e edgeIndex) owner(a, b uint32) int32 {
	for j := e.start[a]; j < e.start[a+1]; j++ {
		if e.to[j] == b {
			return e.tri[j]
		}
	}
	return -1
}

// countOwner returns how many triangles have the directed edge a→b and
// the first of them (-1 if none), in one pass.
func (e edgeIndex) countOwner(a, b uint32) (int, int32) {
	n, first := 0, int32(-1)
	for j := e.start[a]; j < e.start[a+1]; j++ {
		if e.to[j] == b {
			if n == 0 {
				first = e.tri[j]
			}
			n++
		}
	}
	return n, first
}
