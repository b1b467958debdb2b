package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

type testMesh struct {
	v []geom.Vec3
	t [][3]uint32
}

// voxels returns the closed outward-wound surface of a union of unit cells.
func voxels(cells [][3]int) testMesh {
	filled := map[[3]int]bool{}
	for _, c := range cells {
		filled[c] = true
	}
	var m testMesh
	idx := map[geom.Vec3]uint32{}
	vert := func(p geom.Vec3) uint32 {
		if i, ok := idx[p]; ok {
			return i
		}
		idx[p] = uint32(len(m.v))
		m.v = append(m.v, p)
		return idx[p]
	}
	for _, c := range cells {
		for ax := 0; ax < 3; ax++ {
			for _, s := range []int{-1, 1} {
				nb := c
				nb[ax] += s
				if filled[nb] {
					continue
				}
				u, w := (ax+1)%3, (ax+2)%3
				var q [4]geom.Vec3
				for k, d := range [4][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
					var p geom.Vec3
					p[ax] = float64(c[ax])
					if s > 0 {
						p[ax]++
					}
					p[u] = float64(c[u] + d[0])
					p[w] = float64(c[w] + d[1])
					q[k] = p
				}
				a, b, cc, dd := vert(q[0]), vert(q[1]), vert(q[2]), vert(q[3])
				if s > 0 {
					m.t = append(m.t, [3]uint32{a, b, cc}, [3]uint32{a, cc, dd})
				} else {
					m.t = append(m.t, [3]uint32{a, cc, b}, [3]uint32{a, dd, cc})
				}
			}
		}
	}
	return m
}

// planar extrudes a set of (x,y) cells by depth cells in z.
func planar(cells [][2]int, depth int) testMesh {
	var c3 [][3]int
	for _, c := range cells {
		for z := 0; z < depth; z++ {
			c3 = append(c3, [3]int{c[0], c[1], z})
		}
	}
	return voxels(c3)
}

// torus returns a closed torus with major radius R and minor r.
func torus(R, r float64, nu, nv int) testMesh {
	var m testMesh
	for i := 0; i < nu; i++ {
		a := 2 * math.Pi * float64(i) / float64(nu)
		for j := 0; j < nv; j++ {
			b := 2 * math.Pi * float64(j) / float64(nv)
			m.v = append(m.v, geom.Vec3{(R + r*math.Cos(b)) * math.Cos(a), (R + r*math.Cos(b)) * math.Sin(a), r * math.Sin(b)})
		}
	}
	id := func(i, j int) uint32 { return uint32((i%nu)*nv + j%nv) }
	for i := 0; i < nu; i++ {
		for j := 0; j < nv; j++ {
			m.t = append(m.t, [3]uint32{id(i, j), id(i+1, j), id(i+1, j+1)}, [3]uint32{id(i, j), id(i+1, j+1), id(i, j+1)})
		}
	}
	return m
}

// uvSphere returns a closed sphere.
func uvSphere(r float64, nu, nv int) testMesh {
	var m testMesh
	m.v = append(m.v, geom.Vec3{0, 0, r}, geom.Vec3{0, 0, -r})
	for j := 1; j < nv; j++ {
		th := math.Pi * float64(j) / float64(nv)
		for i := 0; i < nu; i++ {
			ph := 2 * math.Pi * float64(i) / float64(nu)
			m.v = append(m.v, geom.Vec3{r * math.Sin(th) * math.Cos(ph), r * math.Sin(th) * math.Sin(ph), r * math.Cos(th)})
		}
	}
	ring := func(j, i int) uint32 { return uint32(2 + (j-1)*nu + i%nu) }
	for i := 0; i < nu; i++ {
		m.t = append(m.t, [3]uint32{0, ring(1, i), ring(1, i+1)})
		m.t = append(m.t, [3]uint32{1, ring(nv-1, i+1), ring(nv-1, i)})
		for j := 1; j < nv-1; j++ {
			m.t = append(m.t, [3]uint32{ring(j, i), ring(j+1, i), ring(j+1, i+1)}, [3]uint32{ring(j, i), ring(j+1, i+1), ring(j, i+1)})
		}
	}
	return m
}

// box returns a closed box mesh.
func box(min, max geom.Vec3) testMesh {
	m := voxels([][3]int{{0, 0, 0}})
	for i, p := range m.v {
		m.v[i] = min.Add(p.Mul(max.Sub(min)))
	}
	return m
}

func concat(ms ...testMesh) testMesh {
	var out testMesh
	for _, m := range ms {
		off := uint32(len(out.v))
		out.v = append(out.v, m.v...)
		for _, t := range m.t {
			out.t = append(out.t, [3]uint32{t[0] + off, t[1] + off, t[2] + off})
		}
	}
	return out
}
