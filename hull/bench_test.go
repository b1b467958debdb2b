package hull

import (
	"fmt"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/pointcloud"
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
		{"uniform", pointcloud.UniformCube(n, 21)},
		{"sphere", pointcloud.OnSphere(n, 22)},
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

// BenchmarkReduceSphere5000 times Build on 5,000 points on a sphere with
// the 255-vertex limit: nearly all of it is the reduction (the
// MetalRoughSpheresNoTextures case).
func BenchmarkReduceSphere5000(b *testing.B) {
	pts := pointcloud.OnSphere(5000, 23)
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
		pts := pointcloud.OnSphere(n, 23)
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

// BenchmarkValidate times validate against the plain scan it replaced
// (validateScan) on hulls of points on a sphere: the exact hull of 300
// and 1,500 points (Validate's global check: vertices × triangles) and a
// 255-vertex reduction of 5,000 points (reduceHull's check of its result).
func BenchmarkValidate(b *testing.B) {
	for _, c := range []struct {
		n, maxV int
	}{{300, -1}, {1500, -1}, {5000, 255}} {
		h, err := Build(pointcloud.OnSphere(c.n, 24), Options{MaxVertices: c.maxV})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range []struct {
			name string
			fn   func(*Hull, []geom.Vec3, bool) error
		}{{"scan", validateScan}, {"validate", validate}} {
			b.Run(fmt.Sprintf("%dv/%s", len(h.Vertices), f.name), func(b *testing.B) {
				for b.Loop() {
					if err := f.fn(h, nil, true); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
