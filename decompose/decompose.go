package decompose

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Options controls Decompose. The zero value is usable.
type Options struct {
	// Concavity is the largest concavity a part may keep, as a fraction of
	// the input's bounding-box diagonal (0 = DefaultConcavity).
	Concavity float64
	// AbsConcavity, if positive, is a concavity in the input's units
	// (metres) below which a part is never split, whatever its relative
	// concavity: the effective threshold is max(Concavity·diagonal,
	// AbsConcavity).
	AbsConcavity float64
	// MaxHulls is a hard cap on the number of hulls returned, across all
	// connected pieces of the input (0 = DefaultMaxHulls): len(Hulls) <=
	// MaxHulls always, and MaxHulls = 1 gives the hull of everything.
	// Below it the decomposition is the one the threshold and the
	// tightening pass choose (searched with room for at least
	// DefaultMaxHulls parts); above it those parts are merged, the pair
	// whose union's hull adds the least gap between hulls and mesh first
	// (pieces far apart included). With a GapSlack, or none given, that
	// is one search, which every budget cuts. Given without a GapSlack it
	// is a target: the search is run at the threshold and at half of it,
	// each cut at MaxHulls, and the finer one is kept where it leaves less
	// gap between hulls and mesh and no more on the hulls' outer surface
	// (see DESIGN.md, Budget), for about twice the time.
	MaxHulls int
	// MaxHullVertices caps each hull's vertex count (0 = the hull
	// package's default, 255). A cap below that default is applied to the
	// hulls the search chose (a conservative reduction, see capFinal): the
	// search itself runs on hulls of up to 255 vertices, so a low cap
	// makes hulls rounder-cornered, never more numerous.
	MaxHullVertices int
	// Workers bounds the goroutines used (0 = GOMAXPROCS). The result does
	// not depend on it.
	Workers int
	// SearchTriangles (0 = DefaultSearchTriangles): an input with more
	// than twice this many triangles has its cuts searched on a proxy of
	// about this many (vertex clustering), then applied to its own
	// triangles. Smaller is faster and looser.
	SearchTriangles int
	// SkipRelax leaves the cuts where the search put them: no relax pass
	// (re-placing the cut between each pair of touching parts where their
	// hulls' total volume is least). The pass cuts every pair's union
	// tens of times, so it is costly on large open meshes (they keep more
	// parts) for little change in surface distance (figures in DESIGN.md);
	// bulk runs (the default profile) skip it. It is also left out
	// wherever the tightening pass runs (closed input without
	// SkipTighten), which cuts where the hulls' gap is instead.
	SkipRelax bool
	// SkipTighten leaves out the tightening pass (splitting parts under
	// the threshold where the hulls' distance to the mesh falls by more
	// than a price per added hull; see DESIGN.md). The pass only runs on
	// closed input (every edge with its twin), where each cut pays for
	// the faces it leaves inside the solid, and replaces the relax pass
	// there. It lowers the mean surface distance for more hulls and costs
	// a sub-search per stuck part (figures in DESIGN.md); bulk runs skip
	// it.
	SkipTighten bool
	// GapSlack, if positive, merges parts further below MaxHulls, the
	// least gap first, while the mean distance from the hulls' outer
	// surface (where no other hull covers it) to the mesh stays within
	// (1+GapSlack) times the unbudgeted decomposition's (see stopMerge):
	// a budget per mesh from what the merges cost, under the cap MaxHulls
	// sets.
	GapSlack float64
	// Progress, if set, is called from the calling goroutine after each
	// round of work with the number of parts finished and the number of
	// parts so far (the total can grow as parts are split).
	Progress func(done, total int)
}

// Defaults.
const (
	DefaultConcavity = 0.05
	DefaultMaxHulls  = 64
)

