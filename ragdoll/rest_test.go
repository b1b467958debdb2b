package ragdoll

import (
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// TestRestOverlaps: overlapping bodies name each other, ascending, except
// a body and its parent; bodies that only touch do not overlap.
func TestRestOverlaps(t *testing.T) {
	ball := func(x, r float64) Solid { p := geom.Vec3{x, 0, 0}; return RoundSolid(p, p, r, nil) }
	cube := func(x float64) Solid {
		var pts []geom.Vec3
		for i := range 8 {
			pts = append(pts, geom.Vec3{x + float64(i&1) - 0.5, float64(i>>1&1) - 0.5, float64(i>>2&1) - 0.5})
		}
		return PointSolid(pts)
	}
	rd := &Ragdoll{Bodies: []Body{{Parent: -1}, {Parent: 0}, {Parent: 1}, {Parent: -1}, {Parent: -1}, {Parent: 3}}}
	solids := []Solid{
		ball(0, 1),   // 0: overlaps 1, its child, and 2
		ball(1, 1),   // 1: overlaps 0, its parent, and 2, its child
		ball(1.5, 1), // 2
		cube(5),      // 3: touches 4, face to face
		cube(6),      // 4: overlaps 5
		cube(6.5),    // 5: a child of 3, which it does not reach
	}
	want := [][]int{{2}, nil, {0}, nil, {5}, {4}}
	got := rd.RestOverlaps(solids)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("body %d overlaps %v, want %v", i, got[i], want[i])
		}
	}
}
