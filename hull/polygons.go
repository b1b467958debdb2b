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
	type dedge struct{ a, b uint32 }
	owner := make(map[dedge]int32, 3*len(tris))
	for i, t := range tris {
		for k := 0; k < 3; k++ {
			owner[dedge{t[k], t[(k+1)%3]}] = int32(i)
		}
	}
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
				j, ok := owner[dedge{tt[(k+1)%3], tt[k]}]
				if !ok || region[j] >= 0 {
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
