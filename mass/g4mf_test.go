package mass

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// A minimal geometric algebra Cl(3,0), built from first principles so that it
// checks the G4MF mappings independently of them: a multivector has 8
// components indexed by a bit mask of basis vectors (bit 0 = x, 1 = y,
// 2 = z), and the product of two basis blades is their XOR with the sign of
// the swaps needed to sort the factors (every eᵢ² = +1).
type mv [8]float64

func bladeSign(a, b int) float64 {
	swaps := 0
	for a >>= 1; a != 0; a >>= 1 {
		swaps += bits.OnesCount(uint(a & b))
	}
	if swaps%2 == 0 {
		return 1
	}
	return -1
}

func (a mv) mul(b mv) mv {
	var r mv
	for i := 0; i < 8; i++ {
		if a[i] == 0 {
			continue
		}
		for j := 0; j < 8; j++ {
			r[i^j] += bladeSign(i, j) * a[i] * b[j]
		}
	}
	return r
}

// reverse flips the sign of grades 2 and 3.
func (a mv) reverse() mv {
	for i := range a {
		if g := bits.OnesCount(uint(i)); g == 2 || g == 3 {
			a[i] = -a[i]
		}
	}
	return a
}

const (
	bXY = 0b011
	bXZ = 0b101
	bYZ = 0b110
)

func rotorMV(r [4]float64) mv { return mv{0: r[0], bXY: r[1], bXZ: r[2], bYZ: r[3]} }
func vecMV(v geom.Vec3) mv    { return mv{1: v[0], 2: v[1], 4: v[2]} }
func bivMV(b [3]float64) mv   { return mv{bXY: b[0], bXZ: b[1], bYZ: b[2]} }
func mvBiv(m mv) [3]float64   { return [3]float64{m[bXY], m[bXZ], m[bYZ]} }

// g4mfRotate applies a rotor the G4MF way: R̃·x·R.
func g4mfRotate(r mv, x mv) mv { return r.reverse().mul(x).mul(r) }

// TestG4MFRotorRotatesLikeQuaternion: the rotor [w, z, −y, x] moves vectors
// exactly as the quaternion does, and the bivector [z, −y, x] of a vector
// turns with it.
func TestG4MFRotorRotatesLikeQuaternion(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	for i := 0; i < 500; i++ {
		q := randQuat(r)
		rot := rotorMV(G4MFRotor(q))
		v := randVec(r, 1)
		got := g4mfRotate(rot, vecMV(v))
		want := q.Rotate(v)
		for a, k := range []int{1, 2, 4} {
			if math.Abs(got[k]-want[a]) > 1e-12 {
				t.Fatalf("rotor %v moves %v to %v, quaternion to %v", G4MFRotor(q), v, got, want)
			}
		}
		bv := mvBiv(g4mfRotate(rot, bivMV(G4MFAngularVelocity(v))))
		if w := G4MFAngularVelocity(want); math.Abs(bv[0]-w[0]) > 1e-12 || math.Abs(bv[1]-w[1]) > 1e-12 || math.Abs(bv[2]-w[2]) > 1e-12 {
			t.Fatalf("bivector of a rotated vector %v differs from the rotated bivector %v", w, bv)
		}
		if QuatFromG4MFRotor(G4MFRotor(q)) != q {
			t.Fatal("rotor round trip")
		}
		if AngularVelocityFromG4MF(G4MFAngularVelocity(v)) != v {
			t.Fatal("angular velocity round trip")
		}
	}
	// x∧y is the XY plane, the plane of rotation about z: its bivector is [1,0,0].
	xy := vecMV(geom.Vec3{1, 0, 0}).mul(vecMV(geom.Vec3{0, 1, 0}))
	if mvBiv(xy) != G4MFAngularVelocity(geom.Vec3{0, 0, 1}) {
		t.Fatalf("x∧y = %v is not the bivector of +z", mvBiv(xy))
	}
}

// TestG4MFInertiaRebuild rebuilds the inertia tensor from the G4MF bivector
// diagonal and rotor, acting on bivectors, and compares it with R·diag·Rᵀ.
func TestG4MFInertiaRebuild(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	for i := 0; i < 300; i++ {
		d := [3]float64{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64()}
		q := randQuat(r)
		want := rebuild(d, q)
		// Round trip through Principal too.
		pd, pq := Principal(want)
		diag := G4MFInertiaDiagonal(pd)
		rot := rotorMV(G4MFRotor(pq))
		var got geom.Mat3
		for k := 0; k < 3; k++ {
			var w geom.Vec3
			w[k] = 1
			// Body-frame bivector → principal frame (inverse rotation R·B·R̃),
			// scale each plane by its moment, rotate back (R̃·L·R).
			bp := mvBiv(rot.mul(bivMV(G4MFAngularVelocity(w))).mul(rot.reverse()))
			lp := [3]float64{diag[0] * bp[0], diag[1] * bp[1], diag[2] * bp[2]}
			l := AngularVelocityFromG4MF(mvBiv(g4mfRotate(rot, bivMV(lp))))
			for a := 0; a < 3; a++ {
				got[a][k] = l[a]
			}
		}
		if e := matErr(got, want); e > 1e-12 {
			t.Fatalf("G4MF rebuild differs by %g:\n%v\n%v", e, got, want)
		}
		if InertiaDiagonalFromG4MF(diag) != pd {
			t.Fatal("inertia diagonal round trip")
		}
	}
	// The plane order: a tensor diag(Ixx, Iyy, Izz) is [Izz, Iyy, Ixx].
	if G4MFInertiaDiagonal([3]float64{1, 2, 3}) != [3]float64{3, 2, 1} {
		t.Fatal("inertia plane order")
	}
	if G4MFRotor(geom.IdentityQuat()) != [4]float64{1, 0, 0, 0} {
		t.Fatal("identity rotor")
	}
}
