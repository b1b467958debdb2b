package mass

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Body is what a dynamic rigid body needs: mass (kg), centre of mass,
// inertia about the centre of mass (kg·m²) both as principal moments with
// their orientation (KHR_physics_rigid_bodies, OMI_physics_body current form,
// G4MF after the mapping in g4mf.go) and as the full tensor (the older OMI
// `inertiaTensor`, see InertiaTensor).
type Body struct {
	Mass               float64
	CenterOfMass       geom.Vec3
	InertiaDiagonal    [3]float64 // principal moments
	InertiaOrientation geom.Quat  // principal frame → body frame: I = R·diag·Rᵀ
	Inertia            geom.Mat3  // full tensor about the centre of mass
}

// FromDensity returns the body of the solid p made of a material of the
// given density (kg/m³). The density is not checked: the caller validates
// user input (a positive, finite number) before.
func FromDensity(p Properties, density float64) Body {
	in := p.Inertia
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			in[i][j] *= density
		}
	}
	d, q := Principal(in)
	return Body{Mass: p.Volume * density, CenterOfMass: p.CenterOfMass, InertiaDiagonal: d, InertiaOrientation: q, Inertia: in}
}

// FromMass returns the body of the solid p scaled to the given total mass
// (kg), i.e. with density mass / p.Volume. A p with no volume gives a body of
// zero mass and zero inertia rather than NaN.
func FromMass(p Properties, mass float64) Body {
	if !(p.Volume > 0) || math.IsInf(p.Volume, 0) {
		return Body{CenterOfMass: p.CenterOfMass, InertiaOrientation: geom.IdentityQuat()}
	}
	return FromDensity(p, mass/p.Volume)
}

// InertiaTensor returns the full inertia tensor row-major, the 9 numbers of
// `inertiaTensor` in the OMI_physics_body Stage 1 proposal (the `type` enum
// form, replaced by `motion` in 2023). The tensor is symmetric, so row- and
// column-major orders coincide.
func (b Body) InertiaTensor() [9]float64 {
	var r [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[3*i+j] = b.Inertia[i][j]
		}
	}
	return r
}

// Combine returns the body made of several rigidly attached bodies, which may
// have different densities: masses add, the centre of mass is the
// mass-weighted mean and each tensor is moved there (parallel-axis theorem).
func Combine(parts ...Body) Body {
	var m float64
	var s geom.Vec3
	for _, b := range parts {
		m += b.Mass
		s = s.Add(b.CenterOfMass.Scale(b.Mass))
	}
	if m == 0 {
		return Body{InertiaOrientation: geom.IdentityQuat()}
	}
	com := s.Scale(1 / m)
	var in geom.Mat3
	for _, b := range parts {
		pa := parallelAxis(b.CenterOfMass.Sub(com), b.Mass)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				in[i][j] += b.Inertia[i][j] + pa[i][j]
			}
		}
	}
	in = symmetrize(in)
	d, q := Principal(in)
	return Body{Mass: m, CenterOfMass: com, InertiaDiagonal: d, InertiaOrientation: q, Inertia: in}
}
