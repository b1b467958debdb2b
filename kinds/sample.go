package kinds

import (
	"math"

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
	for k := 0; k < sampleSegments; k++ {
		a := 2 * math.Pi * float64(k) / sampleSegments
		*p = append(*p, geom.Vec3{r * math.Cos(a), y, r * math.Sin(a)})
	}
}

// ball adds the rings of a sphere of radius r centred at height y, pole to
// pole.
func (p *rings) ball(y, r float64) {
	for i := 0; i <= sampleSegments/2; i++ {
		t := math.Pi * float64(i) / (sampleSegments / 2)
		p.ring(y+r*math.Cos(t), r*math.Sin(t))
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