// Tolerances, as fractions of the input's bounding-box diagonal.
const (
	// planeTol: corners this close to a cutting plane count as on it, so
	// that cuts create no slivers thinner than this.
	planeTol = 1e-10
	// capTol: hull samples this close to a cut plane are measured against
	// the cross-section there.
	capTol = 1e-7
	// flatThickness: flat or line-like parts (open planar patches) are
	// thickened by this much on each side so they have a hull.
	flatThickness = 1e-5
)

// Search parameters.
const (
	// planesPerAxis is the number of evenly spaced cut positions tried per
	// axis, before refinement around the best.
	planesPerAxis = 5
	// refineRounds halves the spacing around the best plane this often.
	refineRounds = 3
	// stuckRatio: a part whose best single cut leaves a child with more
	// than this share of its concavity is stuck (no one plane opens a
	// ring or a closed frame) and its cut is chosen by looking ahead.
	stuckRatio = 0.75
	// lookaheadTop is how many of a stuck part's best single cuts are
	// looked ahead from.
	lookaheadTop = 8
	// lookaheadMin: only parts above this multiple of the threshold are
	// looked ahead from; nearer the threshold a peel is as good (chosen on
	// the acd meshes in four orientations each, see DESIGN.md).
	lookaheadMin = 1.2
	// lookaheadPlanes is the number of evenly spaced planes per axis tried
	// on each child when looking ahead.
	lookaheadPlanes = 3
	// maxComponents: a cut side with more connected pieces than this stays
	// one part (hundreds of loose triangles would otherwise each become a
	// part); the merge pass and further cuts deal with it.
	maxComponents = 32
)

var (
	scoutBudget = sampleBudget{hull: 100, mesh: 100, faces: 256}
	fullBudget  = sampleBudget{hull: 600, mesh: 400}
)

// Result is a decomposition. Measure scores it against the input.
type Result struct {
	Hulls []*hull.Hull
	// Notes says what was done to the input (dropped triangles, open or
	// multi-shell input, caps reached).
	Notes []string
}

// ErrNoGeometry is returned when the input has no usable triangle.
var ErrNoGeometry = errors.New("decompose: no triangles with finite corners")

