package decompose

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// Large inputs are searched on a proxy (see the package documentation):
// every candidate cut of the search cuts, hulls and samples a whole part,
// tens of times a round, so its cost grows with the part's triangle count
// (figures in DESIGN.md, Large inputs). The chosen cuts are then applied
// once to the input's own triangles.

// DefaultSearchTriangles is the proxy's size aimed at (Options.
// SearchTriangles), in triangles; inputs with more than proxyRatio times
// it are searched on a proxy (every mesh of the acd bench is below).
// Smaller proxies were not reliably looser, only cheaper (figures in
// DESIGN.md, Large inputs).
const DefaultSearchTriangles = 8000

// proxyRatio: only an input with more than proxyRatio times the proxy's
// size is searched on a proxy. A proxy pays when it removes most of the
// triangles: its cuts are replayed on the input (one more cut, hull and
// split per part at full resolution), and the clustering merges the
// input's features, not only its tessellation, when the cells are as
// coarse as its own vertex spacing (the milk truck's body in DESIGN.md,
// Large inputs).
const proxyRatio = 2

// origin records how the search made a part, so that the same cuts can be
// applied to the full-resolution input (see replay). A part is either a
// merged pair or one of the parts a side of a cut (or the input) was split
// into.
type origin struct {
	pair  [2]*part
	group *sideGroup
}

// sideGroup is one side of a cut of parent by pl (side 0: n·x ≥ d), or the
// whole input when parent is nil, and the parts it was split into (its
// connected pieces, some joined; see splitSide).
type sideGroup struct {
	parent *part
	pl     plane
	side   int
	kids   []*part
}

// setGroup records g as the origin of its kids.
func (g *sideGroup) setGroup() {
	for _, k := range g.kids {
		k.origin.group = g
	}
}

// clusterProxy returns a light proxy of ts by vertex clustering: corners
// are snapped to a grid of cubic cells (each cell's corners replaced by the
// one nearest to their mean) and triangles whose corners fall in fewer than three cells are
// dropped. Dropping a collapsed triangle drops its two edges between the
// same two cells in opposite directions, so a closed input stays closed
// (every edge keeps a twin). The cell is sized from the surface area for
// about target triangles and grown until the proxy has at most 1.25·target.
func clusterProxy(ctx context.Context, ts []tri, box geom.Box, target int) ([]tri, error) {
	var area float64
	for _, t := range ts {
		area += triArea(t)
	}
	h := math.Sqrt(2 * area / float64(target))
	if !(h > 0) {
		h = box.Diagonal() / math.Sqrt(float64(target))
	}
	type cellKey [3]int32
	for try := 0; ; try++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ids := make(map[cellKey]int32, 4*target)
		var sum []geom.Vec3
		var cnt []float64
		cells := make([][3]int32, len(ts))
		for i, t := range ts {
			for k, v := range t {
				var key cellKey
				for a := 0; a < 3; a++ {
					key[a] = int32(math.Floor((v[a] - box.Min[a]) / h))
				}
				id, ok := ids[key]
				if !ok {
					id = int32(len(sum))
					ids[key] = id
					sum = append(sum, geom.Vec3{})
					cnt = append(cnt, 0)
				}
				sum[id] = sum[id].Add(v)
				cnt[id]++
				cells[i][k] = id
			}
		}
		n := 0
		for _, c := range cells {
			if c[0] != c[1] && c[1] != c[2] && c[0] != c[2] {
				n++
			}
		}
		if n > target+target/4 && try < 12 {
			h *= 1.25
			continue
		}
		// Each cell's representative: its corner nearest to the mean of its
		// corners (on the surface, where the mean of a thin wall's two
		// sides or of a sharp edge's faces is not).
		rep := make([]geom.Vec3, len(sum))
		best := make([]float64, len(sum))
		for i := range sum {
			sum[i] = sum[i].Scale(1 / cnt[i])
			best[i] = math.Inf(1)
		}
		for i, t := range ts {
			for k, v := range t {
				id := cells[i][k]
				if d := v.Sub(sum[id]).Len2(); d < best[id] {
					best[id], rep[id] = d, v
				}
			}
		}
		out := make([]tri, 0, n)
		for _, c := range cells {
			if c[0] == c[1] || c[1] == c[2] || c[0] == c[2] {
				continue
			}
			var t tri
			for k := range t {
				t[k] = rep[c[k]]
			}
			out = append(out, t)
		}
		return out, nil
	}
}

