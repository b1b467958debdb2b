package decompose

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// plane is the set n·x = d; n is a unit vector.
type plane struct {
	n geom.Vec3
	d float64
}

func (p plane) eval(x geom.Vec3) float64 { return p.n.Dot(x) - p.d }

// section is the cross-section of a part by a cutting plane, kept so that a
// hull sample lying on the cut can be tested against the solid's slice
// (CoACD closes cuts with a cap; we only remember its outline).
type section struct {
	pl   plane
	u, v geom.Vec3 // in-plane basis with u×v = pl.n
	// segs[0] and segs[1] are the outlines seen from the positive and the
	// negative side, in (u,v) coordinates, oriented so that the solid is on
	// their left for consistently wound input. They differ only by the
	// triangle edges lying in the plane, which belong to the side of their
	// triangle (a cut through a row of vertices has no crossing triangles).
	segs [2][][2][2]float64
}

// capRef says that a part lies on one side of a section's plane.
type capRef struct {
	sec  *section
	side int8 // +1: n·x ≥ d
}

// part is one piece of the decomposition: a triangle soup, the cuts that
// bound it, its hull and its concavity estimate.
type part struct {
	tris []tri
	// inner[i] marks tris[i] as lying inside the solid (a face of one
	// shell buried in another); nil means none is.
	inner []bool
	caps  []capRef
	hull  *hull.Hull
	// checked: hull is known to hold every corner of tris (see scoutHull).
	checked bool
	// from, if set, holds the points hull was built from instead of the
	// corners of tris: a merged pair's two hulls' vertices, which hold its
	// corners.
	from []geom.Vec3
	// conc is the concavity estimate; deep is the part sample deepest
	// inside the hull (a good place to cut next).
	conc float64
	deep geom.Vec3
	// far is the hull sample found farthest from the part.
	far geom.Vec3
	box geom.Box
	// unsplittable is set when no plane separated the part.
	unsplittable bool
	// origin records how the search made the part (see replay).
	origin origin
	// pocket holds the points pocket filling added to the hull.
	pocket []geom.Vec3
	// corners caches points, and ids the number in corners of each
	// triangle's corners.
	corners []geom.Vec3
	ids     [][3]uint32
	// trees index tris for the concavity estimate: built on first use and
	// kept for the next estimate of the same part, or for a merged pair
	// its two parts' trees.
	trees forest
	// own holds the part's own cut faces for the estimate on open input
	// (see ownCuts): built on first use, like trees.
	own      []ownCap
	ownBuilt bool
	// src, for a side of a cut as splitSide returns it: the index in the
	// cut part's tris of the triangle each of tris was cut from.
	src []int32
	// base and slot, for a candidate cut's child until it has trees: a
	// tree over the triangles of the part it was cut from (or of that
	// part's own base), and the position in base.tris of the triangle
	// each of tris was cut from; view is built from them on first use
	// (see scoutIndex).
	base *bvh
	slot []int32
	view *bvhView
}

// index returns p.trees, building them first if need be. Not safe for
// concurrent use on one part.
func (p *part) index() forest {
	if p.trees == nil {
		p.trees = forest{newBVH(p.tris)}
		p.base, p.slot, p.view = nil, nil, nil
	}
	return p.trees
}

// distIndex answers nearest-distance queries (see bvh.dist).
type distIndex interface {
	dist(x geom.Vec3, stop float64) float64
}

// viewMin: a candidate's child with fewer than this share of its base
// tree's triangles builds its own tree (cheaper than a pass over the base's).
const viewMin = 1.0 / 8

// scoutIndex returns what a scout estimate of p (a candidate cut's child)
// measures distances with: p's trees if built, else a view of its base
// tree refitted to its triangles (see bvhView), kept for its next scout
// estimates. The distances are the same; only a query stopped early (a
// distance below the estimate so far, which cannot change it) may return
// another value below it, and with it another farthest hull sample
// (part.far). That is why only scout estimates use it: their far points
// are not used (a child kept is estimated again in full, on its own trees,
// before it is cut). Not safe for concurrent use on one part.
func (p *part) scoutIndex() distIndex {
	if p.trees != nil || p.base == nil || float64(len(p.tris)) < viewMin*float64(len(p.base.tris)) {
		return p.index()
	}
	if p.view == nil {
		p.view = p.base.view(p.tris, p.slot)
	}
	return p.view
}

