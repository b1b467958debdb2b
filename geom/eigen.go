package geom

import "math"

// eigenSweeps bounds the cyclic Jacobi iteration; a 3×3 symmetric matrix
// converges to machine precision in well under ten sweeps.
const eigenSweeps = 50

// SymEigen diagonalises the symmetric matrix a with cyclic Jacobi rotations
// (Golub & Van Loan, Matrix Computations, "Jacobi methods") and returns its
// eigenvalues and the matrix whose column k is the unit eigenvector of
// vals[k]; a must be symmetric. The iteration stops once the sum of the
// squared off-diagonal entries is at most tol times the sum of the squared
// diagonal ones (1e-30: off-diagonal entries about 1e-15 of the diagonal),
// or when they are all 0.
//
// The order is the diagonal's after convergence (a diagonal input keeps its
// order and gives the identity), not sorted, and the eigenvectors form an
// orthogonal matrix of either handedness. The rotations are applied in a
// fixed order, so the result is deterministic to the bit: callers sort,
// choose signs and orthonormalise as their own conventions require.
func SymEigen(a Mat3, tol float64) (vals [3]float64, vecs Mat3) {
	v := Identity3()
	for sweep := 0; sweep < eigenSweeps; sweep++ {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		diag := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2]
		if off <= tol*diag || off == 0 {
			break
		}
		for _, pq := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			p, q := pq[0], pq[1]
			if a[p][q] == 0 {
				continue
			}
			theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
			t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
			if theta < 0 {
				t = -t
			}
			c := 1 / math.Sqrt(t*t+1)
			s := t * c
			// A ← Jᵀ·A·J with J the rotation in the (p, q) plane; V ← V·J.
			for k := 0; k < 3; k++ {
				akp, akq := a[k][p], a[k][q]
				a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
			}
			for k := 0; k < 3; k++ {
				apk, aqk := a[p][k], a[q][k]
				a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
			}
			for k := 0; k < 3; k++ {
				vkp, vkq := v[k][p], v[k][q]
				v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
			}
		}
	}
	return [3]float64{a[0][0], a[1][1], a[2][2]}, v
}

// Covariance returns the covariance matrix of points (divided by their
// count). It is accumulated in one pass relative to the
// first point, which keeps it accurate far from the origin. points must
// not be empty.
func Covariance(points []Vec3) Mat3 {
	p0 := points[0]
	var s Vec3
	var xx, xy, xz, yy, yz, zz float64
	for _, p := range points {
		x, y, z := p[0]-p0[0], p[1]-p0[1], p[2]-p0[2]
		s[0], s[1], s[2] = s[0]+x, s[1]+y, s[2]+z
		xx, xy, xz = xx+x*x, xy+x*y, xz+x*z
		yy, yz, zz = yy+y*y, yz+y*z, zz+z*z
	}
	n := float64(len(points))
	m := s.Scale(1 / n)
	c := Mat3{
		{xx/n - m[0]*m[0], xy/n - m[0]*m[1], xz/n - m[0]*m[2]},
		{0, yy/n - m[1]*m[1], yz/n - m[1]*m[2]},
		{0, 0, zz/n - m[2]*m[2]},
	}
	c[1][0], c[2][0], c[2][1] = c[0][1], c[0][2], c[1][2]
	return c
}

// Scatter returns the scatter matrix of points, Σ (p−m)(p−m)ᵀ about their
// mean m (the covariance times their count), in two passes: the mean, then
// the sum. points must not be empty.
func Scatter(points []Vec3) Mat3 {
	var m Vec3
	for _, p := range points {
		m = m.Add(p)
	}
	m = m.Scale(1 / float64(len(points)))
	var s Mat3
	for _, p := range points {
		d := p.Sub(m)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				s[i][j] += d[i] * d[j]
			}
		}
	}
	return s
}
