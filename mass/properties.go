package mass

import (
	"errors"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Properties are the mass properties of a solid of density 1: its volume,
// its centre of mass and its inertia tensor about the centre of mass, all in
// the frame of the input geometry. Multiply Inertia by a density (or use
// FromDensity / FromMass) to get kg·m².
type Properties struct {
	Volume       float64
	CenterOfMass geom.Vec3
	Inertia      geom.Mat3 // about CenterOfMass, density 1
}

// MinVolumeRatio is the smallest accepted |volume| of a mesh relative to the
// cube of its bounding-box diagonal. Below it the mesh is treated as enclosing
// no volume (flat, open or cancelling itself out) and Mesh returns an error.
const MinVolumeRatio = 1e-12

// ErrNoVolume is returned (wrapped) when a mesh encloses no usable volume.
var ErrNoVolume = errors.New("mesh encloses no volume")

// moments are the raw integrals ∫1, ∫x and ∫x·xᵀ over a solid, taken about
// an origin o. They add and subtract linearly, which makes them the natural
// accumulator for sums and inclusion–exclusion.
type moments struct {
	o geom.Vec3 // origin the integrals are taken about
	v float64   // ∫ dV
	s geom.Vec3 // ∫ (x−o) dV
	c geom.Mat3 // ∫ (x−o)(x−o)ᵀ dV
}

// properties converts raw moments to Properties.
func (m moments) properties() Properties {
	d := m.s.Scale(1 / m.v)
	var cc geom.Mat3 // second moment about the centre of mass
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			cc[i][j] = m.c[i][j] - m.s[i]*d[j]
		}
	}
	return Properties{Volume: m.v, CenterOfMass: m.o.Add(d), Inertia: inertiaFromSecond(cc)}
}

// momentsAbout returns the raw moments of p about the origin o.
func (p Properties) momentsAbout(o geom.Vec3) moments {
	d := p.CenterOfMass.Sub(o)
	c := secondFromInertia(p.Inertia)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[i][j] += p.Volume * d[i] * d[j]
		}
	}
	return moments{o: o, v: p.Volume, s: d.Scale(p.Volume), c: c}
}

// inertiaFromSecond converts a second-moment matrix C = ∫xxᵀ into the
// inertia tensor I = tr(C)·E − C.
func inertiaFromSecond(c geom.Mat3) geom.Mat3 {
	tr := c[0][0] + c[1][1] + c[2][2]
	var in geom.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			in[i][j] = -c[i][j]
		}
		in[i][i] += tr
	}
	return symmetrize(in)
}

// secondFromInertia inverts inertiaFromSecond: C = tr(I)/2·E − I.
func secondFromInertia(in geom.Mat3) geom.Mat3 {
	h := (in[0][0] + in[1][1] + in[2][2]) / 2
	var c geom.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[i][j] = -in[i][j]
		}
		c[i][i] += h
	}
	return c
}

// symmetrize returns (M+Mᵀ)/2, removing rounding asymmetry.
func symmetrize(m geom.Mat3) geom.Mat3 {
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			a := (m[i][j] + m[j][i]) / 2
			m[i][j], m[j][i] = a, a
		}
	}
	return m
}

// Mesh returns the mass properties of the solid bounded by a closed triangle
// mesh (density 1). It sums the signed tetrahedra spanned by a local origin
// and each triangle (divergence theorem; the tetrahedron second moment is
// V/20·(Σpₖpₖᵀ + (Σpₖ)(Σpₖ)ᵀ)), in float64, after moving the origin to the
// centre of the vertices' bounding box so that a mesh far from the origin
// loses no precision.
//
// Triangles wound clockwise seen from outside give a negative signed volume;
// Mesh then flips the sign of every integral, so a consistently inside-out
// (for example mirrored) mesh gives the same result as the correctly wound
// one. A mesh whose winding is inconsistent, or which is open, gives a
// meaningless result: check IsClosed first.
//
// Mesh returns an error when there are no triangles, an index is out of
// range, a vertex is NaN or infinite, or |volume| is below MinVolumeRatio ×
// diagonal³ (ErrNoVolume).
func Mesh(vertices []geom.Vec3, triangles [][3]uint32) (Properties, error) {
	m, _, err := meshMoments(vertices, triangles)
	if err != nil {
		return Properties{}, err
	}
	return m.properties(), nil
}

// MeshLinear returns the mass properties of the mesh after applying the
// linear map a (for example a node's rotation and non-uniform scale) to its
// vertices. A map with a negative determinant mirrors the mesh, which Mesh
// handles as described there. The result equals Mesh(...).Linear(a) up to
// rounding.
func MeshLinear(vertices []geom.Vec3, triangles [][3]uint32, a geom.Mat3) (Properties, error) {
	mapped := make([]geom.Vec3, len(vertices))
	for i, v := range vertices {
		mapped[i] = a.MulVec(v)
	}
	p, err := Mesh(mapped, triangles)
	if err != nil {
		return Properties{}, fmt.Errorf("mesh under linear map: %w", err)
	}
	return p, nil
}

