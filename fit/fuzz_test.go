package fit

import (
	"errors"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// FuzzFit decodes bytes into up to 64 points (small integers scaled by
// the second input, so duplicates, coplanar and collinear sets are
// common) and fits every kind: a fit may refuse degenerate input with
// one of the package's errors, never panic; every shape it returns
// contains every point, has a finite positive volume, and an overshoot of
// at least 1 over the points' hull.
func FuzzFit(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, 1.0)
	f.Add([]byte{0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 9, 0, 0, 0, 9, 3, 4, 5, 9, 9, 0}, 0.001)
	f.Add([]byte{1, 2, 3, 2, 4, 6, 3, 6, 9, 4, 8, 12}, 1e6)        // collinear
	f.Add([]byte{0, 0, 5, 7, 0, 5, 7, 7, 5, 0, 7, 5}, 2.5)         // coplanar
	f.Add([]byte{5, 5, 5, 5, 5, 5}, 1.0)                           // coincident
	f.Add([]byte("a capsule-ish cloud of printable bytes!!"), 0.3) // arbitrary
	f.Fuzz(func(t *testing.T, data []byte, scale float64) {
		if !(math.Abs(scale) > 1e-9 && math.Abs(scale) < 1e9) {
			return
		}
		var pts []geom.Vec3
		for i := 0; i+3 <= len(data) && len(pts) < 64; i += 3 {
			p := geom.Vec3{float64(int8(data[i])), float64(int8(data[i+1])), float64(int8(data[i+2]))}
			pts = append(pts, p.Scale(scale))
		}
		in, err := Prepare(pts)
		if err != nil {
			if !errors.Is(err, ErrNoPoints) && !errors.Is(err, ErrCoincident) {
				t.Fatalf("Prepare: unexpected error %v", err)
			}
			return
		}
		for _, k := range []Kind{KindAABB, KindBox, KindSphere, KindCapsule, KindCylinder} {
			s, err := in.Fit(k, Options{GapSamples: -1})
			if err != nil {
				t.Fatalf("%s: %v (points %v)", k, err, pts)
			}
			if !(s.Volume >= 0) || math.IsInf(s.Volume, 0) {
				t.Fatalf("%s: volume %v", k, s.Volume)
			}
			if hv := in.HullVolume(); hv > 0 && s.Volume < hv*(1-1e-9) {
				t.Fatalf("%s: volume %v below the hull's %v", k, s.Volume, hv)
			}
			for i, p := range pts {
				if !Contains(s, p, 0) {
					t.Fatalf("%s: point %d %v outside %+v (points %v)", k, i, p, s, pts)
				}
			}
		}
	})
}
