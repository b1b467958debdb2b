package decompose

import (
	"errors"
	"math"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// candidate is one cutting plane tried on one part.
type candidate struct {
	part  int // index into todo
	pl    plane
	axis  int
	score float64
	kids  []*part
	// cmax is the largest concavity among kids.
	cmax float64
	// area is the cut's cross-section area (relax only).
	area float64
}

// splitParts cuts each part parts[todo[k]] at its best plane and returns its
// replacement parts (nil when no plane separates it).
func (d *decomposer) splitParts(parts []*part, todo []int) ([][]*part, error) {
	var cands []*candidate
	steps := make([]float64, len(todo))
	// vol: each part's own volume (cuts closed) for closed input, else 0;
	// only differences between candidates matter.
	vol := make([]float64, len(todo))
	if d.closed {
		if err := d.parallel(len(todo), func(k int) { vol[k] = partVolume(parts[todo[k]], capTol*d.diag) }); err != nil {
			return nil, err
		}
	}
	for k, pi := range todo {
		p := parts[pi]
		size := p.box.Size()
		if p.conc <= d.thr {
			// Split only for the vertex cap: halve the longest side.
			ax := 0
			for a := 1; a < 3; a++ {
				if size[a] > size[ax] {
					ax = a
				}
			}
			n := geom.Vec3{}
			n[ax] = 1
			cands = append(cands, &candidate{part: k, pl: plane{n, p.box.Center()[ax]}, axis: ax})
			steps[k] = 0
			continue
		}
		cands = append(cands, d.axisCandidates(p, k, planesPerAxis, true)...)
		steps[k] = 1 / float64(planesPerAxis+1)
	}
	// steps[k] == 0 marks a part split for its vertex count only. The
	// candidates the look-ahead may rank must be scored exactly: the
	// lookaheadTop best of a part it may look ahead from, else the best.
	bounds := make([]*scoreBound, len(todo))
	for k, pi := range todo {
		need := 1
		if steps[k] != 0 && parts[pi].conc >= lookaheadMin*d.thr {
			need = lookaheadTop
		}
		bounds[k] = newScoreBound(need)
	}
	if err := d.evalCandidates(parts, todo, vol, cands, scoutBudget, nil, nil, bounds); err != nil {
		return nil, err
	}
	best := make([]*candidate, len(todo))
	pick := func(cs []*candidate) {
		for _, c := range cs {
			if c.kids == nil {
				continue
			}
			if b := best[c.part]; b == nil || c.score < b.score {
				best[c.part] = c
			}
		}
	}
	pick(cands)
	fixed, err := d.lookahead(parts, todo, steps, cands, best)
	if err != nil {
		return nil, err
	}
	// Refine around the best plane of each part along its axis (not a
	// plane chosen by looking ahead: the one-cut score would move it back
	// towards a peel).
	for r := 0; r < refineRounds; r++ {
		var more []*candidate
		for k, b := range best {
			if b == nil || steps[k] == 0 || fixed[k] {
				continue
			}
			p := parts[todo[k]]
			ax := b.axis
			steps[k] /= 2
			delta := steps[k] * p.box.Size()[ax]
			for _, s := range []float64{-1, 1} {
				x := b.pl.d + s*delta
				if x > p.box.Min[ax] && x < p.box.Max[ax] {
					more = append(more, &candidate{part: k, pl: plane{b.pl.n, x}, axis: ax})
				}
			}
		}
		if err := d.evalCandidates(parts, todo, vol, more, scoutBudget, nil, nil, bestBounds(best)); err != nil {
			return nil, err
		}
		pick(more)
	}
	// Snap: the best plane moved to the nearest corner coordinate on each
	// side. Modelled objects have their features (a window's sill, a
	// step, a panel's edge) on the corners, and a cut through them leaves
	// no sliver of the feature to bloat a hull; on a smooth mesh it is
	// one more nearby position. This includes planes chosen by looking
	// ahead, which a snap replaces only if its one-cut score is lower.
	var snaps []*candidate
	for k, b := range best {
		if b != nil && steps[k] != 0 {
			snaps = append(snaps, d.snapCandidates(parts[todo[k]], b)...)
		}
	}
	if err := d.evalCandidates(parts, todo, vol, snaps, scoutBudget, nil, nil, bestBounds(best)); err != nil {
		return nil, err
	}
	pick(snaps)
	// Final estimates for the chosen children.
	var kids []*part
	out := make([][]*part, len(todo))
	for k, b := range best {
		if b == nil {
			continue
		}
		out[k] = b.kids
		kids = append(kids, b.kids...)
	}
	if err := d.keep(kids); err != nil {
		return nil, err
	}
	return out, nil
}

// keep makes chosen candidate parts final, in parallel: a checked hull
// within the vertex cap (capHull) and the full concavity estimate.
func (d *decomposer) keep(kids []*part) error {
	errs := make([]error, len(kids))
	if err := d.parallel(len(kids), func(i int) {
		if errs[i] = d.capHull(kids[i]); errs[i] == nil {
			d.estimate(kids[i], fullBudget)
		}
	}); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// axisCandidates returns the cuts tried on part p (index k): perAxis
// evenly spaced planes across each axis, and with probes the planes
// through its deepest concave point and its hull point farthest from it.
func (d *decomposer) axisCandidates(p *part, k, perAxis int, probes bool) []*candidate {
	var cs []*candidate
	size := p.box.Size()
	for ax := 0; ax < 3; ax++ {
		// A part thinner than the threshold along an axis cannot hold a
		// concavity above it in that direction: cutting across it only
		// makes slices (a wall with a window would be peeled).
		if size[ax] <= d.thr {
			continue
		}
		n := geom.Vec3{}
		n[ax] = 1
		for j := 1; j <= perAxis; j++ {
			pos := p.box.Min[ax] + size[ax]*float64(j)/float64(perAxis+1)
			cs = append(cs, &candidate{part: k, pl: plane{n, pos}, axis: ax})
		}
		if !probes {
			continue
		}
		for _, x := range []float64{p.deep[ax], p.far[ax]} {
			if x > p.box.Min[ax] && x < p.box.Max[ax] {
				cs = append(cs, &candidate{part: k, pl: plane{n, x}, axis: ax})
			}
		}
	}
	return cs
}

// snapCandidates returns the planes parallel to b's cut of p through the
// nearest corner coordinate on each side of it, within the first round's
// spacing.
func (d *decomposer) snapCandidates(p *part, b *candidate) []*candidate {
	ax, at := b.axis, b.pl.d
	win := p.box.Size()[ax] / float64(planesPerAxis+1)
	gap := planeTol * d.diag
	lo, hi := at-win, at+win
	below, above := math.Inf(-1), math.Inf(1)
	for _, t := range p.tris {
		for _, v := range t {
			x := v[ax]
			if x < at-gap && x > lo && x > below {
				below = x
			}
			if x > at+gap && x < hi && x < above {
				above = x
			}
		}
	}
	var cs []*candidate
	for _, x := range []float64{below, above} {
		if !math.IsInf(x, 0) && x > p.box.Min[ax] && x < p.box.Max[ax] {
			cs = append(cs, &candidate{part: b.part, pl: plane{b.pl.n, x}, axis: ax})
		}
	}
	return cs
}

// evalCandidates cuts, hulls and scores every candidate (in parallel).
//
// Without ceil, bounds[k] (one per entry of todo) says how many of part
// k's best candidates must be scored exactly: a candidate whose score is
// known to exceed the need-th best score of another candidate of its part
// (or a score given with the bound) is left without kids, its children's
// estimates stopped as soon as that is known (see scoreBound).
//
// With ceil, a candidate with a child at or above ceil[c.part] is left
// without kids (not a cut that lowers the part's concavity), and so is one
// with a child at or above the largest concavity left by a candidate of the
// same part already scored (it cannot lower the part's concavity further;
// see lookahead); its children's estimates stop there (see
// sampleBudget.stop). Once that concavity is at most floor[c.part], the
// candidates left are skipped: the look-ahead uses the larger of the two.
func (d *decomposer) evalCandidates(parts []*part, todo []int, vol []float64, cs []*candidate, b sampleBudget, ceil, floor []float64, bounds []*scoreBound) error {
	errs := make([]error, len(cs))
	// The tree each part's children are indexed on (see part.scoutIndex),
	// made before the candidates share the parts.
	type base struct {
		tree *bvh
		slot []int32
	}
	bases := make([]base, len(todo))
	if !d.closed {
		for k := range todo {
			if slices.ContainsFunc(cs, func(c *candidate) bool { return c.part == k }) {
				bases[k].tree, bases[k].slot = parts[todo[k]].cutBase()
			}
		}
	}
	if ceil != nil {
		bounds = make([]*scoreBound, len(todo))
		for k := range bounds {
			bounds[k] = &scoreBound{need: 1, cut: ceil[k]}
		}
	}
	err := d.parallel(len(cs), func(i int) {
		c := cs[i]
		p := parts[todo[c.part]]
		bd := bounds[c.part]
		if ceil != nil && bd.ceiling() <= floor[c.part] {
			return
		}
		sides, _, ok := d.cutPart(p, c.pl)
		if !ok {
			return
		}
		var kids []*part
		for si, sd := range sides {
			g := &sideGroup{parent: p, pl: c.pl, side: si, kids: d.splitSide(sd.soup, sd.caps)}
			g.setGroup()
			setBase(g.kids, bases[c.part].tree, bases[c.part].slot)
			kids = append(kids, g.kids...)
		}
		// The largest child first: the likeliest to reach a bound,
		// sparing the others. Each child's estimate is its own, so the
		// order changes no value.
		order := slices.Clone(kids)
		slices.SortStableFunc(order, func(x, y *part) int { return len(y.tris) - len(x.tris) })
		if ceil != nil {
			for _, k := range order {
				if errs[i] = d.shape(k, -1); errs[i] != nil {
					return
				}
				kb := b
				if kb.stop = bd.ceiling(); kb.stop <= floor[c.part] {
					return
				}
				d.scoutEstimate(k, kb)
				if k.conc >= kb.stop {
					return
				}
			}
		} else {
			for _, k := range kids {
				if errs[i] = d.shape(k, -1); errs[i] != nil {
					return
				}
			}
		}
		// Rank by the worst concavity left, scaled down by how much of the
		// hull's excess volume the cut removes: sampled concavities are
		// noisy and often tie (peeling a slice off a plate leaves the
		// same concavity as cutting through its window), volumes are exact
		// and tell the two apart.
		var sumV float64
		for _, k := range kids {
			sumV += k.hull.Volume()
		}
		r := 1.0
		if e := p.hull.Volume() - vol[c.part]; e > 0 {
			r = math.Max(0, math.Min(1, (sumV-vol[c.part])/e))
		}
		if ceil == nil {
			done := make([]bool, len(kids))
			for _, k := range order {
				j := slices.Index(kids, k)
				limit := bd.limit()
				kb := b
				if !math.IsInf(limit, 1) {
					m, s := score(kids, done)
					kb.stop = stopAt(limit, m, s, 0.5+0.5*r, len(kids))
				}
				d.scoutEstimate(k, kb)
				done[j] = true
				if kb.stop > 0 && k.conc >= kb.stop {
					if m, s := score(kids, done); rankScore(m, s, r, len(kids)) > limit {
						return
					}
					// Rounding left the score at the limit: measure in
					// full.
					kb.stop = 0
					d.scoutEstimate(k, kb)
				}
			}
		}
		cmax, csum := score(kids, nil)
		c.kids = kids
		c.cmax = cmax
		c.score = rankScore(cmax, csum, r, len(kids))
		bd.add(c.score, cmax)
	})
	if err != nil {
		return err
	}
	return errors.Join(errs...)
}

// lookahead re-chooses the cut of the parts whose best single cut barely
// lowers their concavity (stuck, see stuckRatio): a torus or a window frame
// cannot be opened by one plane, so ranking by the concavity one cut leaves
// picks a peel off the edge, and the next rounds peel again. Each of the
// lookaheadTop best single cuts of a stuck part is scored instead by the
// concavity left after one more cut of each of its children above the
// threshold (evenly spaced axis planes, as in the first round), and the
// best of those is kept, like a two-level search of CoACD's tree. It
// reports, per part, whether its cut was chosen this way.
func (d *decomposer) lookahead(parts []*part, todo []int, steps []float64, cands, best []*candidate) ([]bool, error) {
	fixed := make([]bool, len(todo))
	type entry struct {
		c     *candidate
		kids  []int   // its children above the threshold, indices into next
		other float64 // the largest concavity of its other children
	}
	var next []*part
	var entries []entry
	for k, b := range best {
		if b == nil || steps[k] == 0 || b.cmax < stuckRatio*parts[todo[k]].conc {
			continue
		}
		if parts[todo[k]].conc < lookaheadMin*d.thr {
			continue
		}
		var mine []*candidate
		for _, c := range cands {
			if c.part == k && c.kids != nil {
				mine = append(mine, c)
			}
		}
		sort.SliceStable(mine, func(i, j int) bool { return mine[i].score < mine[j].score })
		for _, c := range mine[:min(len(mine), lookaheadTop)] {
			e := entry{c: c}
			for _, kd := range c.kids {
				if kd.conc > d.thr {
					e.kids = append(e.kids, len(next))
					next = append(next, kd)
				} else {
					e.other = math.Max(e.other, kd.conc)
				}
			}
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return fixed, nil
	}
	idx := make([]int, len(next))
	vol := make([]float64, len(next))
	for i := range idx {
		idx[i] = i
	}
	if d.closed {
		if err := d.parallel(len(next), func(i int) { vol[i] = partVolume(next[i], capTol*d.diag) }); err != nil {
			return nil, err
		}
	}
	var second []*candidate
	for i, p := range next {
		second = append(second, d.axisCandidates(p, i, lookaheadPlanes, false)...)
	}
	// A second cut matters only if it lowers its part's concavity (reach
	// starts there): a cut whose child reaches that is dropped as soon as
	// it does, unmeasured further. And only down to the largest
	// concavity of its entry's other children (floor): an entry is
	// valued by the larger of the two.
	ceil := make([]float64, len(next))
	floor := make([]float64, len(next))
	for i, p := range next {
		ceil[i] = p.conc
	}
	for _, e := range entries {
		for _, i := range e.kids {
			floor[i] = e.other
		}
	}
	// The first entry of each part (its best single cut) is measured
	// first: its value U is picked unless another entry's is lower
	// (strictly: the first in order wins a tie). So a second cut of
	// another entry's child matters only below U: its ceiling is lowered
	// to U. A child whose cuts all reach U keeps reach at least U, its
	// entry is not picked, as when measured in full.
	lead := make([]bool, len(next))
	var firstCuts, rest []*candidate
	seen := make([]bool, len(todo))
	for _, e := range entries {
		if !seen[e.c.part] {
			seen[e.c.part] = true
			for _, i := range e.kids {
				lead[i] = true
			}
		}
	}
	for _, c := range second {
		if lead[c.part] {
			firstCuts = append(firstCuts, c)
		} else {
			rest = append(rest, c)
		}
	}
	if err := d.evalCandidates(next, idx, vol, firstCuts, scoutBudget, ceil, floor, nil); err != nil {
		return nil, err
	}
	u := make([]float64, len(todo))
	for k := range u {
		u[k] = math.Inf(1)
	}
	for k := range seen {
		seen[k] = false
	}
	for _, e := range entries {
		if seen[e.c.part] {
			continue
		}
		seen[e.c.part] = true
		v := e.other
		for _, i := range e.kids {
			r := next[i].conc
			for _, c := range firstCuts {
				if c.part == i && c.kids != nil && c.cmax < r {
					r = c.cmax
				}
			}
			v = math.Max(v, r)
		}
		u[e.c.part] = v
	}
	for _, e := range entries {
		for _, i := range e.kids {
			if !lead[i] {
				ceil[i] = math.Min(ceil[i], u[e.c.part])
			}
		}
	}
	if err := d.evalCandidates(next, idx, vol, rest, scoutBudget, ceil, floor, nil); err != nil {
		return nil, err
	}
	// reach[i]: the lowest concavity one more cut leaves in next[i].
	reach := make([]float64, len(next))
	for i, p := range next {
		reach[i] = p.conc
	}
	for _, c := range second {
		if c.kids != nil && c.cmax < reach[c.part] {
			reach[c.part] = c.cmax
		}
	}
	for k := range best {
		var pick *candidate
		var bestV float64
		for _, e := range entries {
			if e.c.part != k {
				continue
			}
			v := e.other
			for _, i := range e.kids {
				v = math.Max(v, reach[i])
			}
			if pick == nil || v < bestV {
				pick, bestV = e.c, v
			}
		}
		if pick != nil {
			best[k], fixed[k] = pick, true
		}
	}
	return fixed, nil
}
