package ragdoll

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// TestSegmentDistance: the closed form matches a dense sampling of both
// segments, degenerate ones included.
func TestSegmentDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	v := func() geom.Vec3 { return geom.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1} }
	for k := range 200 {
		p1, q1, p2, q2 := v(), v(), v(), v()
		switch k % 4 {
		case 1:
			q1 = p1
		case 2:
			q2 = p2
		case 3:
			q2 = p2.Add(q1.Sub(p1)) // parallel
		}
		const n = 400
		brute := math.Inf(1)
		for i := 0; i <= n; i++ {
			a := p1.Add(q1.Sub(p1).Scale(float64(i) / n))
			for j := 0; j <= n; j++ {
				brute = min(brute, a.Sub(p2.Add(q2.Sub(p2).Scale(float64(j)/n))).Len())
			}
		}
		d := SegmentDistance(p1, q1, p2, q2)
		if d > brute+1e-12 || d < brute-0.01 {
			t.Fatalf("case %d: %g, sampling gives %g", k, d, brute)
		}
	}
}
