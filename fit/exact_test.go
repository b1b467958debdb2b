package fit

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// arcSweepBox is a reference for the minimum box: by O'Rourke's theorem
// some face of an optimal box contains a hull edge, so its normal lies on
// that edge's arc of the Gauss sphere (between the two adjacent face
// normals); for a fixed normal the best box is exact (calipers). The sweep
// samples every arc densely.
func arcSweepBox(t *testing.T, pts []geom.Vec3, samples int) float64 {
	h, err := hull.Build(pts, uncapped)
	if err != nil {
		t.Fatal(err)
	}
	type edge struct{ a, b uint32 }
	faces := map[edge][]geom.Vec3{}
	for _, tr := range h.Triangles {
		a, b, c := h.Vertices[tr[0]], h.Vertices[tr[1]], h.Vertices[tr[2]]
		n := b.Sub(a).Cross(c.Sub(a)).Normalize()
		for k := 0; k < 3; k++ {
			e := edge{tr[k], tr[(k+1)%3]}
			if e.a > e.b {
				e.a, e.b = e.b, e.a
			}
			faces[e] = append(faces[e], n)
		}
	}
	best := math.Inf(1)
	for _, ns := range faces {
		if len(ns) != 2 {
			continue
		}
		n0, n1 := ns[0], ns[1]
		ang := math.Acos(math.Max(-1, math.Min(1, n0.Dot(n1))))
		ax := n0.Cross(n1)
		if ax.Len() < 1e-12 {
			continue
		}
		ax = ax.Normalize()
		for i := 0; i <= samples; i++ {
			n := rotAbout(ax, ang*float64(i)/float64(samples)).MulVec(n0).Normalize()
			if _, v := faceFlushBox(h.Vertices, n, heightAlong(h.Vertices, n)); v < best {
				best = v
			}
		}
	}
	return best
}

// TestBoxAgainstArcSweep: on small hulls the box matches (within 1e-4) or
// beats a dense sweep of every edge arc.
func TestBoxAgainstArcSweep(t *testing.T) {
	for trial := 0; trial < 30; trial++ {
		pts := cloud(newRand(uint64(6000+trial)), trial, 8+trial%20)
		s, err := Fit(KindBox, pts, Options{Tolerance: -1, GapSamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		ref := arcSweepBox(t, pts, 400)
		if s.Volume > ref*(1+1e-4) {
			t.Errorf("trial %d: box %v, arc sweep %v (ratio %.6f)", trial, s.Volume, ref, s.Volume/ref)
		}
	}
}

// TestAxialAgainstDenseAxes: on small clouds the capsule and cylinder are
// within 0.1% of (or below) the best over 12000 axes spread over the
// hemisphere, each fitted exactly for its axis.
func TestAxialAgainstDenseAxes(t *testing.T) {
	dirs := fibonacci(24000)
	for trial := 0; trial < 16; trial++ {
		pts := cloud(newRand(uint64(7000+trial)), trial, 10+trial)
		in, err := Prepare(pts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			kind Kind
			f    axialFunc
		}{{KindCapsule, (*axialEval).capsule}, {KindCylinder, (*axialEval).cylinder}} {
			s, err := in.Fit(c.kind, Options{Tolerance: -1, GapSamples: -1})
			if err != nil {
				t.Fatal(err)
			}
			e := newAxialEval(in.support)
			best := math.Inf(1)
			for _, u := range dirs {
				if u[2] < 0 {
					continue
				}
				a, b := orthoFrame(u)
				best = math.Min(best, c.f(e, a, b, u, radiusGolden).vol)
			}
			if s.Volume > best*(1+1e-3) || testing.Verbose() {
				t.Logf("trial %d %s: %v, dense axes %v (ratio %.5f)", trial, c.kind, s.Volume, best, s.Volume/best)
			}
			if s.Volume > best*(1+1e-3) {
				t.Fail()
			}
		}
	}
}
