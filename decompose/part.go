package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// plane is the set n·x = d; n is a unit vector.
type plane struct {
	n geom.Vec3
	d float64
}

func (p plane) eval(x geom.Vec3) float64 { return p.n.Dot(x) - p.d }

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
	// src, for a side of a cut as splitSide returns it: the index in the
	// cut part's tris of the triangle each of tris was cut from.
	src []int32
	// partCache holds what is worked out from tris and caps on first use.
	partCache
}

// partCache is what a part works out from its triangles (and, for own, its
// caps) on first use and keeps for the next use. Its lifetime is the
// part's: tris and caps are filled in when a part is made and never change
// after (a proxy part drops its tris once hulled, after their last use), so
// nothing in it is ever invalidated; a cache is only dropped when a better
// one replaces it (trees replace base, slot and view). Filling it is not
// safe for concurrent use on one part: a part is worked on by one goroutine
// at a time.
type partCache struct {
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
