package mass

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// exactTol is the tolerance for comparisons that are exact up to rounding.
const exactTol = 1e-12

func TestMeshBoxesAgainstClosedForm(t *testing.T) {
	cases := []struct {
		name string
		size geom.Vec3
		n    int
	}{
		{"unit cube", geom.Vec3{1, 1, 1}, 1},
		{"box 1x2x3", geom.Vec3{1, 2, 3}, 1},
		{"tessellated box 1x2x3", geom.Vec3{1, 2, 3}, 7},
		{"flat box", geom.Vec3{10, 0.01, 3}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, tr := boxMesh(c.size, c.n)
			if !IsClosed(tr) {
				t.Fatal("test mesh is not closed")
			}
			got, err := Mesh(v, tr)
			if err != nil {
				t.Fatal(err)
			}
			want := Box(c.size)
			if e := propErr(got, want, c.size.Len()); e > exactTol {
				t.Fatalf("error %g: got %+v want %+v", e, got, want)
			}
		})
	}
	// Hand-checked values: unit cube I = 1/6, box 1×2×3 Ixx = 6·(4+9)/12.
	if b := Box(geom.Vec3{1, 1, 1}); b.Volume != 1 || math.Abs(b.Inertia[0][0]-1.0/6) > 1e-16 {
		t.Fatalf("unit cube %+v", b)
	}
	if b := Box(geom.Vec3{1, 2, 3}); b.Volume != 6 || b.Inertia[0][0] != 6.5 || b.Inertia[1][1] != 5 || b.Inertia[2][2] != 2.5 {
		t.Fatalf("box 1x2x3 %+v", b)
	}
}

func TestMeshFarFromOrigin(t *testing.T) {
	const tol = 1e-9 // required by the task: relative error at a 1e6 offset
	r := rand.New(rand.NewSource(7))
	size := geom.Vec3{1, 2, 3}
	v, tr := boxMesh(size, 4)
	for _, off := range []geom.Vec3{{1e6, 1e6, 1e6}, {-1e6, 3e6, 2e5}, {1e7, 0, -1e7}} {
		q := randQuat(r)
		moved := transformVerts(v, func(p geom.Vec3) geom.Vec3 { return q.Rotate(p).Add(off) })
		got, err := Mesh(moved, tr)
		if err != nil {
			t.Fatal(err)
		}
		want := Box(size).Transform(q, off)
		if e := propErr(got, want, size.Len()); e > tol {
			t.Fatalf("offset %v: relative error %g > %g", off, e, tol)
		}
	}
}

// TestSphereConvergence checks that icospheres converge toward 4/3πr³ and
// 2/5·m·r² with errors decreasing at every subdivision.
func TestSphereConvergence(t *testing.T) {
	const r = 1.5
	want := Sphere(r)
	prevV, prevI := math.Inf(1), math.Inf(1)
	for s := 0; s <= 5; s++ {
		v, tr := icosphere(s, r)
		got, err := Mesh(v, tr)
		if err != nil {
			t.Fatal(err)
		}
		ev := relErr(got.Volume, want.Volume)
		ei := matErr(got.Inertia, want.Inertia)
		t.Logf("subdivisions %d (%d triangles): volume error %.3g, inertia error %.3g", s, len(tr), ev, ei)
		if ev >= prevV || ei >= prevI {
			t.Fatalf("error did not decrease at %d subdivisions: volume %g (was %g), inertia %g (was %g)", s, ev, prevV, ei, prevI)
		}
		if got.CenterOfMass.Len() > exactTol*r {
			t.Fatalf("centre of mass %v", got.CenterOfMass)
		}
		prevV, prevI = ev, ei
	}
	if prevV > 2e-3 || prevI > 4e-3 {
		t.Fatalf("5 subdivisions still far off: %g %g", prevV, prevI)
	}
	// Against the closed form of a ball.
	if e := relErr(want.Inertia[0][0], 0.4*want.Volume*r*r); e > exactTol {
		t.Fatal("Sphere inertia is not 2/5 m r²")
	}
}

// TestCylinderPrismExact compares the mesh of a prism over a regular n-gon
// with the exact prism formulas, then checks convergence to Cylinder.
func TestCylinderPrismExact(t *testing.T) {
	const h, r = 2.5, 0.7
	want := Cylinder(h, r)
	prev := math.Inf(1)
	for _, n := range []int{3, 4, 7, 16, 64, 256} {
		v, tr := cylinderMesh(h, r, n)
		got, err := Mesh(v, tr)
		if err != nil {
			t.Fatal(err)
		}
		// Regular n-gon of circumradius r: area A = n r² sin(2π/n)/2,
		// polar moment J = A r² (2 + cos(2π/n))/6.
		th := 2 * math.Pi / float64(n)
		area := float64(n) * r * r * math.Sin(th) / 2
		j := area * r * r * (2 + math.Cos(th)) / 6
		exact := Properties{Volume: area * h, Inertia: diagMat([3]float64{h*j/2 + area*h*h*h/12, h * j, h*j/2 + area*h*h*h/12})}
		if e := propErr(got, exact, h); e > exactTol {
			t.Fatalf("%d-gon prism: error %g: got %+v want %+v", n, e, got, exact)
		}
		e := propErr(got, want, h)
		if e >= prev {
			t.Fatalf("%d-gon prism: error to the cylinder %g did not decrease (%g)", n, e, prev)
		}
		prev = e
	}
	if prev > 1e-3 {
		t.Fatalf("256-gon prism still %g off the cylinder", prev)
	}
}

