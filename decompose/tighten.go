package decompose

import (
	"errors"
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// Tightening parameters.
const (
	// gapScoutSamples and gapCheckSamples are the hull surface samples of
	// a gap integral estimate when ranking a part's candidate cuts and when
	// measuring the chosen one (and every kept part) with fresh samples.
	gapScoutSamples = 128
	gapCheckSamples = 512
	// gapZ: a split is kept only if its gain exceeds gapZ standard errors
	// of the gain's estimate (one-sided, about a 2 % chance that noise
	// alone passes).
	gapZ = 2.0
	// subConcavity: a stuck part's sub-search splits it to this share of
	// its own concavity (1/2 cost more for the same hulls: DESIGN.md).
	subConcavity = 0.7
	// subParts caps the parts of one sub-search: the sub-searches kept end
	// with fewer, and the cap bounds the cost of those that fail (figures
	// in DESIGN.md).
	subParts = 8
)

// gap is a gap integral estimate (see gapIntegral).
type gap struct {
	g, se float64
	// free is the share of g that further cuts can remove: all of it,
	// except on closed input the samples lying on one of the part's cut
	// planes inside the solid's cross-section there (a cap through solid
	// stays a face inside the object whatever is cut next).
	free float64
}

// gapIntegral estimates G for part p: the integral over its hull's surface
// of the distance to the input (mesh indexes it), that is the hull's area
// times its mean distance to the mesh, from n samples stratified by area,
// with its standard error.
func (d *decomposer) gapIntegral(p *part, mesh *bvh, n int, seed uint64) gap {
	s := newSampler(hullTris(p.hull), seed)
	a := s.area()
	n &^= 1
	if a == 0 || n == 0 {
		return gap{}
	}
	tol := capTol * d.diag
	var sum, fixed, v, prev float64
	for k := 0; k < n; k++ {
		// Stratified: sample k falls in the k-th n-th of the surface
		// (the triangles in order), so the variance between faces (a
		// hull's exact faces against its bridging ones) does not count.
		x, _ := s.at((float64(k) + s.rng.Float64()) / float64(n))
		dist := mesh.dist(x, 0)
		if math.IsInf(dist, 1) {
			dist = 0
		}
		sum += dist
		if d.closed {
			for _, c := range p.caps {
				if math.Abs(c.sec.pl.eval(x)) <= tol && c.sec.outside(x, c.side, 0) == 0 {
					fixed += dist
					break
				}
			}
		}
		if k%2 == 1 {
			// Neighbouring strata in pairs: (d1 - d2)² estimates the
			// variance of their sum (and overestimates it).
			v += (dist - prev) * (dist - prev)
		}
		prev = dist
	}
	f := a / float64(n)
	return gap{g: f * sum, se: f * math.Sqrt(v), free: f * (sum - fixed)}
}

// tighten splits the final parts further where that lowers the gap integral
// G (see gapIntegral), which is what both surface distance figures average
// (Metrics.SurfaceDistMean over every hull's whole surface, interior faces
// included; OuterDistMean over the faces outside the other hulls). The
// concavity threshold bounds how far a hull may stray from the surface;
// under it, the hull surface still runs at a mean distance across a curved
// wall's chord or between a snowflake's arms, and the search has no reason
// to cut there.
//
// Each part tries planesPerAxis evenly spaced planes across each axis, and
// the one whose children's hulls have the least summed G is kept if its
// gain, measured again on the final hulls (checked, capped, pockets filled)
// with fresh samples, exceeds gapZ standard errors of its estimate and
// d.thr³ for each hull it adds: a hull is worth adding when it removes at
// least the gap of a dent as deep and as wide as the threshold (on a curved
// wall the gain of halving a patch falls like its width cubed, so this is
// what stops the pass; G alone always falls, slowly, and took cups and
// cylinders to the 64-hull cap). Largest gain first, within MaxHulls; the
// children are tried again, until no split pays.
//
// A part that no one plane improves (a snowflake's centre: cutting one arm
// off widens the bridge between its neighbours) needs at least three parts
// to gain, so it is worth more work only if its removable gap (gap.free)
// exceeds the price of two hulls. Such a part is decomposed on its own by
// the search's split loop at subConcavity times its concavity, that result
// merged back while merging costs less than the price of a hull
// (gapMerge), and judged like a cut.
func (d *decomposer) tighten(parts []*part, mesh *bvh) ([]*part, error) {
	price := d.thr * d.thr * d.thr
	gs := make([]gap, len(parts))
	if err := d.parallel(len(parts), func(i int) { gs[i] = d.gapIntegral(parts[i], mesh, gapCheckSamples, 1) }); err != nil {
		return nil, err
	}
	// queue: the parts still to try. A part whose whole gap integral is at
	// most the price cannot gain more than one hull's price (its kids' G
	// are not negative), nor is its removable gap over two, so it is never
	// split: it is not tried.
	var queue []int
	for i := range parts {
		if gs[i].g > price {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 && len(parts) < d.room {
		trials := make([][]*part, len(queue))
		errs := make([]error, len(queue))
		if err := d.parallel(len(queue), func(k int) { trials[k], errs[k] = d.bestGapCut(parts[queue[k]], mesh) }); err != nil {
			return nil, err
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		var kids []*part
		for _, t := range trials {
			kids = append(kids, t...)
		}
		kg, err := d.finalGaps(kids, mesh)
		if err != nil {
			return nil, err
		}
		type gain struct {
			k    int   // queue index
			kids []int // indices into kids
			g    float64
		}
		var gains []gain
		var stuck []int
		at := 0
		for k, t := range trials {
			i := queue[k]
			idx := make([]int, len(t))
			for j := range t {
				idx[j] = at + j
			}
			at += len(t)
			gn, sig := gainOf(gs[i], kg, idx)
			switch {
			case sig && gn > price*float64(len(t)-1):
				gains = append(gains, gain{k, idx, gn})
			case !sig && gs[i].free > 2*price:
				stuck = append(stuck, k)
			}
		}
		for _, k := range stuck {
			i := queue[k]
			budget := min(d.room-len(parts)+1, 1+int(gs[i].free/price), subParts)
			sub, err := d.subSearch(parts[i], budget, mesh, price)
			if err != nil {
				return nil, err
			}
			if sub == nil {
				continue
			}
			sg, err := d.finalGaps(sub, mesh)
			if err != nil {
				return nil, err
			}
			idx := make([]int, len(sub))
			for j := range sub {
				idx[j] = len(kids) + j
			}
			kids, kg = append(kids, sub...), append(kg, sg...)
			gn, sig := gainOf(gs[i], kg, idx)
			if sig && gn > price*float64(len(sub)-1) {
				gains = append(gains, gain{k, idx, gn})
			}
		}
		sort.SliceStable(gains, func(a, b int) bool { return gains[a].g > gains[b].g })
		split := map[int][]int{} // part index -> its kids' indices in kids
		n := len(parts)
		for _, gn := range gains {
			if n+len(gn.kids)-1 > d.room {
				continue
			}
			n += len(gn.kids) - 1
			split[queue[gn.k]] = gn.kids
		}
		if len(split) == 0 {
			break
		}
		// Replace the split parts, keeping the order: the kids go last.
		var out []*part
		var og []gap
		var next []int
		for i, p := range parts {
			if split[i] == nil {
				out, og = append(out, p), append(og, gs[i])
			}
		}
		for i := range parts {
			for _, j := range split[i] {
				if kids[j].conc == 0 {
					kids[j].conc = parts[i].conc
				}
				if kg[j].g > price {
					next = append(next, len(out))
				}
				out, og = append(out, kids[j]), append(og, kg[j])
			}
		}
		parts, gs, queue = out, og, next
	}
	return parts, nil
}

// finalGaps makes candidate parts final as they would be kept (checked,
// capped hulls; on closed input, pockets filled) and measures their gap
// integrals with fresh samples.
func (d *decomposer) finalGaps(kids []*part, mesh *bvh) ([]gap, error) {
	errs := make([]error, len(kids))
	if err := d.parallel(len(kids), func(i int) { errs[i] = d.capHull(kids[i]) }); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if d.closed {
		if err := d.fillPockets(kids); err != nil {
			return nil, err
		}
	}
	out := make([]gap, len(kids))
	if err := d.parallel(len(kids), func(i int) { out[i] = d.gapIntegral(kids[i], mesh, gapCheckSamples, 2) }); err != nil {
		return nil, err
	}
	return out, nil
}

// gainOf returns the gain of replacing a part of gap integral g by the
// kids idx (kg[idx]), and whether it is significant: above gapZ standard
// errors of its estimate. Fewer than two kids is no split.
func gainOf(g gap, kg []gap, idx []int) (float64, bool) {
	if len(idx) < 2 {
		return 0, false
	}
	gn, v := g.g, g.se*g.se
	for _, j := range idx {
		gn -= kg[j].g
		v += kg[j].se * kg[j].se
	}
	return gn, gn > gapZ*math.Sqrt(v)
}

// subSearch decomposes p on its own with the search's split loop and merge
// pass (no relax) at subConcavity times its concavity, into at most budget
// (at least 3) parts, then merges those back while that costs less than
// price per hull saved (see gapMerge). It returns nil when p stays whole.
func (d *decomposer) subSearch(p *part, budget int, mesh *bvh, price float64) ([]*part, error) {
	if budget < 3 {
		return nil, nil
	}
	sub := *d
	sub.opt.Progress = nil
	sub.maxH, sub.room = budget, budget
	// p itself is split (replay follows its origin); its estimate is
	// made afresh, for its deepest points.
	sub.estimate(p, fullBudget)
	sub.thr = p.conc * subConcavity
	if sub.thr <= 0 {
		return nil, nil
	}
	var res Result
	parts, err := sub.splitLoop([]*part{p}, &res)
	if err != nil || len(parts) < 2 {
		return nil, err
	}
	if d.closed {
		if err := sub.fillPockets(parts); err != nil {
			return nil, err
		}
	}
	if parts, err = sub.merge(parts); err != nil {
		return nil, err
	}
	if parts, err = sub.fitBudget(parts, mesh, &res); err != nil || len(parts) < 2 {
		return nil, err
	}
	if parts, err = d.gapMerge(parts, mesh, price); err != nil || len(parts) < 2 {
		return nil, err
	}
	return parts, nil
}

// gapMerge merges touching parts back while that adds less gap integral
// than price per hull saved, the least first: tighten's trade from the
// other side, for the parts of a sub-search (whose threshold is set by
// concavity, not by G).
func (d *decomposer) gapMerge(parts []*part, mesh *bvh, price float64) ([]*part, error) {
	return d.leastGapMerge(parts, mesh, gapMergeRule{
		samples: gapCheckSamples, seed: 1, unionSeed: 2,
		pairs: func(parts []*part) [][2]int {
			var out [][2]int
			for i := range parts {
				for j := i + 1; j < len(parts); j++ {
					if touch(parts[i].box, parts[j].box, adjacencyGap*d.diag) {
						out = append(out, [2]int{i, j})
					}
				}
			}
			return out
		},
		more:  func(n int) bool { return n > 1 },
		limit: price,
	})
}

// bestGapCut returns the children of the cut of p whose hulls have the
// least summed gap integral (scout samples), among planesPerAxis evenly
// spaced planes across p along each axis, or nil when no plane separates
// p.
func (d *decomposer) bestGapCut(p *part, mesh *bvh) ([]*part, error) {
	size := p.box.Size()
	var best []*part
	bestG := math.Inf(1)
	for ax := 0; ax < 3; ax++ {
		n := geom.Vec3{}
		n[ax] = 1
		for j := 1; j <= planesPerAxis; j++ {
			pl := plane{n, p.box.Min[ax] + size[ax]*float64(j)/float64(planesPerAxis+1)}
			sides, _, ok := d.cutPart(p, pl)
			if !ok {
				continue
			}
			var kids []*part
			for si, sd := range sides {
				grp := &sideGroup{parent: p, pl: pl, side: si, kids: d.splitSide(sd.soup, sd.caps)}
				grp.setGroup()
				kids = append(kids, grp.kids...)
			}
			var sum float64
			for _, k := range kids {
				if err := d.shape(k, -1); err != nil {
					return nil, err
				}
				sum += d.gapIntegral(k, mesh, gapScoutSamples, 3).g
				if sum >= bestG {
					break
				}
			}
			if sum < bestG {
				best, bestG = kids, sum
			}
		}
	}
	return best, nil
}
