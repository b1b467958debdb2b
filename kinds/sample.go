package kinds

import (
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
)

// sampleSegments is how many points a round shape's sample rings have,
// and twice the rings per half turn of its spheres: its hull is then
// within 2% of the radius inside the shape.
const sampleSegments = 16

// rings collects the points of rings around local +Y.
type rings []geom.Vec3

// ring adds a ring of radius r at height y.
func (p *rings) ring(y, r float64) {
	*p = append(*p, geom.Circle{Y: y, R: r}.Points(sampleSegments)...)
}

// ball adds the rings of a sphere of radius r centred at height y, pole to
// pole.
func (p *rings) ball(y, r float64) {
	for _, c := range geom.Latitudes(y, r, sampleSegments/2, 0, sampleSegments/2) {
		p.ring(c.Y, c.R)
	}
}

func sampleSphere(s physics.Shape) []geom.Vec3 {
	var p rings
	p.ball(0, s.Radius)
	return p
}

func sampleCapsule(s physics.Shape) []geom.Vec3 {
	var p rings
	p.ball(s.Height/2, s.RadiusTop)
	p.ball(-s.Height/2, s.RadiusBottom)
	return p
}

func sampleCylinder(s physics.Shape) []geom.Vec3 {
	var p rings
	p.ring(s.Height/2, s.RadiusTop)
	p.ring(-s.Height/2, s.RadiusBottom)
	return p
}