func TestCapsuleConvergence(t *testing.T) {
	cases := []struct{ h, r float64 }{{2, 0.5}, {0.3, 1}, {0, 1}}
	for _, c := range cases {
		want := Capsule(c.h, c.r)
		prev := math.Inf(1)
		for _, n := range []int{4, 8, 16, 32, 64} {
			v, tr := capsuleMesh(c.h, c.r, 4*n, n)
			if !IsClosed(tr) {
				t.Fatal("capsule mesh not closed")
			}
			got, err := Mesh(v, tr)
			if err != nil {
				t.Fatal(err)
			}
			e := propErr(got, want, c.h+2*c.r)
			if e >= prev {
				t.Fatalf("h=%g r=%g n=%d: error %g did not decrease (%g)", c.h, c.r, n, e, prev)
			}
			prev = e
		}
		if prev > 5e-4 {
			t.Fatalf("h=%g r=%g: still %g off", c.h, c.r, prev)
		}
	}
	// A capsule of zero height is a sphere.
	if e := propErr(Capsule(0, 1.3), Sphere(1.3), 1); e > exactTol {
		t.Fatalf("Capsule(0, r) differs from Sphere(r) by %g", e)
	}
}

func TestTorusConvergence(t *testing.T) {
	const R, r = 2.0, 0.5
	vol := 2 * math.Pi * math.Pi * R * r * r // Pappus
	want := Properties{Volume: vol, Inertia: diagMat([3]float64{
		vol * (R*R/2 + 5*r*r/8), vol * (R*R + 3*r*r/4), vol * (R*R/2 + 5*r*r/8),
	})}
	prev := math.Inf(1)
	for _, n := range []int{8, 16, 32, 64, 128} {
		v, tr := torusMesh(R, r, 2*n, n)
		got, err := Mesh(v, tr)
		if err != nil {
			t.Fatal(err)
		}
		e := propErr(got, want, R)
		if e >= prev {
			t.Fatalf("n=%d: error %g did not decrease (%g)", n, e, prev)
		}
		prev = e
	}
	if prev > 1e-3 {
		t.Fatalf("torus still %g off", prev)
	}
}

// TestRotationAndLinear: moving the vertices equals transforming the
// properties, for rigid poses (R·I·Rᵀ) and for general linear maps.
func TestRotationAndLinear(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	// An asymmetric solid: a torus squashed, sheared and moved.
	v0, tr := torusMesh(1, 0.4, 24, 12)
	skew := geom.Mat3{{1.3, 0.2, 0}, {0, 0.7, 0.4}, {0.1, 0, 1.1}}
	v := transformVerts(v0, func(p geom.Vec3) geom.Vec3 { return skew.MulVec(p).Add(geom.Vec3{0.3, -1, 2}) })
	base, err := Mesh(v, tr)
	if err != nil {
		t.Fatal(err)
	}
	if base.Inertia[0][1] == 0 || base.Inertia[1][2] == 0 {
		t.Fatal("test solid has no products of inertia; it would not test rotation")
	}
	for i := 0; i < 20; i++ {
		q, off := randQuat(r), randVec(r, 10)
		moved := transformVerts(v, func(p geom.Vec3) geom.Vec3 { return q.Rotate(p).Add(off) })
		got, err := Mesh(moved, tr)
		if err != nil {
			t.Fatal(err)
		}
		if e := propErr(got, base.Transform(q, off), 1); e > exactTol {
			t.Fatalf("rigid pose: error %g", e)
		}
		var a geom.Mat3
		for x := 0; x < 3; x++ {
			for y := 0; y < 3; y++ {
				a[x][y] = r.NormFloat64()
			}
		}
		lin, err := MeshLinear(v, tr, a)
		if err != nil {
			t.Fatal(err)
		}
		if e := propErr(lin, base.Linear(a), 1); e > 1e-10 {
			t.Fatalf("linear map det %g: error %g", a.Det(), e)
		}
	}
	// Non-uniform scale of a sphere gives an ellipsoid: V = 4/3π·abc,
	// Ixx = V(b²+c²)/5.
	e := Sphere(1).Scale(geom.Vec3{2, 3, 0.5})
	ve := 4.0 / 3 * math.Pi * 3
	want := Properties{Volume: ve, Inertia: diagMat([3]float64{ve * (9 + 0.25) / 5, ve * (4 + 0.25) / 5, ve * (4 + 9) / 5})}
	if err := propErr(e, want, 1); err > exactTol {
		t.Fatalf("ellipsoid error %g", err)
	}
}

