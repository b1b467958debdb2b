package mesh

import (
	"github.com/autocollide/autocollide/internal/testassets"
	"path/filepath"
	"testing"

	"github.com/qmuntal/gltf"
)

// BenchmarkExtract measures Extract on the largest corpus assets (the
// document is opened once, outside the timer).
func BenchmarkExtract(b *testing.B) {
	for _, name := range []string{
		"MetalRoughSpheresNoTextures/glTF-Binary/MetalRoughSpheresNoTextures.glb",
		"SheenCloth/glTF/SheenCloth.gltf",
		"ToyCar/glTF/ToyCar.gltf",
	} {
		b.Run(filepath.Dir(filepath.Dir(name)), func(b *testing.B) {
			doc, err := gltf.Open(filepath.Join(testassets.Shared(b), "corpus", name))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Extract(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
