package decompose

import (
	"fmt"
	"math"
)

// meanGap returns the mean distance from the parts' hull surfaces to the
// mesh, ΣG / Σarea (see gapIntegral): the figure Metrics.SurfaceDistMean
// reports, estimated with budgetSamples per hull and fixed seeds.
func (d *decomposer) meanGap(parts []*part, mesh *bvh) (float64, error) {
	g := make([]float64, len(parts))
	a := make([]float64, len(parts))
	if err := d.parallel(len(parts), func(i int) {
		g[i] = d.gapIntegral(parts[i], mesh, budgetSamples, 5).g
		a[i] = newSampler(hullTris(parts[i].hull), 0).area()
	}); err != nil {
		return 0, err
	}
	var sg, sa float64
	for i := range g {
		sg += g[i]
		sa += a[i]
	}
	if sa == 0 {
		return 0, nil
	}
	return sg / sa, nil
}

// stopMerge merges parts further below the budget (Options.GapSlack): one
// least-gap merge at a time (the pair whose union's hull adds the least
// gap integral, as fitBudget picks), kept while the parts' mean gap
// (meanGap) stays within (1+GapSlack) of ref, the mean gap of the
// unbudgeted decomposition. So a mesh whose parts are nearly convex
// together gets fewer colliders at a stated cost in surface distance,
// whatever MaxHulls allows, and one whose parts each close a real concavity
// keeps them. ref <= 0 or GapSlack <= 0 leaves parts as they are.
func (d *decomposer) stopMerge(parts []*part, mesh *bvh, ref float64, res *Result) ([]*part, error) {
	slack := d.opt.GapSlack
	if slack <= 0 || ref <= 0 || len(parts) < 2 {
		return parts, nil
	}
	bound := (1 + slack) * ref
	before := len(parts)
	// Merging below the budget is optional: a merge that would bridge a
	// through-hole or shut a cavity's mouth is never taken (openOnly).
	air, err := d.sampleAir(mesh, parts)
	if err != nil {
		return nil, err
	}
	// The mean gap is meanGap's: leastGapMerge's gap integrals are the
	// same estimates (budgetSamples, seed 5), and a hull's area is
	// computed once.
	area := map[*part]float64{}
	parts, err = d.leastGapMerge(parts, mesh, gapMergeRule{
		air: air, openOnly: true,
		samples: budgetSamples, seed: 5, unionSeed: 5,
		pairs: d.budgetPairs,
		more:  func(n int) bool { return n > 1 },
		limit: math.Inf(1),
		accept: func(next []*part, g []float64) (bool, error) {
			var sg, sa float64
			for i, p := range next {
				a, ok := area[p]
				if !ok {
					a = newSampler(hullTris(p.hull), 0).area()
					area[p] = a
				}
				sg += g[i]
				sa += a
			}
			return sa == 0 || sg/sa <= bound, nil
		},
		progress: true,
	})
	if err != nil {
		return nil, err
	}
	if len(parts) < before {
		res.Notes = append(res.Notes, fmt.Sprintf("merged %d parts into %d below the budget: the mean gap between hulls and mesh stays within %.2f× the unbudgeted decomposition's (GapSlack)", before, len(parts), 1+slack))
	}
	return parts, nil
}