// TestMirror: a mirrored mesh has positive volume and the mirrored tensor,
// whether or not the caller flips the winding.
func TestMirror(t *testing.T) {
	v, tr := torusMesh(1, 0.3, 16, 8)
	v = transformVerts(v, func(p geom.Vec3) geom.Vec3 { return geom.Vec3{p[0] + 0.2*p[1], p[1], p[2] + 1} })
	base, err := Mesh(v, tr)
	if err != nil {
		t.Fatal(err)
	}
	mirror := geom.Mat3{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	want := base.Linear(mirror)
	mv := transformVerts(v, mirror.MulVec)
	flipped := make([][3]uint32, len(tr))
	for i, t := range tr {
		flipped[i] = [3]uint32{t[0], t[2], t[1]}
	}
	for name, tris := range map[string][][3]uint32{"winding kept": tr, "winding flipped": flipped} {
		got, err := Mesh(mv, tris)
		if err != nil {
			t.Fatal(name, err)
		}
		if !(got.Volume > 0) || propErr(got, want, 1) > exactTol {
			t.Fatalf("%s: got %+v want %+v", name, got, want)
		}
	}
	if want.Inertia[0][1] != -base.Inertia[0][1] {
		t.Fatal("mirroring x should negate Ixy")
	}
}

// TestSumParallelAxis: two boxes side by side are one bigger box.
func TestSumParallelAxis(t *testing.T) {
	a := Box(geom.Vec3{1, 2, 3}).Transform(geom.IdentityQuat(), geom.Vec3{0.5, 0, 0})
	b := Box(geom.Vec3{3, 2, 3}).Transform(geom.IdentityQuat(), geom.Vec3{-1.5, 0, 0})
	want := Box(geom.Vec3{4, 2, 3}).Transform(geom.IdentityQuat(), geom.Vec3{-1, 0, 0})
	if e := propErr(Sum(a, b), want, 1); e > exactTol {
		t.Fatalf("error %g", e)
	}
	// Rotated as a whole, the same.
	q := geom.Quat{0.1, 0.7, -0.3, 0.5}.Normalize()
	if e := propErr(Sum(a.Transform(q, geom.Vec3{1, 2, 3}), b.Transform(q, geom.Vec3{1, 2, 3})), want.Transform(q, geom.Vec3{1, 2, 3}), 1); e > exactTol {
		t.Fatalf("rotated error %g", e)
	}
	// InertiaAbout: a rod's end, I = m·L²/3 (thin box 1e-4 wide).
	rod := Box(geom.Vec3{2, 1e-4, 1e-4})
	if e := relErr(rod.InertiaAbout(geom.Vec3{1, 0, 0})[1][1], rod.Volume*4/3); e > 1e-8 {
		t.Fatalf("rod about its end: error %g", e)
	}
	if s := Sum(); s != (Properties{}) {
		t.Fatalf("empty sum %+v", s)
	}
}

func TestMeshErrors(t *testing.T) {
	v, tr := boxMesh(geom.Vec3{1, 1, 1}, 1)
	nan := append([]geom.Vec3(nil), v...)
	nan[3][1] = math.NaN()
	flat := [][3]uint32{{0, 1, 2}, {0, 2, 1}}
	cases := []struct {
		name  string
		v     []geom.Vec3
		tr    [][3]uint32
		noVol bool
	}{
		{"no triangles", v, nil, false},
		{"NaN vertex", nan, tr, false},
		{"index out of range", v, [][3]uint32{{0, 1, 99}}, false},
		{"flat", v, flat, true},
	}
	for _, c := range cases {
		_, err := Mesh(c.v, c.tr)
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		if errors.Is(err, ErrNoVolume) != c.noVol {
			t.Fatalf("%s: unexpected error kind: %v", c.name, err)
		}
	}
}

func TestCapsuleAxialAdditivity(t *testing.T) {
	// Volume and the moment about the axis are additive: a capsule is a
	// cylinder plus the two halves of a sphere.
	const h, r = 1.2, 0.4
	cyl := Cylinder(h, r)
	top := Sphere(r)
	if e := relErr(Capsule(h, r).Volume, cyl.Volume+top.Volume); e > exactTol {
		t.Fatal("capsule volume")
	}
	// Iyy is additive about the common axis.
	if e := relErr(Capsule(h, r).Inertia[1][1], cyl.Inertia[1][1]+top.Inertia[1][1]); e > exactTol {
		t.Fatal("capsule axial inertia")
	}
}
