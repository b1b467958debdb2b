package geom

import "math"

// Vec3 is a point or a direction in 3-space.
type Vec3 [3]float64

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{a[0] * s, a[1] * s, a[2] * s} }

// Mul returns the component-wise product of a and b.
func (a Vec3) Mul(b Vec3) Vec3 { return Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// Dot returns the dot product a·b.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns the cross product a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Len returns the Euclidean length of a.
func (a Vec3) Len() float64 { return math.Sqrt(a.Dot(a)) }

// Len2 returns the squared length of a.
func (a Vec3) Len2() float64 { return a.Dot(a) }

// Normalize returns a scaled to unit length; the zero vector stays zero.
func (a Vec3) Normalize() Vec3 {
	l := a.Len()
	if l == 0 {
		return a
	}
	return a.Scale(1 / l)
}

// Min returns the component-wise minimum of a and b.
func (a Vec3) Min(b Vec3) Vec3 {
	return Vec3{math.Min(a[0], b[0]), math.Min(a[1], b[1]), math.Min(a[2], b[2])}
}

// Max returns the component-wise maximum of a and b.
func (a Vec3) Max(b Vec3) Vec3 {
	return Vec3{math.Max(a[0], b[0]), math.Max(a[1], b[1]), math.Max(a[2], b[2])}
}

// IsFinite reports whether every component is neither NaN nor infinite.
func (a Vec3) IsFinite() bool {
	for _, c := range a {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
	}
	return true
}

// Box is an axis-aligned bounding box. The zero Box is not empty; use
// EmptyBox to start an accumulation.
type Box struct{ Min, Max Vec3 }

// EmptyBox returns a box that contains nothing and grows with Extend.
func EmptyBox() Box {
	inf := math.Inf(1)
	return Box{Vec3{inf, inf, inf}, Vec3{-inf, -inf, -inf}}
}

// IsEmpty reports whether the box contains no point.
func (b Box) IsEmpty() bool { return b.Min[0] > b.Max[0] || b.Min[1] > b.Max[1] || b.Min[2] > b.Max[2] }

// Extend returns the smallest box containing b and p.
func (b Box) Extend(p Vec3) Box { return Box{b.Min.Min(p), b.Max.Max(p)} }

// Union returns the smallest box containing b and c.
func (b Box) Union(c Box) Box { return Box{b.Min.Min(c.Min), b.Max.Max(c.Max)} }

// Center returns the centre of the box.
func (b Box) Center() Vec3 { return b.Min.Add(b.Max).Scale(0.5) }

// Size returns the box's extent along each axis.
func (b Box) Size() Vec3 { return b.Max.Sub(b.Min) }

// Diagonal returns the length of the box's diagonal (0 for an empty box).
func (b Box) Diagonal() float64 {
	if b.IsEmpty() {
		return 0
	}
	return b.Size().Len()
}

// BoundsOf returns the bounding box of pts (EmptyBox for none).
func BoundsOf(pts []Vec3) Box {
	b := EmptyBox()
	for _, p := range pts {
		b = b.Extend(p)
	}
	return b
}
