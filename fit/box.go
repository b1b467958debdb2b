package fit

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Local-search parameters shared by the box and axis refinements.
const (
	// refineStart is the first rotation step of a pattern search (radians).
	refineStart = 0.05
	// refineStop is the step at which a pattern search stops (radians).
	refineStop = 1e-5
	// refineGain is the relative decrease a trial must bring to be taken.
	refineGain = 1e-9
	// refineIterations caps the rounds of one pattern search.
	refineIterations = 200
	// fineCore is how many times more directions than the search set's the
	// polishing core of a big hull samples.
	fineCore = 4
	// boxSeeds is how many of the best face-flush boxes are refined.
	boxSeeds = 2
)

// aabb is the axis-aligned box of every point, inflated by tol.
func (in *Input) aabb(tol float64) Shape {
	return Shape{
		Kind:     KindAABB,
		Center:   in.bounds.Center(),
		Rotation: geom.IdentityQuat(),
		Size:     in.bounds.Size().Add(geom.Vec3{2 * tol, 2 * tol, 2 * tol}),
	}
}

// box fits the minimum-volume oriented box.
func (in *Input) box(opt Options, tol float64) Shape {
	return in.finishBox(in.boxFrame(opt), tol)
}

// boxFrame finds the orientation of the smallest box (columns = box axes).
func (in *Input) boxFrame(opt Options) geom.Mat3 {
	m := in.memoFor(opt)
	in.mu.Lock()
	if m.hasFrame {
		defer in.mu.Unlock()
		return m.box
	}
	in.mu.Unlock()
	r := in.computeBoxFrame(opt)
	in.mu.Lock()
	m.box, m.hasFrame = r, true
	in.mu.Unlock()
	return r
}

func (in *Input) computeBoxFrame(opt Options) geom.Mat3 {
	switch in.dim {
	case 1:
		return axisFrame(in.pca.Col(0))
	case 2:
		n := in.pca.Col(2)
		r, _ := faceFlushBox(in.support, n, heightAlong(in.support, n))
		return r
	}
	s := in.searchSet(opt)
	type cand = frameCand
	var cands []cand
	if p := in.memoFor(opt).poly; p != nil {
		if len(s) == len(in.support) {
			cands = p.arcSweep()
		} else {
			for _, n := range p.normals {
				r, v := p.boxFor(n)
				cands = append(cands, cand{r, v})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].v < cands[j].v })
	if len(cands) > boxSeeds {
		cands = cands[:boxSeeds]
	}
	cands = append(cands, cand{in.pca, boxVolume(s, in.pca)})
	for i := range cands {
		cands[i].r, cands[i].v = refineBox(s, cands[i].r, cands[i].v)
	}
	if len(s) < len(in.support) {
		// Polish the best frame on a core set fineCore times denser.
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].v < cands[j].v })
		fine := in.core(fineCore * opt.coreDirections())
		r, v := refineBox(fine, cands[0].r, boxVolume(fine, cands[0].r))
		cands = append(cands, cand{r, v})
	}
	// Judge the refined frames, PCA and the axes on every support point,
	// so the result is never worse than the PCA or axis-aligned box.
	cands = append(cands, cand{r: in.pca}, cand{r: geom.Identity3()})
	best, bestV := geom.Identity3(), math.Inf(1)
	for _, c := range cands {
		if v := boxVolume(in.support, c.r); v < bestV {
			best, bestV = c.r, v
		}
	}
	return best
}

// frameCand is a candidate box frame and its volume on the search set.
type frameCand struct {
	r geom.Mat3
	v float64
}

// finishBox measures every input point in the frame r (as its quaternion
// will be read back) and inflates the extents by tol.
func (in *Input) finishBox(r geom.Mat3, tol float64) Shape {
	q := geom.QuatFromMat3(r)
	m := q.Mat3()
	lo, hi := extents(in.points, m, in.origin)
	mid := lo.Add(hi).Scale(0.5)
	return Shape{
		Kind:     KindBox,
		Center:   in.origin.Add(m.MulVec(mid)),
		Rotation: q,
		Size:     hi.Sub(lo).Add(geom.Vec3{2 * tol, 2 * tol, 2 * tol}),
	}
}

