package geom

import (
	"math"
	"math/rand"
	"testing"
)

// TestSymEigenReconstructs checks A·v = λ·v and VᵀV = I on random symmetric
// matrices, including ones with repeated eigenvalues.
func TestSymEigenReconstructs(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 2000; i++ {
		rot := randQuat(r).Mat3()
		d := [3]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if i%3 == 1 {
			d[1] = d[0]
		}
		var a Mat3 // rot·diag(d)·rotᵀ
		for p := 0; p < 3; p++ {
			for q := 0; q < 3; q++ {
				for k := 0; k < 3; k++ {
					a[p][q] += rot[p][k] * d[k] * rot[q][k]
				}
			}
		}
		a[1][0], a[2][0], a[2][1] = a[0][1], a[0][2], a[1][2]
		vals, v := SymEigen(a, 1e-30)
		for k := 0; k < 3; k++ {
			c := v.Col(k)
			if res := a.MulVec(c).Sub(c.Scale(vals[k])).Len(); res > 1e-12 {
				t.Fatalf("matrix %v: |A·v - λ·v| = %g for λ = %v", a, res, vals[k])
			}
		}
		vtv := v.Transpose().Mul(v)
		for p := 0; p < 3; p++ {
			for q := 0; q < 3; q++ {
				if want := Identity3()[p][q]; math.Abs(vtv[p][q]-want) > 1e-12 {
					t.Fatalf("matrix %v: eigenvectors not orthonormal: VᵀV = %v", a, vtv)
				}
			}
		}
		sum := vals[0] + vals[1] + vals[2]
		if tr := d[0] + d[1] + d[2]; math.Abs(sum-tr) > 1e-12 {
			t.Fatalf("eigenvalues %v sum to %v, want the trace %v", vals, sum, tr)
		}
	}
}

// TestSymEigenDiagonal: a diagonal matrix keeps its order and gives the
// identity, exactly.
func TestSymEigenDiagonal(t *testing.T) {
	vals, v := SymEigen(Mat3{{3, 0, 0}, {0, -1, 0}, {0, 0, 2}}, 1e-30)
	if vals != [3]float64{3, -1, 2} || v != Identity3() {
		t.Fatalf("got %v, %v", vals, v)
	}
}

func TestCovarianceAndScatter(t *testing.T) {
	// Points spread ±1 along x, ±2 along y, none along z, far from the
	// origin: the variances are 0.5 and 2 whatever the offset.
	off := Vec3{1e6, -3e5, 7}
	pts := []Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 2, 0}, {0, -2, 0}}
	for i := range pts {
		pts[i] = pts[i].Add(off)
	}
	c, s := Covariance(pts), Scatter(pts)
	want := Mat3{{0.5, 0, 0}, {0, 2, 0}, {0, 0, 0}}
	for p := 0; p < 3; p++ {
		for q := 0; q < 3; q++ {
			if math.Abs(c[p][q]-want[p][q]) > 1e-9 {
				t.Fatalf("covariance %v, want %v", c, want)
			}
			if math.Abs(s[p][q]-4*want[p][q]) > 1e-9 {
				t.Fatalf("scatter %v, want 4 × %v", s, want)
			}
		}
	}
}
