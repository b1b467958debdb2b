package decompose

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// sampler draws deterministic area-uniform samples on triangles.
type sampler struct {
	ts  []tri
	cum []float64 // cumulative areas
	rng *rand.Rand
}

func newSampler(ts []tri, seed uint64) *sampler {
	s := &sampler{ts: ts, cum: make([]float64, len(ts)), rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	var a float64
	for i, t := range ts {
		a += triArea(t)
		s.cum[i] = a
	}
	return s
}

func (s *sampler) area() float64 {
	if len(s.cum) == 0 {
		return 0
	}
	return s.cum[len(s.cum)-1]
}

// next returns a sample point and the index of its triangle.
func (s *sampler) next() (geom.Vec3, int) { return s.at(s.rng.Float64()) }

// at returns a random point of the triangle at fraction f of the total
// area (the triangles in order), and the index of that triangle.
func (s *sampler) at(f float64) (geom.Vec3, int) {
	total := s.area()
	var i int
	if total > 0 {
		x := f * total
		lo, hi := 0, len(s.cum)-1
		for lo < hi {
			m := (lo + hi) / 2
			if s.cum[m] > x {
				hi = m
			} else {
				lo = m + 1
			}
		}
		i = lo
	} else {
		i = s.rng.IntN(len(s.ts))
	}
	u, v := s.rng.Float64(), s.rng.Float64()
	if u+v > 1 {
		u, v = 1-u, 1-v
	}
	t := s.ts[i]
	return t[0].Add(t[1].Sub(t[0]).Scale(u)).Add(t[2].Sub(t[0]).Scale(v)), i
}

func triArea(t tri) float64 { return 0.5 * t[1].Sub(t[0]).Cross(t[2].Sub(t[0])).Len() }

func hullTris(h *hull.Hull) []tri {
	out := make([]tri, len(h.Triangles))
	for i, t := range h.Triangles {
		out[i] = tri{h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]}
	}
	return out
}

// coplanarTol: hull triangles whose planes differ by less than this (in
// normal components, and in offset relative to the hull's size) share one
// plane.
const coplanarTol = 1e-9

// facePlanes returns the distinct outward planes of a hull's triangles
// (skipping degenerate ones).
func facePlanes(h *hull.Hull) []plane {
	size := geom.BoundsOf(h.Vertices).Diagonal()
	out := make([]plane, 0, len(h.Triangles))
	for _, t := range h.Triangles {
		a, b, c := h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		l := n.Len()
		if l == 0 {
			continue
		}
		n = n.Scale(1 / l)
		q := plane{n, n.Dot(a)}
		dup := false
		for _, o := range out {
			if math.Abs(o.n[0]-q.n[0]) < coplanarTol && math.Abs(o.n[1]-q.n[1]) < coplanarTol &&
				math.Abs(o.n[2]-q.n[2]) < coplanarTol && math.Abs(o.d-q.d) < coplanarTol*size {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, q)
		}
	}
	return out
}

// depth is how far x lies inside the convex polytope given by its planes
// (negative outside).
func depth(planes []plane, x geom.Vec3) float64 {
	return depthAbove(planes, x, math.Inf(-1))
}

// depthAbove is depth, except that once the depth is known to be at most
// floor it returns early with some value ≤ floor.
func depthAbove(planes []plane, x geom.Vec3, floor float64) float64 {
	d := math.Inf(1)
	for _, p := range planes {
		if s := p.d - (p.n[0]*x[0] + p.n[1]*x[1] + p.n[2]*x[2]); s < d {
			d = s
			if d <= floor {
				return d
			}
		}
	}
	return d
}

// sampleBudget sets how many random samples a concavity estimate uses.
type sampleBudget struct {
	hull, mesh int
	// faces, if positive, limits the deterministic probes of a hull with
	// more triangles to its largest faces and longest edges.
	faces int
	// stop, if positive, ends the estimate once it reaches stop: the
	// value returned is then only known to be at least stop (a candidate
	// that cannot beat a known concavity need not be measured further).
	stop float64
}

