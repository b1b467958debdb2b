package geom

import "math"

// Circle is a circle about the +Y axis, at height Y with radius R: one
// ring of a round shape's samples or tessellation.
type Circle struct{ Y, R float64 }

// Points returns n points evenly around c, the k-th at angle 2πk/n from
// +X toward +Z.
func (c Circle) Points(n int) []Vec3 {
	out := make([]Vec3, n)
	for k := range n {
		a := 2 * math.Pi * float64(k) / float64(n)
		out[k] = Vec3{c.R * math.Cos(a), c.Y, c.R * math.Sin(a)}
	}
	return out
}

// Latitudes returns circles i0 to i1 of latitude of the sphere of radius
// r centred at height y on the +Y axis cut into n bands: circle i at
// angle πi/n from the north pole (0 is the north pole, n the south).
func Latitudes(y, r float64, n, i0, i1 int) []Circle {
	var out []Circle
	for i := i0; i <= i1; i++ {
		a := math.Pi * float64(i) / float64(n)
		out = append(out, Circle{y + r*math.Cos(a), r * math.Sin(a)})
	}
	return out
}