// cutBase returns the tree the children of a cut of p are indexed on and,
// per triangle of p, its position in that tree's triangles: p's own tree
// (built if need be) or p's base.
func (p *part) cutBase() (*bvh, []int32) {
	if p.trees == nil && p.base != nil {
		return p.base, p.slot
	}
	if len(p.index()) != 1 {
		return nil, nil // a merged pair's trees: not cut in the search
	}
	return p.trees[0], p.trees[0].slot
}

// setBase gives each of kids, sides of cuts of a part whose cutBase is
// (base, slot), its base and slot (see part.base); src is dropped.
func setBase(kids []*part, base *bvh, slot []int32) {
	for _, k := range kids {
		if base != nil {
			for i, s := range k.src {
				k.src[i] = slot[s]
			}
			k.base, k.slot = base, k.src
		}
		k.src = nil
	}
}

// points returns the distinct corners of p's triangles, in the order they
// first appear (equal as float64 values: -0 and +0 are one). It is worked
// out once (p.tris must not change after) and shared: callers must not
// write to it (appending copies).
func (p *part) points() []geom.Vec3 {
	p.number()
	return p.corners
}

// cornerIDs returns, for each triangle of p, its corners' indices into
// points(). Worked out with points and shared like it.
func (p *part) cornerIDs() [][3]uint32 {
	p.number()
	return p.ids
}

// number fills corners and ids once.
func (p *part) number() {
	if p.corners != nil {
		return
	}
	ix := newPointIndex(3 * len(p.tris))
	ids := make([][3]uint32, len(p.tris))
	for i, t := range p.tris {
		for k, v := range t {
			ids[i][k] = ix.id(v)
		}
	}
	p.corners, p.ids = ix.pts[:len(ix.pts):len(ix.pts)], ids
}

// pointIndex numbers distinct points in the order they are first seen:
// an open-addressing table of indices into pts. A map keyed by Vec3
// hashes each coordinate on its own and costs several times more (points
// and partVolume run for every candidate cut).
type pointIndex struct {
	slots []int32 // 1 + index into pts; 0: empty
	mask  uint64
	pts   []geom.Vec3
}

// newPointIndex returns an index for up to n points.
func newPointIndex(n int) *pointIndex {
	size := 4
	for size < 2*n {
		size <<= 1
	}
	return &pointIndex{slots: make([]int32, size), mask: uint64(size - 1), pts: make([]geom.Vec3, 0, n*2/3)}
}

// id returns v's number, giving it the next one if v is new.
func (ix *pointIndex) id(v geom.Vec3) uint32 {
	for h := hashPoint(v) & ix.mask; ; h = (h + 1) & ix.mask {
		s := ix.slots[h]
		if s == 0 {
			ix.pts = append(ix.pts, v)
			ix.slots[h] = int32(len(ix.pts))
			return uint32(len(ix.pts) - 1)
		}
		if ix.pts[s-1] == v {
			return uint32(s - 1)
		}
	}
}

// hashPoint mixes the bits of v's coordinates, -0 counted as +0 so that
// equal points hash alike.
func hashPoint(v geom.Vec3) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range v {
		if x == 0 {
			x = 0
		}
		h = (h ^ math.Float64bits(x)) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return h
}

// replaceSplit returns parts with each parts[todo[k]] replaced by
// children[k], in place, or marked unsplittable and kept when children[k] is
// nil. todo may come in any order (the search takes the most concave parts
// first).
func replaceSplit(parts []*part, todo []int, children [][]*part) []*part {
	split := make([][]*part, len(parts))
	tried := make([]bool, len(parts))
	for k, i := range todo {
		split[i], tried[i] = children[k], true
	}
	var next []*part
	for i, p := range parts {
		switch {
		case !tried[i]:
			next = append(next, p)
		case split[i] == nil:
			p.unsplittable = true
			next = append(next, p)
		default:
			next = append(next, split[i]...)
		}
	}
	return next
}

