package fit_test

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
)

// The corners of a 4×2×1 box turned 30° about Y: the oriented box finds
// the box again (up to the containment margin of 1e-6 of the diagonal),
// where the axis-aligned one is larger; the sphere's diameter is the
// box's diagonal.
func ExampleFit() {
	turn := geom.Quat{0, math.Sin(math.Pi / 12), 0, math.Cos(math.Pi / 12)} // 30° about Y
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		c := geom.Vec3{4 * (float64(i&1) - 0.5), 2 * (float64(i>>1&1) - 0.5), float64(i>>2&1) - 0.5}
		pts = append(pts, turn.Rotate(c))
	}
	for _, k := range []fit.Kind{fit.KindBox, fit.KindAABB, fit.KindSphere} {
		s, err := fit.Fit(k, pts, fit.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		inside := true
		for _, p := range pts {
			inside = inside && fit.Contains(s, p, 0)
		}
		fmt.Printf("%s: volume %.3f, every point inside: %v\n", k, s.Volume, inside)
	}
	// Output:
	// box: volume 8.000, every point inside: true
	// aabb: volume 22.723, every point inside: true
	// sphere: volume 50.388, every point inside: true
}
