package mesh

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Weld merges vertices closer than eps (eps ≤ 0: only identical ones) and
// returns the welded vertices and the triangles re-indexed onto them,
// without the triangles that collapse (two corners welded together).
// Each vertex is merged into the lowest-indexed earlier kept vertex within
// eps, so the result is deterministic and follows the input order; merging
// does not chain (a vertex is compared with kept vertices only).
// Vertices must be finite.
func Weld(vertices []geom.Vec3, triangles [][3]uint32, eps float64) ([]geom.Vec3, [][3]uint32) {
	type cell [3]int64
	cellOf := func(p geom.Vec3) cell {
		if eps <= 0 {
			// +0 turns −0 into 0, so the two zeros share a cell.
			return cell{int64(math.Float64bits(p[0] + 0)), int64(math.Float64bits(p[1] + 0)), int64(math.Float64bits(p[2] + 0))}
		}
		return cell{int64(math.Floor(p[0] / eps)), int64(math.Floor(p[1] / eps)), int64(math.Floor(p[2] / eps))}
	}
	grid := make(map[cell][]uint32)
	remap := make([]uint32, len(vertices))
	var out []geom.Vec3
	for i, p := range vertices {
		c := cellOf(p)
		best := -1
		if eps <= 0 {
			for _, k := range grid[c] {
				if out[k] == p {
					best = int(k)
					break
				}
			}
		} else {
			for dx := int64(-1); dx <= 1; dx++ {
				for dy := int64(-1); dy <= 1; dy++ {
					for dz := int64(-1); dz <= 1; dz++ {
						for _, k := range grid[cell{c[0] + dx, c[1] + dy, c[2] + dz}] {
							if (best < 0 || int(k) < best) && out[k].Sub(p).Len() <= eps {
								best = int(k)
							}
						}
					}
				}
			}
		}
		if best < 0 {
			best = len(out)
			out = append(out, p)
			grid[c] = append(grid[c], uint32(best))
		}
		remap[i] = uint32(best)
	}
	tris := make([][3]uint32, 0, len(triangles))
	for _, t := range triangles {
		w := [3]uint32{remap[t[0]], remap[t[1]], remap[t[2]]}
		if w[0] == w[1] || w[1] == w[2] || w[0] == w[2] {
			continue
		}
		tris = append(tris, w)
	}
	return out, tris
}