// trisBox returns the bounding box of the triangles' corners, the same as
// extending geom.EmptyBox by every corner with Box.Extend (math.Min and
// math.Max, whose calls cost more than all the rest of a candidate's box):
// for finite corners they differ from < and > only at zero, where a -0
// corner makes the minimum -0 and a +0 one the maximum +0.
func trisBox(ts []tri) geom.Box {
	b := geom.EmptyBox()
	for i := range ts {
		for _, v := range ts[i] {
			for k := 0; k < 3; k++ {
				x := v[k]
				if x < b.Min[k] || x == 0 && b.Min[k] == 0 && math.Signbit(x) {
					b.Min[k] = x
				}
				if x > b.Max[k] || x == 0 && b.Max[k] == 0 && !math.Signbit(x) {
					b.Max[k] = x
				}
			}
		}
	}
	return b
}

// edgePoint is where the segment a-b crosses the plane; a and b are put in a
// canonical order first so that the two triangles sharing an edge produce
// bit-identical points (the pieces stay welded).
func edgePoint(a, b geom.Vec3, sa, sb float64) geom.Vec3 {
	if less(b, a) {
		a, b, sa, sb = b, a, sb, sa
	}
	t := sa / (sa - sb)
	return a.Add(b.Sub(a).Scale(t))
}

