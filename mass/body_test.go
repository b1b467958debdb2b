package mass

import (
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

func TestFromDensityAndMass(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	p := Box(geom.Vec3{0.2, 0.1, 0.05}).Transform(randQuat(r), geom.Vec3{1, 2, 3})
	oak, err := Density("oak")
	if err != nil {
		t.Fatal(err)
	}
	b := FromDensity(p, oak)
	if e := relErr(b.Mass, 0.001*oak); e > exactTol {
		t.Fatalf("mass %v", b.Mass)
	}
	if b.CenterOfMass != p.CenterOfMass {
		t.Fatal("centre of mass moved")
	}
	// Principal moments of a box are m(b²+c²)/12 etc., in some order.
	want := []float64{b.Mass * (0.01 + 0.0025) / 12, b.Mass * (0.04 + 0.0025) / 12, b.Mass * (0.04 + 0.01) / 12}
	got := b.InertiaDiagonal[:]
	slices.Sort(want)
	got = slices.Clone(got)
	slices.Sort(got)
	for i := range want {
		if relErr(got[i], want[i]) > 1e-9 {
			t.Fatalf("moments %v want %v", b.InertiaDiagonal, want)
		}
	}
	checkPrincipal(t, b.Inertia, b.InertiaDiagonal, b.InertiaOrientation)
	// FromMass is FromDensity with mass/volume.
	m := FromMass(p, 3)
	if relErr(m.Mass, 3) > exactTol || matErr(m.Inertia, FromDensity(p, 3/p.Volume).Inertia) > exactTol {
		t.Fatalf("FromMass %+v", m)
	}
	// Row-major tensor (old OMI form).
	ten := b.InertiaTensor()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if ten[3*i+j] != b.Inertia[i][j] {
				t.Fatal("InertiaTensor is not row-major")
			}
		}
	}
	// No volume: no NaN.
	z := FromMass(Properties{}, 5)
	if z.Mass != 0 || z.InertiaOrientation != geom.IdentityQuat() {
		t.Fatalf("zero volume body %+v", z)
	}
}

func TestCombine(t *testing.T) {
	// A steel box on top of a wooden one: combine = Sum when densities agree,
	// and the mass-weighted version otherwise, compared with a hand sum.
	a := Box(geom.Vec3{1, 1, 1}).Transform(geom.IdentityQuat(), geom.Vec3{0, 0.5, 0})
	c := Box(geom.Vec3{1, 1, 1}).Transform(geom.IdentityQuat(), geom.Vec3{0, -0.5, 0})
	same := Combine(FromDensity(a, 2), FromDensity(c, 2))
	if e := matErr(same.Inertia, FromDensity(Sum(a, c), 2).Inertia); e > exactTol {
		t.Fatalf("Combine differs from Sum by %g", e)
	}
	mixed := Combine(FromDensity(a, 7850), FromDensity(c, 700))
	m := 7850.0 + 700
	com := (7850*0.5 - 700*0.5) / m
	if relErr(mixed.Mass, m) > exactTol || math.Abs(mixed.CenterOfMass[1]-com) > 1e-12 {
		t.Fatalf("mixed body %+v", mixed)
	}
	// Ixx = Σ m(1+1)/12 + m·(y−com)².
	ixx := m*2/12 + 7850*(0.5-com)*(0.5-com) + 700*(-0.5-com)*(-0.5-com)
	if relErr(mixed.Inertia[0][0], ixx) > exactTol || relErr(mixed.Inertia[1][1], m*2/12) > exactTol {
		t.Fatalf("mixed inertia %v, want Ixx %v", mixed.Inertia, ixx)
	}
}

func TestMaterials(t *testing.T) {
	names := Materials()
	if !slices.IsSorted(names) {
		t.Fatal("Materials not sorted")
	}
	for _, n := range []string{"wood", "pine", "oak", "plastic", "rubber", "glass", "concrete", "aluminium", "steel", "water"} {
		if !slices.Contains(names, n) {
			t.Fatalf("missing material %q", n)
		}
	}
	for _, c := range []struct {
		name string
		want float64
	}{{"OAK", 750}, {" Steel ", 7850}, {"water", 1000}, {"Aluminum", 2700}} {
		d, err := Density(c.name)
		if err != nil || d != c.want {
			t.Fatalf("Density(%q) = %v, %v", c.name, d, err)
		}
	}
	for _, n := range names {
		if d, err := Density(n); err != nil || !(d > 0) {
			t.Fatalf("%s: %v %v", n, d, err)
		}
	}
	_, err := Density("unobtainium")
	if err == nil || !strings.Contains(err.Error(), "unobtainium") || !strings.Contains(err.Error(), "oak, pine") {
		t.Fatalf("unknown material error %v", err)
	}
}

func TestIsClosed(t *testing.T) {
	v, tr := boxMesh(geom.Vec3{1, 2, 3}, 2)
	flip := slices.Clone(tr)
	flip[3] = [3]uint32{flip[3][0], flip[3][2], flip[3][1]}
	dup := append(slices.Clone(tr), tr[0])
	degen := append(slices.Clone(tr), [3]uint32{0, 0, 5})
	// Unwelded: every triangle gets its own three vertices.
	var sv []geom.Vec3
	var st [][3]uint32
	for _, t := range tr {
		n := uint32(len(sv))
		sv = append(sv, v[t[0]], v[t[1]], v[t[2]])
		st = append(st, [3]uint32{n, n + 1, n + 2})
	}
	negZero := slices.Clone(sv)
	for i := range negZero {
		if negZero[i][0] == 0 && i%2 == 0 {
			negZero[i][0] = math.Copysign(0, -1)
		}
	}
	nan := slices.Clone(sv)
	nan[0][0] = math.NaN()
	cases := []struct {
		name string
		got  bool
		want bool
	}{
		{"box", IsClosed(tr), true},
		{"missing triangle", IsClosed(tr[1:]), false},
		{"flipped triangle", IsClosed(flip), false},
		{"duplicate triangle", IsClosed(dup), false},
		{"degenerate triangle ignored", IsClosed(degen), true},
		{"empty", IsClosed(nil), false},
		{"torus", IsClosed(func() [][3]uint32 { _, t := torusMesh(1, 0.3, 8, 6); return t }()), true},
		{"unwelded by index", IsClosed(st), false},
		{"unwelded by position", IsClosedByPosition(sv, st), true},
		{"negative zero welds", IsClosedByPosition(negZero, st), true},
		{"NaN vertex", IsClosedByPosition(nan, st), false},
		{"index out of range", IsClosedByPosition(v, [][3]uint32{{0, 1, 1000}}), false},
		{"open by position", IsClosedByPosition(sv, st[3:]), false},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %v want %v", c.name, c.got, c.want)
		}
	}
}
