package mass

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// TaperedCylinder returns the properties of a solid cone frustum along
// local +Y centred on the origin: full height h, radius bottom at
// y = −h/2 and top at y = +h/2 (KHR_implicit_shapes' and OMI's tapered
// cylinder). Its centre of mass lies on Y, nearer the wider end. With
// equal radii it is Cylinder, exactly.
func TaperedCylinder(height, top, bottom float64) Properties {
	h, t, b := math.Abs(height), math.Abs(top), math.Abs(bottom)
	if t == b {
		return Cylinder(h, b)
	}
	return revolution([]profileSpan{{-h / 2, h / 2, linearRadius(-h/2, b, h/2, t)}})
}

// TaperedCapsule returns the properties of the convex hull of two balls on
// local Y: radius bottom centred at y = −h/2 and radius top at y = +h/2
// (a capsule whose ends differ, as KHR_implicit_shapes allows). The side is
// the cone tangent to both balls, which touches them at the latitude φ with
// sin φ = (bottom − top)/h. When one ball holds the other the hull is that
// ball. With equal radii it is Capsule, exactly.
func TaperedCapsule(height, top, bottom float64) Properties {
	h, t, b := math.Abs(height), math.Abs(top), math.Abs(bottom)
	switch {
	case t == b:
		return Capsule(h, b)
	case b-t >= h:
		return Sphere(b).Transform(geom.IdentityQuat(), geom.Vec3{0, -h / 2, 0})
	case t-b >= h:
		return Sphere(t).Transform(geom.IdentityQuat(), geom.Vec3{0, h / 2, 0})
	}
	s := (b - t) / h // sin φ
	c := math.Sqrt(1 - s*s)
	yb, yt := -h/2+b*s, h/2+t*s // where the cone meets each ball
	return revolution([]profileSpan{
		{-h/2 - b, yb, ballRadius(-h/2, b)},
		{yb, yt, linearRadius(yb, b*c, yt, t*c)},
		{yt, h/2 + t, ballRadius(h/2, t)},
	})
}

// profileSpan is a slice [lo, hi] of a solid of revolution about Y whose
// squared radius at height y is r2(y), a polynomial of degree at most 2.
type profileSpan struct {
	lo, hi float64
	r2     func(y float64) float64
}

// linearRadius is the squared radius of a cone side through (y0, r0) and
// (y1, r1).
func linearRadius(y0, r0, y1, r1 float64) func(float64) float64 {
	return func(y float64) float64 {
		r := r0
		if y1 != y0 {
			r = r0 + (r1-r0)*(y-y0)/(y1-y0)
		}
		return r * r
	}
}

// ballRadius is the squared radius of a ball of radius r centred at y = c.
func ballRadius(c, r float64) func(float64) float64 {
	return func(y float64) float64 { return math.Max(0, r*r-(y-c)*(y-c)) }
}

// revolution integrates a solid of revolution about Y over its spans. Per
// span the integrands (πr², πr²y, πr²y², πr⁴/2, πr⁴/4) are polynomials of
// degree at most 6 in y, which 4-point Gauss–Legendre integrates exactly.
func revolution(spans []profileSpan) Properties {
	nodes := [4]float64{-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526}
	weights := [4]float64{0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538}
	var v, sy, syy, saxial, sdisc float64 // ∫dV, ∫y, ∫y², ∫(x²+z²), ∫x²
	for _, sp := range spans {
		half, mid := (sp.hi-sp.lo)/2, (sp.hi+sp.lo)/2
		if half <= 0 {
			continue
		}
		for i, u := range nodes {
			y := mid + half*u
			r2 := sp.r2(y)
			w := weights[i] * half * math.Pi
			v += w * r2
			sy += w * r2 * y
			syy += w * r2 * y * y
			saxial += w * r2 * r2 / 2
			sdisc += w * r2 * r2 / 4
		}
	}
	if v <= 0 {
		return Properties{}
	}
	cy := sy / v
	// About the centre of mass: Iyy = ∫(x²+z²); Ixx = Izz = ∫(y'²+z²)
	// with ∫z² over a disc of radius r being πr⁴/4.
	perp := syy - v*cy*cy + sdisc
	return Properties{
		Volume:       v,
		CenterOfMass: geom.Vec3{0, cy, 0},
		Inertia:      geom.Mat3{{perp, 0, 0}, {0, saxial, 0}, {0, 0, perp}},
	}
}
