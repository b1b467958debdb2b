package decompose

import "testing"

// TestGapSlack: below the budget, parts merge while the mean distance from
// the hulls' outer surface to the mesh stays within 1+GapSlack of the
// unbudgeted decomposition's. An L block's two exact parts leave no outer
// gap, and merging them fills the whole notch, so they stay two at any
// slack (the whole-surface mean, which charges the face between them,
// merged them at 10). A torus and a frame at 30% get no more hulls than
// without and an outer distance within 1.3× of it (10% margin for the
// estimates' sampling); at 1000% the torus merges, but into no fewer than
// three hulls, as its hole stays open; every vertex stays inside (run's
// checkResult).
func TestGapSlack(t *testing.T) {
	l := voxels([][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 2, 0}})
	n0 := len(run(t, l, Options{}).Hulls)
	if n0 < 2 {
		t.Fatalf("L block: %d hulls without a slack, want several", n0)
	}
	for _, s := range []float64{1e-3, 10} {
		if n := len(run(t, l, Options{GapSlack: s}).Hulls); n != n0 {
			t.Errorf("L block at slack %g: %d hulls, %d without", s, n, n0)
		}
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
		d0, d := measure(c.m, r0).OuterDistMean, measure(c.m, r).OuterDistMean
		t.Logf("%s: %d hulls at %.4f, %d at slack 0.3 at %.4f", c.name, len(r0.Hulls), d0, len(r.Hulls), d)
		if len(r.Hulls) > len(r0.Hulls) {
			t.Errorf("%s: %d hulls at slack 0.3, %d without", c.name, len(r.Hulls), len(r0.Hulls))
		}
		if d > 1.3*1.1*d0 {
			t.Errorf("%s: outer distance %.4f at slack 0.3, %.4f without (over 1.3×)", c.name, d, d0)
		}
	}
	tor := torus(1, 0.3, 32, 12)
	n6 := len(run(t, tor, Options{}).Hulls)
	if n := len(run(t, tor, Options{GapSlack: 10}).Hulls); n >= n6 || n < 3 {
		t.Errorf("torus at slack 10: %d hulls, want fewer than %d and at least 3", n, n6)
	}
}