// meshMoments integrates the mesh; flipped reports that its signed volume
// was negative (inside-out winding) and the integrals were negated.
func meshMoments(vertices []geom.Vec3, triangles [][3]uint32) (m moments, flipped bool, err error) {
	if len(triangles) == 0 {
		return moments{}, false, errors.New("mass: mesh has no triangles")
	}
	box := geom.EmptyBox()
	for i, v := range vertices {
		if !v.IsFinite() {
			return moments{}, false, fmt.Errorf("mass: vertex %d is not finite: %v", i, v)
		}
		box = box.Extend(v)
	}
	n := uint32(len(vertices))
	if len(vertices) > math.MaxUint32 {
		n = math.MaxUint32
	}
	o := box.Center()
	var vol, sx, sy, sz, cxx, cyy, czz, cxy, cxz, cyz float64
	for k, t := range triangles {
		if t[0] >= n || t[1] >= n || t[2] >= n {
			return moments{}, false, fmt.Errorf("mass: triangle %d has an index out of range (%d vertices): %v", k, len(vertices), t)
		}
		a := vertices[t[0]].Sub(o)
		b := vertices[t[1]].Sub(o)
		c := vertices[t[2]].Sub(o)
		// six times the signed volume of the tetrahedron (o, a, b, c)
		d := a[0]*(b[1]*c[2]-b[2]*c[1]) + a[1]*(b[2]*c[0]-b[0]*c[2]) + a[2]*(b[0]*c[1]-b[1]*c[0])
		ex, ey, ez := a[0]+b[0]+c[0], a[1]+b[1]+c[1], a[2]+b[2]+c[2]
		vol += d
		sx += d * ex
		sy += d * ey
		sz += d * ez
		cxx += d * (a[0]*a[0] + b[0]*b[0] + c[0]*c[0] + ex*ex)
		cyy += d * (a[1]*a[1] + b[1]*b[1] + c[1]*c[1] + ey*ey)
		czz += d * (a[2]*a[2] + b[2]*b[2] + c[2]*c[2] + ez*ez)
		cxy += d * (a[0]*a[1] + b[0]*b[1] + c[0]*c[1] + ex*ey)
		cxz += d * (a[0]*a[2] + b[0]*b[2] + c[0]*c[2] + ex*ez)
		cyz += d * (a[1]*a[2] + b[1]*b[2] + c[1]*c[2] + ey*ez)
	}
	vol /= 6
	sx, sy, sz = sx/24, sy/24, sz/24
	cxx, cyy, czz, cxy, cxz, cyz = cxx/120, cyy/120, czz/120, cxy/120, cxz/120, cyz/120
	if vol < 0 {
		flipped = true
		vol, sx, sy, sz = -vol, -sx, -sy, -sz
		cxx, cyy, czz, cxy, cxz, cyz = -cxx, -cyy, -czz, -cxy, -cxz, -cyz
	}
	diag := box.Diagonal()
	if !(vol > MinVolumeRatio*diag*diag*diag) {
		return moments{}, false, fmt.Errorf("mass: %w (|volume| %g for a bounding-box diagonal of %g; open, flat or inconsistently wound?)", ErrNoVolume, vol, diag)
	}
	return moments{
		o: o, v: vol, s: geom.Vec3{sx, sy, sz},
		c: geom.Mat3{{cxx, cxy, cxz}, {cxy, cyy, cyz}, {cxz, cyz, czz}},
	}, flipped, nil
}

// Box returns the properties of a solid box of the given full size centred
// on the origin. Negative sizes are taken by absolute value.
func Box(size geom.Vec3) Properties {
	x, y, z := math.Abs(size[0]), math.Abs(size[1]), math.Abs(size[2])
	v := x * y * z
	return Properties{Volume: v, Inertia: geom.Mat3{
		{v * (y*y + z*z) / 12, 0, 0},
		{0, v * (x*x + z*z) / 12, 0},
		{0, 0, v * (x*x + y*y) / 12},
	}}
}

// Sphere returns the properties of a solid ball of radius r centred on the
// origin (I = 2/5·V·r²).
func Sphere(r float64) Properties {
	r = math.Abs(r)
	v := 4.0 / 3 * math.Pi * r * r * r
	i := 0.4 * v * r * r
	return Properties{Volume: v, Inertia: geom.Mat3{{i, 0, 0}, {0, i, 0}, {0, 0, i}}}
}

// Cylinder returns the properties of a solid cylinder along local +Y,
// centred on the origin, of full height h and radius r:
// Iyy = V·r²/2, Ixx = Izz = V·(3r² + h²)/12.
func Cylinder(height, radius float64) Properties {
	h, r := math.Abs(height), math.Abs(radius)
	v := math.Pi * r * r * h
	ia := v * r * r / 2
	ip := v * (3*r*r + h*h) / 12
	return Properties{Volume: v, Inertia: geom.Mat3{{ip, 0, 0}, {0, ia, 0}, {0, 0, ip}}}
}