// replay applies the search's cuts, merges and re-cuts that made parts (on
// the proxy) to the full-resolution triangles ts and rebuilds each part's
// hull from its own triangles' corners (cut points included) and the
// points its pocket filling added. Where a side of a cut was split into
// several parts, each connected piece of the full-resolution side goes to
// the part nearest to it. Every piece of every input triangle ends up in
// one part, so the union of the hulls contains the input by construction,
// as it does without a proxy. Parts left with no triangle are dropped.
func (d *decomposer) replay(ts []tri, parts []*part) ([]*part, error) {
	r := &replayer{d: d, input: soup{t: ts}, uses: map[any]int{}, parts: map[*part]soup{},
		cuts: map[cutKey][2]soup{}, groups: map[*sideGroup][]soup{}}
	for _, p := range parts {
		r.countPart(p)
	}
	full := make([]soup, len(parts))
	for i, p := range parts {
		if err := d.ctx.Err(); err != nil {
			return nil, err
		}
		full[i] = r.soupOf(p)
	}
	out := make([]*part, len(parts))
	errs := make([]error, len(parts))
	if err := d.parallel(len(parts), func(i int) {
		if len(full[i].t) == 0 {
			return
		}
		q := &part{tris: full[i].t, caps: parts[i].caps}
		pts := append(q.points(), pockets(parts[i])...)
		q.box = geom.EmptyBox()
		for _, v := range pts {
			q.box = q.box.Extend(v)
		}
		h, err := buildHull(pts, d.maxV, flatThickness*d.diag)
		if err != nil {
			errs[i] = err
			return
		}
		// The search's estimate stands for the part's concavity: the
		// full-resolution part is not sampled again.
		q.hull, q.checked, q.conc = h, true, parts[i].conc
		q.tris = nil
		out[i] = q
	}); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	kept := out[:0]
	for _, q := range out {
		if q != nil {
			kept = append(kept, q)
		}
	}
	return kept, nil
}

// pockets returns the points pocket filling added to p's hull, and to the
// hulls of the parts merged into it.
func pockets(p *part) []geom.Vec3 {
	out := p.pocket
	if p.origin.pair[0] != nil {
		out = append(append(append([]geom.Vec3(nil), out...), pockets(p.origin.pair[0])...), pockets(p.origin.pair[1])...)
	}
	return out
}

type cutKey struct {
	parent *part
	pl     plane
}

// replayer computes the full-resolution soup of each part of the search,
// each intermediate result once, and forgets it when its last user has
// taken it (uses counts the requests), so that memory stays within a few
// copies of the input.
type replayer struct {
	d      *decomposer
	input  soup
	uses   map[any]int
	parts  map[*part]soup
	cuts   map[cutKey][2]soup
	groups map[*sideGroup][]soup
}

// countPart counts the requests soupOf(p) will make, recursively.
func (r *replayer) countPart(p *part) {
	if r.uses[p]++; r.uses[p] > 1 {
		return
	}
	if a := p.origin.pair; a[0] != nil {
		r.countPart(a[0])
		r.countPart(a[1])
		return
	}
	g := p.origin.group
	if r.uses[g]++; r.uses[g] > 1 || g.parent == nil {
		return
	}
	k := cutKey{g.parent, g.pl}
	if r.uses[k]++; r.uses[k] == 1 {
		r.countPart(g.parent)
	}
}

// done records one use of key and reports whether it was the last.
func (r *replayer) done(key any) bool {
	r.uses[key]--
	return r.uses[key] <= 0
}

func (r *replayer) soupOf(p *part) soup {
	s, ok := r.parts[p]
	if !ok {
		if a := p.origin.pair; a[0] != nil {
			x, y := r.soupOf(a[0]), r.soupOf(a[1])
			s.t = append(append(make([]tri, 0, len(x.t)+len(y.t)), x.t...), y.t...)
		} else {
			g := p.origin.group
			s = r.groupSoups(g)[slices.Index(g.kids, p)]
			if r.done(g) {
				delete(r.groups, g)
			}
		}
		r.parts[p] = s
	}
	if r.done(p) {
		delete(r.parts, p)
	}
	return s
}