// extents returns the smallest and largest coordinates of pts−origin along
// the columns of r.
func extents(pts []geom.Vec3, r geom.Mat3, origin geom.Vec3) (lo, hi geom.Vec3) {
	c0, c1, c2 := r.Col(0), r.Col(1), r.Col(2)
	lo = geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = geom.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		d := p.Sub(origin)
		x, y, z := d.Dot(c0), d.Dot(c1), d.Dot(c2)
		if x < lo[0] {
			lo[0] = x
		}
		if x > hi[0] {
			hi[0] = x
		}
		if y < lo[1] {
			lo[1] = y
		}
		if y > hi[1] {
			hi[1] = y
		}
		if z < lo[2] {
			lo[2] = z
		}
		if z > hi[2] {
			hi[2] = z
		}
	}
	return lo, hi
}

// boxVolume is the volume of the box of pts with axes the columns of r.
func boxVolume(pts []geom.Vec3, r geom.Mat3) float64 {
	lo, hi := extents(pts, r, geom.Vec3{})
	s := hi.Sub(lo)
	return s[0] * s[1] * s[2]
}

// polytope is the convex hull of a search set with, per vertex, the
// normals of its incident faces: enough to find the silhouette of the hull
// seen along a direction without sorting every vertex.
type polytope struct {
	pts     []geom.Vec3
	normals []geom.Vec3 // distinct outward face normals, sorted
	vnorm   [][]int32   // per vertex: indices into normals of its faces
	arcs    []arc       // normal cones of the edges between distinct faces
}

// arc is the normal cone of a hull edge: the great-circle arc from n0,
// turning about ax by up to ang radians, to the other face's normal. Every
// plane through the edge that supports the hull has its normal on it.
type arc struct {
	n0, ax geom.Vec3
	ang    float64
	i, j   int32 // indices of the end normals
}

func (a arc) at(th float64) geom.Vec3 { return rotAbout(a.ax, th).MulVec(a.n0).Normalize() }

// newPolytope builds the hull of pts (nil if it cannot be built).
func newPolytope(pts []geom.Vec3) *polytope {
	h, err := hull.Build(pts, uncapped)
	if err != nil {
		return nil
	}
	type face struct {
		n geom.Vec3
		t int
	}
	var fs []face
	for i, t := range h.Triangles {
		a, b, c := h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if l := n.Len(); l > 0 {
			fs = append(fs, face{n.Scale(1 / l), i})
		}
	}
	sort.Slice(fs, func(i, j int) bool {
		for k := 0; k < 3; k++ {
			if fs[i].n[k] != fs[j].n[k] {
				return fs[i].n[k] < fs[j].n[k]
			}
		}
		return fs[i].t < fs[j].t
	})
	p := &polytope{pts: h.Vertices, vnorm: make([][]int32, len(h.Vertices))}
	tnorm := make([]int32, len(h.Triangles))
	for i := range tnorm {
		tnorm[i] = -1
	}
	for _, f := range fs {
		if len(p.normals) == 0 || f.n.Sub(p.normals[len(p.normals)-1]).Len2() > 1e-20 {
			p.normals = append(p.normals, f.n)
		}
		k := int32(len(p.normals) - 1)
		tnorm[f.t] = k
		for _, v := range h.Triangles[f.t] {
			if l := p.vnorm[v]; len(l) == 0 || l[len(l)-1] != k {
				p.vnorm[v] = append(l, k)
			}
		}
	}
	p.arcs = edgeArcs(h.Triangles, tnorm, p.normals)
	return p
}

// edgeArcs returns the distinct arcs of the edges whose two triangles have
// different normals, in a deterministic order.
func edgeArcs(tris [][3]uint32, tnorm []int32, normals []geom.Vec3) []arc {
	type half struct {
		a, b uint32
		n    int32
	}
	var hs []half
	for i, t := range tris {
		if tnorm[i] < 0 {
			continue
		}
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			hs = append(hs, half{a, b, tnorm[i]})
		}
	}
	slices.SortFunc(hs, func(x, y half) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		if c := cmp.Compare(x.b, y.b); c != 0 {
			return c
		}
		return cmp.Compare(x.n, y.n)
	})
	type pair struct{ i, j int32 }
	var ps []pair
	for k := 0; k+1 < len(hs); k++ {
		x, y := hs[k], hs[k+1]
		if x.a == y.a && x.b == y.b && x.n != y.n {
			ps = append(ps, pair{x.n, y.n})
		}
	}
	slices.SortFunc(ps, func(x, y pair) int {
		if c := cmp.Compare(x.i, y.i); c != 0 {
			return c
		}
		return cmp.Compare(x.j, y.j)
	})
	ps = slices.Compact(ps)
	arcs := make([]arc, 0, len(ps))
	for _, q := range ps {
		n0, n1 := normals[q.i], normals[q.j]
		ax := n0.Cross(n1)
		if l := ax.Len(); l > 1e-12 {
			arcs = append(arcs, arc{n0, ax.Scale(1 / l), math.Acos(math.Max(-1, math.Min(1, n0.Dot(n1)))), q.i, q.j})
		}
	}
	return arcs
}

