package convert_test

import (
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

// benchDoc opens the largest physics asset of the corpus (truck town:
// a few hundred colliders with trimesh and convex shapes).
func benchDoc(b *testing.B) string {
	shared := testassets.Shared(b)
	return filepath.Join(shared, "corpus-physics", "omi-godot-truck_town", "town_model.gltf")
}

// BenchmarkConvertRoundTrip converts the document OMI→KHR→OMI.
func BenchmarkConvertRoundTrip(b *testing.B) {
	path := benchDoc(b)
	doc, _, err := testkit.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := convert.Convert(doc, physics.KHR, false); err != nil {
			b.Fatal(err)
		}
		if _, err := convert.Convert(doc, physics.OMI, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate validates the document with its mesh data.
func BenchmarkValidate(b *testing.B) {
	doc, err := gltf.Open(benchDoc(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		validate.Validate(doc, validate.Options{})
	}
}
