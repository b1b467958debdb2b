package preview

import (
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
)

// BenchmarkRender times a 640×480 preview of ~100k-triangle assets after
// generate (the asset already loaded; Render decodes physics, extracts
// the scene, rasterizes three views at 2× supersampling and draws the
// legend). BenchmarkRenderFile adds loading the file.
func BenchmarkRender(b *testing.B) {
	for _, c := range benchAssets {
		b.Run(c.name, func(b *testing.B) {
			p := generated(b, corpusFile(b, c.src), b.TempDir(), c.name+".glb", generate.Options{Collider: generate.ColliderSettings{Method: c.method}, Encoding: generate.Encoding{Format: physics.OMI}})
			a, err := gltfio.LoadRaw(p, gltfio.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			opt := Options{Width: 640, Height: 480}
			b.ResetTimer()
			for range b.N {
				if _, _, err := Render(a, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRenderFile(b *testing.B) {
	for _, c := range benchAssets {
		b.Run(c.name, func(b *testing.B) {
			p := generated(b, corpusFile(b, c.src), b.TempDir(), c.name+".glb", generate.Options{Collider: generate.ColliderSettings{Method: c.method}, Encoding: generate.Encoding{Format: physics.OMI}})
			opt := Options{Width: 640, Height: 480}
			b.ResetTimer()
			for range b.N {
				if _, _, err := RenderFile(p, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var benchAssets = []struct {
	name, src string
	method    generate.Method
}{
	{"SheenCloth-115k-hull", "SheenCloth/glTF/SheenCloth.gltf", generate.Hull},
	{"ToyCar-109k-aabb", "ToyCar/glTF/ToyCar.gltf", generate.AABB},
}
