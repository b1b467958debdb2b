package fit

import (
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// meshLike samples n points on a bumpy closed surface (a sphere with
// ridges and a little noise), randomly posed: like a scanned mesh, a
// minority of its vertices lie on the convex hull.
func meshLike(n int) []geom.Vec3 {
	r := newRand(uint64(n))
	pts := make([]geom.Vec3, n)
	for i := range pts {
		v := randUnit(r)
		th, ph := math.Atan2(v[1], v[0]), math.Acos(v[2])
		rad := 1 + 0.1*math.Sin(5*th)*math.Sin(5*ph) + 0.001*r.Float64()
		pts[i] = v.Mul(geom.Vec3{2, 1, 0.6}).Scale(rad)
	}
	return pose(pts, randQuat(r), geom.Vec3{3, -2, 1})
}

// cpuTime is the process's user+system CPU time: on a shared machine it
// shows the work done, which wall time (ns/op) inflates by the wait for a
// core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFit measures the preparation (hull), each fit alone on a fresh
// Input whose hull is built outside the timer, and all four fits of one
// Input including the hull.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{1000, 100_000, 1_000_000} {
		pts := meshLike(n)
		h, err := hull.Build(pts, uncapped)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/prepare", n), func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			for i := 0; i < b.N; i++ {
				if _, err := Prepare(pts); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, k := range Kinds() {
			b.Run(fmt.Sprintf("n=%d/%s", n, k), func(b *testing.B) {
				var cpu time.Duration
				defer func() { b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op") }()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					in, err := PrepareWithHull(pts, h)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					c0 := cpuTime()
					if _, err := in.Fit(k, Options{}); err != nil {
						b.Fatal(err)
					}
					cpu += cpuTime() - c0
				}
			})
		}
		b.Run(fmt.Sprintf("n=%d/all4+hull", n), func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			for i := 0; i < b.N; i++ {
				in, err := Prepare(pts)
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range []Kind{KindBox, KindSphere, KindCapsule, KindCylinder} {
					if _, err := in.Fit(k, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
