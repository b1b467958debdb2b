package omi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// TestPrincipalConvention: the seed's inertiaTensor splits into moments in
// increasing order and a proper rotation with w ≥ 0 that give the tensor
// back (I = R·diag(d)·Rᵀ).
func TestPrincipalConvention(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	for i := 0; i < 500; i++ {
		q := geom.Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		rot := q.Mat3()
		d := [3]float64{r.Float64() * 5, r.Float64() * 5, r.Float64() * 5}
		var tensor [9]float64
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				for k := 0; k < 3; k++ {
					tensor[3*a+b] += rot[a][k] * d[k] * rot[b][k]
				}
			}
		}
		tensor[3], tensor[6], tensor[7] = tensor[1], tensor[2], tensor[5]
		moments, orient, err := principal(tensor)
		if err != nil {
			t.Fatal(err)
		}
		if moments[0] > moments[1] || moments[1] > moments[2] {
			t.Fatalf("moments %v not increasing", moments)
		}
		if orient[3] < 0 {
			t.Fatalf("orientation %v has w < 0", orient)
		}
		m := geom.Quat(orient).Mat3()
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				got := 0.0
				for k := 0; k < 3; k++ {
					got += m[a][k] * moments[k] * m[b][k]
				}
				if math.Abs(got-tensor[3*a+b]) > 1e-9 {
					t.Fatalf("tensor %v: R·diag(d)·Rᵀ[%d][%d] = %g, want %g", tensor, a, b, got, tensor[3*a+b])
				}
			}
		}
	}
}
