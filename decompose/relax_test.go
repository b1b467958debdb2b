package decompose

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// TestRelax: a quarter of a ring cut unevenly (arcs of about 67° and 23°)
// is re-cut by relax into two arcs of about 45°: less hull volume, each
// part under the threshold, the same corners covered.
func TestRelax(t *testing.T) {
	m := torus(1, 0.25, 64, 12)
	// A looser threshold than the default, which the 67° arc is above.
	d := testDecomposer(m, Options{Concavity: 0.1})
	quarter := cutSeq(m, []capCut{axisCut(0, 0, 1), axisCut(1, 0, 1)})
	if len(quarter) != 1 {
		t.Fatalf("quarter ring in %d pieces", len(quarter))
	}
	q := quarter[0]
	sides, _, ok := d.cutPart(q, plane{geom.Vec3{0, 1, 0}, 1.15})
	if !ok {
		t.Fatal("the cut at y = 1.15 leaves a side empty")
	}
	var parts []*part
	for _, sd := range sides {
		for _, p := range d.splitSide(sd.soup, sd.caps) {
			if err := d.finish(p, fullBudget, d.maxV); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
	}
	if len(parts) != 2 {
		t.Fatalf("uneven cut gave %d parts", len(parts))
	}
	before := parts[0].hull.Volume() + parts[1].hull.Volume()
	out, err := d.relax(append([]*part(nil), parts...))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 {
		t.Fatalf("relax returned %d parts", len(out))
	}
	v0, v1 := out[0].hull.Volume(), out[1].hull.Volume()
	if after := v0 + v1; after > 0.9*before {
		t.Errorf("hull volume %.4g after relax, %.4g before: want at least 10%% less", after, before)
	}
	if r := math.Min(v0, v1) / math.Max(v0, v1); r < 0.8 {
		t.Errorf("hull volumes %.4g and %.4g: the arcs are not balanced", v0, v1)
	}
	var planes [][]plane
	for i, p := range out {
		if p.conc > d.thr {
			t.Errorf("part %d: concavity %.3g above the threshold %.3g", i, p.conc, d.thr)
		}
		planes = append(planes, facePlanes(p.hull))
	}
	for _, tr := range q.tris {
		for _, v := range tr {
			best := math.Inf(1)
			for _, pl := range planes {
				best = math.Min(best, -depth(pl, v))
			}
			if best > containTol*d.diag {
				t.Fatalf("corner %v lies %g outside both hulls", v, best)
			}
		}
	}
}

// TestSkipRelax: with Options.SkipRelax a torus keeps the cuts the search
// chose, which relax re-places (so the total hull volume is larger without
// it), the containment still holds (run checks it), and the result does
// not depend on the worker count. The tightening pass is skipped in both
// runs: where it runs (closed input), relax does not.
func TestSkipRelax(t *testing.T) {
	m := torus(1, 0.3, 32, 12)
	with := run(t, m, Options{SkipTighten: true})
	without := run(t, m, Options{SkipRelax: true, SkipTighten: true})
	vol := func(r *Result) float64 {
		var v float64
		for _, h := range r.Hulls {
			v += h.Volume()
		}
		return v
	}
	if a, b := vol(with), vol(without); b <= a {
		t.Errorf("total hull volume %.4g with SkipRelax, %.4g with the relax pass: want more without it", b, a)
	}
	if u := measure(m, without).Uncovered; u != 0 {
		t.Errorf("uncovered %g with SkipRelax", u)
	}
	determinism(t, m, Options{SkipRelax: true})
}