// concavity estimates a part's concavity as the larger of two one-sided
// distances, the boundary Hausdorff term of CoACD:
//   - hull → part: from area-uniform samples on the hull's surface (and its
//     face centroids and edge midpoints) to the nearest triangle of the
//     part (BVH). Closed input (closed): a sample on one of the part's cut
//     planes is measured to the cross-section there instead, as if the cut
//     were capped (zero inside the section, else the distance to its
//     outline), and a sample looking into a hole (see overHole) counts as
//     zero: the part's only openings are its cuts, which CoACD caps. Open
//     input: also to the part's own cut faces (see ownCap, nearestCut);
//     no hole rule, as CoACD's remesh seals only narrow holes, and a hull
//     face over an opening is as far from the part as the opening is
//     wide.
//   - part → hull: from the part's corners and area-uniform samples on its
//     triangles to the hull's boundary (their depth inside the hull), which
//     catches cavities the hull's surface never comes near (the hole of a
//     torus half, the inside of a cup).
//
// near returns what distances to the part are measured with (its trees,
// or see part.scoutIndex), called at the first probe. It returns the
// estimate, the part sample found deepest inside the hull and the hull
// sample found farthest from the part.
func concavity(p *part, near func() distIndex, n sampleBudget, capTol float64, seed uint64, flip, closed bool, rims map[edgeKey]bool, seal float64) (worst float64, deep, far geom.Vec3) {
	h := p.hull
	planes := facePlanes(h)
	deep = p.tris[0][0]
	var farD float64
	// part → hull, over the faces not buried in the solid.
	outer := p.tris
	if p.inner != nil {
		outer = make([]tri, 0, len(p.tris))
		for i, t := range p.tris {
			if !p.inner[i] {
				outer = append(outer, t)
			}
		}
	}
	if len(outer) == len(p.tris) {
		// Each corner once (a corner seen again cannot go deeper), in the
		// order the triangles give them.
		for _, v := range p.points() {
			if d := depthAbove(planes, v, worst); d > worst {
				worst, deep = d, v
			}
		}
	} else {
		for _, t := range outer {
			for _, v := range t {
				if d := depthAbove(planes, v, worst); d > worst {
					worst, deep = d, v
				}
			}
		}
	}
	stopped := func() bool { return n.stop > 0 && worst >= n.stop }
	ms := newSampler(outer, seed)
	for i := 0; i < n.mesh && len(outer) > 0 && !stopped(); i++ {
		x, _ := ms.next()
		if d := depthAbove(planes, x, worst); d > worst {
			worst, deep = d, x
		}
	}
	// hull → part.
	ht := hullTris(h)
	hs := newSampler(ht, seed+1)
	var idx distIndex

	probe := func(x geom.Vec3, face int) {
		if stopped() {
			return
		}
		d := math.Inf(1)
		if closed {
			for _, c := range p.caps {
				if math.Abs(c.sec.pl.eval(x)) <= capTol {
					d = math.Min(d, c.sec.outside(x, c.side, math.Max(worst, farD)))
					if d <= worst || d <= farD {
						return
					}
				}
			}
		}
		if idx == nil {
			idx = near()
		}
		// Distances below worst cannot change the answer: stop early.
		d = math.Min(d, idx.dist(x, worst))
		if d > worst && !closed {
			d = math.Min(d, nearestCut(p.ownCuts(capTol, rims, seal), x, d, capTol))
		}
		if math.IsInf(d, 1) {
			// No triangle with area to measure against (a part made of
			// degenerate triangles, hulled from its thickened corners).
			d = 0
		}
		if d > worst && closed && overHole(p.index(), ht[face], x, flip) {
			d = 0
		}
		if d > worst {
			worst = d
		}
		if d > farD {
			farD, far = d, x
		}
	}
	if n.faces > 0 && len(ht) > n.faces {
		// A large hull (a scout of a big part has thousands of faces):
		// the centroids of its largest faces and the midpoints of its
		// longest edges, where a hull spans a concavity.
		probeLargest(ht, n.faces, probe)
	} else {
		for i, t := range ht {
			probe(t[0].Add(t[1]).Add(t[2]).Scale(1.0/3), i)
			// Edge midpoints, each edge once (its two triangles see it
			// in opposite directions): a hull edge spanning a concavity
			// is often where the hull is farthest from the part.
			for k := 0; k < 3; k++ {
				if a, b := t[k], t[(k+1)%3]; less(a, b) {
					probe(a.Add(b).Scale(0.5), i)
				}
			}
		}
	}
	for i := 0; i < n.hull && !stopped(); i++ {
		x, ti := hs.next()
		probe(x, ti)
	}
	return worst, deep, far
}

