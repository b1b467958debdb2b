package decompose

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// outerGap returns the mean distance to the mesh from the parts' hull
// surfaces where no other hull covers them: the figure
// Metrics.OuterDistMean reports (a sample within UncoveredTol of another
// hull's inside counts as covered), estimated with budgetSamples per hull
// stratified by area, from fixed seeds. The faces where two hulls meet
// inside the object are left out: no body ever touches them, and counting
// them (as the whole-surface mean does) rewards merging a sliced solid
// back into one hull over a notch or between a snowflake's arms.
func (d *decomposer) outerGap(parts []*part, mesh *bvh) (float64, error) {
	planes := make([][]plane, len(parts))
	boxes := make([]geom.Box, len(parts))
	for i, p := range parts {
		planes[i] = facePlanes(p.hull)
		boxes[i] = geom.BoundsOf(p.hull.Vertices)
	}
	tol := UncoveredTol * d.diag
	g := make([]float64, len(parts))
	a := make([]float64, len(parts))
	if err := d.parallel(len(parts), func(i int) {
		s := newSampler(hullTris(parts[i].hull), 5)
		area := s.area()
		if area == 0 {
			return
		}
		w := area / budgetSamples
		for k := 0; k < budgetSamples; k++ {
			x, _ := s.at((float64(k) + s.rng.Float64()) / budgetSamples)
			covered := false
			for j := range parts {
				if j != i && touch(boxes[j], geom.Box{Min: x, Max: x}, tol) && depthAbove(planes[j], x, -tol) >= -tol {
					covered = true
					break
				}
			}
			if covered {
				continue
			}
			dist := mesh.dist(x, 0)
			if math.IsInf(dist, 1) {
				dist = 0
			}
			g[i] += w * dist
			a[i] += w
		}
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
// gap integral, as fitBudget picks), kept while the parts' outer gap
// (outerGap) stays within (1+GapSlack) of ref, the outer gap of the
// unbudgeted decomposition. So a mesh whose parts are nearly convex
// together gets fewer colliders at a stated cost in distance, whatever
// MaxHulls allows, and one whose parts each close a real concavity (a
// notch, the gaps between a snowflake's arms) keeps them: a notch filled
// is all outer gap. A part count that leaves no outer gap (exact boxes)
// merges only where the union leaves none either.
func (d *decomposer) stopMerge(parts []*part, mesh *bvh, ref float64, res *Result) ([]*part, error) {
	slack := d.opt.GapSlack
	if slack <= 0 || len(parts) < 2 {
		return parts, nil
	}
	// The floor lets exact merges of exact parts through: far below any
	// tolerance, above the distance estimates' rounding.
	bound := (1+slack)*ref + 1e-9*d.diag
	before := len(parts)
	// Merging below the budget is optional: a merge that would bridge a
	// through-hole or shut a cavity's mouth is never taken (openOnly).
	air, err := d.sampleAir(mesh, parts)
	if err != nil {
		return nil, err
	}
	parts, err = d.leastGapMerge(parts, mesh, gapMergeRule{
		air: air, openOnly: true,
		samples: budgetSamples, seed: 5, unionSeed: 5,
		pairs: d.budgetPairs,
		more:  func(n int) bool { return n > 1 },
		limit: math.Inf(1),
		accept: func(next []*part) (bool, error) {
			m, err := d.outerGap(next, mesh)
			return m <= bound, err
		},
		progress: true,
	})
	if err != nil {
		return nil, err
	}
	if len(parts) < before {
		res.Notes = append(res.Notes, fmt.Sprintf("merged %d parts into %d below the budget: the mean distance from the hulls' outer surface to the mesh stays within %.2f× the unbudgeted decomposition's (GapSlack)", before, len(parts), 1+slack))
	}
	return parts, nil
}
