package mass

import (
	"math/rand"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// TestConvexHullThroughMesh: a convex hull goes through Mesh. The hull of a
// box's corners plus interior points is the box; and Union of one hull is
// the hull.
func TestConvexHullThroughMesh(t *testing.T) {
	r := rand.New(rand.NewSource(41))
	size := geom.Vec3{0.4, 1.1, 2.3}
	q := randQuat(r)
	off := geom.Vec3{5, -3, 100}
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		c := geom.Vec3{float64(i&1) - 0.5, float64(i>>1&1) - 0.5, float64(i>>2&1) - 0.5}.Mul(size)
		pts = append(pts, c)
	}
	for i := 0; i < 200; i++ {
		pts = append(pts, geom.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}.Mul(size).Scale(0.99))
	}
	pts = transformVerts(pts, func(p geom.Vec3) geom.Vec3 { return q.Rotate(p).Add(off) })
	h, err := hull.Build(pts, hull.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !IsClosed(h.Triangles) {
		t.Fatal("hull is not closed")
	}
	got, err := Mesh(h.Vertices, h.Triangles)
	if err != nil {
		t.Fatal(err)
	}
	if e := propErr(got, Box(size).Transform(q, off), 1); e > 1e-10 {
		t.Fatalf("hull of a box: error %g", e)
	}
	u, err := Union([]Convex{{Vertices: h.Vertices, Triangles: h.Triangles}}, 16)
	if err != nil {
		t.Fatal(err)
	}
	if e := propErr(u, got, 1); e > exactTol {
		t.Fatalf("union of one hull: error %g", e)
	}
}
