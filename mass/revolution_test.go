package mass

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// arcProfile appends to a profile of (radius, y) points (revolve's) the
// ball of centre y = c and radius r from latitude a0 to a1.
func arcProfile(p [][2]float64, c, r, a0, a1 float64, n int) [][2]float64 {
	for i := 0; i <= n; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		p = append(p, [2]float64{math.Max(0, r*math.Cos(a)), c + r*math.Sin(a)})
	}
	return p
}

// near reports whether two properties agree within rel of the larger
// scale (volume; the inertia's largest entry; the length scale for the
// centre of mass).
func near(a, b Properties, rel, length float64) bool {
	if math.Abs(a.Volume-b.Volume) > rel*b.Volume {
		return false
	}
	if a.CenterOfMass.Sub(b.CenterOfMass).Len() > rel*length {
		return false
	}
	scale := math.Max(math.Abs(b.Inertia[0][0]), math.Abs(b.Inertia[1][1]))
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(a.Inertia[i][j]-b.Inertia[i][j]) > rel*scale {
				return false
			}
		}
	}
	return true
}

// TestTaperedEqualRadii: with equal radii the tapered forms are the closed
// forms of Cylinder and Capsule, and the integral they fall back on agrees
// with them.
func TestTaperedEqualRadii(t *testing.T) {
	for _, c := range [][2]float64{{2, 0.5}, {0.3, 1}, {0, 0.7}} {
		if got, want := TaperedCylinder(c[0], c[1], c[1]), Cylinder(c[0], c[1]); !near(got, want, 1e-12, c[0]+c[1]) {
			t.Errorf("cylinder h=%g r=%g: %+v, want %+v", c[0], c[1], got, want)
		}
		if got, want := TaperedCapsule(c[0], c[1], c[1]), Capsule(c[0], c[1]); !near(got, want, 1e-12, c[0]+c[1]) {
			t.Errorf("capsule h=%g r=%g: %+v, want %+v", c[0], c[1], got, want)
		}
		h, r := c[0], c[1]
		if got, want := revolution([]profileSpan{{-h / 2, h / 2, linearRadius(-h/2, r, h/2, r)}}), Cylinder(h, r); !near(got, want, 1e-12, h+r) {
			t.Errorf("integrated cylinder h=%g r=%g: %+v, want %+v", h, r, got, want)
		}
		if got, want := revolution([]profileSpan{{-h/2 - r, -h / 2, ballRadius(-h/2, r)}, {-h / 2, h / 2, linearRadius(-h/2, r, h/2, r)}, {h / 2, h/2 + r, ballRadius(h/2, r)}}), Capsule(h, r); !near(got, want, 1e-12, h+r) {
			t.Errorf("integrated capsule h=%g r=%g: %+v, want %+v", h, r, got, want)
		}
	}
}

// TestTaperedAgainstMesh: a frustum's and a tapered capsule's volume,
// centre of mass and inertia agree with the exact integral of a fine
// tessellation of their definition (within its chord error), and the
// frustum's volume with πh(b² + bt + t²)/3.
func TestTaperedAgainstMesh(t *testing.T) {
	const n = 512
	for _, c := range []struct{ h, top, bottom float64 }{{2, 0.25, 0.5}, {1, 0.6, 0.1}, {0.5, 0.3, 0.6}} {
		got := TaperedCylinder(c.h, c.top, c.bottom)
		vs, ts := revolve([][2]float64{{0, -c.h / 2}, {c.bottom, -c.h / 2}, {c.top, c.h / 2}, {0, c.h / 2}}, n)
		want, err := Mesh(vs, ts)
		if err != nil {
			t.Fatal(err)
		}
		if !near(got, want, 1e-3, c.h) {
			t.Errorf("frustum %+v: %+v, mesh %+v", c, got, want)
		}
		if v := math.Pi * c.h * (c.bottom*c.bottom + c.bottom*c.top + c.top*c.top) / 3; math.Abs(got.Volume-v) > 1e-12*v {
			t.Errorf("frustum %+v: volume %g, want %g", c, got.Volume, v)
		}
		if got.CenterOfMass[1]*(c.bottom-c.top) >= 0 {
			t.Errorf("frustum %+v: centre of mass %v not towards the wider end", c, got.CenterOfMass)
		}

		got = TaperedCapsule(c.h, c.top, c.bottom)
		phi := math.Asin((c.bottom - c.top) / c.h)
		var p [][2]float64
		p = arcProfile(p, -c.h/2, c.bottom, -math.Pi/2, phi, n)
		p = arcProfile(p, c.h/2, c.top, phi, math.Pi/2, n)
		p[0][0], p[len(p)-1][0] = 0, 0
		vs, ts = revolve(p, n)
		if want, err = Mesh(vs, ts); err != nil {
			t.Fatal(err)
		}
		if !near(got, want, 1e-3, c.h+c.top+c.bottom) {
			t.Errorf("tapered capsule %+v: %+v, mesh %+v", c, got, want)
		}
	}
	// One ball inside the other: the hull is the larger ball.
	if got, want := TaperedCapsule(0.2, 0.1, 0.5), Sphere(0.5).Transform(geom.IdentityQuat(), geom.Vec3{0, -0.1, 0}); !near(got, want, 1e-12, 1) {
		t.Errorf("nested balls: %+v, want %+v", got, want)
	}
}
