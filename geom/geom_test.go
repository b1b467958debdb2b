package geom

import (
	"math"
	"math/rand"
	"testing"
)

func randQuat(r *rand.Rand) Quat {
	return Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
}

func TestQuatMatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		q := randQuat(r)
		m := q.Mat3()
		if d := m.Det(); math.Abs(d-1) > 1e-12 {
			t.Fatalf("det %v", d)
		}
		q2 := QuatFromMat3(m)
		m2 := q2.Mat3()
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				if math.Abs(m[a][b]-m2[a][b]) > 1e-12 {
					t.Fatalf("round trip of %v gave %v", q, q2)
				}
			}
		}
		v := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		p := Quat{v[0], v[1], v[2], 0}
		conj := Quat{-q[0], -q[1], -q[2], q[3]}
		rot := q.Mul(p).Mul(conj)
		if got := q.Rotate(v); got.Sub(Vec3{rot[0], rot[1], rot[2]}).Len() > 1e-12 {
			t.Fatalf("Rotate disagrees with q·v·q*: %v vs %v", got, rot)
		}
	}
}

func TestMat4InverseAndGLTF(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		m := TRS(Vec3{r.NormFloat64(), 5, -3}, randQuat(r), Vec3{0.5 + r.Float64(), -2, 3})
		inv, ok := m.Inverse()
		if !ok {
			t.Fatal("invertible matrix reported singular")
		}
		id := m.Mul(inv)
		for a := 0; a < 4; a++ {
			for b := 0; b < 4; b++ {
				want := 0.0
				if a == b {
					want = 1
				}
				if math.Abs(id[a][b]-want) > 1e-12 {
					t.Fatalf("M·M⁻¹ = %v", id)
				}
			}
		}
		if Mat4FromGLTF(m.GLTF()) != m {
			t.Fatal("GLTF round trip changed the matrix")
		}
	}
	if _, ok := (Mat4{}).Inverse(); ok {
		t.Fatal("zero matrix reported invertible")
	}
}

func TestBox(t *testing.T) {
	b := EmptyBox()
	if !b.IsEmpty() || b.Diagonal() != 0 {
		t.Fatal("EmptyBox is not empty")
	}
	b = BoundsOf([]Vec3{{1, 2, 3}, {-1, 0, 5}})
	if b.Min != (Vec3{-1, 0, 3}) || b.Max != (Vec3{1, 2, 5}) {
		t.Fatalf("bounds %v", b)
	}
	if math.Abs(b.Diagonal()-math.Sqrt(12)) > 1e-15 {
		t.Fatalf("diagonal %v", b.Diagonal())
	}
}
