package fit

import (
	"errors"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// checkContains fails when some point is outside s (no slack: the fits are
// inflated, so containment must hold exactly).
func checkContains(t *testing.T, s Shape, pts []geom.Vec3) {
	t.Helper()
	for i, p := range pts {
		if !Contains(s, p, 0) {
			t.Fatalf("%s: point %d %v outside %+v", s.Kind, i, p, s)
		}
	}
}

// TestAnalytic fits shapes to surface samples of the same analytic shape,
// randomly posed, with and without noise, and checks the parameters come
// back within 1e-3 of the shape's size.
func TestAnalytic(t *testing.T) {
	const n = 3000
	cases := []struct {
		name  string
		kind  Kind
		noise float64
	}{
		{"box", KindBox, 0}, {"box-noisy", KindBox, 1e-4},
		{"sphere", KindSphere, 0}, {"sphere-noisy", KindSphere, 1e-4},
		{"capsule", KindCapsule, 0}, {"capsule-noisy", KindCapsule, 1e-4},
		{"cylinder", KindCylinder, 0}, {"cylinder-noisy", KindCylinder, 1e-4},
	}
	for ci, c := range cases {
		for trial := 0; trial < 4; trial++ {
			r := newRand(uint64(100*ci + trial))
			q := randQuat(r)
			tr := randUnit(r).Scale(10 * r.Float64())
			var local []geom.Vec3
			var size float64
			var sz geom.Vec3
			var radius, height float64
			switch c.kind {
			case KindBox:
				sz = geom.Vec3{0.5 + 2*r.Float64(), 0.5 + 2*r.Float64(), 0.5 + 2*r.Float64()}
				local = boxSurface(r, sz, n)
				size = sz.Len()
			case KindSphere:
				radius = 0.5 + r.Float64()
				local = sphereSurface(r, radius, n)
				size = 2 * radius
			case KindCapsule:
				radius, height = 0.3+0.5*r.Float64(), 0.5+2*r.Float64()
				local = capsuleSurface(r, radius, height, n)
				size = height + 2*radius
			case KindCylinder:
				radius, height = 0.3+0.5*r.Float64(), 0.5+2*r.Float64()
				local = cylinderSurface(r, radius, height, n)
				size = math.Hypot(height, 2*radius)
			}
			pts := pose(local, q, tr)
			if c.noise > 0 {
				addNoise(r, pts, c.noise*size)
			}
			s, err := Fit(c.kind, pts, Options{})
			if err != nil {
				t.Fatalf("%s/%d: %v", c.name, trial, err)
			}
			checkContains(t, s, pts)
			tol := 1e-3 * size
			if d := s.Center.Sub(tr).Len(); d > tol {
				t.Errorf("%s/%d: centre off by %.3g (size %.3g)", c.name, trial, d, size)
			}
			axis := s.Rotation.Rotate(geom.Vec3{0, 1, 0})
			trueAxis := q.Rotate(geom.Vec3{0, 1, 0})
			switch c.kind {
			case KindBox:
				got, want := sorted3(s.Size), sorted3(sz)
				if d := got.Sub(want).Len(); d > tol {
					t.Errorf("%s/%d: size %v, want %v", c.name, trial, s.Size, sz)
				}
			case KindSphere:
				if math.Abs(s.Radius-radius) > tol {
					t.Errorf("%s/%d: radius %v, want %v", c.name, trial, s.Radius, radius)
				}
			case KindCapsule, KindCylinder:
				if math.Abs(s.Radius-radius) > tol || math.Abs(s.Height-height) > tol {
					t.Errorf("%s/%d: radius %v height %v, want %v %v", c.name, trial, s.Radius, s.Height, radius, height)
				}
				// tilt of the axis times the length it moves the ends by
				if e := (1 - math.Abs(axis.Dot(trueAxis))) * size; e > tol {
					t.Errorf("%s/%d: axis %v, want ±%v", c.name, trial, axis, trueAxis)
				}
			}
			if s.Overshoot < 1-1e-6 || math.IsNaN(s.Overshoot) {
				t.Errorf("%s/%d: overshoot %v below 1", c.name, trial, s.Overshoot)
			}
		}
	}
}

// TestDegenerate feeds sets that have no volume and checks the result is a
// clear error or a thin shape that still contains every point.
func TestDegenerate(t *testing.T) {
	r := newRand(7)
	line := make([]geom.Vec3, 50)
	plane := make([]geom.Vec3, 200)
	for i := range line {
		line[i] = geom.Vec3{1, 2, 3}.Add(geom.Vec3{1, 1, 0}.Scale(r.Float64()))
	}
	q := randQuat(r)
	for i := range plane {
		plane[i] = q.Rotate(geom.Vec3{r.Float64(), 2 * r.Float64(), 0}).Add(geom.Vec3{5, 0, 0})
	}
	dup := append(append([]geom.Vec3(nil), plane[:10]...), plane[:10]...)
	cases := []struct {
		name    string
		pts     []geom.Vec3
		wantErr error
	}{
		{"empty", nil, ErrNoPoints},
		{"one", []geom.Vec3{{1, 2, 3}}, ErrCoincident},
		{"same", []geom.Vec3{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, ErrCoincident},
		{"nan", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {math.NaN(), 0, 0}, {0, 1, 1}}, ErrNotFinite},
		{"inf", []geom.Vec3{{0, 0, 0}, {math.Inf(1), 0, 0}}, ErrNotFinite},
		{"two", []geom.Vec3{{0, 0, 0}, {1, 1, 1}}, nil},
		{"line", line, nil},
		{"plane", plane, nil},
		{"duplicates", dup, nil},
		{"triangle", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, nil},
	}
	for _, c := range cases {
		for _, k := range Kinds() {
			s, err := Fit(k, c.pts, Options{})
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Errorf("%s/%s: error %v, want %v", c.name, k, err, c.wantErr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%s: %v", c.name, k, err)
				continue
			}
			checkContains(t, s, c.pts)
			if !math.IsInf(s.Overshoot, 1) {
				t.Errorf("%s/%s: overshoot %v, want +Inf for a flat set", c.name, k, s.Overshoot)
			}
			if math.IsNaN(s.Volume) || math.IsNaN(s.MaxGap) || !s.Center.IsFinite() {
				t.Errorf("%s/%s: NaN in %+v", c.name, k, s)
			}
		}
	}
	// A unit square: the box must be the square itself, thickened by the
	// tolerance only.
	sq := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}}
	s, err := Fit(KindBox, sq, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sorted3(s.Size); math.Abs(got[1]-1) > 1e-5 || math.Abs(got[2]-1) > 1e-5 || got[0] > 1e-5 {
		t.Errorf("square box size %v", s.Size)
	}
	// A segment: the capsule is thin and as long as the segment.
	s, err = Fit(KindCapsule, []geom.Vec3{{0, 0, 0}, {0, 3, 4}, {0, 1.5, 2}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Height-5) > 1e-5 || s.Radius > 1e-5 {
		t.Errorf("segment capsule %+v", s)
	}
	if _, err := Fit("cone", sq, Options{}); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("unknown kind: %v", err)
	}
}
