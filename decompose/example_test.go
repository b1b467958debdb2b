package decompose_test

import (
	"context"
	"fmt"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Two separate unit cubes in one mesh: their common hull is far too
// concave, so the decomposition returns one hull per cube, together
// holding every input vertex.
func ExampleDecompose() {
	var v []geom.Vec3
	var t [][3]uint32
	for _, x := range []float64{0, 3} {
		o := uint32(len(v))
		for i := 0; i < 8; i++ {
			v = append(v, geom.Vec3{x + float64(i&1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
		}
		for _, f := range [][3]uint32{
			{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
			{2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5},
		} {
			t = append(t, [3]uint32{o + f[0], o + f[1], o + f[2]})
		}
	}
	res, err := decompose.Decompose(context.Background(), v, t, decompose.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Hulls), "hulls")
	for _, h := range res.Hulls {
		fmt.Printf("%d vertices, volume %.3f\n", len(h.Vertices), h.Volume())
	}
	covered := 0
	for _, p := range v {
		for _, h := range res.Hulls {
			if hull.Validate(h, []geom.Vec3{p}) == nil {
				covered++
				break
			}
		}
	}
	fmt.Println(covered, "of", len(v), "vertices inside a hull")
	// Output:
	// 2 hulls
	// 8 vertices, volume 1.000
	// 8 vertices, volume 1.000
	// 16 of 16 vertices inside a hull
}
