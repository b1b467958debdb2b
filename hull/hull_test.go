package hull

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

func TestCubeVolume(t *testing.T) {
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, geom.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	pts = append(pts, geom.Vec3{0.5, 0.5, 0.5})
	h, err := Build(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := h.Volume(); math.Abs(v-1) > 1e-12 {
		t.Fatalf("volume %v, want 1 (outward winding)", v)
	}
}
