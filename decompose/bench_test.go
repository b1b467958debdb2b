package decompose

import (
	"context"
	"testing"

	"github.com/autocollide/autocollide/obj"
)

func BenchmarkDecompose(b *testing.B) {
	for _, name := range []string{"sphere", "torus1", "cube-notch", "cup", "box-thick"} {
		m, err := obj.ReadFile(sharedDir(b) + "/bench/acd-meshes/" + name + ".obj")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Decompose(context.Background(), m.Vertices, m.Triangles, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
