package hull

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

func cubePoints(lo, hi geom.Vec3) []geom.Vec3 {
	var out []geom.Vec3
	for i := 0; i < 8; i++ {
		p := lo
		for k := 0; k < 3; k++ {
			if i>>k&1 == 1 {
				p[k] = hi[k]
			}
		}
		out = append(out, p)
	}
	return out
}

// TestPenetration: the shortest separating translation of boxes overlapping
// side by side, nested, apart, touching, and rotated (where the boxes'
// bounds alone would say deeper).
func TestPenetration(t *testing.T) {
	unit := cubePoints(geom.Vec3{}, geom.Vec3{1, 1, 1})
	rot := geom.QuatFromMat3(geom.FromCols(geom.Vec3{math.Sqrt2 / 2, math.Sqrt2 / 2, 0}, geom.Vec3{-math.Sqrt2 / 2, math.Sqrt2 / 2, 0}, geom.Vec3{0, 0, 1}))
	var diamond []geom.Vec3
	for _, p := range cubePoints(geom.Vec3{-0.5, -0.5, -0.5}, geom.Vec3{0.5, 0.5, 0.5}) {
		// A unit cube turned 45° about z, its corner 0.1 inside the unit cube's +x face.
		diamond = append(diamond, rot.Rotate(p).Add(geom.Vec3{0.9 + math.Sqrt2/2, 0.5, 0.5}))
	}
	cases := []struct {
		name string
		b    []geom.Vec3
		want float64
	}{
		{"side by side", cubePoints(geom.Vec3{0.7, 0, 0}, geom.Vec3{1.7, 1, 1}), 0.3},
		{"nested", cubePoints(geom.Vec3{0.4, 0.4, 0.4}, geom.Vec3{0.6, 0.6, 0.6}), 0.6},
		{"apart", cubePoints(geom.Vec3{1.5, 0, 0}, geom.Vec3{2.5, 1, 1}), 0},
		{"touching", cubePoints(geom.Vec3{1, 0, 0}, geom.Vec3{2, 1, 1}), 0},
		{"corner in a face", diamond, 0.1},
	}
	for _, c := range cases {
		got, err := Penetration(unit, c.b)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: depth %g, want %g", c.name, got, c.want)
		}
		back, _ := Penetration(c.b, unit)
		if math.Abs(back-got) > 1e-12 {
			t.Errorf("%s: depth %g one way, %g the other", c.name, got, back)
		}
	}
}
