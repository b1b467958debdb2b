package fit

import (
	"errors"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// TestCapsuleAlongKnownCapsule: points on the surface of a posed capsule,
// fitted along that capsule's axis, give back the capsule (within 1%),
// contain every point, and keep the axis they were given.
func TestCapsuleAlongKnownCapsule(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		r, h := 0.1+0.1*float64(seed), 0.5*float64(seed)
		q := randQuat(newRand(seed + 100))
		pts := pose(capsuleSurface(newRand(seed), r, h, 2000), q, geom.Vec3{1, -2, 3})
		axis := q.Rotate(geom.Vec3{0, 1, 0})
		in, err := Prepare(pts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := in.CapsuleAlong(axis.Scale(-3), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := math.Abs(s.Rotation.Rotate(geom.Vec3{0, 1, 0}).Dot(axis)); got < 1-1e-9 {
			t.Errorf("seed %d: axis off by %g rad", seed, math.Acos(math.Min(got, 1)))
		}
		want := capsuleVolume(r, h)
		if s.Volume > want*1.01 || s.Volume < want*0.98 {
			t.Errorf("seed %d: volume %g, the sampled capsule's is %g", seed, s.Volume, want)
		}
		for i, p := range pts {
			if !Contains(s, p, 0) {
				t.Fatalf("seed %d: point %d outside", seed, i)
			}
		}
	}
}

// TestCapsuleAlongMatchesSearch: along the axis KindCapsule found, the
// given-axis fit is the same capsule.
func TestCapsuleAlongMatchesSearch(t *testing.T) {
	rng := newRand(7)
	pts := make([]geom.Vec3, 300)
	for i := range pts {
		pts[i] = geom.Vec3{rng.NormFloat64() * 0.3, rng.NormFloat64() * 2, rng.NormFloat64()}
	}
	in, err := Prepare(pts)
	if err != nil {
		t.Fatal(err)
	}
	searched, err := in.Fit(KindCapsule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	along, err := in.CapsuleAlong(searched.Rotation.Rotate(geom.Vec3{0, 1, 0}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(along.Volume-searched.Volume) / searched.Volume; d > 1e-6 {
		t.Errorf("volume %g along the searched axis, search gave %g", along.Volume, searched.Volume)
	}
	// Any other axis cannot beat the search by much: it is near-optimal.
	other, err := in.CapsuleAlong(geom.Vec3{1, 0, 0}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if other.Volume < searched.Volume {
		t.Errorf("axis X gives %g, smaller than the searched %g", other.Volume, searched.Volume)
	}
}

func TestCapsuleAlongBadInput(t *testing.T) {
	in, err := Prepare([]geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ax := range []geom.Vec3{{}, {math.NaN(), 0, 1}, {math.Inf(1), 0, 0}} {
		if _, err := in.CapsuleAlong(ax, Options{}); !errors.Is(err, ErrBadAxis) {
			t.Errorf("axis %v: error %v, want ErrBadAxis", ax, err)
		}
	}
	var none *Input
	if _, err := none.CapsuleAlong(geom.Vec3{0, 1, 0}, Options{}); err == nil {
		t.Error("nil Input: no error")
	}
	// A collinear set along the axis: a thin capsule, still containing.
	line := []geom.Vec3{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}}
	if in, err = Prepare(line); err != nil {
		t.Fatal(err)
	}
	s, err := in.CapsuleAlong(geom.Vec3{0, 1, 0}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range line {
		if !Contains(s, p, 0) {
			t.Errorf("line point %v outside %+v", p, s)
		}
	}
}