// probeLargest probes the centroids of the n largest triangles of ht and
// the midpoints of its 3n/2 longest edges (ties in index order).
func probeLargest(ht []tri, n int, probe func(x geom.Vec3, face int)) {
	type item struct {
		x    geom.Vec3
		face int
		seq  int
		size float64
	}
	var faces, edges []item
	for i, t := range ht {
		faces = append(faces, item{t[0].Add(t[1]).Add(t[2]).Scale(1.0 / 3), i, len(faces), triArea(t)})
		for k := 0; k < 3; k++ {
			if a, b := t[k], t[(k+1)%3]; less(a, b) {
				edges = append(edges, item{a.Add(b).Scale(0.5), i, len(edges), b.Sub(a).Len2()})
			}
		}
	}
	for _, l := range []struct {
		items []item
		n     int
	}{{faces, n}, {edges, 3 * n / 2}} {
		// Largest first, ties in index order (a total order, so an
		// unstable sort gives one answer).
		slices.SortFunc(l.items, func(a, b item) int {
			if c := cmp.Compare(b.size, a.size); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
		for _, it := range l.items[:min(len(l.items), l.n)] {
			probe(it.x, it.face)
		}
	}
}

// overHole reports whether the hull point x on face f looks into a hole of
// the part (for closed input, the opening of one of its cuts): the first
// triangle seen looking inward is seen from behind (from inside the
// solid). Over a real cavity (a cup's opening) it is seen from the front.
// flip swaps the sides for meshes wound inward.
func overHole(tree forest, f tri, x geom.Vec3, flip bool) bool {
	n := f[1].Sub(f[0]).Cross(f[2].Sub(f[0])).Normalize()
	_, back, ok := tree.firstHit(x, n.Scale(-1))
	return ok && back != flip
}

// ownCap is the cut face of a part of an open mesh on one of its cut
// planes: the region its own open edges lying in the plane bound. The
// cross-section a cap refers to is the whole parent's, and can hold the
// cut faces of sibling pieces that this part only touches at a corner.
type ownCap struct {
	section
	// shut: the edges bound a region of solid: every end of an edge is the
	// end of an even number of them (a cut through one of the mesh's holes
	// leaves open chains, whose inside is not defined) and the part has no
	// hole wider than the threshold (see wideHole). Else the cut is a
	// strip along the edges, the cut of a thin shell.
	shut bool
}

// ownCuts returns ownCaps(p, tol, rims, seal), building it on the first
// call and keeping it for the part's next estimates (tol, rims and seal
// are the run's). Not safe for concurrent use on one part, like index.
func (p *part) ownCuts(tol float64, rims map[edgeKey]bool, seal float64) []ownCap {
	if !p.ownBuilt {
		p.own, p.ownBuilt = ownCaps(p, tol, rims, seal), true
	}
	return p.own
}

// ownCaps returns p's cut faces, one per cap (no edges where the part has
// no open edge on the plane): its directed edges without their reverse in
// the part, lying within tol of a cap's plane, except the edges of rims,
// the input's own open edges (a hole whose rim lies in a cut plane is
// still a hole: a cut snapped to the rim of an open sphere must not cap
// it).
func ownCaps(p *part, tol float64, rims map[edgeKey]bool, seal float64) []ownCap {
	out := make([]ownCap, len(p.caps))
	if len(p.caps) == 0 {
		return out
	}
	// Corners welded by exact position to ids (the part's numbering, kept
	// with its points), and the directed edges as pairs of ids: hashing
	// two ids is far cheaper than two positions.
	ids := p.cornerIDs()
	has := newEdgeSet(3 * len(p.tris))
	for _, t := range ids {
		for k := 0; k < 3; k++ {
			has.add(uint64(t[k])<<32 | uint64(t[(k+1)%3]))
		}
	}
	var holes [][2]geom.Vec3
	deg := make([]map[[2]float64]int, len(p.caps))
	for i, c := range p.caps {
		out[i].pl, out[i].u, out[i].v = c.sec.pl, c.sec.u, c.sec.v
		deg[i] = map[[2]float64]int{}
	}
	for ti, t := range p.tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if has.has(uint64(ids[ti][(k+1)%3])<<32 | uint64(ids[ti][k])) {
				continue
			}
			onCut := false
			if !rims[edgeKey{a, b}] {
				for i := range out {
					c := &out[i]
					if math.Abs(c.pl.eval(a)) <= tol && math.Abs(c.pl.eval(b)) <= tol {
						sg := [2][2]float64{c.to2(a), c.to2(b)}
						c.segs[0] = append(c.segs[0], sg)
						deg[i][sg[0]]++
						deg[i][sg[1]]++
						onCut = true
						break
					}
				}
			}
			if !onCut {
				holes = append(holes, [2]geom.Vec3{a, b})
			}
		}
	}
	wide := wideHole(holes, seal)
	for i := range out {
		out[i].shut = !wide
		for _, n := range deg[i] {
			if n%2 != 0 {
				out[i].shut = false
				break
			}
		}
	}
	return out
}