func less(a, b geom.Vec3) bool {
	for i := 0; i < 3; i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// soup is a list of triangles with their inner flags (see part.inner) and,
// for the sides of a cut, the index in the cut soup of the triangle each
// was cut from (src) and, when the cut soup's corners were numbered (see
// cutNumbered), their numbers (pid; -1 for a corner that is not known to
// be none of the new ones, see numberFrom) and their count (npid).
type soup struct {
	t    []tri
	in   []bool
	src  []int32
	pid  [][3]int32
	npid int
}

func (s *soup) add(t tri, inner bool, src int) {
	s.t = append(s.t, t)
	s.in = append(s.in, inner)
	s.src = append(s.src, int32(src))
}

// addNumbered is add with the corners' numbers.
func (s *soup) addNumbered(t tri, inner bool, src int, pid [3]int32) {
	s.add(t, inner, src)
	if s.pid != nil {
		s.pid = append(s.pid, pid)
	}
}

// newSoup returns an empty soup with room for n triangles, with room for
// their corners' numbers when numbered.
func newSoup(n int, numbered bool) soup {
	s := soup{t: make([]tri, 0, n), in: make([]bool, 0, n), src: make([]int32, 0, n)}
	if numbered {
		s.pid = make([][3]int32, 0, n)
	}
	return s
}

// numberFrom numbers the corners of ts as part.number does (distinct
// points in order of first sight, equal as float64 values), from pid, the
// numbers some of them had in the soup they were cut from (see soup.pid):
// a numbered corner through an array, the others by position. No corner
// numbered is equal to one that is not (see cutNumbered), so the two
// kinds never weld.
func numberFrom(ts []tri, pid [][3]int32, npid int) ([]geom.Vec3, [][3]uint32) {
	loc := make([]int32, npid) // 1 + number; 0: not seen yet
	hashed := 0
	for i := range pid {
		for _, g := range pid[i] {
			if g < 0 {
				hashed++
			}
		}
	}
	ix := newPointIndex(hashed) // sized for every corner it may see
	var hmap []int32            // number of ix's points
	pts := make([]geom.Vec3, 0, len(ts)/2+3)
	ids := make([][3]uint32, len(ts))
	for i, t := range ts {
		for k, v := range t {
			if g := pid[i][k]; g >= 0 {
				if loc[g] == 0 {
					pts = append(pts, v)
					loc[g] = int32(len(pts))
				}
				ids[i][k] = uint32(loc[g] - 1)
				continue
			}
			if h := ix.id(v); int(h) < len(hmap) {
				ids[i][k] = uint32(hmap[h])
			} else {
				hmap = append(hmap, int32(len(pts)))
				ids[i][k] = uint32(len(pts))
				pts = append(pts, v)
			}
		}
	}
	return pts[:len(pts):len(pts)], ids
}

// cut splits the soup by pl into the triangles with n·x ≥ d (pos) and
// n·x ≤ d (neg), triangulating the crossing ones, and returns the outline
// of the cross-section. A triangle lying in the plane goes to the side its
// solid is on: behind its normal.
func cut(ts []tri, inner []bool, pl plane, eps float64) (pos, neg soup, sec *section) {
	return cutNumbered(ts, inner, nil, nil, pl, eps)
}

// cutNumbered is cut for triangles whose corners are numbered (pts the
// distinct corners, ids each triangle's, see part.points): each distinct
// corner's distance to the plane is worked out once, not once per
// triangle. A corner and pts[its id] are equal as float64 values (they can
// differ only in the sign of a zero coordinate, and then their distances
// differ only in the sign of a zero, which counts as on the plane), so the
// sides are the same as cut's. With ids nil it is cut.
func cutNumbered(ts []tri, inner []bool, pts []geom.Vec3, ids [][3]uint32, pl plane, eps float64) (pos, neg soup, sec *section) {
	var sv []float64
	if ids != nil {
		sv = make([]float64, len(pts))
		for i, v := range pts {
			sv[i] = pl.eval(v)
		}
	}
	// evals returns the distances of triangle ti's corners.
	evals := func(ti int) (s [3]float64) {
		if sv != nil {
			id := &ids[ti]
			return [3]float64{sv[id[0]], sv[id[1]], sv[id[2]]}
		}
		t := &ts[ti]
		return [3]float64{pl.eval(t[0]), pl.eval(t[1]), pl.eval(t[2])}
	}
	// Each side's room counted first (a crossing triangle gives a side up
	// to two): appending from empty copies each side several times over.
	var npos, nneg int
	for ti := range ts {
		var above, below bool
		for _, e := range evals(ti) {
			if e > eps {
				above = true
			} else if e < -eps {
				below = true
			}
		}
		switch {
		case above && below:
			npos, nneg = npos+2, nneg+2
		case above:
			npos++
		case below:
			nneg++
		default:
			npos, nneg = npos+1, nneg+1
		}
	}
	pos, neg = newSoup(npos, ids != nil), newSoup(nneg, ids != nil)
	pos.npid, neg.npid = len(pts), len(pts)
	sec = &section{pl: pl}
	sec.u, sec.v = planeBasis(pl.n)
	// cutMax: the largest distance to the plane of a cut point, as eval
	// gives it.
	var cutMax float64
	cutPoint := func(a, b geom.Vec3, sa, sb float64) geom.Vec3 {
		p := edgePoint(a, b, sa, sb)
		if sv != nil {
			cutMax = math.Max(cutMax, math.Abs(pl.eval(p)))
		}
		return p
	}
	for ti, t := range ts {
		in := inner != nil && inner[ti]
		s := evals(ti)
		// The corners' numbers (-1: unnumbered).
		id := [3]int32{-1, -1, -1}
		if ids != nil {
			id = [3]int32{int32(ids[ti][0]), int32(ids[ti][1]), int32(ids[ti][2])}
		}
		np, nn := 0, 0
		for i := 0; i < 3; i++ {
			if math.Abs(s[i]) <= eps {
				s[i] = 0
			} else if s[i] > 0 {
				np++
			} else {
				nn++
			}
		}
		if np == 0 && nn == 0 {
			if t[1].Sub(t[0]).Cross(t[2].Sub(t[0])).Dot(pl.n) > 0 {
				neg.addNumbered(t, in, ti, id)
			} else {
				pos.addNumbered(t, in, ti, id)
			}
			continue
		}
		if nn == 0 || np == 0 {
			side := 0
			if nn == 0 {
				pos.addNumbered(t, in, ti, id)
			} else {
				neg.addNumbered(t, in, ti, id)
				side = 1
			}
			// An edge lying in the plane is part of that side's outline.
			for i := 0; i < 3; i++ {
				if j := (i + 1) % 3; s[i] == 0 && s[j] == 0 {
					sec.addSegment(side, t[i], t[j], t)
				}
			}
			continue
		}
		// Rotate so that t[0] is the vertex alone on its side (or on the plane).
		r := 0
		for i := 0; i < 3; i++ {
			j, k := (i+1)%3, (i+2)%3
			if s[i] == 0 || (s[i] > 0) != (s[j] > 0) && (s[i] > 0) != (s[k] > 0) && s[j] != 0 && s[k] != 0 {
				r = i
				break
			}
		}
		a, b, c := t[r], t[(r+1)%3], t[(r+2)%3]
		sa, sb, sc := s[r], s[(r+1)%3], s[(r+2)%3]
		ia, ib, ic := id[r], id[(r+1)%3], id[(r+2)%3]
		var p, q geom.Vec3
		if sa == 0 {
			// b and c on opposite sides.
			p = cutPoint(b, c, sb, sc)
			t1, t2 := tri{a, b, p}, tri{a, p, c}
			i1, i2 := [3]int32{ia, ib, -1}, [3]int32{ia, -1, ic}
			if sb > 0 {
				pos.addNumbered(t1, in, ti, i1)
				neg.addNumbered(t2, in, ti, i2)
			} else {
				pos.addNumbered(t2, in, ti, i2)
				neg.addNumbered(t1, in, ti, i1)
			}
			q = a
		} else {
			p = cutPoint(a, b, sa, sb)
			q = cutPoint(a, c, sa, sc)
			lone, pair := &pos, &neg
			if sa < 0 {
				lone, pair = &neg, &pos
			}
			lone.addNumbered(tri{a, p, q}, in, ti, [3]int32{ia, -1, -1})
			pair.addNumbered(tri{p, b, c}, in, ti, [3]int32{-1, ib, ic})
			pair.addNumbered(tri{p, c, q}, in, ti, [3]int32{-1, ic, -1})
		}
		sec.addSegment(0, p, q, t)
		sec.addSegment(1, p, q, t)
	}
	// A corner as near the plane as a cut point could be one (a vertex
	// on the edge a cut crosses, where the cut lands on it): it is
	// numbered by position, with the cut points, so that numberFrom
	// welds it to them as hashing all corners would. Farther corners
	// differ from every cut point (equal points are equally far).
	if sv != nil {
		for _, sd := range []*soup{&pos, &neg} {
			for i := range sd.pid {
				for k, g := range sd.pid[i] {
					if g >= 0 && math.Abs(sv[g]) <= 2*cutMax {
						sd.pid[i][k] = -1
					}
				}
			}
		}
	}
	return pos, neg, sec
}

// side is one side of a part cut by a plane: its triangles and the cuts
// that bound it (the part's and the new one).
type side struct {
	soup
	caps []capRef
}

// cutPart cuts p by pl and returns its two sides, positive first, and the
// cross-section; ok is false when a side is empty.
func (d *decomposer) cutPart(p *part, pl plane) (sides [2]side, sec *section, ok bool) {
	pos, neg, sec := cutNumbered(p.tris, p.inner, p.corners, p.ids, pl, planeTol*d.diag)
	if len(pos.t) == 0 || len(neg.t) == 0 {
		return sides, sec, false
	}
	for i, s := range []soup{pos, neg} {
		sign := int8(1 - 2*i)
		sides[i] = side{s, append(append([]capRef(nil), p.caps...), capRef{sec, sign})}
	}
	return sides, sec, true
}

func (s *section) addSegment(side int, p, q geom.Vec3, t tri) {
	nt := t[1].Sub(t[0]).Cross(t[2].Sub(t[0]))
	dir := s.pl.n.Cross(nt)
	if q.Sub(p).Dot(dir) < 0 {
		p, q = q, p
	}
	s.segs[side] = append(s.segs[side], [2][2]float64{s.to2(p), s.to2(q)})
}

func (s *section) to2(p geom.Vec3) [2]float64 { return [2]float64{p.Dot(s.u), p.Dot(s.v)} }

// outside returns 0 when the in-plane point x is inside the outline seen
// from the given side (+1 or −1) (non-zero winding or odd crossing count, so
// that inconsistently wound or overlapping input counts as solid), otherwise
// its distance to the outline. Once that distance is known to be at most
// floor, it may return any value up to floor (the caller only needs to
// know it is no more).
func (s *section) outside(x geom.Vec3, side int8, floor float64) float64 {
	q := s.to2(x)
	wind, cross := 0, 0
	best := math.Inf(1)
	segs := s.segs[0]
	if side < 0 {
		segs = s.segs[1]
	}
	for _, sg := range segs {
		a, b := sg[0], sg[1]
		if a[1] <= q[1] && b[1] > q[1] {
			cross++
			if (b[0]-a[0])*(q[1]-a[1])-(q[0]-a[0])*(b[1]-a[1]) > 0 {
				wind++
			}
		} else if b[1] <= q[1] && a[1] > q[1] {
			cross++
			if (b[0]-a[0])*(q[1]-a[1])-(q[0]-a[0])*(b[1]-a[1]) < 0 {
				wind--
			}
		}
	}
	if wind != 0 || cross%2 == 1 {
		return 0
	}
	// Outside: the distance to the outline (a second pass; most probes
	// on a cap are inside and stop above).
	floor2 := floor * floor
	for _, sg := range segs {
		if d := segDist2D(q, sg[0], sg[1]); d < best {
			best = d
			if best <= floor2 {
				break
			}
		}
	}
	return math.Sqrt(best)
}

func segDist2D(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	px, py := p[0]-a[0], p[1]-a[1]
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, (px*dx+py*dy)/l2))
	}
	ex, ey := px-t*dx, py-t*dy
	return ex*ex + ey*ey
}

