package hull_test

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// The hull of a cube's corners plus points inside it is the cube: its
// vertices are the input corners themselves, 12 outward triangles.
func ExampleBuild() {
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, geom.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	pts = append(pts, geom.Vec3{0.5, 0.5, 0.5}, geom.Vec3{0.2, 0.7, 0.4})
	h, err := hull.Build(pts, hull.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(h.Vertices), "vertices,", len(h.Triangles), "triangles, volume", h.Volume())
	fmt.Println("reduced:", h.Reduced, "valid:", hull.Validate(h, pts) == nil)
	// Output:
	// 8 vertices, 12 triangles, volume 1
	// reduced: false valid: true
}

// A hull over the vertex limit is replaced by a bounding polytope within
// the limit that still contains every point.
func ExampleBuild_maxVertices() {
	var pts []geom.Vec3
	for i := 0; i < 2000; i++ { // a Fibonacci sphere of radius 1
		y := 1 - 2*(float64(i)+0.5)/2000
		r, a := math.Sqrt(1-y*y), float64(i)*math.Pi*(3-math.Sqrt(5))
		pts = append(pts, geom.Vec3{r * math.Cos(a), y, r * math.Sin(a)})
	}
	h, err := hull.Build(pts, hull.Options{MaxVertices: 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	sphere := 4 * math.Pi / 3
	fmt.Println("reduced:", h.Reduced, "at most 32 vertices:", len(h.Vertices) <= 32)
	fmt.Println("contains every point:", hull.Validate(h, pts) == nil)
	fmt.Println("larger than the sphere:", h.Volume() > sphere, "by less than 20%:", h.Volume() < 1.2*sphere)
	// Output:
	// reduced: true at most 32 vertices: true
	// contains every point: true
	// larger than the sphere: true by less than 20%: true
}
