// Package pointcloud makes the deterministic point sets that the hull tests
// and the quickhull-go comparison (tools/hull-compare) run on: random
// clouds of several shapes, lattices, and degenerate sets (single points,
// lines, planes, NaN and infinite coordinates), each in several placements.
package pointcloud

import (
	"math"
	"math/rand/v2"

	"github.com/autocollide/autocollide/geom"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

// UniformCube returns n points uniform in the unit cube centred on the
// origin.
func UniformCube(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = geom.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}
	}
	return p
}

// OnSphere returns n points uniform on the unit sphere.
func OnSphere(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	}
	return p
}

// OnCubeFaces puts points exactly on the faces of the unit cube: many
// exactly coplanar points, the classic quickhull stress case.
func OnCubeFaces(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	p := make([]geom.Vec3, n)
	for i := range p {
		q := geom.Vec3{r.Float64(), r.Float64(), r.Float64()}
		q[r.IntN(3)] = float64(r.IntN(2))
		p[i] = q
	}
	return p
}

// Clustered returns n points in six small Gaussian clusters.
func Clustered(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	centers := UniformCube(6, seed+100)
	p := make([]geom.Vec3, n)
	for i := range p {
		c := centers[r.IntN(len(centers))]
		p[i] = c.Add(geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Scale(0.02))
	}
	return p
}

// Grid is the k×k×k integer lattice: many exactly coplanar and collinear
// points.
func Grid(k int) []geom.Vec3 {
	var p []geom.Vec3
	for x := 0; x < k; x++ {
		for y := 0; y < k; y++ {
			for z := 0; z < k; z++ {
				p = append(p, geom.Vec3{float64(x), float64(y), float64(z)})
			}
		}
	}
	return p
}

// Tilted maps n random 2D points into a tilted plane (coplanar input).
func Tilted(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	u := geom.Vec3{1, 2, 3}.Normalize()
	v := u.Cross(geom.Vec3{0, 0, 1}).Normalize()
	o := geom.Vec3{0.3, -0.2, 0.7}
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = o.Add(u.Scale(r.Float64())).Add(v.Scale(r.Float64()))
	}
	return p
}

// Collinear returns n random points on a segment.
func Collinear(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	d := geom.Vec3{1, -2, 0.5}
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = geom.Vec3{1, 1, 1}.Add(d.Scale(r.Float64()))
	}
	return p
}

// Case is a named point set and the dimension of the affine span of its
// finite points: 0 (one point), 1 (a line), 2 (a plane) or 3.
type Case struct {
	Name   string
	Points []geom.Vec3
	Dim    int
}

// Cases returns the test clouds, from well-spread random points to every
// kind of degenerate input.
func Cases() []Case {
	nan, inf := math.NaN(), math.Inf(1)
	dup := make([]geom.Vec3, 0, 400)
	for i := 0; i < 100; i++ {
		dup = append(dup, geom.Vec3{0, 0, 0}, geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, 1})
	}
	withNaN := append(UniformCube(500, 9), geom.Vec3{nan, 0, 0}, geom.Vec3{inf, 1, 2}, geom.Vec3{0, -inf, 0})
	nanFirst := append([]geom.Vec3{{nan, nan, nan}, {inf, 0, 0}}, UniformCube(500, 10)...)
	var flatGrid []geom.Vec3
	for _, q := range Grid(12) {
		if q[2] == 0 {
			flatGrid = append(flatGrid, q)
		}
	}
	return []Case{
		{"uniform", UniformCube(3000, 1), 3},
		{"sphere", OnSphere(3000, 2), 3},
		{"cubefaces", OnCubeFaces(3000, 3), 3},
		{"clustered", Clustered(3000, 4), 3},
		{"grid", Grid(9), 3},
		{"tetra", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 3},
		{"duplicates", dup, 3},
		{"nan-mixed", withNaN, 3},
		{"nan-first", nanFirst, 3},
		{"one", []geom.Vec3{{1, 2, 3}}, 0},
		{"one-repeated", []geom.Vec3{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, 0},
		{"origin", []geom.Vec3{{0, 0, 0}}, 0},
		{"two", []geom.Vec3{{0, 0, 0}, {1, 1, 1}}, 1},
		{"three", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, 2},
		{"three-collinear", []geom.Vec3{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}, 1},
		{"square", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 2},
		{"collinear", Collinear(500, 5), 1},
		{"coplanar", Tilted(2000, 6), 2},
		{"coplanar-grid", flatGrid, 2},
	}
}

// Placement scales a point set, then moves it.
type Placement struct {
	Name   string // appended to the case's name; empty for the identity
	Scale  float64
	Offset geom.Vec3
}

// Placements returns the identity, a far offset and two scales: the
// placements a scale-invariant algorithm must treat alike.
func Placements() []Placement {
	return []Placement{
		{"", 1, geom.Vec3{}},
		{"+1e6", 1, geom.Vec3{1e6, -1e6, 1e6}},
		{"*1e-4", 1e-4, geom.Vec3{}},
		{"*1e4", 1e4, geom.Vec3{}},
	}
}

// Apply returns the points p scaled and moved (a new slice).
func (pl Placement) Apply(p []geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(p))
	for i, q := range p {
		out[i] = q.Scale(pl.Scale).Add(pl.Offset)
	}
	return out
}
