package geom

import "math"

// Quat is a quaternion (x, y, z, w), w the scalar part, as glTF stores
// rotations. Rotation quaternions are unit length.
type Quat [4]float64

// IdentityQuat returns the rotation that does nothing.
func IdentityQuat() Quat { return Quat{0, 0, 0, 1} }

// Mul returns the Hamilton product q·r (apply r first, then q).
func (q Quat) Mul(r Quat) Quat {
	return Quat{
		q[3]*r[0] + q[0]*r[3] + q[1]*r[2] - q[2]*r[1],
		q[3]*r[1] - q[0]*r[2] + q[1]*r[3] + q[2]*r[0],
		q[3]*r[2] + q[0]*r[1] - q[1]*r[0] + q[2]*r[3],
		q[3]*r[3] - q[0]*r[0] - q[1]*r[1] - q[2]*r[2],
	}
}

// Normalize returns q scaled to unit length (the identity for a zero q).
func (q Quat) Normalize() Quat {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if l == 0 || math.IsNaN(l) {
		return IdentityQuat()
	}
	return Quat{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

// Rotate applies the rotation q to v.
func (q Quat) Rotate(v Vec3) Vec3 { return q.Mat3().MulVec(v) }

// Mat3 returns the rotation matrix of the unit quaternion q.
func (q Quat) Mat3() Mat3 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return Mat3{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
}

// QuatFromMat3 returns the unit quaternion of the rotation matrix m (which
// must be orthonormal with determinant +1), with w ≥ 0.
func QuatFromMat3(m Mat3) Quat {
	var q Quat
	tr := m[0][0] + m[1][1] + m[2][2]
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = Quat{(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := math.Sqrt(1+m[0][0]-m[1][1]-m[2][2]) * 2
		q = Quat{s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s}
	case m[1][1] > m[2][2]:
		s := math.Sqrt(1+m[1][1]-m[0][0]-m[2][2]) * 2
		q = Quat{(m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s}
	default:
		s := math.Sqrt(1+m[2][2]-m[0][0]-m[1][1]) * 2
		q = Quat{(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s}
	}
	if q[3] < 0 {
		q = Quat{-q[0], -q[1], -q[2], -q[3]}
	}
	return q.Normalize()
}
