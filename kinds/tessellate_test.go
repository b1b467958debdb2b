package kinds

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
)

// sampleShapes are one shape of each primitive type, tapered where the
// type allows it.
var sampleShapes = []physics.Shape{
	{Type: physics.Box, Size: [3]float64{1, 2, 3}},
	{Type: physics.Sphere, Radius: 0.7},
	{Type: physics.Capsule, Height: 1.5, RadiusTop: 0.4, RadiusBottom: 0.4},
	{Type: physics.Cylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.5},
	{Type: physics.Cylinder, Height: 2, RadiusTop: 0.25, RadiusBottom: 0.5},
}

// signedVolume is the volume a closed, consistently wound mesh encloses.
func signedVolume(vs []geom.Vec3, ts [][3]uint32) float64 {
	v := 0.0
	for _, t := range ts {
		v += vs[t[0]].Dot(vs[t[1]].Cross(vs[t[2]])) / 6
	}
	return v
}

// TestTessellationAgreesWithMass: every shape row with a mass function
// has a tessellation (a new shape type cannot be drawn by the preview
// without one), and for each sample shape the tessellation's volume is its
// mass function's within the chord error (3 %), tapered capsules and
// cylinders too.
func TestTessellationAgreesWithMass(t *testing.T) {
	for _, row := range Shapes() {
		if row.Mass != nil && row.Tessellate == nil {
			t.Errorf("%s has a mass but no tessellation", row.Type)
		}
	}
	tapered := physics.Shape{Type: physics.Capsule, Height: 1, RadiusTop: 0.2, RadiusBottom: 0.5}
	for _, s := range append(sampleShapes[:len(sampleShapes):len(sampleShapes)], tapered) {
		row, _ := ShapeOf(s.Type)
		vs, ts := row.Tessellate(s)
		// Every solid is wound outward: its signed volume is positive.
		got, want := signedVolume(vs, ts), row.Mass(s).Volume
		if math.Abs(got-want) > 0.03*want {
			t.Errorf("%+v: tessellated volume %.5g, mass volume %.5g", s, got, want)
		}
	}
}

// inside returns how far p lies outside the round shape s (≤ 0 inside),
// from its definition: a sphere, the hull of a capsule's two end spheres
// of equal radius, a cone frustum.
func inside(s physics.Shape, p geom.Vec3) float64 {
	switch s.Type {
	case physics.Sphere:
		return p.Len() - s.Radius
	case physics.Capsule:
		y := math.Max(-s.Height/2, math.Min(s.Height/2, p[1]))
		return p.Sub(geom.Vec3{0, y, 0}).Len() - s.RadiusTop
	case physics.Cylinder:
		if math.Abs(p[1]) > s.Height/2 {
			return math.Abs(p[1]) - s.Height/2
		}
		tt := (p[1] + s.Height/2) / s.Height
		return math.Hypot(p[0], p[2]) - (s.RadiusBottom + tt*(s.RadiusTop-s.RadiusBottom))
	}
	return math.Inf(1)
}

// TestSampleInside: every round shape's sample lies in the shape, and
// reaches its extremes along the axis (the poles, the end faces' rims).
func TestSampleInside(t *testing.T) {
	for _, s := range sampleShapes {
		row, _ := ShapeOf(s.Type)
		if row.Sample == nil {
			if s.Type != physics.Box {
				t.Errorf("%s has no sample", s.Type)
			}
			continue
		}
		pts := row.Sample(s)
		if len(pts) == 0 {
			t.Fatalf("%+v: empty sample", s)
		}
		for _, p := range pts {
			if d := inside(s, p); d > 1e-12 {
				t.Fatalf("%+v: sample %v is %.3g outside", s, p, d)
			}
		}
		b := geom.BoundsOf(pts)
		vs, _ := row.Tessellate(s)
		tb := geom.BoundsOf(vs)
		if math.Abs(b.Max[1]-tb.Max[1]) > 1e-12 || math.Abs(b.Min[1]-tb.Min[1]) > 1e-12 {
			t.Errorf("%+v: sample spans y %g..%g, the shape %g..%g", s, b.Min[1], b.Max[1], tb.Min[1], tb.Max[1])
		}
	}
}
