package mass

import (
	"math"
	"math/rand"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// reconstructTol is the required relative accuracy of R·diag·Rᵀ.
const reconstructTol = 1e-9

func rebuild(d [3]float64, q geom.Quat) geom.Mat3 {
	r := q.Mat3()
	return r.Mul(diagMat(d)).Mul(r.Transpose())
}

// checkPrincipal asserts the invariants of a decomposition of in.
func checkPrincipal(t *testing.T, in geom.Mat3, d [3]float64, q geom.Quat) {
	t.Helper()
	if n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); math.Abs(n-1) > 1e-12 {
		t.Fatalf("quaternion %v has norm %v", q, n)
	}
	if q[3] < 0 {
		t.Fatalf("quaternion %v has w < 0", q)
	}
	if det := q.Mat3().Det(); math.Abs(det-1) > 1e-12 {
		t.Fatalf("rotation det %v", det)
	}
	if e := matErr(rebuild(d, q), in); e > reconstructTol {
		t.Fatalf("R·diag·Rᵀ differs from the tensor by %g (d %v q %v)", e, d, q)
	}
}

func TestPrincipalRandom(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for i := 0; i < 2000; i++ {
		d := [3]float64{r.Float64() * 10, r.Float64() * 10, r.Float64()}
		q := randQuat(r)
		in := rebuild(d, q)
		gd, gq := Principal(in)
		checkPrincipal(t, in, gd, gq)
		// The moments are the eigenvalues, whatever their order.
		want := []float64{d[0], d[1], d[2]}
		for _, g := range gd {
			found := false
			for k, w := range want {
				if math.Abs(g-w) <= 1e-9*10 {
					want = append(want[:k], want[k+1:]...)
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("moment %v not among %v", gd, d)
			}
		}
		// Deterministic, bit for bit.
		if d2, q2 := Principal(in); d2 != gd || q2 != gq {
			t.Fatal("Principal is not deterministic")
		}
	}
}

func TestPrincipalCanonical(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	cases := []struct {
		name   string
		in     geom.Mat3
		wantD  [3]float64
		wantID bool // expect the identity rotation
	}{
		{"box 1x2x3", Box(geom.Vec3{1, 2, 3}).Inertia, [3]float64{6.5, 5, 2.5}, true},
		{"cube", Box(geom.Vec3{2, 2, 2}).Inertia, [3]float64{}, true},
		{"sphere", Sphere(1).Inertia, [3]float64{}, true},
		{"cylinder along Y", Cylinder(3, 1).Inertia, [3]float64{}, true},
		{"zero", geom.Mat3{}, [3]float64{}, true},
	}
	for _, c := range cases {
		d, q := Principal(c.in)
		checkPrincipal(t, c.in, d, q)
		if c.wantID && q != geom.IdentityQuat() {
			t.Fatalf("%s: rotation %v, want identity", c.name, q)
		}
		if c.wantD != ([3]float64{}) && d != c.wantD {
			t.Fatalf("%s: moments %v want %v", c.name, d, c.wantD)
		}
		if d != [3]float64{c.in[0][0], c.in[1][1], c.in[2][2]} {
			t.Fatalf("%s: moments %v are not the diagonal of an axis-aligned tensor", c.name, d)
		}
	}
	// Degenerate tensors in random orientations: a cube rotated is still
	// isotropic (identity); a cylinder rotated has two equal moments.
	for i := 0; i < 500; i++ {
		q := randQuat(r)
		cube := Box(geom.Vec3{1, 1, 1}).Transform(q, geom.Vec3{}).Inertia
		d, gq := Principal(cube)
		checkPrincipal(t, cube, d, gq)
		if gq != geom.IdentityQuat() {
			t.Fatalf("rotated cube gave %v", gq)
		}
		for _, cyl := range []Properties{Cylinder(3, 1), Cylinder(0.2, 1), Capsule(1, 0.5)} {
			in := cyl.Transform(q, geom.Vec3{}).Inertia
			d, gq := Principal(in)
			checkPrincipal(t, in, d, gq)
			// Two moments equal the perpendicular one.
			ip, eq := cyl.Inertia[0][0], 0
			for _, m := range d {
				if relErr(m, ip) < 1e-9 {
					eq++
				}
			}
			if eq != 2 {
				t.Fatalf("rotated cylinder moments %v, want two equal to %v", d, ip)
			}
		}
	}
	// Nearly degenerate (below DegenerateTolerance) still reconstructs.
	for _, gap := range []float64{1e-12, 5e-11, 2e-10, 1e-9, 1e-6} {
		in := rebuild([3]float64{1, 1 + gap, 2}, randQuat(r))
		d, q := Principal(in)
		checkPrincipal(t, in, d, q)
		in = rebuild([3]float64{3, 3 - gap, 3 + gap}, randQuat(r))
		d, q = Principal(in)
		checkPrincipal(t, in, d, q)
	}
}

func TestPrincipalFromMeshes(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	meshes := map[string]func() ([]geom.Vec3, [][3]uint32){
		"icosphere": func() ([]geom.Vec3, [][3]uint32) { return icosphere(3, 1) },
		"cylinder":  func() ([]geom.Vec3, [][3]uint32) { return cylinderMesh(2, 0.5, 32) },
		"cube":      func() ([]geom.Vec3, [][3]uint32) { return boxMesh(geom.Vec3{1, 1, 1}, 3) },
		"torus":     func() ([]geom.Vec3, [][3]uint32) { return torusMesh(1, 0.2, 32, 16) },
	}
	for _, name := range []string{"icosphere", "cylinder", "cube", "torus"} {
		v, tr := meshes[name]()
		q := randQuat(r)
		p, err := Mesh(transformVerts(v, q.Rotate), tr)
		if err != nil {
			t.Fatal(err)
		}
		d, gq := Principal(p.Inertia)
		checkPrincipal(t, p.Inertia, d, gq)
	}
}
