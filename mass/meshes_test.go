package mass

import (
	"math"
	"math/rand"

	"github.com/autocollide/autocollide/geom"
)

// Test meshes, all closed and wound outward (counter-clockwise seen from
// outside).

// boxMesh returns a box of the given size centred on the origin with each
// face split into n×n quads (12·n² triangles), vertices welded.
func boxMesh(size geom.Vec3, n int) ([]geom.Vec3, [][3]uint32) {
	index := map[[3]int]uint32{}
	var verts []geom.Vec3
	vid := func(g [3]int) uint32 {
		if i, ok := index[g]; ok {
			return i
		}
		i := uint32(len(verts))
		index[g] = i
		var p geom.Vec3
		for a := 0; a < 3; a++ {
			p[a] = (float64(g[a])/float64(n) - 0.5) * size[a]
		}
		verts = append(verts, p)
		return i
	}
	var tris [][3]uint32
	for axis := 0; axis < 3; axis++ {
		u, v := (axis+1)%3, (axis+2)%3 // (u, v, axis) is right-handed
		for side := 0; side < 2; side++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					g := func(di, dj int) uint32 {
						var c [3]int
						c[axis] = side * n
						c[u], c[v] = i+di, j+dj
						return vid(c)
					}
					a, b, c, d := g(0, 0), g(1, 0), g(1, 1), g(0, 1)
					if side == 1 { // normal +axis: u×v = axis, CCW in (u, v)
						tris = append(tris, [3]uint32{a, b, c}, [3]uint32{a, c, d})
					} else {
						tris = append(tris, [3]uint32{a, c, b}, [3]uint32{a, d, c})
					}
				}
			}
		}
	}
	return verts, tris
}