// Capsule returns the properties of a solid capsule along local +Y centred
// on the origin: a cylinder of height h (the distance between the centres
// of the two hemispheres, the "mid-height"; a format that stores the full
// height, such as OMI_collider, must subtract 2r first) and radius r, capped
// by two hemispheres of radius r. Each cap's centre of mass lies 3r/8 from its flat
// face; its moments are moved to the capsule centre with the parallel-axis
// theorem.
func Capsule(height, radius float64) Properties {
	h, r := math.Abs(height), math.Abs(radius)
	vc := math.Pi * r * r * h           // cylinder
	vh := 2.0 / 3 * math.Pi * r * r * r // one hemisphere
	ia := vc*r*r/2 + 2*vh*0.4*r*r
	// Per cap, about an axis ⟂ Y through the capsule centre:
	// 2/5·vh·r² − vh·(3r/8)² (to its own centre) + vh·(h/2 + 3r/8)².
	capPerp := vh * (0.4*r*r + h*h/4 + 3*h*r/8)
	ip := vc*(3*r*r+h*h)/12 + 2*capPerp
	return Properties{Volume: vc + 2*vh, Inertia: geom.Mat3{{ip, 0, 0}, {0, ia, 0}, {0, 0, ip}}}
}

// Transform returns the properties of the solid moved by the rigid pose
// (rotation rot, then translation t): the centre of mass becomes R·c + t and
// the tensor R·I·Rᵀ. rot is normalised first.
func (p Properties) Transform(rot geom.Quat, t geom.Vec3) Properties {
	r := rot.Normalize().Mat3()
	return Properties{
		Volume:       p.Volume,
		CenterOfMass: r.MulVec(p.CenterOfMass).Add(t),
		Inertia:      symmetrize(r.Mul(p.Inertia).Mul(r.Transpose())),
	}
}

// Linear returns the properties of the solid after the linear map a (any
// invertible 3×3 matrix: rotation, non-uniform scale, shear, mirror) is
// applied to it about the origin of its frame. Exact for any solid:
// V' = |det a|·V, c' = a·c, and the second moment about the centre of mass
// becomes |det a|·a·C·aᵀ. Applied to a primitive this gives the mass
// properties of the scaled shape (a non-uniformly scaled sphere is an
// ellipsoid), whatever a collider engine makes of such a shape.
func (p Properties) Linear(a geom.Mat3) Properties {
	det := math.Abs(a.Det())
	c := secondFromInertia(p.Inertia)
	c2 := a.Mul(c).Mul(a.Transpose())
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c2[i][j] *= det
		}
	}
	return Properties{Volume: det * p.Volume, CenterOfMass: a.MulVec(p.CenterOfMass), Inertia: inertiaFromSecond(c2)}
}

// Scale returns the properties after scaling the solid by s along the axes of
// its frame (about the frame's origin): Linear(diag(s)).
func (p Properties) Scale(s geom.Vec3) Properties {
	return p.Linear(geom.Mat3{{s[0], 0, 0}, {0, s[1], 0}, {0, 0, s[2]}})
}

// Sum returns the properties of the solid made of all parts, assumed
// disjoint and of the same density: volumes add, the centre of mass is the
// volume-weighted mean, and each part's tensor is moved to the common centre
// of mass with the parallel-axis theorem. Overlapping parts are counted
// twice; see Union. Sum of nothing is the zero Properties.
func Sum(parts ...Properties) Properties {
	var v float64
	var s geom.Vec3
	for _, p := range parts {
		v += p.Volume
		s = s.Add(p.CenterOfMass.Scale(p.Volume))
	}
	if v == 0 {
		return Properties{}
	}
	com := s.Scale(1 / v)
	var in geom.Mat3
	for _, p := range parts {
		d := p.CenterOfMass.Sub(com)
		pa := parallelAxis(d, p.Volume)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				in[i][j] += p.Inertia[i][j] + pa[i][j]
			}
		}
	}
	return Properties{Volume: v, CenterOfMass: com, Inertia: symmetrize(in)}
}

// parallelAxis returns m·(|d|²E − d·dᵀ), the tensor to add when moving an
// inertia of mass m from its centre of mass to a point −d away.
func parallelAxis(d geom.Vec3, m float64) geom.Mat3 {
	l2 := d.Len2()
	var r geom.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = -m * d[i] * d[j]
		}
		r[i][i] += m * l2
	}
	return r
}

// InertiaAbout returns the inertia tensor of p (density 1) about the point q
// instead of the centre of mass (parallel-axis theorem).
func (p Properties) InertiaAbout(q geom.Vec3) geom.Mat3 {
	pa := parallelAxis(p.CenterOfMass.Sub(q), p.Volume)
	var r geom.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = p.Inertia[i][j] + pa[i][j]
		}
	}
	return r
}
