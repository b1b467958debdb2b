package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPointTriangleDist2: against the nearest of a dense grid of points on
// the triangle, for random triangles (a few degenerate) and points: never
// farther than the grid's nearest, never nearer by more than the grid's
// spacing.
func TestPointTriangleDist2(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rv := func() Vec3 { return Vec3{r.Float64()*2 - 1, r.Float64()*2 - 1, r.Float64()*2 - 1} }
	const n = 200
	for trial := 0; trial < 200; trial++ {
		a, b, c := rv(), rv(), rv()
		switch trial % 20 {
		case 0:
			c = a.Add(b).Scale(0.5) // collinear
		case 1:
			b, c = a, a // a point
		}
		p := rv().Scale(2)
		got := math.Sqrt(PointTriangleDist2(p, a, b, c))
		grid := math.Inf(1)
		for i := 0; i <= n; i++ {
			for j := 0; i+j <= n; j++ {
				u, v := float64(i)/n, float64(j)/n
				x := a.Add(b.Sub(a).Scale(u)).Add(c.Sub(a).Scale(v))
				grid = math.Min(grid, p.Sub(x).Len())
			}
		}
		h := (b.Sub(a).Len() + c.Sub(a).Len()) / n
		if got > grid+1e-12 || got < grid-h {
			t.Fatalf("trial %d: distance %g, nearest grid point %g (spacing %g)", trial, got, grid, h)
		}
	}
}