// groupSoups returns the full-resolution soups of g's kids.
func (r *replayer) groupSoups(g *sideGroup) []soup {
	if s, ok := r.groups[g]; ok {
		return s
	}
	side := r.input
	if g.parent != nil {
		k := cutKey{g.parent, g.pl}
		sides, ok := r.cuts[k]
		if !ok {
			ps := r.soupOf(g.parent)
			pos, neg, _ := cut(ps.t, nil, g.pl, planeTol*r.d.diag)
			sides = [2]soup{pos, neg}
			r.cuts[k] = sides
		}
		side = sides[g.side]
		if r.done(k) {
			delete(r.cuts, k)
		}
	}
	var out []soup
	if len(g.kids) == 1 {
		out = []soup{{t: side.t}}
	} else {
		out = assignPieces(side.t, g.kids)
	}
	r.groups[g] = out
	return out
}

// assignPieces gives each connected piece of ts to the kid (a part of the
// proxy's side) nearest to it: the kid nearest to most of up to five of
// its triangles' centroids, spread over the piece (ties: the first kid).
func assignPieces(ts []tri, kids []*part) []soup {
	trees := make([]forest, len(kids))
	for i, k := range kids {
		trees[i] = k.index() // the kid's estimate built it already
	}
	label, n := componentLabels(ts)
	members := make([][]int32, n)
	for i, l := range label {
		members[l] = append(members[l], int32(i))
	}
	owner := make([]int, n)
	votes := make([]int, len(kids))
	for c, m := range members {
		clear(votes)
		const probes = 5
		for j := 0; j < probes && j < len(m); j++ {
			t := ts[m[j*len(m)/min(probes, len(m))]]
			x := t[0].Add(t[1]).Add(t[2]).Scale(1.0 / 3)
			best, bd := 0, math.Inf(1)
			for i, tr := range trees {
				if dd := tr.dist(x, 0); dd < bd {
					best, bd = i, dd
				}
			}
			votes[best]++
		}
		owner[c] = 0
		for i := range votes {
			if votes[i] > votes[owner[c]] {
				owner[c] = i
			}
		}
	}
	out := make([]soup, len(kids))
	for i, t := range ts {
		k := owner[label[i]]
		out[k].t = append(out[k].t, t)
	}
	return out
}

// dedupe drops the triangles that repeat an earlier one with the same
// corners in the same cyclic order (a triangle and its reverse both stay):
// coincident copies add nothing to the hulls, and every ray or distance
// query would meet each copy (what that cost: DESIGN.md, Robustness). It
// returns the indices of the triangles kept, nil when nothing repeats.
func dedupe(ts []tri) []int32 {
	canon := func(t tri) tri {
		r := 0
		for k := 1; k < 3; k++ {
			if less(t[k], t[r]) {
				r = k
			}
		}
		return tri{t[r], t[(r+1)%3], t[(r+2)%3]}
	}
	// Sort by a hash of the canonical corners, then compare exactly
	// within runs of equal hashes.
	type entry struct {
		h uint64
		i int32
	}
	es := make([]entry, len(ts))
	for i, t := range ts {
		h := uint64(14695981039346656037)
		for _, v := range canon(t) {
			for _, x := range v {
				h = (h ^ math.Float64bits(x)) * 1099511628211
				h ^= h >> 29
			}
		}
		es[i] = entry{h, int32(i)}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	drop := make([]bool, len(ts))
	n := 0
	for lo := 0; lo < len(es); {
		hi := lo + 1
		for hi < len(es) && es[hi].h == es[lo].h {
			hi++
		}
		// Each later triangle of the run is compared with the kept ones
		// (all copies of one triangle: one comparison each).
		var kept []tri
		for _, e := range es[lo:hi] {
			c := canon(ts[e.i])
			if slices.Contains(kept, c) {
				drop[e.i] = true
				n++
			} else {
				kept = append(kept, c)
			}
		}
		lo = hi
	}
	if n == 0 {
		return nil
	}
	out := make([]int32, 0, len(ts)-n)
	for i := range ts {
		if !drop[i] {
			out = append(out, int32(i))
		}
	}
	return out
}