// boxFor is the smallest box with the unit vector n as an axis.
func (p *polytope) boxFor(n geom.Vec3) (geom.Mat3, float64) {
	return faceFlushBox(p.silhouette(n), n, heightAlong(p.pts, n))
}

// Arc-sweep parameters.
const (
	// arcStep is the largest angle between two samples of an edge arc.
	arcStep = 0.2
	// arcRefined is how many arcs, best sample first, get a golden-section
	// search around their best sample.
	arcRefined = 8
	// arcGolden is the number of golden-section steps on one arc.
	arcGolden = 20
)

// arcSweep returns candidate frames for the minimum box. By O'Rourke's
// theorem a face of an optimal box contains a hull edge, so that face's
// normal lies on the edge's arc; for a fixed normal the best box is exact
// (calipers). The sweep samples every arc (endpoints, i.e. every face
// normal, included) at most arcStep apart, then refines the best arcs by
// golden-section search around their best sample.
func (p *polytope) arcSweep() []frameCand {
	type sample struct {
		arc   int
		th, h float64
		c     frameCand
	}
	faces := make([]frameCand, len(p.normals)) // arc ends: each face once
	for i, n := range p.normals {
		faces[i].r, faces[i].v = p.boxFor(n)
	}
	var all []sample
	for ai, a := range p.arcs {
		k := max(1, int(math.Ceil(a.ang/arcStep)))
		h := a.ang / float64(k)
		all = append(all, sample{ai, 0, h, faces[a.i]}, sample{ai, a.ang, h, faces[a.j]})
		for i := 1; i < k; i++ {
			th := float64(i) * h
			r, v := p.boxFor(a.at(th))
			all = append(all, sample{ai, th, h, frameCand{r, v}})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].c.v < all[j].c.v })
	used := make([]bool, len(p.arcs))
	var out []frameCand
	for _, s := range all {
		if len(out) == arcRefined {
			break
		}
		if used[s.arc] {
			continue
		}
		used[s.arc] = true
		a := p.arcs[s.arc]
		best := s.c
		x0, x1 := math.Max(0, s.th-s.h), math.Min(a.ang, s.th+s.h)
		g := (math.Sqrt(5) - 1) / 2
		xa, xb := x1-g*(x1-x0), x0+g*(x1-x0)
		ra, va := p.boxFor(a.at(xa))
		rb, vb := p.boxFor(a.at(xb))
		for k := 0; k < arcGolden; k++ {
			if va < best.v {
				best = frameCand{ra, va}
			}
			if vb < best.v {
				best = frameCand{rb, vb}
			}
			if va < vb {
				x1, xb, rb, vb = xb, xa, ra, va
				xa = x1 - g*(x1-x0)
				ra, va = p.boxFor(a.at(xa))
			} else {
				x0, xa, ra, va = xa, xb, rb, vb
				xb = x0 + g*(x1-x0)
				rb, vb = p.boxFor(a.at(xb))
			}
		}
		out = append(out, best)
	}
	return out
}

// silhouette returns the vertices that can project onto the outline of the
// hull seen along n: those with an incident face turned towards n and one
// turned away (faces edge-on count as both).
func (p *polytope) silhouette(n geom.Vec3) []geom.Vec3 {
	const edgeOn = 1e-12
	var out []geom.Vec3
	for v, fs := range p.vnorm {
		front, back := false, false
		for _, f := range fs {
			d := p.normals[f].Dot(n)
			front = front || d >= -edgeOn
			back = back || d <= edgeOn
		}
		if front && back {
			out = append(out, p.pts[v])
		}
	}
	if len(out) < 3 {
		return p.pts
	}
	return out
}

