package decompose

import (
	"errors"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Cuts are not capped, so a part's surface can leave out solid of its cell
// (a pocket): a slab of a thick plate cut on four sides keeps only its top
// and bottom faces, two connected components hulled apart as two flat
// hulls; a wall and a strip of the top meeting at an edge hull as a wedge.
// joinSolid keeps the components of the first kind together; fillPockets
// widens the hulls of the second kind. See the package documentation.

// fillTol: a gap end this close (fraction of the diagonal) to the part's
// hull is held by it (see fillPockets).
const fillTol = 10 * innerOffset

// maxMisses is how many rays between two pieces may find empty space
// before joinSolid stops trying that pair.
const maxMisses = 4

// raysPerPlane bounds the segments of one component on one cap plane that
// cast rays (both ways), to bound the cost on fine meshes.
const raysPerPlane = 64

// splitSide returns the parts of one side of a cut: its connected pieces,
// pieces that bound one solid region joined (see joinSolid), or the whole
// side when it has too many pieces.
func (d *decomposer) splitSide(s soup, caps []capRef) []*part {
	label, n, pts, ids := componentNumbers(s)
	var hulls []*hull.Hull
	switch {
	case n > maxComponents:
		for i := range label {
			label[i] = 0
		}
		n = 1
	case n > 1 && d.solid != nil && d.closed:
		n, hulls = d.joinSolid(s.t, label, n, caps)
	}
	out := make([]*part, n)
	size := make([]int, n)
	for _, l := range label {
		size[l]++
	}
	for i := range out {
		out[i] = &part{caps: caps, tris: make([]tri, 0, size[i]), inner: make([]bool, 0, size[i])}
		if s.src != nil {
			out[i].src = make([]int32, 0, size[i])
		}
		if hulls != nil {
			out[i].hull = hulls[i]
		}
	}
	// Each part's corners numbered from the side's numbering (see
	// part.number): a corner's triangles are all in one part (pieces are
	// joined whole), and each part keeps the side's order of triangles, so
	// numbering its corners in order of first sight gives the same points
	// in the same order as hashing them again.
	local := make([]int32, len(pts)) // 1 + number in its part; 0: not seen yet
	npts := make([]int, n)
	for i, id := range ids {
		for _, g := range id {
			if local[g] == 0 {
				local[g] = 1
				npts[label[i]]++
			}
		}
	}
	clear(local)
	for i := range out {
		out[i].ids = make([][3]uint32, 0, size[i])
		out[i].corners = make([]geom.Vec3, 0, npts[i])
	}
	for i, t := range s.t {
		p := out[label[i]]
		p.tris = append(p.tris, t)
		p.inner = append(p.inner, s.in != nil && s.in[i])
		if s.src != nil {
			p.src = append(p.src, s.src[i])
		}
		var id [3]uint32
		for k, g := range ids[i] {
			if local[g] == 0 {
				p.corners = append(p.corners, pts[g])
				local[g] = int32(len(p.corners))
			}
			id[k] = uint32(local[g] - 1)
		}
		p.ids = append(p.ids, id)
	}
	return out
}

// seg2 is a triangle edge lying on a cap plane, in the plane's (u,v)
// coordinates, and the component of its triangle.
type seg2 struct {
	a, b [2]float64
	comp int32
}

// joinSolid merges components that bound one solid region through a cap
// plane. On each cap plane, the triangle edges lying on the plane (both
// ends within tol) outline the solid's cross-section there. From the
// midpoint of (a sample of) each component's segments, a ray in the plane,
// perpendicular to the segment, is cast both ways; when the first segment
// it meets belongs to another component and the gap between them is inside
// the solid (tree is the whole input), the two components bound the same
// region and are joined, unless the hull of one of them already holds both
// ends of the gap (the outer wall of a tube ring holds the inner wall and
// the solid between; joining them would only make the part harder to
// cut). The gap lies in the side's convex cell (both ends do), so the
// joined part is one region of the solid. The gap is probed a
// distance probe off the plane, into the cell: an input face lying in the
// plane (a cut through a floor) would make a probe on it ambiguous. It
// relabels label in place (labels in order of first triangle) and returns
// the new count, and the uncapped hulls it built of pieces left alone (nil
// where it built none), for finish to keep.
func (d *decomposer) joinSolid(ts []tri, label []int32, n int, caps []capRef) (int, []*hull.Hull) {
	tol, probe := capTol*d.diag, innerOffset*d.diag
	// holds reports whether the hull of component k holds x (built on
	// first use; nil when it cannot be built).
	hulls := make([]*hull.Hull, n)
	planes := make([][]plane, n)
	boxes := make([]geom.Box, n)
	built := make([]bool, n)
	holds := func(k int32, x geom.Vec3) bool {
		if !built[k] {
			built[k] = true
			boxes[k] = geom.EmptyBox()
			var pts []geom.Vec3
			seen := map[geom.Vec3]bool{}
			for i, t := range ts {
				if label[i] != k {
					continue
				}
				for _, v := range t {
					if !seen[v] {
						seen[v] = true
						pts = append(pts, v)
						boxes[k] = boxes[k].Extend(v)
					}
				}
			}
			if h, err := scoutHull(pts, flatThickness*d.diag); err == nil {
				hulls[k], planes[k] = h, facePlanes(h)
			}
		}
		if hulls[k] == nil || !touch(boxes[k], geom.Box{Min: x, Max: x}, 2*flatThickness*d.diag) {
			return false
		}
		return depthAbove(planes[k], x, -tol) >= -tol
	}
	sets := newDisjointSets(n)
	joined := 0
	misses := map[[2]int32]int{}
	var segs []seg2
	byComp := make([][]int32, n)
	for _, c := range caps {
		if joined == n-1 {
			break
		}
		sec := c.sec
		off := sec.pl.n.Scale(float64(c.side) * probe)
		segs = segs[:0]
		for k := range byComp {
			byComp[k] = byComp[k][:0]
		}
		for i, t := range ts {
			var on [3]bool
			for k := 0; k < 3; k++ {
				on[k] = math.Abs(sec.pl.eval(t[k])) <= tol
			}
			for k := 0; k < 3; k++ {
				j := (k + 1) % 3
				if on[k] && on[j] && t[k] != t[j] {
					byComp[label[i]] = append(byComp[label[i]], int32(len(segs)))
					segs = append(segs, seg2{sec.to2(t[k]), sec.to2(t[j]), label[i]})
				}
			}
		}
		present := 0
		for _, idx := range byComp {
			if len(idx) > 0 {
				present++
			}
		}
		if present < 2 {
			continue
		}
		for comp, idx := range byComp {
			stride := (len(idx) + raysPerPlane - 1) / raysPerPlane
			for j := 0; j < len(idx); j += stride {
				s := segs[idx[j]]
				ex, ey := s.b[0]-s.a[0], s.b[1]-s.a[1]
				l := math.Hypot(ex, ey)
				if l <= tol {
					continue
				}
				o := [2]float64{(s.a[0] + s.b[0]) / 2, (s.a[1] + s.b[1]) / 2}
				for _, sign := range []float64{1, -1} {
					r := [2]float64{-sign * ey / l, sign * ex / l}
					hit, th := firstSegment(segs, o, r, tol)
					if hit < 0 || sets.find(segs[hit].comp) == sets.find(int32(comp)) {
						continue
					}
					a, b := int32(comp), segs[hit].comp
					// Pieces across empty space (a U's arms) are tried
					// only a few times; a join missed so is left to
					// fillPockets.
					key := [2]int32{min(a, b), max(a, b)}
					if misses[key] >= maxMisses {
						continue
					}
					if !d.gapInSolid(sec, o, r, th, off) {
						misses[key]++
						continue
					}
					// A hull holding both ends of the gap holds the gap:
					// no pocket there, and keeping the pieces apart
					// keeps the part simpler.
					po, px := sec.at(o), sec.at([2]float64{o[0] + th*r[0], o[1] + th*r[1]})
					if holds(a, px) || holds(b, po) {
						continue
					}
					sets.union(a, b)
					joined++
				}
			}
		}
	}
	if joined == 0 {
		return n, hulls
	}
	// Relabel by first triangle; a joined piece's hull is of no use.
	size := make([]int, n)
	for k := range size {
		size[sets.find(int32(k))]++
	}
	newLabel := make([]int32, n)
	for i := range newLabel {
		newLabel[i] = -1
	}
	var kept []*hull.Hull
	for i, l := range label {
		r := sets.find(l)
		if newLabel[r] < 0 {
			newLabel[r] = int32(len(kept))
			var h *hull.Hull
			if size[r] == 1 {
				h = hulls[r]
			}
			kept = append(kept, h)
		}
		label[i] = newLabel[r]
	}
	return len(kept), kept
}

// firstSegment returns the index of the segment that the ray o + t·r
// (t > tol) crosses first, and that t; -1 when it crosses none.
func firstSegment(segs []seg2, o, r [2]float64, tol float64) (int, float64) {
	best, bt := -1, math.Inf(1)
	for i, s := range segs {
		ex, ey := s.b[0]-s.a[0], s.b[1]-s.a[1]
		den := r[0]*ey - r[1]*ex
		if den == 0 {
			continue
		}
		ax, ay := s.a[0]-o[0], s.a[1]-o[1]
		t := (ax*ey - ay*ex) / den
		u := (ax*r[1] - ay*r[0]) / den
		if t > tol && t < bt && u >= 0 && u <= 1 {
			best, bt = i, t
		}
	}
	return best, bt
}

// gapInSolid reports whether the gap o + t·r, 0 < t < th, on the plane of
// sec, is inside the solid of the shell o lies on (see shellsAt): its
// midpoint and quarter points, moved by off, are.
func (d *decomposer) gapInSolid(sec *section, o, r [2]float64, th float64, off geom.Vec3) bool {
	own := d.shellsAt(sec.at(o))
	for _, f := range []float64{0.5, 0.25, 0.75} {
		x, y := o[0]+f*th*r[0], o[1]+f*th*r[1]
		p := sec.at([2]float64{x, y}).Add(off)
		if !d.insideOwn(p, own) {
			return false
		}
	}
	return true
}

// at is the point of the plane with (u,v) coordinates q.
func (s *section) at(q [2]float64) geom.Vec3 {
	return s.pl.n.Scale(s.pl.d).Add(s.u.Scale(q[0])).Add(s.v.Scale(q[1]))
}

// fillPockets widens the hull of every part whose solid reaches past its
// surface to one of its cut planes: a part left with two faces meeting at an
// edge (a wall and a strip of the top, its other sides cut) is hulled as a
// wedge, or a lone wall as a slab, and the rest of the solid in its cell
// belongs to no hull. The far ends found by fillPoints that the part's hull
// misses are added to it, and its concavity is estimated again.
func (d *decomposer) fillPockets(parts []*part) error {
	fill := make([][][2]geom.Vec3, len(parts))
	if err := d.parallel(len(parts), func(i int) { fill[i] = d.fillPoints(parts[i]) }); err != nil {
		return err
	}
	// A gap another hull holds is no pocket, but the region between several
	// gaps need not be: only the part's own hull is trusted. The rays run
	// innerOffset off the planes, so their ends can be that much off the
	// surface: misses below fillTol are not pockets.
	tol := fillTol * d.diag
	add := make([][]geom.Vec3, len(parts))
	if err := d.parallel(len(parts), func(i int) {
		pl := facePlanes(parts[i].hull)
		for _, g := range fill[i] {
			if depthAbove(pl, g[1], -tol) < -tol {
				add[i] = append(add[i], g[1])
			}
		}
	}); err != nil {
		return err
	}
	errs := make([]error, len(parts))
	err := d.parallel(len(parts), func(i int) {
		if len(add[i]) == 0 {
			return
		}
		p := parts[i]
		h, err := buildHull(append(append([]geom.Vec3(nil), p.hull.Vertices...), add[i]...), d.maxV, flatThickness*d.diag)
		if err != nil {
			errs[i] = err
			return
		}
		p.hull = h
		p.pocket = append(p.pocket, add[i]...)
		d.estimate(p, fullBudget)
	})
	if err != nil {
		return err
	}
	return errors.Join(errs...)
}

// fillPoints returns the gaps of solid seen across the part's cut planes,
// each as its two ends. From the ends and the midpoint of (a sample of) the part's edges
// lying on each cap plane, a ray in the plane goes into the solid (behind
// the edge's triangle) and stops at the first input triangle or where it
// leaves the part's cell (the other caps); when the gap is inside the solid
// (tree is the whole input), its far end is returned. A ray that leaves
// the cell, or starts on an edge of the cell, goes on along that edge,
// both ways, so that the corners of the cell that the solid fills are
// returned too.
func (d *decomposer) fillPoints(p *part) [][2]geom.Vec3 {
	tol := capTol * d.diag
	var out [][2]geom.Vec3
	// A ray that ends inside the part's hull adds nothing (the hull is
	// convex and holds the ray's start): rays whose way out of the cell is
	// inside are not cast, and the others are not tested for solid when
	// their end is inside, which spares most of the cost.
	hp := facePlanes(p.hull)
	ftol := fillTol * d.diag
	held := func(x geom.Vec3) bool { return depthAbove(hp, x, -ftol) >= -ftol }
	for ci, c := range p.caps {
		pl := c.sec.pl
		var edges [][3]geom.Vec3 // a, b, direction into the solid
		for _, t := range p.tris {
			var on [3]bool
			for k := 0; k < 3; k++ {
				on[k] = math.Abs(pl.eval(t[k])) <= tol
			}
			nt := t[1].Sub(t[0]).Cross(t[2].Sub(t[0]))
			r := pl.n.Scale(nt.Dot(pl.n)).Sub(nt) // −nt, in the plane
			if d.flip {
				r = r.Scale(-1)
			}
			l := r.Len()
			if l <= 1e-9*nt.Len() || l == 0 {
				continue // in the plane
			}
			r = r.Scale(1 / l)
			for k := 0; k < 3; k++ {
				if j := (k + 1) % 3; on[k] && on[j] && t[k] != t[j] {
					edges = append(edges, [3]geom.Vec3{t[k], t[j], r})
				}
			}
		}
		// edgeDir is the direction of the cell's edge where the planes of
		// caps ci and k meet (zero when they are parallel).
		edgeDir := func(k int) geom.Vec3 {
			dir := pl.n.Cross(p.caps[k].sec.pl.n)
			if l := dir.Len(); l > 1e-9 {
				return dir.Scale(1 / l)
			}
			return geom.Vec3{}
		}
		// followHeld reports whether both ways along that edge from x leave
		// the cell inside the hull.
		followHeld := func(k int, x geom.Vec3) bool {
			dir := edgeDir(k)
			if dir == (geom.Vec3{}) {
				return true
			}
			for _, sg := range []float64{1, -1} {
				t, _ := cellEnd(p.caps, ci, k, x, dir.Scale(sg))
				if math.IsInf(t, 1) || !held(x.Add(dir.Scale(sg*t))) {
					return false
				}
			}
			return held(x)
		}
		endHeld := func(x geom.Vec3, _ int) bool { return held(x) }
		// follow casts along that edge, both ways from x, to the corners
		// the solid of the shells at from (a surface point) reaches.
		follow := func(k int, x, from geom.Vec3) {
			dir := edgeDir(k)
			if dir == (geom.Vec3{}) || followHeld(k, x) {
				return
			}
			for _, sg := range []float64{1, -1} {
				if y, _, ok := d.solidRay(p.caps, ci, k, x, dir.Scale(sg), tol, from, endHeld); ok {
					out = append(out, [2]geom.Vec3{x, y})
				}
			}
		}
		seen := map[[2]geom.Vec3]bool{}
		corner := map[geom.Vec3]bool{}
		stride := (len(edges) + raysPerPlane - 1) / raysPerPlane
		for j := 0; j < len(edges); j += stride {
			e := edges[j]
			for _, o := range []geom.Vec3{e[0], e[1], e[0].Add(e[1]).Scale(0.5)} {
				if seen[[2]geom.Vec3{o, e[2]}] {
					continue
				}
				seen[[2]geom.Vec3{o, e[2]}] = true
				// A surface point on an edge of the cell: the solid may
				// run along that edge.
				if !corner[o] {
					corner[o] = true
					for k, c2 := range p.caps {
						if k != ci && math.Abs(c2.sec.pl.eval(o)) <= tol {
							follow(k, o, o)
						}
					}
				}
				if t, k := cellEnd(p.caps, ci, -1, o, e[2]); !math.IsInf(t, 1) {
					if xc := o.Add(e[2].Scale(t)); held(xc) && (k < 0 || followHeld(k, xc)) {
						continue
					}
				}
				x, k, ok := d.solidRay(p.caps, ci, -1, o, e[2], tol, o, func(x geom.Vec3, k int) bool {
					return held(x) && (k < 0 || followHeld(k, x))
				})
				if !ok {
					continue
				}
				out = append(out, [2]geom.Vec3{o, x})
				if k >= 0 {
					// The ray left the cell through the cap k.
					follow(k, x, o)
				}
			}
		}
	}
	return out
}

// cellEnd returns where the ray o + t·r leaves the cell of caps (ignoring
// caps ci and cj, whose planes hold the ray) and the cap it leaves by;
// +Inf and −1 when the cell is open that way.
func cellEnd(caps []capRef, ci, cj int, o, r geom.Vec3) (float64, int) {
	end, exit := math.Inf(1), -1
	for k, c := range caps {
		if k == ci || k == cj {
			continue
		}
		// s·(n·x − d) ≥ 0 inside; it falls along r when s·n·r < 0.
		s := float64(c.side)
		if sr := s * c.sec.pl.n.Dot(r); sr < 0 {
			if t := s * c.sec.pl.eval(o) / -sr; t < end {
				end, exit = t, k
			}
		}
	}
	return end, exit
}

// solidRay follows the ray o + t·r (r in the plane of caps[ci], and of
// caps[cj] when cj ≥ 0) from the surface into the solid and returns where
// the solid ends: the first input triangle hit or the exit from the cell
// of caps, whichever is nearer, and the cap it leaves by (−1 when it ends
// on a triangle); ok is false when the gap is empty, when skip says so
// (before the costlier test that comes next), or when the gap is not inside
// the solid of the shells the surface point from lies on (its midpoint or
// quarter points are not; see shellsAt and insideOwn): the solid behind a
// face is its own shell's. The ray runs innerOffset into the cell, off the cap planes
// through o, so that an input face lying in a plane, or ending on it, is
// seen as a boundary.
func (d *decomposer) solidRay(caps []capRef, ci, cj int, o, r geom.Vec3, tol float64, from geom.Vec3, skip func(x geom.Vec3, exit int) bool) (x geom.Vec3, exit int, ok bool) {
	end, exit := cellEnd(caps, ci, cj, o, r)
	// Move the ray off every cap plane o lies on, into the cell.
	var off geom.Vec3
	for k, c := range caps {
		if k == ci || k == cj || math.Abs(c.sec.pl.eval(o)) <= tol {
			off = off.Add(c.sec.pl.n.Scale(float64(c.side)))
		}
	}
	o2 := o.Add(off.Scale(innerOffset * d.diag))
	if th, _, hit := d.solid.firstHit(o2.Add(r.Scale(tol)), r); hit && th+tol < end {
		end, exit = th+tol, -1
	}
	if math.IsInf(end, 1) || end <= 2*tol || skip(o.Add(r.Scale(end)), exit) {
		return geom.Vec3{}, -1, false
	}
	own := d.shellsAt(from)
	for _, f := range []float64{0.5, 0.25, 0.75} {
		if !d.insideOwn(o2.Add(r.Scale(f*end)), own) {
			return geom.Vec3{}, -1, false
		}
	}
	return o.Add(r.Scale(end)), exit, true
}
