package decompose

import (
	"fmt"
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// Budget parameters.
const (
	// budgetNeighbours: when merging down to MaxHulls, each part is paired
	// with the parts whose boxes are this many nearest to its own (and
	// with every part it touches). Two hulls far apart bridge more empty
	// space than two near ones, so a pair beyond the nearest few is never
	// the cheapest; all pairs of 64 parts cost 2016 union hulls a round.
	budgetNeighbours = 8
	// budgetSamples is the hull surface samples of a pair's gap integral.
	budgetSamples = 256
)

// fitBudget merges parts until at most d.maxH remain: each time the pair
// whose union's hull adds the least gap integral G (see gapIntegral: what
// the surface distance figures average) over the two hulls' own, so that
// the K parts kept are the ones that leave the least gap between hulls and
// mesh that merging the search's parts can give. Pieces far apart are
// paired too (budgetNeighbours nearest), so separate pieces of a mesh share
// a hull when that is the cheapest loss; a small piece beside a large one
// adds little gap to it and goes first.
//
// Empty space stays empty where the budget allows (issue #36): the mesh's
// open air (see openAir: where a probe sphere of airProbe thresholds fits,
// outside the solid, inside the reach of the hulls) is sampled once. A
// pair whose union would bridge a through-hole or shut a cavity's mouth
// (the free space's Euler characteristic rises) is merged only when every
// pair would; and each pair's cost is its added gap plus the volume of
// open air its union newly blocks, both volumes, so a merge that narrows a
// handle's opening or fills a cup's inside costs what it takes from the
// space a body could move through, not only the gap it adds along the
// surface.
//
// The search's parts are the finest level of a hierarchy that every budget
// cuts: a decomposition at K is its default one merged down to K, and one
// within K is left as it is. Coverage is kept: a merged hull is the hull of
// its two parts' hulls.
func (d *decomposer) fitBudget(parts []*part, mesh *bvh, res *Result) ([]*part, error) {
	if len(parts) <= d.maxH {
		return parts, nil
	}
	before := len(parts)
	air, err := d.sampleAir(mesh, parts)
	if err != nil {
		return nil, err
	}
	parts, err = d.leastGapMerge(parts, mesh, gapMergeRule{
		air:     air,
		samples: budgetSamples, seed: 5, unionSeed: 5,
		pairs:    d.budgetPairs,
		more:     func(n int) bool { return n > d.maxH },
		limit:    math.Inf(1),
		progress: true,
	})
	if err != nil {
		return nil, err
	}
	res.Notes = append(res.Notes, fmt.Sprintf("merged %d parts into %d to respect MaxHulls=%d, the pair adding the least gap between hulls and mesh first", before, len(parts), d.maxH))
	return parts, nil
}

// budgetPairs returns the pairs (i < j, sorted) fitBudget considers: each
// part with its budgetNeighbours nearest by box distance and with every
// part whose box touches its own.
func (d *decomposer) budgetPairs(parts []*part) [][2]int {
	seen := map[[2]int]bool{}
	var out [][2]int
	add := func(i, j int) {
		if i > j {
			i, j = j, i
		}
		if k := [2]int{i, j}; !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	gap := adjacencyGap * d.diag
	dist := make([]float64, len(parts))
	order := make([]int, len(parts))
	for i, p := range parts {
		for j, q := range parts {
			dist[j] = boxGap(p.box, q.box)
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return dist[order[a]] < dist[order[b]] })
		n := 0
		for _, j := range order {
			if j == i {
				continue
			}
			if n < budgetNeighbours || dist[j] <= gap {
				add(i, j)
				n++
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a][0] != out[b][0] {
			return out[a][0] < out[b][0]
		}
		return out[a][1] < out[b][1]
	})
	return out
}

// boxGap returns the distance between two boxes (0 when they overlap).
func boxGap(a, b geom.Box) float64 {
	var s float64
	for k := 0; k < 3; k++ {
		g := math.Max(a.Min[k]-b.Max[k], b.Min[k]-a.Max[k])
		if g > 0 {
			s += g * g
		}
	}
	return math.Sqrt(s)
}
