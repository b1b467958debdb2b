package decompose

import (
	"errors"
	"math"
)

// gapMergeRule says how leastGapMerge runs: which pairs it weighs, when
// it stops, and the samples of the gap integrals it compares.
type gapMergeRule struct {
	// samples and seeds of gapIntegral: of each part at the start, and of
	// a pair's union.
	samples         int
	seed, unionSeed uint64
	// pairs lists the candidate pairs (i < j) among parts, in a fixed
	// order (ties go to the first).
	pairs func(parts []*part) [][2]int
	// more says whether to go on merging with n parts left.
	more func(n int) bool
	// limit: a pair is merged only when it adds less gap than this; +Inf
	// merges the least pair whatever it adds.
	limit float64
	// progress reports each merge through d.progress.
	progress bool
	// air, if set, is the mesh's open air (see openAir): a pair whose
	// union would close a passage (bridge a through-hole, shut a cavity's
	// mouth) goes after every pair that closes none, and a pair's cost is
	// the gap it adds plus the volume of open air its union newly blocks.
	air *openAir
	// openOnly (with air): only pairs that close no passage merge; when
	// every pair would close one, merging stops.
	openOnly bool
	// accept, if set, is shown the parts as they would be after each
	// merge; when it says no, that merge is not made and merging stops.
	accept func(parts []*part) (bool, error)
}

// leastGapMerge merges, one pair at a time, the candidate pair whose
// union's hull adds the least gap integral G (gapIntegral) over the two
// hulls' own (with r.air: the fewest passages closed first, then the least
// gap plus open air lost), while r.more and r.limit allow. Each pair's union is built
// and measured once (cached by the parts' identities) and in parallel. A
// merged part is the hull of its two parts' hulls, so coverage is kept.
func (d *decomposer) leastGapMerge(parts []*part, mesh *bvh, r gapMergeRule) ([]*part, error) {
	g := make([]float64, len(parts))
	if err := d.parallel(len(parts), func(i int) { g[i] = d.gapIntegral(parts[i], mesh, r.samples, r.seed).g }); err != nil {
		return nil, err
	}
	ids := make([]int, len(parts))
	for i := range ids {
		ids[i] = i
	}
	nextID := len(parts)
	type union struct {
		m *part
		g float64
		// air is the open air m's hull blocks (with r.air).
		air airSet
	}
	// cover is the open air the current hulls block: a merged hull holds
	// its two parts' hulls, so it only grows.
	var cover airSet
	if r.air != nil {
		sets := make([]airSet, len(parts))
		if err := d.parallel(len(parts), func(i int) { sets[i] = r.air.blocked(parts[i].hull) }); err != nil {
			return nil, err
		}
		cover = r.air.newSet()
		for _, s := range sets {
			cover.or(s)
		}
	}
	cache := map[pairKey]union{}
	for r.more(len(parts)) {
		pairs := r.pairs(parts)
		var todo [][2]int
		for _, pr := range pairs {
			if _, ok := cache[pairKey{ids[pr[0]], ids[pr[1]]}]; !ok {
				todo = append(todo, pr)
			}
		}
		us := make([]union, len(todo))
		errs := make([]error, len(todo))
		if err := d.parallel(len(todo), func(n int) {
			m, err := d.unite(parts[todo[n][0]], parts[todo[n][1]])
			if err != nil {
				errs[n] = err
				return
			}
			us[n] = union{m: m, g: d.gapIntegral(m, mesh, r.samples, r.unionSeed).g}
			if r.air != nil {
				us[n].air = r.air.blocked(m.hull)
			}
		}); err != nil {
			return nil, err
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		for n, pr := range todo {
			cache[pairKey{ids[pr[0]], ids[pr[1]]}] = us[n]
		}
		bi, bj := -1, -1
		if r.air == nil {
			best := r.limit
			for _, pr := range pairs {
				cost := cache[pairKey{ids[pr[0]], ids[pr[1]]}].g - g[pr[0]] - g[pr[1]]
				if cost < best || bi < 0 && math.IsInf(r.limit, 1) {
					best, bi, bj = cost, pr[0], pr[1]
				}
			}
		} else {
			bi, bj = r.air.choose(pairs, func(pr [2]int) (float64, airSet) {
				u := cache[pairKey{ids[pr[0]], ids[pr[1]]}]
				return u.g - g[pr[0]] - g[pr[1]], u.air
			}, cover, r.openOnly)
		}
		if bi < 0 {
			break
		}
		u := cache[pairKey{ids[bi], ids[bj]}]
		judged := u.m.hull
		if err := d.capHull(u.m); err != nil {
			return nil, err
		}
		if r.accept != nil {
			if u.m.hull != judged {
				// Later merges weigh the hull that is kept, as a
				// fresh run over the parts would.
				u.g = d.gapIntegral(u.m, mesh, r.samples, r.seed).g
			}
			next := append(append([]*part(nil), parts[:bj]...), parts[bj+1:]...)
			next[bi] = u.m
			ok, err := r.accept(next)
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
		}
		if r.air != nil {
			// The capped hull may be larger than the one judged.
			cover.or(r.air.blocked(u.m.hull))
		}
		u.m.conc = math.Max(parts[bi].conc, parts[bj].conc)
		parts[bi], ids[bi], g[bi] = u.m, nextID, u.g
		nextID++
		parts = append(parts[:bj], parts[bj+1:]...)
		ids = append(ids[:bj], ids[bj+1:]...)
		g = append(g[:bj], g[bj+1:]...)
		if r.progress {
			d.progress(parts)
		}
	}
	return parts, nil
}