// faceFlushBox returns the smallest box with one face normal to the unit
// vector n, by the rotating-calipers minimum-area rectangle of the points'
// projection (Freeman–Shapira: one rectangle side is flush with a hull
// edge); height is the points' extent along n.
func faceFlushBox(pts []geom.Vec3, n geom.Vec3, height float64) (geom.Mat3, float64) {
	a, b := orthoFrame(n)
	q := make([]vec2, len(pts))
	for i, p := range pts {
		q[i] = project(p, a, b)
	}
	e, area := minAreaRect(q, hull2D(q))
	x := a.Scale(e[0]).Add(b.Scale(e[1]))
	y := a.Scale(-e[1]).Add(b.Scale(e[0]))
	return geom.FromCols(x, y, n), area * height
}

// heightAlong is the extent of pts along the unit vector n.
func heightAlong(pts []geom.Vec3, n geom.Vec3) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		h := p.Dot(n)
		if h < lo {
			lo = h
		}
		if h > hi {
			hi = h
		}
	}
	return hi - lo
}

// minAreaRect returns the unit direction of one side of the smallest
// rectangle enclosing the convex polygon q[poly] (counter-clockwise) and its
// area, with rotating calipers in linear time.
func minAreaRect(q []vec2, poly []int) (vec2, float64) {
	h := len(poly)
	if h < 3 {
		if h == 2 {
			d := q[poly[1]].sub(q[poly[0]])
			return d.scale(1 / math.Sqrt(d.len2())), 0
		}
		return vec2{1, 0}, 0
	}
	p := make([]vec2, h)
	for i, k := range poly {
		p[i] = q[k]
	}
	best, bestE := math.Inf(1), vec2{1, 0}
	j, k, l := 0, 0, 0
	for i := 0; i < h; i++ {
		e := p[(i+1)%h].sub(p[i])
		ln := math.Sqrt(e.len2())
		if ln == 0 {
			continue
		}
		e = e.scale(1 / ln)
		nrm := vec2{-e[1], e[0]} // inward for a counter-clockwise polygon
		if i == 0 {
			for m := range p {
				if p[m].dot(e) > p[j].dot(e) {
					j = m
				}
				if p[m].dot(nrm) > p[k].dot(nrm) {
					k = m
				}
				if p[m].dot(e) < p[l].dot(e) {
					l = m
				}
			}
		}
		for c := 0; c < h && p[(j+1)%h].dot(e) > p[j].dot(e); c++ {
			j = (j + 1) % h
		}
		for c := 0; c < h && p[(k+1)%h].dot(nrm) > p[k].dot(nrm); c++ {
			k = (k + 1) % h
		}
		for c := 0; c < h && p[(l+1)%h].dot(e) < p[l].dot(e); c++ {
			l = (l + 1) % h
		}
		area := (p[j].dot(e) - p[l].dot(e)) * (p[k].dot(nrm) - p[i].dot(nrm))
		if area < best {
			best, bestE = area, e
		}
	}
	return bestE, best
}

// refineBox improves the frame r by pattern search on SO(3): it tries small
// rotations about the box axes and their diagonals, keeps any that shrink
// the box, and halves the step when none does.
func refineBox(pts []geom.Vec3, r geom.Mat3, v float64) (geom.Mat3, float64) {
	for step, it := refineStart, 0; step > refineStop && it < refineIterations; it++ {
		improved := false
	trials:
		for _, ax := range trialAxes(r) {
			for _, sgn := range [2]float64{1, -1} {
				r2 := orthonormalize(rotAbout(ax, sgn*step).Mul(r))
				if v2 := boxVolume(pts, r2); v2 < v*(1-refineGain) {
					// First improvement: the trial axes follow the new frame.
					r, v, improved = r2, v2, true
					break trials
				}
			}
		}
		if !improved {
			step /= 2
		}
	}
	return r, v
}

// trialAxes are the rotation axes of a pattern search around frame r: its
// three columns and the six face diagonals between them.
func trialAxes(r geom.Mat3) [9]geom.Vec3 {
	c := [3]geom.Vec3{r.Col(0), r.Col(1), r.Col(2)}
	s := 1 / math.Sqrt2
	return [9]geom.Vec3{
		c[0], c[1], c[2],
		c[0].Add(c[1]).Scale(s), c[0].Sub(c[1]).Scale(s),
		c[1].Add(c[2]).Scale(s), c[1].Sub(c[2]).Scale(s),
		c[0].Add(c[2]).Scale(s), c[0].Sub(c[2]).Scale(s),
	}
}
