package geom

import "math"

// Mat3 is a 3×3 matrix, row-major: M[row][col].
type Mat3 [3][3]float64

// Identity3 returns the 3×3 identity matrix.
func Identity3() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// MulVec returns M·v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2],
	}
}

// Mul returns M·N.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// Transpose returns Mᵀ.
func (m Mat3) Transpose() Mat3 {
	return Mat3{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}
}

// Det returns the determinant of M.
func (m Mat3) Det() float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// Col returns column j of M.
func (m Mat3) Col(j int) Vec3 { return Vec3{m[0][j], m[1][j], m[2][j]} }

// FromCols builds a matrix whose columns are a, b and c.
func FromCols(a, b, c Vec3) Mat3 {
	return Mat3{{a[0], b[0], c[0]}, {a[1], b[1], c[1]}, {a[2], b[2], c[2]}}
}

// Mat4 is an affine transform, row-major: M[row][col], applied to column
// vectors. glTF stores matrices column-major; see Mat4FromGLTF.
type Mat4 [4][4]float64

// Identity4 returns the 4×4 identity matrix.
func Identity4() Mat4 { return Mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}} }

// Mat4FromGLTF converts a glTF column-major matrix to a Mat4.
func Mat4FromGLTF(c [16]float64) Mat4 {
	var m Mat4
	for col := 0; col < 4; col++ {
		for row := 0; row < 4; row++ {
			m[row][col] = c[col*4+row]
		}
	}
	return m
}

// GLTF returns M in glTF's column-major order.
func (m Mat4) GLTF() [16]float64 {
	var c [16]float64
	for col := 0; col < 4; col++ {
		for row := 0; row < 4; row++ {
			c[col*4+row] = m[row][col]
		}
	}
	return c
}

// TRS builds the matrix T·R·S of a glTF node.
func TRS(t Vec3, r Quat, s Vec3) Mat4 {
	rm := r.Mat3()
	m := Identity4()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] = rm[i][j] * s[j]
		}
		m[i][3] = t[i]
	}
	return m
}

// Mul returns M·N.
func (m Mat4) Mul(n Mat4) Mat4 {
	var r Mat4
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j] + m[i][3]*n[3][j]
		}
	}
	return r
}

// Point applies M to the point p.
func (m Mat4) Point(p Vec3) Vec3 {
	return Vec3{
		m[0][0]*p[0] + m[0][1]*p[1] + m[0][2]*p[2] + m[0][3],
		m[1][0]*p[0] + m[1][1]*p[1] + m[1][2]*p[2] + m[1][3],
		m[2][0]*p[0] + m[2][1]*p[1] + m[2][2]*p[2] + m[2][3],
	}
}

// Linear returns the upper-left 3×3 block of M.
func (m Mat4) Linear() Mat3 {
	return Mat3{{m[0][0], m[0][1], m[0][2]}, {m[1][0], m[1][1], m[1][2]}, {m[2][0], m[2][1], m[2][2]}}
}

// Translation returns the translation column of M.
func (m Mat4) Translation() Vec3 { return Vec3{m[0][3], m[1][3], m[2][3]} }

// Inverse returns the inverse of the affine transform M and false when the
// linear part is singular.
func (m Mat4) Inverse() (Mat4, bool) {
	a := m.Linear()
	det := a.Det()
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Mat4{}, false
	}
	inv := Mat3{
		{(a[1][1]*a[2][2] - a[1][2]*a[2][1]) / det, (a[0][2]*a[2][1] - a[0][1]*a[2][2]) / det, (a[0][1]*a[1][2] - a[0][2]*a[1][1]) / det},
		{(a[1][2]*a[2][0] - a[1][0]*a[2][2]) / det, (a[0][0]*a[2][2] - a[0][2]*a[2][0]) / det, (a[0][2]*a[1][0] - a[0][0]*a[1][2]) / det},
		{(a[1][0]*a[2][1] - a[1][1]*a[2][0]) / det, (a[0][1]*a[2][0] - a[0][0]*a[2][1]) / det, (a[0][0]*a[1][1] - a[0][1]*a[1][0]) / det},
	}
	t := inv.MulVec(m.Translation()).Scale(-1)
	r := Identity4()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = inv[i][j]
		}
		r[i][3] = t[i]
	}
	return r, true
}
