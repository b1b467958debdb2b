package decompose

import "testing"

// TestGapSlack: below the budget, parts merge while the mean surface
// distance stays within 1+GapSlack of the unbudgeted decomposition's. An L
// block keeps its two parts at a slack of 0.1% (merging them adds the
// whole notch) and becomes one hull at 10; a torus and a frame at 30% get
// no more hulls than without, and a mean surface distance within 1.3× of
// it (10% margin for the estimates' sampling); every vertex stays inside
// (run's checkResult).
func TestGapSlack(t *testing.T) {
	l := voxels([][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 2, 0}})
	n0 := len(run(t, l, Options{}).Hulls)
	if n0 < 2 {
		t.Fatalf("L block: %d hulls without a slack, want several", n0)
	}
	if n := len(run(t, l, Options{GapSlack: 1e-3}).Hulls); n != n0 {
		t.Errorf("L block at slack 0.001: %d hulls, %d without", n, n0)
	}
	if n := len(run(t, l, Options{GapSlack: 10}).Hulls); n != 1 {
		t.Errorf("L block at slack 10: %d hulls, want 1", n)
	}
	for _, c := range []struct {
		name string
		m    testMesh
	}{
		{"torus", torus(1, 0.3, 32, 12)},
		{"frame", planar(frame(4, 4), 1)},
	} {
		r0 := run(t, c.m, Options{})
		r := run(t, c.m, Options{GapSlack: 0.3})
		d0, d := measure(c.m, r0).SurfaceDistMean, measure(c.m, r).SurfaceDistMean
		t.Logf("%s: %d hulls at %.4f, %d at slack 0.3 at %.4f", c.name, len(r0.Hulls), d0, len(r.Hulls), d)
		if len(r.Hulls) > len(r0.Hulls) {
			t.Errorf("%s: %d hulls at slack 0.3, %d without", c.name, len(r.Hulls), len(r0.Hulls))
		}
		if d > 1.3*1.1*d0 {
			t.Errorf("%s: mean surface distance %.4f at slack 0.3, %.4f without (over 1.3×)", c.name, d, d0)
		}
	}
}