// Decompose splits the triangle mesh into convex hulls whose union contains
// every vertex of every triangle (vertices no triangle uses are ignored).
// It returns ctx.Err() when cancelled, and an error for out-of-range
// indices, non-finite vertices or input without extent. See the package
// documentation.
func Decompose(ctx context.Context, vertices []geom.Vec3, triangles [][3]uint32, opt Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{}
	var ts []tri
	box := geom.EmptyBox()
	for i, t := range triangles {
		var c tri
		for k, vi := range t {
			if int(vi) >= len(vertices) {
				return nil, fmt.Errorf("decompose: triangle %d: vertex index %d out of range (%d vertices)", i, vi, len(vertices))
			}
			c[k] = vertices[vi]
			if !c[k].IsFinite() {
				return nil, fmt.Errorf("decompose: triangle %d: vertex %d is not finite", i, vi)
			}
			box = box.Extend(c[k])
		}
		ts = append(ts, c)
	}
	if len(ts) == 0 {
		return nil, ErrNoGeometry
	}
	diag := box.Diagonal()
	if diag == 0 {
		return nil, fmt.Errorf("decompose: all %d triangles collapse to one point", len(ts))
	}
	if kept := dedupe(ts); kept != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("dropped %d triangles repeating another's corners", len(ts)-len(kept)))
		uts, utri := make([]tri, len(kept)), make([][3]uint32, len(kept))
		for i, k := range kept {
			uts[i], utri[i] = ts[k], triangles[k]
		}
		ts, triangles = uts, utri
	}
	d := newDecomposer(ctx, opt, diag)
	if d.maxH == 1 {
		// One hull of everything: what merging any decomposition down to
		// one part gives, without the search.
		h, err := buildHull((&part{tris: ts}).points(), d.capV, flatThickness*d.diag)
		if err != nil {
			return nil, err
		}
		res.Notes = append(res.Notes, "MaxHulls=1: the hull of the whole input")
		res.Hulls = []*hull.Hull{h}
		return res, nil
	}
	var vol float64
	o := box.Center()
	for _, t := range ts {
		vol += t[0].Sub(o).Dot(t[1].Sub(o).Cross(t[2].Sub(o)))
	}
	if vol < 0 {
		d.flip = true
		res.Notes = append(res.Notes, "the input is wound inward (negative volume); holes are judged with its normals flipped")
	}
	// search is what the cuts are searched on: the input, or for a large
	// input a proxy (see Options.SearchTriangles and replay).
	search := ts
	if target := d.searchTris; len(ts) > proxyRatio*target {
		px, err := clusterProxy(ctx, ts, box, target)
		if err != nil {
			return nil, err
		}
		if len(px) > 0 {
			search = px
			res.Notes = append(res.Notes, fmt.Sprintf("searched the cuts on a proxy of %d triangles (vertex clustering) and applied them to the %d input triangles", len(px), len(ts)))
		}
	}
	d.closed = isClosed(search)
	if !d.closed {
		// Estimates run on the search mesh, so its own open edges are
		// the rims.
		d.rims = openEdges(search)
	}
	d.solid = newBVH(search)
	d.shells = newShellIndex(search, d.solid)
	inner, err := classifyInner(ctx, d.solid, search, d.diag)
	if err != nil {
		return nil, err
	}
	if inner != nil {
		n := 0
		for _, b := range inner {
			if b {
				n++
			}
		}
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d triangles lie inside the solid (interpenetrating shells); they are hulled but not counted as concavity", n, len(search)))
	}
	if _, n := componentLabels(ts); n > 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("input has %d connected pieces (corners welded by exact position)", n))
	}
	res.Notes = append(res.Notes, "cut the input triangles by planes and hulled each piece's corners and cut points; no remeshing, open or self-intersecting input is used as is")
	parts, err := d.run(search, inner, res)
	if err != nil {
		return nil, err
	}
	if len(search) != len(ts) {
		if parts, err = d.replay(ts, parts); err != nil {
			return nil, err
		}
	}
	if err := d.capFinal(parts, res); err != nil {
		return nil, err
	}
	if kept := dropContained(parts, d.diag); len(kept) < len(parts) {
		res.Notes = append(res.Notes, fmt.Sprintf("dropped %d hulls lying inside another hull", len(parts)-len(kept)))
		parts = kept
	}
	d.progress(parts)
	for _, p := range parts {
		res.Hulls = append(res.Hulls, p.hull)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

type decomposer struct {
	ctx  context.Context
	opt  Options
	diag float64
	thr  float64
	// maxV caps the hulls of the search's parts: Options.MaxHullVertices,
	// or hull.DefaultMaxVertices when that is lower; capV is the cap on
	// the hulls returned (see capFinal).
	maxV, capV int
	maxH       int
	// room caps the parts of the search and the tightening pass: at
	// least DefaultMaxHulls, so that every MaxHulls below it cuts the same
	// search (see fitBudget).
	room    int
	workers int
	// searchTris is Options.SearchTriangles or its default.
	searchTris int
	// flip: the input is wound inward (negative signed volume).
	flip bool
	// closed: every input edge has a twin of opposite direction, so part
	// volumes mean something.
	closed bool
	// solid indexes the whole input, to tell what is inside the solid.
	solid *bvh
	// shells labels solid's triangles by shell (nil for one shell).
	shells *shellIndex
	// rims: the open input's own open edges (see ownCaps).
	rims map[edgeKey]bool
}

func newDecomposer(ctx context.Context, opt Options, diag float64) *decomposer {
	d := &decomposer{ctx: ctx, opt: opt, diag: diag, maxV: opt.MaxHullVertices, maxH: opt.MaxHulls, workers: opt.Workers}
	rel := opt.Concavity
	if rel <= 0 {
		rel = DefaultConcavity
	}
	d.thr = math.Max(rel*diag, opt.AbsConcavity)
	if d.maxV <= 0 {
		d.maxV = hull.DefaultMaxVertices
	}
	d.capV = d.maxV
	d.maxV = max(d.maxV, hull.DefaultMaxVertices)
	if d.maxH <= 0 {
		d.maxH = DefaultMaxHulls
	}
	d.room = max(d.maxH, DefaultMaxHulls)
	if d.workers <= 0 {
		d.workers = runtime.GOMAXPROCS(0)
	}
	d.searchTris = opt.SearchTriangles
	if d.searchTris <= 0 {
		d.searchTris = DefaultSearchTriangles
	}
	return d
}

// parallel runs f(0..n-1) on at most d.workers goroutines. Results must be
// written to per-index slots, which keeps the outcome independent of
// scheduling.
func (d *decomposer) parallel(n int, f func(i int)) error {
	w := min(d.workers, n)
	if w <= 1 {
		for i := 0; i < n; i++ {
			if err := d.ctx.Err(); err != nil {
				return err
			}
			f(i)
		}
		return d.ctx.Err()
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		if err = d.ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err == nil {
		err = d.ctx.Err()
	}
	return err
}

func (d *decomposer) progress(parts []*part) {
	if d.opt.Progress == nil {
		return
	}
	done := 0
	for _, p := range parts {
		if !d.needsSplit(p) {
			done++
		}
	}
	d.opt.Progress(done, len(parts))
}

// needsSplit reports whether a part is above the concavity threshold.
// A hull over the vertex cap is no reason to split: the cap reduces the
// hull conservatively (hull.Build), and splitting on it multiplied the
// colliders a cap was meant to make cheaper (WaterBottle went from 1 hull
// to 8 at 32 vertices; tools/sim-bench/RESULTS.md).
func (d *decomposer) needsSplit(p *part) bool {
	return p.conc > d.thr
}

// finish builds a part's hull and concavity estimate. maxV caps the hull's
// vertices; candidates are hulled without a cap (negative maxV) and capped
// by capHull only when chosen: most candidates are thrown away, and the
// hull package's vertex reduction costs far more than the hull itself.
func (d *decomposer) finish(p *part, b sampleBudget, maxV int) error {
	if err := d.shape(p, maxV); err != nil {
		return err
	}
	d.estimate(p, b)
	return nil
}

// shape sets a part's box and builds its hull (see finish).
func (d *decomposer) shape(p *part, maxV int) error {
	p.box = trisBox(p.tris)
	// splitSide may have built the uncapped hull already.
	switch {
	case maxV >= 0:
		h, err := buildHull(p.points(), maxV, flatThickness*d.diag)
		if err != nil {
			return err
		}
		p.hull, p.checked = h, true
	case p.hull == nil:
		h, err := scoutHull(p.points(), flatThickness*d.diag)
		if err != nil {
			return err
		}
		p.hull = h
	}
	return nil
}

// estimate sets a part's concavity: the sampled boundary distance (see
// concavity) and, for closed input, CoACD's volume term
// volumeWeight·∛(V_hull − V_part), which sees a hull spanning a wide gap
// that no sample happened to probe deeply.
func (d *decomposer) estimate(p *part, b sampleBudget) {
	d.estimateWith(p, b, func() distIndex { return p.index() })
}

// scoutEstimate is estimate for a candidate cut's child, measuring
// distances with p.scoutIndex on open input: its far point is not to be
// used. On closed input the estimate needs p's trees anyway (overHole),
// so they are used from the start.
func (d *decomposer) scoutEstimate(p *part, b sampleBudget) {
	if d.closed {
		d.estimate(p, b)
		return
	}
	d.estimateWith(p, b, p.scoutIndex)
}

// estimateWith is estimate measuring distances with near (see concavity).
func (d *decomposer) estimateWith(p *part, b sampleBudget, near func() distIndex) {
	p.conc, p.deep, p.far = concavity(p, near, b, capTol*d.diag, 1, d.flip, d.closed, d.rims, d.thr)
	if d.closed {
		if dv := p.hull.Volume() - partVolume(p, capTol*d.diag); dv > 0 {
			p.conc = math.Max(p.conc, volumeWeight*math.Cbrt(dv))
		}
	}
}

// runAt is run at d's own threshold.
func (d *decomposer) runAt(ts []tri, inner []bool, res *Result) ([]*part, error) {
	parts, err := d.search(ts, inner, res)
	if err != nil {
		return nil, err
	}
	if d.tightens() {
		if parts, err = d.tighten(parts, d.solid); err != nil {
			return nil, err
		}
	}
	var ref float64
	if d.opt.GapSlack > 0 {
		if ref, err = d.outerGap(parts, d.solid); err != nil {
			return nil, err
		}
	}
	if parts, err = d.fitBudget(parts, d.solid, res); err != nil {
		return nil, err
	}
	return d.stopMerge(parts, d.solid, ref, res)
}

// tightens reports whether the tightening pass runs: unless SkipTighten, on
// closed input only. On open input a piece of an open shell is hulled
// without caps, so a cut costs no interior face and the gap integral falls
// with every cut, leaving the price per hull as the only brake (WaterBottle
// went 17 -> 62 hulls, the milk truck's body 19 -> 46, a subdivided open
// cup to the 64 cap). The pass needs the caps a closed input's cuts pay for
// to stop where it should.
func (d *decomposer) tightens() bool {
	return !d.opt.SkipTighten && d.closed
}

// search splits the input (whose buried triangles inner marks) while parts
// are above the threshold, then merges and relaxes.
func (d *decomposer) search(ts []tri, inner []bool, res *Result) ([]*part, error) {
	parts := d.splitSide(soup{t: ts, in: inner}, nil)
	(&sideGroup{kids: parts}).setGroup()
	if err := d.finishAll(parts, fullBudget); err != nil {
		return nil, err
	}
	d.progress(parts)
	parts, err := d.splitLoop(parts, res)
	if err != nil {
		return nil, err
	}
	if d.closed {
		if err := d.fillPockets(parts); err != nil {
			return nil, err
		}
	}
	if parts, err = d.merge(parts); err != nil {
		return nil, err
	}
	// Where the tightening pass follows, the relax pass is left out: both
	// work on the hulls' excess over the mesh (relax moves a cut between
	// two touching parts to the place of least hull volume, the pass cuts
	// where the hulls' gap is), and relax cost the closed meshes much of
	// their CPU for hulls the pass then cuts again (see DESIGN.md).
	if d.opt.SkipRelax || d.tightens() {
		return parts, nil
	}
	return d.relax(parts)
}

// splitLoop splits the parts above the threshold, most concave first, round
// after round, until none is left above it or MaxHulls is reached.
func (d *decomposer) splitLoop(parts []*part, res *Result) ([]*part, error) {
	for {
		var todo []int
		for i, p := range parts {
			if d.needsSplit(p) && !p.unsplittable {
				todo = append(todo, i)
			}
		}
		if len(todo) == 0 {
			break
		}
		sort.SliceStable(todo, func(a, b int) bool { return parts[todo[a]].conc > parts[todo[b]].conc })
		budget := d.room - len(parts)
		if budget <= 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("stopped splitting at %d parts with parts above the concavity threshold", d.room))
			break
		}
		if len(todo) > budget {
			todo = todo[:budget]
		}
		children, err := d.splitParts(parts, todo)
		if err != nil {
			return nil, err
		}
		parts = replaceSplit(parts, todo, children)
		d.progress(parts)
	}
	return parts, nil
}

func (d *decomposer) finishAll(parts []*part, b sampleBudget) error {
	errs := make([]error, len(parts))
	if err := d.parallel(len(parts), func(i int) { errs[i] = d.finish(parts[i], b, d.maxV) }); err != nil {
		return err
	}
	return errors.Join(errs...)
}
