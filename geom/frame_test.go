package geom

import (
	"math"
	"testing"
)

// TestRigid: a TRS splits back into its translation, rotation and scale
// (a mirror into a negative first scale), at any size; a zero, flat or
// non-finite transform has no frame.
func TestRigid(t *testing.T) {
	q := Quat{0.1, 0.7, -0.2, 0.6}.Normalize()
	for _, s := range []Vec3{{1, 1, 1}, {2, 0.5, 3}, {-2, 0.5, 3}, {2, -0.5, 3}, {1e-9, 1e-9, 1e-9}, {1e6, 1e-3, 1}} {
		m := TRS(Vec3{1, 2, 3}, q, s)
		tr, gq, gs, err := m.Rigid()
		if err != nil {
			t.Fatalf("scale %v: %v", s, err)
		}
		if gs[1] < 0 || gs[2] < 0 || (gs[0] < 0) != (s[0]*s[1]*s[2] < 0) {
			t.Errorf("scale %v: got %v, want only the first negative, and only for a mirror", s, gs)
		}
		if d := math.Abs(gq[0]*gq[0] + gq[1]*gq[1] + gq[2]*gq[2] + gq[3]*gq[3] - 1); d > 1e-15 {
			t.Errorf("scale %v: rotation %v is not unit (%g)", s, gq, d)
		}
		if det := gq.Mat3().Det(); math.Abs(det-1) > 1e-12 {
			t.Errorf("scale %v: rotation determinant %g", s, det)
		}
		back := TRS(tr, gq, gs)
		for i := range 3 {
			for j := range 4 {
				if tol := 1e-12 * math.Max(1, math.Abs(m[i][j])); math.Abs(back[i][j]-m[i][j]) > tol {
					t.Fatalf("scale %v: TRS(Rigid) = %v, want %v", s, back, m)
				}
			}
		}
	}
	flat := TRS(Vec3{}, q, Vec3{1, 1, 1})
	flat[0][2], flat[1][2], flat[2][2] = flat[0][0]+flat[0][1], flat[1][0]+flat[1][1], flat[2][0]+flat[2][1] // third axis in the others' plane
	inf := Identity4()
	inf[1][1] = math.Inf(1)
	for name, m := range map[string]Mat4{
		"zero scale":    TRS(Vec3{}, q, Vec3{1, 0, 1}),
		"thin scale":    TRS(Vec3{}, q, Vec3{1, 1e-13, 1}),
		"coplanar axes": flat,
		"infinite":      inf,
		"NaN":           {{math.NaN(), 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}},
	} {
		if _, _, _, err := m.Rigid(); err == nil {
			t.Errorf("%s: split, want an error", name)
		}
	}
}

// TestNearIdentityAndScale: entries within 1e-9 count, beyond do not.
func TestNearIdentityAndScale(t *testing.T) {
	m := Identity4()
	m[0][1] = 0.5e-9
	if !m.IsIdentity() {
		t.Error("identity within 1e-9 not seen")
	}
	m[0][1] = 2e-9
	if m.IsIdentity() {
		t.Error("2e-9 off taken for the identity")
	}
	s := TRS(Vec3{}, IdentityQuat(), Vec3{2, 3, 4})
	if d, ok := s.ScaleOnly(); !ok || d != (Vec3{2, 3, 4}) {
		t.Errorf("ScaleOnly = %v %v, want (2, 3, 4)", d, ok)
	}
	s[0][1] = 1e-3
	if _, ok := s.ScaleOnly(); ok {
		t.Error("a shear taken for a scale")
	}
	if _, ok := TRS(Vec3{1, 0, 0}, IdentityQuat(), Vec3{2, 3, 4}).ScaleOnly(); ok {
		t.Error("a translation taken for a scale")
	}
}
