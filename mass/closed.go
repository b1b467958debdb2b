package mass

import (
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// IsClosed reports whether the triangles form a closed, consistently wound
// surface: every directed edge a→b occurs exactly once and its reverse b→a
// occurs exactly once, i.e. every edge is shared by exactly two triangles
// with opposite orientations. Vertices are compared by index, so the caller
// welds first (or uses IsClosedByPosition). Triangles with a repeated index
// are ignored: their edges cancel in pairs and they enclose nothing. An
// empty list is not closed.
//
// The usual policy is: mass from the mesh when IsClosed, otherwise from the
// colliders.
func IsClosed(triangles [][3]uint32) bool {
	// An edge a→b with a < b goes to up, one with a > b goes to down as b→a.
	// Closed and consistently wound ⇔ both sorted lists are equal and
	// without repeats.
	up := make([]uint64, 0, 3*len(triangles)/2)
	down := make([]uint64, 0, 3*len(triangles)/2)
	for _, t := range triangles {
		if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
			continue
		}
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if a < b {
				up = append(up, uint64(a)<<32|uint64(b))
			} else {
				down = append(down, uint64(b)<<32|uint64(a))
			}
		}
	}
	if len(up) == 0 || len(up) != len(down) {
		return false
	}
	slices.Sort(up)
	slices.Sort(down)
	for i := range up {
		if up[i] != down[i] || (i > 0 && up[i] == up[i-1]) {
			return false
		}
	}
	return true
}

// IsClosedByPosition is IsClosed after welding vertices that have exactly the
// same position (−0 and +0 are equal). It returns false for an index out of
// range or a non-finite vertex.
func IsClosedByPosition(vertices []geom.Vec3, triangles [][3]uint32) bool {
	canon := make([]uint32, len(vertices))
	first := make(map[geom.Vec3]uint32, len(vertices))
	for i, v := range vertices {
		if !v.IsFinite() {
			return false
		}
		for k := range v {
			if v[k] == 0 {
				v[k] = 0 // −0 → +0
			}
		}
		j, ok := first[v]
		if !ok {
			j = uint32(i)
			first[v] = j
		}
		canon[i] = j
	}
	n := uint64(len(vertices))
	if n > math.MaxUint32+1 {
		return false
	}
	welded := make([][3]uint32, len(triangles))
	for i, t := range triangles {
		for k := 0; k < 3; k++ {
			if uint64(t[k]) >= n {
				return false
			}
			welded[i][k] = canon[t[k]]
		}
	}
	return IsClosed(welded)
}
