package geom

import (
	"math"
	"testing"
)

// TestCirclePoints: n points at radius R and height Y, the first on +X,
// the second a turn of 2π/n toward +Z.
func TestCirclePoints(t *testing.T) {
	c := Circle{Y: 2, R: 3}
	pts := c.Points(16)
	if len(pts) != 16 || pts[0] != (Vec3{3, 2, 0}) {
		t.Fatalf("%d points, first %v", len(pts), pts[0])
	}
	for k, p := range pts {
		if math.Abs(math.Hypot(p[0], p[2])-3) > 1e-12 || p[1] != 2 {
			t.Errorf("point %d %v is off the circle", k, p)
		}
	}
	if a := math.Atan2(pts[1][2], pts[1][0]); math.Abs(a-2*math.Pi/16) > 1e-12 {
		t.Errorf("second point at %g rad, want 2π/16", a)
	}
}

// TestLatitudes: the circles lie on the sphere, from the north pole (a
// point) through the equator (radius r) to the south pole.
func TestLatitudes(t *testing.T) {
	cs := Latitudes(1, 2, 8, 0, 8)
	if len(cs) != 9 || cs[0].Y != 3 || math.Abs(cs[4].R-2) > 1e-12 || math.Abs(cs[4].Y-1) > 1e-12 || math.Abs(cs[8].Y+1) > 1e-12 {
		t.Fatalf("circles %v", cs)
	}
	for i, c := range cs {
		if d := math.Hypot(c.Y-1, c.R); math.Abs(d-2) > 1e-12 {
			t.Errorf("circle %d %v is %g from the centre, want 2", i, c, d)
		}
	}
	if got := Latitudes(0, 1, 8, 1, 7); len(got) != 7 || got[0] != (Circle{math.Cos(math.Pi / 8), math.Sin(math.Pi / 8)}) {
		t.Errorf("bands 1 to 7: %v", got)
	}
}
