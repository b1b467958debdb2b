package decompose

import (
	"errors"
	"math"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// Relaxation parameters.
const (
	// relaxRounds is how many times the cuts between adjacent parts are
	// re-placed.
	relaxRounds = 3
	// relaxCoarse is the number of evenly spaced positions first tried
	// along each direction on a pair's union; relaxRefine is how many
	// times the spacing is then halved around the best.
	relaxCoarse = 3
	relaxRefine = 2
	// relaxGain: a re-cut is kept only if it shrinks the pair's total hull
	// volume by more than this share.
	relaxGain = 0.002
	// relaxFace charges a cut's cross-section area A as relaxFace·A^1.5
	// of volume: about what the two hull faces on it add to the integral
	// of the distance from the hulls' surface to the mesh (a disc's mean
	// distance to its rim is 0.19·√A, twice). A re-cut must save volume
	// with and without the charge: a cut across a body's thick middle
	// saves hull volume next to a thin neck (the Duck's tail) but puts a
	// wide face deep inside the object (ranking by the charged volume
	// instead: see DESIGN.md, Idea).
	relaxFace = 0.38
	// relaxMaxTris: pairs with more triangles than this are left as they
	// are.
	relaxMaxTris = 10000
)

// sharedCuts returns the planes of the cuts a and b lie on opposite sides of.
func sharedCuts(a, b *part) []plane {
	var out []plane
	for _, x := range a.caps {
		for _, y := range b.caps {
			if x.sec == y.sec && x.side != y.side {
				out = append(out, x.sec.pl)
			}
		}
	}
	return out
}

// area returns the area of the solid's cross-section (the outline seen from
// the positive side): the shoelace sum over its segments, which adds up
// loop by loop whatever their order.
func (s *section) area() float64 {
	var a float64
	for _, sg := range s.segs[0] {
		a += sg[0][0]*sg[1][1] - sg[1][0]*sg[0][1]
	}
	return math.Abs(a) / 2
}

// cutArea returns the area of the cross-sections of m by the planes pls.
func (d *decomposer) cutArea(m *part, pls []plane) float64 {
	var a float64
	for _, pl := range pls {
		_, _, sec := cutNumbered(m.tris, m.inner, m.corners, m.ids, pl, planeTol*d.diag)
		a += sec.area()
	}
	return a
}

// relax re-places the cuts between touching parts (see the package
// documentation): each pair on either side of a cut, both under the
// threshold, is re-cut where the two hulls' total volume is least, if that
// saves more than relaxGain of it and a wider cut is worth its faces (see
// better). Pairs go best saving first, each part once a round.
func (d *decomposer) relax(parts []*part) ([]*part, error) {
	// settled holds the pairs whose best re-cut was found wanting: they
	// are not tried again while both parts stay.
	type key struct{ a, b *part }
	settled := map[key]bool{}
	for round := 0; round < relaxRounds; round++ {
		// A pair: two parts, and the planes of the cuts between them.
		type pair struct {
			i, j int
			cuts []plane
		}
		var pairs []pair
		for i := range parts {
			if d.needsSplit(parts[i]) {
				continue
			}
			for j := i + 1; j < len(parts); j++ {
				a, b := parts[i], parts[j]
				if d.needsSplit(b) || settled[key{a, b}] || len(a.tris)+len(b.tris) > relaxMaxTris ||
					!touch(a.box, b.box, adjacencyGap*d.diag) {
					continue
				}
				if cuts := sharedCuts(a, b); len(cuts) > 0 {
					pairs = append(pairs, pair{i, j, cuts})
				}
			}
		}
		if len(pairs) == 0 {
			return parts, nil
		}
		unions := make([]*part, len(pairs))
		errs := make([]error, len(pairs))
		if err := d.parallel(len(pairs), func(k int) {
			unions[k], errs[k] = d.unite(parts[pairs[k].i], parts[pairs[k].j])
			if errs[k] == nil {
				// Numbered once: each of its tens of cuts then works out
				// each corner's side once (see cutNumbered).
				unions[k].number()
			}
		}); err != nil {
			return nil, err
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		var cands []*candidate
		for k, m := range unions {
			cands = append(cands, relaxCandidates(m, k)...)
		}
		// Each pair's total hull volume and cut area as it is.
		oldV := make([]float64, len(pairs))
		oldA := make([]float64, len(pairs))
		if err := d.parallel(len(pairs), func(k int) {
			oldV[k] = parts[pairs[k].i].hull.Volume() + parts[pairs[k].j].hull.Volume()
			oldA[k] = d.cutArea(unions[k], pairs[k].cuts)
		}); err != nil {
			return nil, err
		}
		best, err := d.relaxCuts(unions, cands, oldV)
		if err != nil {
			return nil, err
		}
		type gain struct {
			k int
			g float64
		}
		var gains []gain
		for k, b := range best {
			if b == nil {
				settled[key{parts[pairs[k].i], parts[pairs[k].j]}] = true
				continue
			}
			if shrinks(b.score, oldV[k]) && better(b.score, b.area, oldV[k], oldA[k]) {
				gains = append(gains, gain{k, oldV[k] - b.score})
			} else {
				settled[key{parts[pairs[k].i], parts[pairs[k].j]}] = true
			}
		}
		sort.SliceStable(gains, func(a, b int) bool { return gains[a].g > gains[b].g })
		used := make([]bool, len(parts))
		var chosen []int
		for _, g := range gains {
			pr := pairs[g.k]
			if used[pr.i] || used[pr.j] {
				continue
			}
			used[pr.i], used[pr.j] = true, true
			chosen = append(chosen, g.k)
		}
		// Final hulls and estimates for the chosen re-cuts; a re-cut whose
		// full estimate is above the threshold is dropped.
		var kids []*part
		for _, k := range chosen {
			kids = append(kids, best[k].kids...)
		}
		if err := d.keep(kids); err != nil {
			return nil, err
		}
		// Like the search's parts, a re-cut part can leave solid of its
		// cell out of its hull.
		if d.closed {
			if err := d.fillPockets(kids); err != nil {
				return nil, err
			}
		}
		changed := false
		for _, k := range chosen {
			ks := best[k].kids
			if d.needsSplit(ks[0]) || d.needsSplit(ks[1]) || !better(ks[0].hull.Volume()+ks[1].hull.Volume(), best[k].area, (1-relaxGain)*oldV[k], oldA[k]) {
				settled[key{parts[pairs[k].i], parts[pairs[k].j]}] = true
				continue
			}
			parts[pairs[k].i], parts[pairs[k].j] = ks[0], ks[1]
			changed = true
		}
		if !changed {
			break
		}
		d.progress(parts)
	}
	return parts, nil
}

// relaxCandidates returns the first planes tried on union m (pair k):
// relaxCoarse evenly spaced positions across m along each axis and each of
// its principal axes (directions closer than ~2.5° to one already tried
// are skipped).
func relaxCandidates(m *part, k int) []*candidate {
	pa := principalAxes(m.hull.Vertices)
	var cs []*candidate
	var tried []geom.Vec3
	for _, n := range []geom.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, pa[0], pa[1], pa[2]} {
		if l := n.Len(); l > 0 {
			n = n.Scale(1 / l)
		} else {
			continue
		}
		if slices.ContainsFunc(tried, func(t geom.Vec3) bool { return math.Abs(t.Dot(n)) > 0.999 }) {
			continue
		}
		tried = append(tried, n)
		lo, hi := span(m, n)
		for j := 1; j <= relaxCoarse; j++ {
			x := lo + (hi-lo)*float64(j)/float64(relaxCoarse+1)
			cs = append(cs, &candidate{part: k, pl: plane{n, x}})
		}
	}
	return cs
}

// span returns the extent of m's hull along n.
func span(m *part, n geom.Vec3) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range m.hull.Vertices {
		x := n.Dot(p)
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// relaxTop is how many of a pair's re-cuts, least total hull volume first,
// have their concavity estimated.
const relaxTop = 3

// relaxCuts finds each union's re-cut: it cuts and hulls the candidates,
// refines relaxRefine times around each union's cut of least total hull
// volume (halving the spacing along its direction), then estimates the
// concavity of the relaxTop cuts of least volume per union (the estimate
// is what costs). It returns, per union, the cut of least volume whose two
// parts are under the threshold (nil if none), its score that volume.
//
// A cut that does not shrink its union's pair (of total hull volume oldV)
// by relaxGain (see shrinks) is not estimated and never returned: the
// caller keeps a union's best cut only if it gains, and a cut of more
// volume than one that does not gain does not either, so every cut that
// gains has less volume than every cut skipped: the same best cut, or nil
// where the least-volume cut under the threshold would not gain (the
// caller settles the pair either way), without their estimates.
func (d *decomposer) relaxCuts(unions []*part, cands []*candidate, oldV []float64) ([]*candidate, error) {
	if err := d.hullCuts(unions, cands); err != nil {
		return nil, err
	}
	all := cands
	step := 1 / float64(relaxCoarse+1)
	for r := 0; r < relaxRefine; r++ {
		step /= 2
		var more []*candidate
		for _, b := range leastVolume(all, len(unions), 1) {
			if len(b) == 0 {
				continue
			}
			c := b[0]
			lo, hi := span(unions[c.part], c.pl.n)
			for _, s := range []float64{-1, 1} {
				if x := c.pl.d + s*step*(hi-lo); x > lo && x < hi {
					more = append(more, &candidate{part: c.part, pl: plane{c.pl.n, x}})
				}
			}
		}
		if err := d.hullCuts(unions, more); err != nil {
			return nil, err
		}
		all = append(all, more...)
	}
	var top []*candidate
	for _, cs := range leastVolume(all, len(unions), relaxTop) {
		for _, c := range cs {
			if shrinks(c.score, oldV[c.part]) {
				top = append(top, c)
			}
		}
	}
	// Only cuts that leave both parts under the threshold are kept: an
	// estimate stops once it is above it, and the other part of a cut
	// already rejected is not estimated.
	b := scoutBudget
	b.stop = math.Nextafter(d.thr, math.Inf(1))
	if err := d.parallel(len(top), func(n int) {
		c := top[n]
		for _, k := range c.kids {
			d.estimate(k, b)
			c.cmax = math.Max(c.cmax, k.conc)
			if c.cmax > d.thr {
				return
			}
		}
	}); err != nil {
		return nil, err
	}
	best := make([]*candidate, len(unions))
	for _, c := range top {
		if c.cmax <= d.thr && (best[c.part] == nil || c.score < best[c.part].score) {
			best[c.part] = c
		}
	}
	return best, nil
}

// leastVolume returns, per union, its n cut candidates of least score (total
// hull volume), in that order.
func leastVolume(cs []*candidate, unions, n int) [][]*candidate {
	per := make([][]*candidate, unions)
	for _, c := range cs {
		if c.kids != nil {
			per[c.part] = append(per[c.part], c)
		}
	}
	for i, p := range per {
		sort.SliceStable(p, func(a, b int) bool { return p[a].score < p[b].score })
		per[i] = p[:min(len(p), n)]
	}
	return per
}

// hullCuts cuts each candidate's union and hulls the two sides, setting
// its kids and, as its score, their total hull volume. A cut that leaves a
// side empty keeps no kids.
func (d *decomposer) hullCuts(unions []*part, cands []*candidate) error {
	errs := make([]error, len(cands))
	if err := d.parallel(len(cands), func(i int) {
		c := cands[i]
		m := unions[c.part]
		sides, sec, ok := d.cutPart(m, c.pl)
		if !ok {
			return
		}
		// Each side is one part, whatever its pieces: the union is
		// nearly convex, and a side in two pieces would be judged by its
		// hull's volume and concavity like any other (telling pieces of one
		// solid apart, as splitSide does, costs more than the rest).
		var kids []*part
		for si, sd := range sides {
			k := &part{tris: sd.t, inner: sd.in, caps: sd.caps}
			if sd.pid != nil {
				k.corners, k.ids = numberFrom(sd.t, sd.pid, sd.npid)
			}
			(&sideGroup{parent: m, pl: c.pl, side: si, kids: []*part{k}}).setGroup()
			if errs[i] = d.shape(k, -1); errs[i] != nil {
				return
			}
			kids = append(kids, k)
		}
		c.kids, c.area = kids, sec.area()
		c.score = kids[0].hull.Volume() + kids[1].hull.Volume()
	}); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// shrinks reports whether a re-cut of total hull volume v shrinks a pair of
// volume v0 by more than the share relaxGain. It does not hold for any
// volume above one for which it fails.
func shrinks(v, v0 float64) bool { return v0-v > relaxGain*v0 }

// better reports whether a pair of parts of total hull volume v cut across
// area a is better than one of volume v0 and area a0: less volume, and
// less once the cut's faces are charged (see relaxFace).
func better(v, a, v0, a0 float64) bool {
	return v < v0 && v+relaxFace*a*math.Sqrt(a) < v0+relaxFace*a0*math.Sqrt(a0)
}