// edgeSet is a set of directed edges given as two 32-bit corner ids, an
// open-addressing table (a Go map costs several times more here: ownCaps
// runs for every part estimated on open input).
type edgeSet struct {
	slots []uint64 // key+1; 0: empty
	mask  uint64
}

// newEdgeSet returns a set for up to n edges.
func newEdgeSet(n int) *edgeSet {
	size := 4
	for size < 2*n {
		size <<= 1
	}
	return &edgeSet{slots: make([]uint64, size), mask: uint64(size - 1)}
}

func edgeHash(k uint64) uint64 {
	k *= 0xff51afd7ed558ccd
	return k ^ k>>32
}

// add puts k in the set.
func (s *edgeSet) add(k uint64) {
	for h := edgeHash(k) & s.mask; ; h = (h + 1) & s.mask {
		switch s.slots[h] {
		case 0:
			s.slots[h] = k + 1
			return
		case k + 1:
			return
		}
	}
}

// has reports whether k is in the set.
func (s *edgeSet) has(k uint64) bool {
	for h := edgeHash(k) & s.mask; ; h = (h + 1) & s.mask {
		switch s.slots[h] {
		case 0:
			return false
		case k + 1:
			return true
		}
	}
}

// wideHole reports whether one of the holes (the part's open edges not on
// a cut, chained into rims by shared corners) spans more than seal (the
// concavity threshold) in its bounding box: the inside of such a part is
// open to the outside, a thin shell (CoACD's remesh seals only holes
// narrower than its voxels), so its cuts are strips, not faces; a part
// with only narrow holes is taken as solid.
func wideHole(holes [][2]geom.Vec3, seal float64) bool {
	if len(holes) == 0 {
		return false
	}
	id := map[geom.Vec3]int32{}
	for _, e := range holes {
		for _, v := range e {
			if _, ok := id[v]; !ok {
				id[v] = int32(len(id))
			}
		}
	}
	ds := newDisjointSets(len(id))
	for _, e := range holes {
		ds.union(id[e[0]], id[e[1]])
	}
	boxes := map[int32]geom.Box{}
	for v, i := range id {
		r := ds.find(i)
		b, ok := boxes[r]
		if !ok {
			b = geom.EmptyBox()
		}
		boxes[r] = b.Extend(v)
	}
	for _, b := range boxes {
		if b.Diagonal() > seal {
			return true
		}
	}
	return false
}

// nearestCut returns the distance from x to the nearest of the cut faces
// whose plane is nearer than d (else d): the hypotenuse of the distance to
// the plane and the in-plane distance to the face (zero inside a shut one,
// else the distance to its edges).
func nearestCut(cs []ownCap, x geom.Vec3, d, tol float64) float64 {
	for i := range cs {
		c := &cs[i]
		e := math.Abs(c.pl.eval(x))
		if len(c.segs[0]) == 0 || e >= d {
			continue
		}
		if e <= tol {
			e = 0
		}
		var in float64
		if c.shut {
			in = c.outside(x, 1, 0)
		} else {
			q := c.to2(x)
			in = math.Inf(1)
			for _, sg := range c.segs[0] {
				in = math.Min(in, segDist2D(q, sg[0], sg[1]))
			}
			in = math.Sqrt(in)
		}
		d = math.Min(d, math.Hypot(e, in))
	}
	return d
}

// openEdges returns the directed edges of ts without their reverse: the
// rims of an open mesh's holes.
func openEdges(ts []tri) map[edgeKey]bool {
	has := make(map[edgeKey]bool, 3*len(ts))
	for _, t := range ts {
		for i := 0; i < 3; i++ {
			has[edgeKey{t[i], t[(i+1)%3]}] = true
		}
	}
	out := map[edgeKey]bool{}
	for e := range has {
		if !has[edgeKey{e[1], e[0]}] {
			out[e] = true
		}
	}
	return out
}
