package hull

import (
	"fmt"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/golang/geo/r3"
	qhgo "github.com/markus-wa/quickhull-go/v2"
)

var benchSizes = []int{1000, 100_000, 1_000_000}

func benchClouds(n int) []struct {
	name string
	pts  []geom.Vec3
} {
	return []struct {
		name string
		pts  []geom.Vec3
	}{
		{"uniform", uniformCube(n, 21)},
		{"sphere", onSphere(n, 22)},
	}
}

// BenchmarkBuild times Build on uniform and on-sphere clouds, for the
// exact hull (no limit) and the default 255-vertex limit.
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes {
		for _, c := range benchClouds(n) {
			for _, lim := range []int{-1, 0} {
				name := fmt.Sprintf("%s/%d/exact", c.name, n)
				if lim == 0 {
					name = fmt.Sprintf("%s/%d/max255", c.name, n)
				}
				b.Run(name, func(b *testing.B) {
					for b.Loop() {
						if _, err := Build(c.pts, Options{MaxVertices: lim}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkQuickhullGo times the library this package replaced, on the
// same clouds (sizes up to 1e5: on-sphere input is its worst case).
func BenchmarkQuickhullGo(b *testing.B) {
	for _, n := range benchSizes[:2] {
		for _, c := range benchClouds(n) {
			in := make([]r3.Vector, len(c.pts))
			for i, p := range c.pts {
				in[i] = r3.Vector{X: p[0], Y: p[1], Z: p[2]}
			}
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					var qh qhgo.QuickHull
					qh.ConvexHull(in, false, false, 0)
				}
			})
		}
	}
}

// BenchmarkReduceSphere5000 times Build on 5,000 points on a sphere with
// the 255-vertex limit: nearly all of it is the reduction (the
// MetalRoughSpheresNoTextures case).
func BenchmarkReduceSphere5000(b *testing.B) {
	pts := onSphere(5000, 23)
	for b.Loop() {
		if _, err := Build(pts, Options{MaxVertices: 255}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReduce times Build at 255, 64 and 32 vertices on points on a
// sphere: 642 points (reduced by edge collapses) and 5,000 (over
// collapseMaxVertices: tightened plane cuts).
func BenchmarkReduce(b *testing.B) {
	for _, n := range []int{642, 5000} {
		pts := onSphere(n, 23)
		for _, lim := range []int{255, 64, 32} {
			b.Run(fmt.Sprintf("sphere%d/max%d", n, lim), func(b *testing.B) {
				for b.Loop() {
					if _, err := Build(pts, Options{MaxVertices: lim}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
