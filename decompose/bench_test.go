package decompose

import (
	"context"
	"github.com/autocollide/autocollide/internal/testassets"
	"os"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/obj"
)

// BenchmarkDecompose times Decompose on V-HACD's test meshes (all of them,
// or the comma-separated names in $ACD_MESHES).
func BenchmarkDecompose(b *testing.B) {
	names := []string{"box-thick", "cube-notch", "cube", "cup", "cylinder", "defsphere", "hose", "ob_chair_gothic", "plaque", "sphere", "torus1", "wall"}
	if s := os.Getenv("ACD_MESHES"); s != "" {
		names = strings.Split(s, ",")
	}
	for _, name := range names {
		m, err := obj.ReadFile(testassets.Shared(b) + "/bench/acd-meshes/" + name + ".obj")
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