func planeBasis(n geom.Vec3) (u, v geom.Vec3) {
	a := geom.Vec3{1, 0, 0}
	if math.Abs(n[0]) > 0.6 {
		a = geom.Vec3{0, 1, 0}
	}
	u = a.Sub(n.Scale(a.Dot(n))).Normalize()
	v = n.Cross(u)
	return u, v
}

// componentLabels labels the triangles by edge- or vertex-connected
// component (corners welded by exact position), numbered in order of first
// triangle, and returns the labels and the count.
func componentLabels(ts []tri) ([]int32, int) {
	label, n, _, _ := componentNumbers(soup{t: ts})
	return label, n
}

// componentNumbers is componentLabels for s's triangles, and the numbering
// of their corners it worked out (as part.points and part.cornerIDs do it;
// from s.pid when s is a numbered cut's side, see numberFrom).
func componentNumbers(s soup) (label []int32, n int, pts []geom.Vec3, ids [][3]uint32) {
	ts := s.t
	sets := newDisjointSets(len(ts))
	if s.pid != nil {
		pts, ids = numberFrom(ts, s.pid, s.npid)
	} else {
		ix := newPointIndex(3 * len(ts))
		ids = make([][3]uint32, len(ts))
		for i, t := range ts {
			for k, v := range t {
				ids[i][k] = ix.id(v)
			}
		}
		pts = ix.pts
	}
	// The first triangle seen at each corner (corners are numbered in
	// order of first sight, so a new corner is the next number).
	owner := make([]int32, 0, len(pts))
	for i, id := range ids {
		for _, g := range id {
			if int(g) < len(owner) {
				sets.union(owner[g], int32(i))
			} else {
				owner = append(owner, int32(i))
			}
		}
	}
	label = make([]int32, len(ts))
	root := make([]int32, len(ts)) // 1 + label of a root; 0: none yet
	for i := range ts {
		r := sets.find(int32(i))
		if root[r] == 0 {
			n++
			root[r] = int32(n)
		}
		label[i] = root[r] - 1
	}
	return label, n, pts, ids
}