// icosphere returns a unit icosahedron subdivided s times, projected on the
// sphere of radius r.
func icosphere(s int, r float64) ([]geom.Vec3, [][3]uint32) {
	t := (1 + math.Sqrt(5)) / 2
	verts := []geom.Vec3{
		{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
		{0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
		{t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1},
	}
	for i := range verts {
		verts[i] = verts[i].Normalize()
	}
	tris := [][3]uint32{
		{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11},
		{1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
		{3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9},
		{4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1},
	}
	for ; s > 0; s-- {
		mid := map[[2]uint32]uint32{}
		m := func(a, b uint32) uint32 {
			k := [2]uint32{min(a, b), max(a, b)}
			if i, ok := mid[k]; ok {
				return i
			}
			i := uint32(len(verts))
			verts = append(verts, verts[a].Add(verts[b]).Normalize())
			mid[k] = i
			return i
		}
		next := make([][3]uint32, 0, 4*len(tris))
		for _, tr := range tris {
			a, b, c := tr[0], tr[1], tr[2]
			ab, bc, ca := m(a, b), m(b, c), m(c, a)
			next = append(next, [3]uint32{a, ab, ca}, [3]uint32{b, bc, ab}, [3]uint32{c, ca, bc}, [3]uint32{ab, bc, ca})
		}
		tris = next
	}
	for i := range verts {
		verts[i] = verts[i].Scale(r)
	}
	return verts, tris
}

// revolve builds a closed surface of revolution about +Y from a profile of
// (radius, y) points running from the bottom pole to the top pole (first and
// last radius 0), with seg segments around.
func revolve(profile [][2]float64, seg int) ([]geom.Vec3, [][3]uint32) {
	var verts []geom.Vec3
	n := len(profile)
	ring := make([]uint32, n) // first vertex index of each ring (poles: one vertex)
	for i, p := range profile {
		ring[i] = uint32(len(verts))
		if p[0] == 0 {
			verts = append(verts, geom.Vec3{0, p[1], 0})
			continue
		}
		for k := 0; k < seg; k++ {
			a := 2 * math.Pi * float64(k) / float64(seg)
			verts = append(verts, geom.Vec3{p[0] * math.Cos(a), p[1], -p[0] * math.Sin(a)})
		}
	}
	at := func(i, k int) uint32 {
		if profile[i][0] == 0 {
			return ring[i]
		}
		return ring[i] + uint32(k%seg)
	}
	var tris [][3]uint32
	for i := 0; i+1 < n; i++ {
		for k := 0; k < seg; k++ {
			a, b := at(i, k), at(i, k+1)
			c, d := at(i+1, k+1), at(i+1, k)
			if a != b {
				tris = append(tris, [3]uint32{a, b, c})
			}
			if c != d {
				tris = append(tris, [3]uint32{a, c, d})
			}
		}
	}
	return verts, tris
}

// cylinderMesh is a prism over a regular seg-gon inscribed in radius r.
func cylinderMesh(h, r float64, seg int) ([]geom.Vec3, [][3]uint32) {
	return revolve([][2]float64{{0, -h / 2}, {r, -h / 2}, {r, h / 2}, {0, h / 2}}, seg)
}

// capsuleMesh has rings latitude rings per hemisphere.
func capsuleMesh(h, r float64, seg, rings int) ([]geom.Vec3, [][3]uint32) {
	var prof [][2]float64
	for i := 0; i <= rings; i++ { // bottom cap, pole to equator
		a := -math.Pi/2 + math.Pi/2*float64(i)/float64(rings)
		prof = append(prof, [2]float64{r * math.Cos(a), -h/2 + r*math.Sin(a)})
	}
	for i := 0; i <= rings; i++ { // top cap, equator to pole
		a := math.Pi / 2 * float64(i) / float64(rings)
		prof = append(prof, [2]float64{r * math.Cos(a), h/2 + r*math.Sin(a)})
	}
	prof[0][0], prof[len(prof)-1][0] = 0, 0
	return revolve(prof, seg)
}

// torusMesh: major radius R about +Y, minor radius r, nu × nv quads.
func torusMesh(R, r float64, nu, nv int) ([]geom.Vec3, [][3]uint32) {
	verts := make([]geom.Vec3, 0, nu*nv)
	for i := 0; i < nu; i++ {
		u := 2 * math.Pi * float64(i) / float64(nu)
		for j := 0; j < nv; j++ {
			v := 2 * math.Pi * float64(j) / float64(nv)
			rr := R + r*math.Cos(v)
			verts = append(verts, geom.Vec3{rr * math.Cos(u), r * math.Sin(v), -rr * math.Sin(u)})
		}
	}
	id := func(i, j int) uint32 { return uint32((i%nu)*nv + j%nv) }
	var tris [][3]uint32
	for i := 0; i < nu; i++ {
		for j := 0; j < nv; j++ {
			a, b, c, d := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			tris = append(tris, [3]uint32{a, b, c}, [3]uint32{a, c, d})
		}
	}
	return verts, tris
}

func randQuat(r *rand.Rand) geom.Quat {
	return geom.Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
}

func randVec(r *rand.Rand, s float64) geom.Vec3 {
	return geom.Vec3{s * r.NormFloat64(), s * r.NormFloat64(), s * r.NormFloat64()}
}

// matErr returns the largest entry of |a−b| divided by the largest entry of |b|.
func matErr(a, b geom.Mat3) float64 {
	var num, den float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			num = math.Max(num, math.Abs(a[i][j]-b[i][j]))
			den = math.Max(den, math.Abs(b[i][j]))
		}
	}
	if den == 0 {
		return num
	}
	return num / den
}

func relErr(a, b float64) float64 {
	if b == 0 {
		return math.Abs(a)
	}
	return math.Abs(a-b) / math.Abs(b)
}

// propErr returns the largest relative error between two Properties: volume,
// centre of mass relative to scale, inertia relative to its largest entry.
func propErr(a, b Properties, scale float64) float64 {
	e := relErr(a.Volume, b.Volume)
	e = math.Max(e, a.CenterOfMass.Sub(b.CenterOfMass).Len()/scale)
	return math.Max(e, matErr(a.Inertia, b.Inertia))
}

func diagMat(d [3]float64) geom.Mat3 {
	return geom.Mat3{{d[0], 0, 0}, {0, d[1], 0}, {0, 0, d[2]}}
}

func transformVerts(v []geom.Vec3, f func(geom.Vec3) geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(v))
	for i, p := range v {
		out[i] = f(p)
	}
	return out
}
