package decompose

import (
	"context"
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// tri is a triangle given by its corners. Parts are triangle soups of these:
// cutting creates new corners, so indices into the input no longer suffice.
type tri [3]geom.Vec3

// bvhLeafSize is the number of triangles below which a node is a leaf.
const bvhLeafSize = 4

// bvh is a bounding-volume hierarchy over triangles answering
// nearest-distance queries.
type bvh struct {
	nodes []bvhNode
	tris  []tri
	// slot[i] is the position in tris of the i-th triangle given to newBVH.
	slot []int32
}

type bvhNode struct {
	box geom.Box
	// For a leaf, tris[start:start+count]; for an inner node count == 0 and
	// the children are start and start+1.
	start, count int32
}

func newBVH(ts []tri) *bvh {
	b := &bvh{}
	if len(ts) == 0 {
		return b
	}
	bb := &bvhBuild{prims: make([]bvhPrim, len(ts)), right: make([]int32, len(ts))}
	idx := make([]int32, len(ts))
	for i, t := range ts {
		lo, hi := t[0], t[0]
		for _, v := range t[1:] {
			for k := 0; k < 3; k++ {
				if v[k] < lo[k] {
					lo[k] = v[k]
				}
				if v[k] > hi[k] {
					hi[k] = v[k]
				}
			}
		}
		bb.prims[i] = bvhPrim{lo, hi, t[0].Add(t[1]).Add(t[2]).Scale(1.0 / 3)}
		idx[i] = int32(i)
	}
	b.nodes = make([]bvhNode, 1, 2*len(ts)/bvhLeafSize+2)
	b.build(bb, 0, idx, 0)
	b.tris = make([]tri, len(ts))
	b.slot = make([]int32, len(ts))
	for i, j := range idx {
		b.tris[i] = ts[j]
		b.slot[j] = int32(i)
	}
	return b
}

// bvhPrim is a triangle's bounds and centroid during construction.
type bvhPrim struct{ lo, hi, cent geom.Vec3 }

// bvhBuild holds the triangles' bounds and centroids during construction,
// and a scratch slice for the partition of a node (one for the whole
// build: a node's partition is done before its children's).
type bvhBuild struct {
	prims []bvhPrim
	right []int32
}

// build fills node n with idx[...] which sits at offset off of the final
// order.
func (b *bvh) build(bb *bvhBuild, n int, idx []int32, off int) {
	inf := math.Inf(1)
	box := geom.Box{Min: geom.Vec3{inf, inf, inf}, Max: geom.Vec3{-inf, -inf, -inf}}
	cbox := box
	for _, i := range idx {
		pr := &bb.prims[i]
		lo, hi, c := pr.lo, pr.hi, pr.cent
		for k := 0; k < 3; k++ {
			if lo[k] < box.Min[k] {
				box.Min[k] = lo[k]
			}
			if hi[k] > box.Max[k] {
				box.Max[k] = hi[k]
			}
			if c[k] < cbox.Min[k] {
				cbox.Min[k] = c[k]
			}
			if c[k] > cbox.Max[k] {
				cbox.Max[k] = c[k]
			}
		}
	}
	b.nodes[n].box = box
	if len(idx) <= bvhLeafSize {
		b.nodes[n].start, b.nodes[n].count = int32(off), int32(len(idx))
		return
	}
	s := cbox.Size()
	ax := 0
	if s[1] > s[ax] {
		ax = 1
	}
	if s[2] > s[ax] {
		ax = 2
	}
	// Split at the centroid box's midpoint (a linear partition that keeps
	// the relative order on each side); fall back to halves when one side
	// would be empty. The left side is compacted in place (it never
	// overtakes the reading), the right side gathered in the scratch slice
	// and copied after it: a stable partition, so an unsplit node's order
	// is kept.
	split := 0.5 * (cbox.Min[ax] + cbox.Max[ax])
	mid, right := 0, bb.right[:0]
	for _, i := range idx {
		if bb.prims[i].cent[ax] < split {
			idx[mid] = i
			mid++
		} else {
			right = append(right, i)
		}
	}
	copy(idx[mid:], right)
	if mid == 0 || mid == len(idx) {
		mid = len(idx) / 2
	}
	c := len(b.nodes)
	b.nodes = append(b.nodes, bvhNode{}, bvhNode{})
	b.nodes[n].start = int32(c)
	b.build(bb, c, idx[:mid], off)
	b.build(bb, c+1, idx[mid:], off+mid)
}

// dist returns the distance from p to the nearest triangle, or +Inf for an
// empty hierarchy. Searching stops early once a triangle nearer than stop is
// found (the result is then some distance below stop).
func (b *bvh) dist(p geom.Vec3, stop float64) float64 {
	if len(b.nodes) == 0 {
		return math.Inf(1)
	}
	best2 := math.Inf(1)
	stop2 := stop * stop
	// Each entry carries its node's box distance, worked out when it was
	// pushed (best2 only falls after that, so the test on popping is the
	// same as recomputing it).
	type entry struct {
		n  int32
		d2 float64
	}
	var stack [64]entry
	sp := 0
	stack[sp] = entry{0, boxDist2(b.nodes[0].box, p)}
	sp++
	for sp > 0 {
		sp--
		e := stack[sp]
		if e.d2 >= best2 {
			continue
		}
		n := &b.nodes[e.n]
		if n.count > 0 {
			for _, t := range b.tris[n.start : n.start+n.count] {
				if d := pointTriDist2(p, t); d < best2 {
					best2 = d
				}
			}
			if best2 < stop2 {
				break
			}
			continue
		}
		l, r := n.start, n.start+1
		dl, dr := boxDist2(b.nodes[l].box, p), boxDist2(b.nodes[r].box, p)
		if dl < dr {
			l, r = r, l
			dl, dr = dr, dl
		}
		// Push the farther child first so the nearer is searched first.
		if sp+2 <= len(stack) {
			stack[sp] = entry{l, dl}
			stack[sp+1] = entry{r, dr}
			sp += 2
		}
	}
	return math.Sqrt(best2)
}

// bvhView indexes the pieces of some of a tree's triangles (the triangles
// of a part cut from the part the tree indexes) on that tree's nodes, their
// boxes refitted to the pieces: a linear pass where building a tree sorts.
// Its dist is bvh.dist over the pieces (the same nearest distance, but the
// early stop below stop may end on another triangle, see part.scoutIndex).
type bvhView struct {
	base  *bvh
	boxes []geom.Box // per node of base; empty where no piece lies
	// The pieces cut from base.tris[s] are tris[off[s]:off[s+1]].
	off  []int32
	tris []tri
}

// view returns the view of b holding ts, where slot[i] is the position in
// b.tris of the triangle ts[i] was cut from.
func (b *bvh) view(ts []tri, slot []int32) *bvhView {
	v := &bvhView{base: b, boxes: make([]geom.Box, len(b.nodes)), off: make([]int32, len(b.tris)+1), tris: make([]tri, len(ts))}
	for _, s := range slot {
		v.off[s+1]++
	}
	for s := range b.tris {
		v.off[s+1] += v.off[s]
	}
	fill := slices.Clone(v.off[:len(b.tris)])
	for i, s := range slot {
		v.tris[fill[s]] = ts[i]
		fill[s]++
	}
	inf := math.Inf(1)
	empty := geom.Box{Min: geom.Vec3{inf, inf, inf}, Max: geom.Vec3{-inf, -inf, -inf}}
	// Children come after their parent in b.nodes: refit backwards.
	for n := len(b.nodes) - 1; n >= 0; n-- {
		nd := &b.nodes[n]
		if nd.count == 0 {
			l, r := &v.boxes[nd.start], &v.boxes[nd.start+1]
			v.boxes[n] = geom.Box{Min: minVec(l.Min, r.Min), Max: maxVec(l.Max, r.Max)}
			continue
		}
		box := empty
		for _, t := range v.tris[v.off[nd.start]:v.off[nd.start+nd.count]] {
			for _, p := range t {
				box.Min, box.Max = minVec(box.Min, p), maxVec(box.Max, p)
			}
		}
		v.boxes[n] = box
	}
	return v
}

// minVec and maxVec are the component-wise minimum and maximum of finite
// vectors (no NaN or signed-zero cases: only box bounds come from them).
func minVec(a, b geom.Vec3) geom.Vec3 {
	for k := 0; k < 3; k++ {
		if b[k] < a[k] {
			a[k] = b[k]
		}
	}
	return a
}

func maxVec(a, b geom.Vec3) geom.Vec3 {
	for k := 0; k < 3; k++ {
		if b[k] > a[k] {
			a[k] = b[k]
		}
	}
	return a
}

// dist is bvh.dist over the view's pieces.
func (v *bvhView) dist(p geom.Vec3, stop float64) float64 {
	best2 := math.Inf(1)
	stop2 := stop * stop
	type entry struct {
		n  int32
		d2 float64
	}
	var stack [64]entry
	sp := 0
	stack[sp] = entry{0, boxDist2(v.boxes[0], p)}
	sp++
	for sp > 0 {
		sp--
		e := stack[sp]
		if e.d2 >= best2 {
			continue
		}
		n := &v.base.nodes[e.n]
		if n.count > 0 {
			for _, t := range v.tris[v.off[n.start]:v.off[n.start+n.count]] {
				if d := pointTriDist2(p, t); d < best2 {
					best2 = d
				}
			}
			if best2 < stop2 {
				break
			}
			continue
		}
		l, r := n.start, n.start+1
		dl, dr := boxDist2(v.boxes[l], p), boxDist2(v.boxes[r], p)
		if dl < dr {
			l, r = r, l
			dl, dr = dr, dl
		}
		if sp+2 <= len(stack) {
			stack[sp] = entry{l, dl}
			stack[sp+1] = entry{r, dr}
			sp += 2
		}
	}
	return math.Sqrt(best2)
}

func boxDist2(b geom.Box, p geom.Vec3) float64 {
	var d2 float64
	for i := 0; i < 3; i++ {
		if p[i] < b.Min[i] {
			d := b.Min[i] - p[i]
			d2 += d * d
		} else if p[i] > b.Max[i] {
			d := p[i] - b.Max[i]
			d2 += d * d
		}
	}
	return d2
}

// pointTriDist2 is geom.PointTriangleDist2 for a tri.
func pointTriDist2(p geom.Vec3, t tri) float64 { return geom.PointTriangleDist2(p, t[0], t[1], t[2]) }

// winding counts the signed crossings of the ray o + t·d (t > 0) with the
// triangles: +1 where the ray leaves through a face (d·normal > 0), −1 where
// it enters. For closed outward-wound shells this is the number of shells
// containing o.
func (b *bvh) winding(o, d geom.Vec3) int {
	w := 0
	b.crossings(o, d, func(_ int32, c int) { w += c })
	return w
}

// crossings calls f with the index in b.tris and the sign (see winding) of
// each triangle the ray o + t·d (t > 0) crosses.
func (b *bvh) crossings(o, d geom.Vec3, f func(i int32, c int)) {
	if len(b.nodes) == 0 {
		return
	}
	var inv geom.Vec3
	for i := 0; i < 3; i++ {
		inv[i] = 1 / d[i]
	}
	var stack [64]int32
	sp := 1
	for sp > 0 {
		sp--
		n := &b.nodes[stack[sp]]
		if !rayHitsBox(n.box, o, inv) {
			continue
		}
		if n.count > 0 {
			for i := n.start; i < n.start+n.count; i++ {
				if c := rayCross(o, d, b.tris[i]); c != 0 {
					f(i, c)
				}
			}
			continue
		}
		if sp+2 <= len(stack) {
			stack[sp] = n.start
			stack[sp+1] = n.start + 1
			sp += 2
		}
	}
}

func rayHitsBox(b geom.Box, o, inv geom.Vec3) bool {
	lo, hi := 0.0, math.Inf(1)
	for i := 0; i < 3; i++ {
		t1 := (b.Min[i] - o[i]) * inv[i]
		t2 := (b.Max[i] - o[i]) * inv[i]
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		lo = math.Max(lo, t1)
		hi = math.Min(hi, t2)
	}
	return lo <= hi
}

// rayCross is ±1 when the ray crosses t, by the side it crosses from
// (+1 leaving through the front), else 0.
func rayCross(o, d geom.Vec3, t tri) int {
	_, det, hit := rayHit(o, d, t)
	switch {
	case !hit:
		return 0
	case det < 0: // det = −d·(e1×e2)
		return 1
	default:
		return -1
	}
}

// innerOffset is how far (fraction of the diagonal) in front of a triangle
// its buried-ness is probed.
const innerOffset = 1e-5

// rayDirs are fixed, generic directions for winding probes (no axis or
// diagonal alignment, so grid-like meshes are not hit on edges).
var rayDirs = [3]geom.Vec3{
	{0.5370129502234439, 0.7246174743610939, 0.4319104156452614},
	{-0.3117146291108243, 0.2531118788192160, -0.9158429815197078},
	{0.8493133385707242, -0.5103080144503008, 0.1351021217954843},
}

// insideSolid reports whether x is inside the solid: the median of the
// winding numbers along the three rayDirs is at least 1 (the median guards
// against a ray grazing an edge or escaping through a hole of open input).
func (b *bvh) insideSolid(x geom.Vec3) bool {
	var w [3]int
	for k, d := range rayDirs {
		w[k] = b.winding(x, d)
	}
	return median3(w) >= 1
}

// median3 returns the median of three winding numbers.
func median3(w [3]int) int {
	lo, hi := min(w[0], w[1]), max(w[0], w[1])
	return max(lo, min(hi, w[2]))
}

// classifyInner marks the triangles of ts (which tree indexes) buried
// inside the solid: a point just in front of the triangle is inside another
// shell (the median winding number over three rays is at least 1). Such
// faces, common where the shells of real assets interpenetrate, are not
// concavities. It returns nil when no triangle is buried, and ctx.Err() when
// cancelled.
func classifyInner(ctx context.Context, tree *bvh, ts []tri, diag float64) ([]bool, error) {
	var out []bool
	for i, t := range ts {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		n := t[1].Sub(t[0]).Cross(t[2].Sub(t[0]))
		l := n.Len()
		c := t[0].Add(t[1]).Add(t[2]).Scale(1.0 / 3)
		o := c // a degenerate triangle has no front: probe its centroid
		if l > 0 {
			o = c.Add(n.Scale(innerOffset * diag / l))
		}
		if tree.insideSolid(o) {
			if out == nil {
				out = make([]bool, len(ts))
			}
			out[i] = true
		}
	}
	return out, nil
}

// firstHit returns the ray parameter of the nearest triangle the ray
// o + t·d (t > 0) crosses and whether it is crossed from behind (d·normal
// > 0); ok is false when the ray hits nothing.
func (b *bvh) firstHit(o, d geom.Vec3) (tNear float64, back, ok bool) {
	if len(b.nodes) == 0 {
		return 0, false, false
	}
	var inv geom.Vec3
	for i := 0; i < 3; i++ {
		inv[i] = 1 / d[i]
	}
	tNear = math.Inf(1)
	var stack [64]int32
	sp := 1
	for sp > 0 {
		sp--
		n := &b.nodes[stack[sp]]
		if !rayHitsBox(n.box, o, inv) {
			continue
		}
		if n.count > 0 {
			for _, t := range b.tris[n.start : n.start+n.count] {
				if th, det, hit := rayHit(o, d, t); hit && th < tNear {
					tNear, back, ok = th, det < 0, true
				}
			}
			continue
		}
		if sp+2 <= len(stack) {
			stack[sp] = n.start
			stack[sp+1] = n.start + 1
			sp += 2
		}
	}
	return tNear, back, ok
}

// rayHit is Möller–Trumbore: the ray parameter of the crossing with t and
// the determinant (negative when d leaves through t's front).
func rayHit(o, d geom.Vec3, t tri) (float64, float64, bool) {
	e1, e2 := t[1].Sub(t[0]), t[2].Sub(t[0])
	p := d.Cross(e2)
	det := e1.Dot(p)
	if det == 0 {
		return 0, 0, false
	}
	inv := 1 / det
	s := o.Sub(t[0])
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return 0, 0, false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return 0, 0, false
	}
	th := e2.Dot(q) * inv
	if th <= 0 {
		return 0, 0, false
	}
	return th, det, true
}

// forest is a set of hierarchies queried as one (a merged pair's parts'
// hierarchies, which saves building one for each pair tried).
type forest []*bvh

// dist is bvh.dist over every tree.
func (f forest) dist(p geom.Vec3, stop float64) float64 {
	d := math.Inf(1)
	for _, b := range f {
		if d = math.Min(d, b.dist(p, stop)); d < stop {
			break
		}
	}
	return d
}

// firstHit is bvh.firstHit over every tree.
func (f forest) firstHit(o, d geom.Vec3) (tNear float64, back, ok bool) {
	for _, b := range f {
		if t, bk, hit := b.firstHit(o, d); hit && (!ok || t < tNear) {
			tNear, back, ok = t, bk, true
		}
	}
	return tNear, back, ok
}
