package mass

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// DegenerateTolerance is the relative difference (to the largest moment)
// below which two principal moments count as equal. Within an equal pair or
// triple the principal axes are arbitrary, and Principal picks them
// canonically instead of following rounding noise.
const DegenerateTolerance = 1e-10

// eigenTolerance is geom.SymEigen's stopping tolerance for inertia tensors:
// off-diagonal entries about 1e-18 of the diagonal.
const eigenTolerance = 1e-36

// Principal diagonalises a symmetric inertia tensor: it returns the principal
// moments d and the unit quaternion q (x, y, z, w) of the proper rotation R
// from the principal frame to the input frame, with I = R·diag(d)·Rᵀ.
//
// The choice is canonical and deterministic: among the 24 ways to assign the
// eigenvectors to the axes with signs (det R = +1), Principal keeps the
// rotation of smallest angle (largest w), so an axis-aligned tensor gives
// the identity and its diagonal in place, and w > 0. When two moments are
// equal (DegenerateTolerance), only the distinct axis u is meaningful:
// R is the smallest rotation taking the coordinate axis nearest to ±u onto
// u (so a cylinder along Y gives the identity). When all three are equal, R
// is the identity. The moments returned are the diagonal of Rᵀ·I·R.
// Only the symmetric part of the input is used.
func Principal(inertia geom.Mat3) ([3]float64, geom.Quat) {
	a := symmetrize(inertia)
	vals, vecs := geom.SymEigen(a, eigenTolerance)
	scale := math.Max(math.Abs(vals[0]), math.Max(math.Abs(vals[1]), math.Abs(vals[2])))
	tol := DegenerateTolerance * scale
	eq01 := math.Abs(vals[0]-vals[1]) <= tol
	eq02 := math.Abs(vals[0]-vals[2]) <= tol
	eq12 := math.Abs(vals[1]-vals[2]) <= tol
	var r geom.Mat3
	switch {
	case scale == 0 || math.IsNaN(scale) || (eq01 && eq02) || (eq01 && eq12) || (eq02 && eq12):
		r = geom.Identity3()
	case eq01:
		r = alignAxis(vecs.Col(2))
	case eq02:
		r = alignAxis(vecs.Col(1))
	case eq12:
		r = alignAxis(vecs.Col(0))
	default:
		r = nearestAssignment(vecs)
	}
	d := rayleigh(a, r)
	return d, canonicalQuat(geom.QuatFromMat3(r))
}

// rayleigh returns the diagonal of Rᵀ·A·R.
func rayleigh(a geom.Mat3, r geom.Mat3) [3]float64 {
	var d [3]float64
	for k := 0; k < 3; k++ {
		c := r.Col(k)
		d[k] = c.Dot(a.MulVec(c))
	}
	return d
}

// canonicalQuat fixes the sign of q: w > 0, or for w = 0 the first non-zero
// component positive.
func canonicalQuat(q geom.Quat) geom.Quat {
	for _, k := range [4]int{3, 0, 1, 2} {
		if q[k] > 0 {
			return q
		}
		if q[k] < 0 {
			return geom.Quat{-q[0], -q[1], -q[2], -q[3]}
		}
	}
	return geom.IdentityQuat()
}

// nearestAssignment returns, among the proper rotations whose columns are
// the eigenvectors (columns of vecs) in some order and with some signs, the
// one with the largest trace (smallest rotation angle). Ties go to the first
// in a fixed enumeration order.
func nearestAssignment(vecs geom.Mat3) geom.Mat3 {
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	best := geom.Identity3()
	bestTrace := math.Inf(-1)
	for _, p := range perms {
		for signs := 0; signs < 8; signs++ {
			var cols [3]geom.Vec3
			for k := 0; k < 3; k++ {
				s := 1.0
				if signs&(1<<k) != 0 {
					s = -1
				}
				cols[k] = vecs.Col(p[k]).Scale(s)
			}
			m := geom.FromCols(cols[0], cols[1], cols[2])
			if m.Det() <= 0 {
				continue
			}
			if tr := m[0][0] + m[1][1] + m[2][2]; tr > bestTrace+1e-12 {
				best, bestTrace = m, tr
			}
		}
	}
	return orthonormalize(best)
}

// alignAxis returns the smallest rotation taking the coordinate axis nearest
// to ±u onto ±u (whichever sign is closer).
func alignAxis(u geom.Vec3) geom.Mat3 {
	u = u.Normalize()
	k := 0
	for i := 1; i < 3; i++ {
		if math.Abs(u[i]) > math.Abs(u[k]) {
			k = i
		}
	}
	if u[k] < 0 {
		u = u.Scale(-1)
	}
	var e geom.Vec3
	e[k] = 1
	// Rotation taking e to u about e×u (Rodrigues with cos = e·u ≥ 1/√3).
	axis := e.Cross(u)
	c := u[k]
	s := axis.Len()
	if s == 0 {
		return geom.Identity3()
	}
	axis = axis.Scale(1 / s)
	half := math.Atan2(s, c) / 2
	sh := math.Sin(half)
	q := geom.Quat{axis[0] * sh, axis[1] * sh, axis[2] * sh, math.Cos(half)}
	return q.Mat3()
}

// orthonormalize removes rounding drift from a near-rotation with
// Gram–Schmidt on its columns, keeping det = +1.
func orthonormalize(m geom.Mat3) geom.Mat3 {
	x := m.Col(0).Normalize()
	y := m.Col(1)
	y = y.Sub(x.Scale(x.Dot(y))).Normalize()
	z := x.Cross(y)
	return geom.FromCols(x, y, z)
}

// Physical reports whether p can be a real solid's: a positive finite
// volume and principal moments that are positive and obey the triangle
// inequality (each at most the sum of the other two, as for any
// distribution of positive mass), within rounding. A closed mesh that
// passes through itself, or pieces wound against each other, integrate
// to tensors that fail it (negative moments), which no engine accepts.
func (p Properties) Physical() bool {
	if !(p.Volume > 0) || math.IsInf(p.Volume, 0) {
		return false
	}
	d, _ := Principal(p.Inertia)
	top := math.Max(d[0], math.Max(d[1], d[2]))
	if !(top > 0) || math.IsInf(top, 0) {
		return false
	}
	tol := 1e-9 * top
	for i := range 3 {
		if !(d[i] > 0) || d[i] > d[(i+1)%3]+d[(i+2)%3]+tol {
			return false
		}
	}
	return true
}