// disjointSets is a union-find over 0..n-1; the smaller root wins, so the
// sets' roots do not depend on the order of unions.
type disjointSets []int32

func newDisjointSets(n int) disjointSets {
	s := make(disjointSets, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

func (s disjointSets) find(x int32) int32 {
	for s[x] != x {
		s[x] = s[s[x]]
		x = s[x]
	}
	return x
}

func (s disjointSets) union(a, b int32) {
	a, b = s.find(a), s.find(b)
	if a < b {
		s[b] = a
	} else if b < a {
		s[a] = b
	}
}

// errDegenerate is returned by buildHull when even the thickened points
// and their bounding box give no hull.
var errDegenerate = errors.New("decompose: cannot hull a part")

// buildHull hulls pts. Flat or line-like point sets (a planar patch of an
// open mesh, a sliver left by a cut) have no volume; they are thickened by
// flatThickness (a fraction of the part's size, see Options) along the
// directions in which they are flat, which keeps every point inside.
func buildHull(pts []geom.Vec3, maxV int, thick float64) (*hull.Hull, error) {
	return buildHullChecked(pts, maxV, thick, true)
}

// scoutHull is buildHull without checking that the hull holds every point
// (O(points × faces), most of the time on large parts) and with the hull
// package's local convexity check only: for candidate cuts, whose hulls
// only score them. A part kept is checked by capHull.
func scoutHull(pts []geom.Vec3, thick float64) (*hull.Hull, error) {
	return buildHullChecked(pts, -1, thick, false)
}

func buildHullChecked(pts []geom.Vec3, maxV int, thick float64, check bool) (*hull.Hull, error) {
	h, err := checkedHull(pts, maxV, check)
	if err == nil {
		return h, nil
	}
	if errors.Is(err, errBadHull) {
		return boxHull(pts, thick)
	}
	// Thicken along the principal axes of the points' spread.
	axes := principalAxes(pts)
	for _, ax := range [][]geom.Vec3{{axes[2]}, {axes[1], axes[2]}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}} {
		th := make([]geom.Vec3, 0, len(pts)*(2*len(ax)+1))
		for _, p := range pts {
			th = append(th, p)
			for _, a := range ax {
				th = append(th, p.Add(a.Scale(thick)), p.Sub(a.Scale(thick)))
			}
		}
		h, err = checkedHull(th, maxV, check)
		if err == nil {
			return h, nil
		}
		if errors.Is(err, errBadHull) {
			return boxHull(th, thick)
		}
	}
	// Last resort: the points' bounding box is a valid hull that contains
	// them all. It only bloats this one part.
	if h, berr := boxHull(pts, thick); berr == nil {
		return h, nil
	}
	return nil, fmt.Errorf("%w (%d points): %v", errDegenerate, len(pts), err)
}

// boxHull is the last resort when no correct hull comes back: the points'
// bounding box (thickened where flat), which contains them by construction.
func boxHull(pts []geom.Vec3, thick float64) (*hull.Hull, error) {
	b := geom.BoundsOf(pts)
	for i := 0; i < 3; i++ {
		if b.Max[i]-b.Min[i] < thick {
			b.Min[i] -= thick
			b.Max[i] += thick
		}
	}
	var c []geom.Vec3
	for i := 0; i < 8; i++ {
		c = append(c, geom.Vec3{pick(i&1, b.Min[0], b.Max[0]), pick(i&2, b.Min[1], b.Max[1]), pick(i&4, b.Min[2], b.Max[2])})
	}
	h, err := hull.Build(c, hull.Options{})
	if err != nil {
		return nil, fmt.Errorf("decompose: bounding-box hull: %w", err)
	}
	return h, nil
}

func pick(bit int, lo, hi float64) float64 {
	if bit != 0 {
		return hi
	}
	return lo
}

// principalAxes returns the eigenvectors of the points' covariance, largest
// spread first (equal spreads in a fixed order).
func principalAxes(pts []geom.Vec3) [3]geom.Vec3 {
	vals, v := geom.SymEigen(geom.Scatter(pts), 1e-30)
	order := [3]int{0, 1, 2}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if vals[order[j]] > vals[order[i]] {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	var out [3]geom.Vec3
	for i, k := range order {
		out[i] = v.Col(k)
	}
	return out
}

// hullTol is how far (relative to the points' box diagonal) a point may
// lie outside the hull built for it before the hull is rejected. quickhull-go
// routinely leaves points ~3e-8 outside after merging nearly coplanar
// faces, and occasionally returns a non-convex hull on inputs with many
// coplanar points (a cut face): up to half the part's size off.
const hullTol = 1e-7

// hullRetries is how many deterministic reshuffles of the points are tried
// when quickhull-go returns a bad hull.
const hullRetries = 8

// errBadHull: no attempt gave a hull containing the points.
var errBadHull = errors.New("hull package returned hulls not containing their points")

// checkedHull calls hull.Build and verifies that the result is convex and
// contains pts, retrying with reshuffled input order when it is not (see
// hullTol). A flat set gives an error.
func checkedHull(pts []geom.Vec3, maxV int, check bool) (*hull.Hull, error) {
	in := pts
	var rng *rand.Rand
	for try := 0; ; try++ {
		h, err := hull.Build(in, hull.Options{MaxVertices: maxV, LocalCheck: !check})
		if err != nil {
			return nil, err
		}
		if h.Volume() <= 0 {
			return nil, errors.New("zero volume")
		}
		if !check || hullViolation(h, pts) <= hullTol {
			return h, nil
		}
		if try == hullRetries {
			return nil, errBadHull
		}
		if rng == nil {
			rng = rand.New(rand.NewPCG(uint64(len(pts)), 1))
			in = append([]geom.Vec3(nil), pts...)
		}
		rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
	}
}

// hullViolation returns how far the worst of pts lies outside h's face
// planes, relative to the size of the points' box.
func hullViolation(h *hull.Hull, pts []geom.Vec3) float64 {
	pl := facePlanes(h)
	var worst float64
	for _, p := range pts {
		if d := -depth(pl, p); d > worst {
			worst = d
		}
	}
	for _, p := range h.Vertices {
		if d := -depth(pl, p); d > worst {
			worst = d
		}
	}
	return worst / geom.BoundsOf(pts).Diagonal()
}
