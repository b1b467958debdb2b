package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/obj"
)

func area(vs []geom.Vec3, ts [][3]uint32) float64 {
	var a float64
	for _, t := range ts {
		a += 0.5 * vs[t[1]].Sub(vs[t[0]]).Cross(vs[t[2]].Sub(vs[t[0]])).Len()
	}
	return a
}

// TestSubdivide: k² triangles per triangle, the same area, and a closed
// mesh stays closed (every directed edge has its reverse once).
func TestSubdivide(t *testing.T) {
	m, err := obj.ReadFile(filepath.Join(testassets.Shared(t), "bench", "acd-meshes", "torus1.obj"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 5} {
		vs, ts := subdivide(m.Vertices, m.Triangles, k)
		if len(ts) != len(m.Triangles)*k*k {
			t.Errorf("k=%d: %d triangles, want %d", k, len(ts), len(m.Triangles)*k*k)
		}
		if a, b := area(m.Vertices, m.Triangles), area(vs, ts); math.Abs(a-b) > 1e-9*a {
			t.Errorf("k=%d: area %g, want %g", k, b, a)
		}
		edges := map[[2]uint32]int{}
		for _, tr := range ts {
			for i := 0; i < 3; i++ {
				edges[[2]uint32{tr[i], tr[(i+1)%3]}]++
			}
		}
		for e, n := range edges {
			if edges[[2]uint32{e[1], e[0]}] != n {
				t.Fatalf("k=%d: edge %v has %d uses, its reverse %d", k, e, n, edges[[2]uint32{e[1], e[0]}])
			}
		}
	}
}

// BenchmarkScale decomposes V-HACD's torus subdivided to about 10k and
// 100k triangles: the time per triangle should not grow (see -scale for
// 1k..1M in child processes, with peak RSS).
func BenchmarkScale(b *testing.B) {
	m, err := obj.ReadFile(filepath.Join(testassets.Shared(b), "bench", "acd-meshes", "torus1.obj"))
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []int{4, 13} {
		vs, ts := subdivide(m.Vertices, m.Triangles, k)
		b.Run(fmt.Sprintf("torus1-%dk", len(ts)/1000), func(b *testing.B) {
			for b.Loop() {
				if _, err := decompose.Decompose(context.Background(), vs, ts, decompose.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ts)), "ns/tri")
		})
	}
}
