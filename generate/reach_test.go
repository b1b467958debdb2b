package generate

import (
	"context"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/physics"
)

// TestPrimitiveReach: the reach of a box, sphere, capsule and cylinder
// past the unit cube's hull, against the distances worked out by hand.
func TestPrimitiveReach(t *testing.T) {
	cube, err := hull.Build(cornersOf(geom.Vec3{-0.5, -0.5, -0.5}, geom.Vec3{0.5, 0.5, 0.5}), hull.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(s physics.Shape) Collider {
		c := Collider{Shape: s, Rotation: geom.IdentityQuat()}
		if s.Type == physics.Box {
			cv := boxConvex(geom.Vec3{}, s.Size)
			c.Convex = &cv
		}
		return c
	}
	for _, tc := range []struct {
		name string
		c    Collider
		want float64
	}{
		{"the cube itself", at(physics.Shape{Type: physics.Box, Size: geom.Vec3{1, 1, 1}}), 0},
		{"a box twice as long", at(physics.Shape{Type: physics.Box, Size: geom.Vec3{2, 1, 1}}), 0.5},
		{"a box 1.2 wide", at(physics.Shape{Type: physics.Box, Size: geom.Vec3{1.2, 1.2, 1.2}}), 0.1 * math.Sqrt(3)},
		{"a sphere of radius 1", at(physics.Shape{Type: physics.Sphere, Radius: 1}), 0.5},
		{"a capsule of radius 0.5, height 2", at(physics.Shape{Type: physics.Capsule, Radius: 0.5, RadiusTop: 0.5, RadiusBottom: 0.5, Height: 2}), 1},
		{"a cylinder of radius 1, height 2", at(physics.Shape{Type: physics.Cylinder, RadiusTop: 1, RadiusBottom: 1, Height: 2}), math.Sqrt(0.5)},
		{"an inscribed sphere", at(physics.Shape{Type: physics.Sphere, Radius: 0.5}), 0},
	} {
		if got := primitiveReach(tc.c, cube); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: reach %.6g, want %.6g", tc.name, got, tc.want)
		}
	}
}

// TestPrimitivePartsReach: a block 2×1×1 whose top front edge is cut
// away by a 45° chamfer of leg L. Its box overshoots its hull by
// L²/(4−L²) of the volume, within auto's 15 % up to L = 0.72, but its
// corner stands L/√2 over the chamfer. At L = 0.7 that is 0.49, four
// times the threshold of 5 % of the block's diagonal, and the part stays a
// hull (by the volume rule alone it would become the box); at L = 0.1
// (0.07 over) it becomes the box.
func TestPrimitivePartsReach(t *testing.T) {
	block := func(l float64) Collider {
		pts := []geom.Vec3{{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2 - l, 1, 0}, {2, 1 - l, 0}, {0, 0, 1}, {2, 0, 1}, {0, 1, 1}, {2 - l, 1, 1}, {2, 1 - l, 1}}
		h, err := hull.Build(pts, hull.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return hullCollider(h, Decompose, nil)
	}
	thr := 0.05 * math.Sqrt(6)
	for _, tc := range []struct {
		l     float64
		reach float64
		want  physics.ShapeType
	}{
		{0.7, thr, physics.Convex},
		{0.7, math.Inf(1), physics.Box},
		{0.1, thr, physics.Box},
	} {
		c := block(tc.l)
		out, err := primitiveParts(context.Background(), c.Hull.Vertices, []Collider{c}, DefaultAutoTolerance, tc.reach, Run{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := out[0].Shape.Type; got != tc.want {
			t.Errorf("chamfer %.2g, reach %.3g: a %s, want a %s", tc.l, tc.reach, got, tc.want)
		}
		if out[0].Shape.Type == physics.Box {
			if r, want := primitiveReach(out[0], c.Hull), tc.l/math.Sqrt2; math.Abs(r-want) > 1e-4 { // the fit grows the box by a hair
				t.Errorf("chamfer %.2g: the box reaches %.6g past the hull, want %.6g", tc.l, r, want)
			}
		}
	}
}

// cornersOf returns the 8 corners of the box lo..hi.
func cornersOf(lo, hi geom.Vec3) []geom.Vec3 {
	var out []geom.Vec3
	for i := 0; i < 8; i++ {
		p := lo
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k] = hi[k]
			}
		}
		out = append(out, p)
	}
	return out
}
