package draco_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/draco"
)

// FuzzDecode feeds arbitrary streams and limits to Decode, seeded with the
// valid fixtures and the hand-broken streams. It must never panic (Decode
// turns a panic into an "internal error", which fails here too), must be
// deterministic, and a mesh it returns must be consistent: within the
// limits, every face corner below the point count, every attribute with
// points × components values.
func FuzzDecode(f *testing.F) {
	for _, b := range brokenBases {
		f.Add(readFixture(f, b.file), uint16(0), uint16(0))
	}
	broken, _ := filepath.Glob(filepath.Join("testdata", "broken", "*.drc"))
	for _, p := range broken {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(0), uint16(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxPoints, maxFaces uint16) {
		lim := draco.Limits{MaxPoints: int(maxPoints), MaxFaces: int(maxFaces)}
		m, err := draco.Decode(data, lim)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("bad error: %v", err)
			}
		} else {
			if lim.MaxPoints > 0 && m.NumPoints > lim.MaxPoints || lim.MaxFaces > 0 && len(m.Faces) > lim.MaxFaces {
				t.Fatalf("%d points and %d faces over the limits %+v", m.NumPoints, len(m.Faces), lim)
			}
			for i, face := range m.Faces {
				for _, v := range face {
					if int(v) >= m.NumPoints {
						t.Fatalf("face %d refers to point %d of %d", i, v, m.NumPoints)
					}
				}
			}
			for _, a := range m.Attributes {
				if a.NumComponents < 1 || len(a.Values) != m.NumPoints*a.NumComponents {
					t.Fatalf("attribute %d: %d values for %d points × %d components", a.UniqueID, len(a.Values), m.NumPoints, a.NumComponents)
				}
			}
		}
		again, err2 := draco.Decode(data, lim)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || err == nil && !reflect.DeepEqual(m, again) {
			t.Fatalf("not deterministic: %v / %v", err, err2)
		}
	})
}
