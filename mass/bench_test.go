package mass

import (
	"fmt"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// BenchmarkMesh integrates tessellated boxes of about 1k, 100k and 1M
// triangles (12·n² triangles for n = 9, 91, 289).
func BenchmarkMesh(b *testing.B) {
	for _, n := range []int{9, 91, 289} {
		v, tr := boxMesh(geom.Vec3{1, 2, 3}, n)
		b.Run(fmt.Sprintf("tris=%d", len(tr)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Mesh(v, tr); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(tr)), "ns/tri")
		})
	}
}

func BenchmarkIsClosed(b *testing.B) {
	_, tr := boxMesh(geom.Vec3{1, 2, 3}, 91)
	b.Run(fmt.Sprintf("tris=%d", len(tr)), func(b *testing.B) {
		for b.Loop() {
			if !IsClosed(tr) {
				b.Fatal("not closed")
			}
		}
	})
}

func BenchmarkPrincipal(b *testing.B) {
	in := Box(geom.Vec3{1, 2, 3}).Transform(geom.Quat{0.1, 0.2, 0.3, 0.9}.Normalize(), geom.Vec3{}).Inertia
	for b.Loop() {
		Principal(in)
	}
}
