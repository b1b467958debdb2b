package hull

import (
	"container/heap"
	"errors"
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// Parameters of the conservative edge collapses (normalized units).
const (
	// collapseSlack is how far a collapse's new vertex may lie above the
	// plane of a face next to the ones it replaces, or above the plane of
	// three consecutive vertices around it (the polytope stays convex to
	// within this; it lets collapses run over coplanar facets).
	collapseSlack = 1e-9
	// collapseMargin is added to the planes the new vertex must lie on
	// or above (the faces it replaces).
	collapseMargin = 1e-12
	// sliverTolerance: a new vertex closer than this to another vertex of
	// a new face, or to the line of its other two, is refused.
	sliverTolerance = 1e-7
	// convexCheck: how far a vertex may lie above a new face's plane
	// (convexAround), well below ConvexityTolerance.
	convexCheck = 1e-8
	// lazyFactor, eagerWindow: costs are recomputed lazily while the mesh
	// has more than min(lazyFactor·target, target+eagerWindow) vertices,
	// target being the number it must be reduced to.
	lazyFactor  = 2
	eagerWindow = 64
	// deferFactor: above lazyFactor times the target, the edges a
	// collapse creates are queued unevaluated at this many times its cost
	// (evaluated when they reach the top; most never do, their ends being
	// collapsed first). Measured on 5,000 points on a sphere: evaluations
	// 55k -> 27k, volume unchanged at 255 vertices, 1% smaller at 64.
	deferFactor = 8.0
	// relocatePasses bounds the passes of relocate over the vertices once
	// the limits are met; a pass that shrinks the volume by less than
	// relocateGain (relative) is the last.
	relocatePasses = 4
	// relocateRounds bounds the cutting-plane rounds of one relocation.
	relocateRounds = 32
	relocateGain   = 1e-4
)

// collapser reduces a convex triangle mesh by conservative edge collapses,
// after Sander et al., "Silhouette clipping" (2000), progressive hulls:
// the two ends of an edge are replaced by one new vertex c chosen by a
// small linear program, so that
//
//   - c lies on or above the plane of every face around the two ends (the
//     new faces then cover the old ones from outside: the new polytope
//     contains the old one, and so every input point);
//   - c lies on or below the planes of the faces just beyond them and of
//     every three consecutive vertices of the ring around it (the new
//     polytope is convex);
//   - the added volume, linear in c, is as small as possible.
//
// Collapses are made cheapest first (a priority queue; costs around a
// collapse are recomputed at once, those one ring further when they reach
// the top) until the vertex and face limits are met. c is the solution of
// three plane equations, computed once: vertices are not moved afterwards.
type collapser struct {
	pos   []geom.Vec3
	tri   [][3]int32
	dead  []bool    // per triangle
	plane []plane   // per triangle: unit normal (zero without area), offset
	vt    [][]int32 // live triangles around each vertex
	ver   []int32   // per vertex: bumped when a cost involving it may change
	alive []bool
	live  int
	in    geom.Vec3 // a point strictly inside every polytope of the run
	q     collapseQueue
	eager bool // recompute changed costs at once (see collapseReduce)
	lp    lp3

	d, from, to, link []int32 // scratch of star

	orig []geom.Vec3 // the exact hull's vertices, for relocate
	dirs directions  // orig indexed by direction from in
	near []int32     // scratch of relocate
}

type collapse struct {
	cost   float64
	a, b   int32
	va, vb int32
	c      geom.Vec3
}

type collapseQueue []collapse

func (q collapseQueue) Len() int { return len(q) }
func (q collapseQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	if q[i].a != q[j].a {
		return q[i].a < q[j].a
	}
	return q[i].b < q[j].b
}
func (q collapseQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *collapseQueue) Push(x any)   { *q = append(*q, x.(collapse)) }
func (q *collapseQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// collapseReduce returns a convex polytope with triangular faces that
// contains the closed convex mesh (v, tris) and has at most maxV vertices
// (if > 0) and maxF polygons (if > 0), or an error when the collapses run
// out first.
func collapseReduce(v []geom.Vec3, tris [][3]uint32, maxV, maxF int) (*polytope, error) {
	h := newCollapser(v, tris, v)
	// While the mesh has many more vertices than the limit, costs around
	// a collapse are recomputed only when they reach the top of the queue
	// (cheap: the collapses there add little volume each); closer to the
	// limit every cost that changes is recomputed at once, which finds
	// the collapses that became possible.
	target := maxV
	if target <= 0 || (maxF > 0 && (maxF+4)/2 < target) {
		target = (maxF + 4) / 2
	}
	eagerFrom := min(lazyFactor*target, target+eagerWindow)
	h.eager = h.live <= eagerFrom
	h.requeueAll()
	requeued := h.live // vertex count at the last full requeue
	for !h.fits(maxV, maxF) {
		if !h.eager && h.live <= eagerFrom {
			h.eager = true
			h.relocateAll()
			h.requeueAll()
		}
		if h.q.Len() == 0 && requeued != h.live {
			// Collapses found impossible are not requeued when the
			// polytope changes two rings away: try them all again.
			requeued = h.live
			h.requeueAll()
		}
		if h.q.Len() == 0 || h.live <= 4 {
			return nil, errors.New("no edge collapse left")
		}
		e := heap.Pop(&h.q).(collapse)
		if !h.alive[e.a] || !h.alive[e.b] {
			continue
		}
		stale := e.va != h.ver[e.a] || e.vb != h.ver[e.b]
		if stale && h.eager {
			continue // apply has queued it afresh already
		}
		// Evaluate again: a stale cost has changed, and even a fresh one
		// is bounded by the faces beyond the ring, which may have changed.
		cost, c, ok := h.eval(e.a, e.b)
		if !ok {
			continue
		}
		if h.q.Len() > 0 && cost > e.cost && cost > h.q[0].cost {
			heap.Push(&h.q, collapse{cost: cost, a: e.a, b: e.b, va: h.ver[e.a], vb: h.ver[e.b], c: c})
			continue
		}
		h.apply(e.a, e.b, c, cost)
	}
	before := h.polytope()
	for pass := 0; pass < relocatePasses; pass++ {
		if !h.relocateAll() {
			break
		}
	}
	if !h.fits(maxV, maxF) {
		return before, nil // moved vertices bent coplanar faces past maxF
	}
	return h.polytope(), nil
}

// requeueAll evaluates every edge afresh.
func (h *collapser) requeueAll() {
	h.q = h.q[:0]
	for a := range h.pos {
		if !h.alive[a] {
			continue
		}
		for _, b := range h.neighbours(int32(a)) {
			if int32(a) < b {
				h.push(int32(a), b)
			}
		}
	}
}

// newCollapser starts from the closed convex triangle mesh (v, tris), which
// contains the exact hull whose vertices are orig.
func newCollapser(v []geom.Vec3, tris [][3]uint32, orig []geom.Vec3) *collapser {
	h := &collapser{
		pos:   append([]geom.Vec3(nil), v...),
		vt:    make([][]int32, len(v)),
		ver:   make([]int32, len(v)),
		alive: make([]bool, len(v)),
		live:  len(v),
		orig:  orig,
	}
	for i := range h.alive {
		h.alive[i] = true
	}
	for _, x := range orig {
		h.in = h.in.Add(x)
	}
	h.in = h.in.Scale(1 / float64(len(orig)))
	for i, t := range tris {
		h.addTriangle(int32(t[0]), int32(t[1]), int32(t[2]))
		for _, x := range t {
			h.vt[x] = append(h.vt[x], int32(i))
		}
	}
	h.dirs = newDirections(orig, h.in)
	return h
}

// tighten relocates the vertices of the convex polytope p, which contains
// the exact hull whose vertices are orig (see relocate), and returns the
// result as triangles.
func tighten(p *polytope, orig []geom.Vec3) *polytope {
	v, tris := p.mesh(func(x geom.Vec3) geom.Vec3 { return x })
	h := newCollapser(v, tris, orig)
	for pass := 0; pass < relocatePasses; pass++ {
		if !h.relocateAll() {
			break
		}
	}
	return h.polytope()
}

// fits reports whether the mesh is within the limits (polygons counted
// once the triangles fit no more).
func (h *collapser) fits(maxV, maxF int) bool {
	if maxV > 0 && h.live > maxV {
		return false
	}
	if maxF <= 0 || 2*h.live-4 <= maxF {
		return true
	}
	p := h.polytope()
	var tris [][3]uint32
	for _, f := range p.f {
		tris = append(tris, [3]uint32{uint32(f[0]), uint32(f[1]), uint32(f[2])})
	}
	return PolygonCount(p.v, tris, CoplanarTolerance) <= maxF
}

// neighbours returns the vertices joined to a by an edge, in no
// particular but deterministic order.
func (h *collapser) neighbours(a int32) []int32 {
	var out []int32
	for _, t := range h.vt[a] {
		tr := h.tri[t]
		for k := 0; k < 3; k++ {
			if tr[k] == a {
				out = append(out, tr[(k+1)%3])
			}
		}
	}
	return out
}

// push evaluates the collapse of edge ab and queues it when it can be made.
func (h *collapser) push(a, b int32) {
	if b < a {
		a, b = b, a
	}
	cost, c, ok := h.eval(a, b)
	if !ok {
		return
	}
	heap.Push(&h.q, collapse{cost: cost, a: a, b: b, va: h.ver[a], vb: h.ver[b], c: c})
}

// star gathers the triangles around a and b (h.d) and the ring of
// vertices around them, counter-clockwise seen from outside (h.link). It
// fails when the collapse would not leave a closed 2-manifold: the ring is
// not one simple loop (a and b share a neighbour other than the two
// opposite vertices) or an opposite vertex would keep fewer than three
// edges.
func (h *collapser) star(a, b int32) bool {
	d := append(h.d[:0], h.vt[a]...)
	for _, t := range h.vt[b] {
		tr := h.tri[t]
		if tr[0] != a && tr[1] != a && tr[2] != a {
			d = append(d, t)
		}
	}
	h.d = d
	from, to := h.from[:0], h.to[:0]
	shared := 0
	for _, t := range d {
		tr := h.tri[t]
		na := 0
		for k := 0; k < 3; k++ {
			if tr[k] == a || tr[k] == b {
				na++
			}
		}
		if na == 2 {
			for _, x := range tr {
				if x != a && x != b && len(h.vt[x]) <= 3 {
					return false
				}
			}
			shared++
			continue
		}
		for k := 0; k < 3; k++ {
			x, y := tr[k], tr[(k+1)%3]
			if x != a && x != b && y != a && y != b {
				from, to = append(from, x), append(to, y)
			}
		}
	}
	h.from, h.to = from, to
	if shared != 2 || len(from) < 3 {
		return false
	}
	link := h.link[:0]
	cur := from[0]
	for range from {
		for _, x := range link {
			if x == cur {
				return false
			}
		}
		link = append(link, cur)
		j := 0
		for j < len(from) && from[j] != cur {
			j++
		}
		if j == len(from) {
			return false
		}
		cur = to[j]
	}
	h.link = link
	return cur == from[0]
}

// owner returns the live triangle with the directed edge x→y, or -1.
func (h *collapser) owner(x, y int32) int32 {
	for _, t := range h.vt[x] {
		tr := h.tri[t]
		for k := 0; k < 3; k++ {
			if tr[k] == x && tr[(k+1)%3] == y {
				return t
			}
		}
	}
	return -1
}

// eval returns the volume a collapse of edge ab adds and its new vertex.
func (h *collapser) eval(a, b int32) (float64, geom.Vec3, bool) {
	if !h.star(a, b) {
		return 0, geom.Vec3{}, false
	}
	p := h.pos
	h.lp.reset()
	var oldVol float64
	for _, t := range h.d {
		tr := h.tri[t]
		p0, p1, p2 := p[tr[0]], p[tr[1]], p[tr[2]]
		oldVol += p0.Dot(p1.Cross(p2))
		if pl := h.plane[t]; pl.n != (geom.Vec3{}) {
			h.lp.add(pl.n, pl.d+collapseMargin)
		}
	}
	var obj geom.Vec3
	link := h.link
	nl := len(link)
	for i, x := range link {
		y := link[(i+1)%nl]
		obj = obj.Add(p[x].Cross(p[y]))
		g := h.owner(y, x)
		if g < 0 {
			return 0, geom.Vec3{}, false
		}
		if pl := h.plane[g]; pl.n != (geom.Vec3{}) {
			h.lp.add(pl.n.Scale(-1), -pl.d-collapseSlack)
		}
		A, B, C := p[link[(i+nl-1)%nl]], p[x], p[y]
		// A×B + B×C + C×A = (B-A)×(C-A), the normal of the plane through
		// A, B and C (differences: less cancellation).
		w := B.Sub(A).Cross(C.Sub(A))
		if l := w.Len(); l > 1e-14 {
			w = w.Scale(1 / l)
			h.lp.add(w, w.Dot(A)-collapseSlack)
		}
	}
	c, ok := h.lp.solve(obj)
	if !ok {
		return 0, geom.Vec3{}, false
	}
	// Every new face must have the inner point strictly below it.
	for i, x := range link {
		y := link[(i+1)%nl]
		if !h.goodFace(c, p[x], p[y]) {
			return 0, geom.Vec3{}, false
		}
	}
	if !h.convexAround(c, link) {
		return 0, geom.Vec3{}, false
	}
	return (c.Dot(obj) - oldVol) / 6, c, true
}

// convexAround reports whether the faces (c, link[i], link[i+1]) would
// be convex, within convexCheck, with one another and with the faces
// beyond the ring: the linear constraints bound c against the neighbours'
// planes, which through a small new face can still leave a neighbour's
// far vertex well above it.
func (h *collapser) convexAround(c geom.Vec3, link []int32) bool {
	p := h.pos
	nl := len(link)
	for i, a := range link {
		b := link[(i+1)%nl]
		n := p[a].Sub(c).Cross(p[b].Sub(c)).Normalize()
		d := n.Dot(c)
		g := h.owner(b, a)
		if g < 0 {
			return false
		}
		for _, y := range h.tri[g] {
			if n.Dot(p[y])-d > convexCheck {
				return false
			}
		}
		if n.Dot(p[link[(i+2)%nl]])-d > convexCheck || n.Dot(p[link[(i+nl-1)%nl]])-d > convexCheck {
			return false
		}
	}
	return true
}

// goodFace reports whether the new face (c, a, b) is no sliver (c at
// least sliverTolerance from a, b and their line: a sliver's normal is
// rounding noise, and a face next to it may then seem to fold) and faces
// away from the inner point.
func (h *collapser) goodFace(c, a, b geom.Vec3) bool {
	n := a.Sub(c).Cross(b.Sub(c))
	l := n.Len()
	return a.Sub(c).Len() > sliverTolerance && b.Sub(c).Len() > sliverTolerance &&
		l > sliverTolerance*a.Sub(b).Len() && n.Dot(c.Sub(h.in)) > 1e-12*l
}

// apply collapses edge ab, of the given cost, into a new vertex at c and
// requeues the costs that change.
func (h *collapser) apply(a, b int32, c geom.Vec3, cost float64) {
	if !h.star(a, b) {
		return
	}
	nc := int32(len(h.pos))
	h.pos = append(h.pos, c)
	h.vt = append(h.vt, nil)
	h.ver = append(h.ver, 0)
	h.alive = append(h.alive, true)
	for _, t := range h.d {
		h.dead[t] = true
	}
	h.alive[a], h.alive[b] = false, false
	h.vt[a], h.vt[b] = nil, nil
	h.live--
	link := append([]int32(nil), h.link...)
	for _, x := range link {
		kept := h.vt[x][:0]
		for _, t := range h.vt[x] {
			if !h.dead[t] {
				kept = append(kept, t)
			}
		}
		h.vt[x] = kept
	}
	for i, x := range link {
		y := link[(i+1)%len(link)]
		t := int32(len(h.tri))
		h.addTriangle(nc, x, y)
		h.vt[nc] = append(h.vt[nc], t)
		h.vt[x] = append(h.vt[x], t)
		h.vt[y] = append(h.vt[y], t)
	}
	// The edges at c are new and those at the ring have new faces around
	// them: their costs change. One ring further only the planes that
	// bound c change: collapseReduce evaluates every collapse again
	// before making it. In the eager phase the ring's edges are evaluated
	// at once, else when they reach the top of the queue.
	var edges [][2]int32
	for _, x := range link {
		h.ver[x]++
		if !h.eager {
			continue
		}
		for _, w := range h.neighbours(x) {
			if w != nc {
				edges = append(edges, [2]int32{min(x, w), max(x, w)})
			}
		}
	}
	h.ver[nc]++
	if !h.eager {
		// Queue the new edges unevaluated (version -1, so evaluated when
		// they reach the top) at deferFactor times the cost of this
		// collapse (costs grow as the polytope coarsens).
		for _, x := range link {
			heap.Push(&h.q, collapse{cost: deferFactor * cost, a: min(x, nc), b: max(x, nc), va: -1, vb: -1})
		}
		return
	}
	for _, x := range link {
		h.push(x, nc)
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i][0] != edges[j][0] {
			return edges[i][0] < edges[j][0]
		}
		return edges[i][1] < edges[j][1]
	})
	for i, e := range edges {
		if i == 0 || e != edges[i-1] {
			h.push(e[0], e[1])
		}
	}
}

// polytope returns the live mesh, vertices numbered in order of first use.
func (h *collapser) polytope() *polytope {
	p := &polytope{}
	idx := make([]int32, len(h.pos))
	for i := range idx {
		idx[i] = -1
	}
	for t, tr := range h.tri {
		if h.dead[t] {
			continue
		}
		f := make([]int32, 3)
		for k, x := range tr {
			if idx[x] < 0 {
				idx[x] = int32(len(p.v))
				p.v = append(p.v, h.pos[x])
			}
			f[k] = idx[x]
		}
		p0, p1, p2 := h.pos[tr[0]], h.pos[tr[1]], h.pos[tr[2]]
		n := p1.Sub(p0).Cross(p2.Sub(p0)).Normalize()
		d := math.Max(n.Dot(p0), math.Max(n.Dot(p1), n.Dot(p2)))
		p.f = append(p.f, f)
		p.n = append(p.n, n)
		p.d = append(p.d, d)
	}
	return p
}

// relocateAll moves every vertex, in order, to where it makes the polytope
// smallest while it stays convex and contains the exact hull (relocate).
// It reports whether the volume shrank by more than relocateGain.
func (h *collapser) relocateAll() bool {
	before := h.polytope().volume()
	for x := range h.pos {
		if h.alive[x] {
			h.relocate(int32(x))
		}
	}
	return h.polytope().volume() < before*(1-relocateGain)
}

// relocate moves vertex x to the solution of a linear program: least
// volume, every vertex of the exact hull on or below each face around x
// (for the face (x, A, B) and a point p, "p below" is linear in x: x on
// the right side of the plane through A, B and p), and the same convexity
// constraints as a collapse. The program is solved by cutting planes: the
// point constraints are added a few at a time, those violated by the last
// solution, until none is (or relocateRounds pass: x then stays).
func (h *collapser) relocate(x int32) {
	// The ring around x, counter-clockwise from outside.
	from, to := h.from[:0], h.to[:0]
	for _, t := range h.vt[x] {
		tr := h.tri[t]
		for k := 0; k < 3; k++ {
			if tr[k] == x {
				from, to = append(from, tr[(k+1)%3]), append(to, tr[(k+2)%3])
			}
		}
	}
	h.from, h.to = from, to
	nl := len(from)
	if nl < 3 {
		return
	}
	link := h.link[:0]
	cur := from[0]
	for range from {
		link = append(link, cur)
		j := 0
		for j < nl && from[j] != cur {
			j++
		}
		if j == nl {
			return
		}
		cur = to[j]
	}
	h.link = link
	if cur != from[0] {
		return
	}
	p := h.pos
	v := p[x]
	var centre geom.Vec3
	for _, l := range link {
		centre = centre.Add(p[l])
	}
	// Outside the cone from h.in over the faces around x the polytope does
	// not change (the ring, and so the cone's boundary, stays): only the
	// exact-hull vertices inside it matter. The cone lies within the
	// angle of the farthest ring vertex around the direction of x.
	u := v.Sub(h.in).Normalize()
	cosMax := 1.0
	for _, l := range link {
		cosMax = math.Min(cosMax, u.Dot(p[l].Sub(h.in).Normalize()))
	}
	near := h.dirs.within(u, cosMax, h.near[:0])
	h.near = near

	h.lp.reset()
	var obj geom.Vec3
	for i, a := range link {
		b := link[(i+1)%nl]
		A, B := p[a], p[b]
		obj = obj.Add(A.Cross(B))
		g := h.owner(b, a)
		if g < 0 {
			return
		}
		if pl := h.plane[g]; pl.n != (geom.Vec3{}) {
			h.lp.add(pl.n.Scale(-1), -pl.d-collapseSlack)
		}
		C := p[link[(i+nl-1)%nl]]
		w := A.Sub(C).Cross(B.Sub(C)) // as in eval
		if l := w.Len(); l > 1e-14 {
			w = w.Scale(1 / l)
			h.lp.add(w, w.Dot(C)-collapseSlack)
		}
	}
	// Cutting planes: solve with the constraints found so far, then add,
	// for each new face, the exact-hull vertex farthest above it.
	var c geom.Vec3
	for round := 0; ; round++ {
		if round == relocateRounds {
			return
		}
		var ok bool
		c, ok = h.lp.solve(obj)
		if !ok || c.Dot(obj) >= v.Dot(obj) {
			return
		}
		added, sliver := false, false
		for i, a := range link {
			A, B := p[a], p[link[(i+1)%nl]]
			if !h.goodFace(c, A, B) {
				sliver = true
				continue
			}
			n := A.Sub(c).Cross(B.Sub(c)).Normalize()
			dn := n.Dot(c)
			worst, wq := lpTolerance, int32(-1)
			for _, qi := range near {
				if d := n.Dot(h.orig[qi]) - dn; d > worst {
					worst, wq = d, qi
				}
			}
			if wq < 0 {
				continue
			}
			// "q below the face (x, A, B)" is x·w >= w·A with
			// w = A×B + B×q + q×A = (B-A)×(q-A), the normal of the plane
			// through A, B and q.
			q := h.orig[wq]
			w := B.Sub(A).Cross(q.Sub(A))
			l := w.Len()
			if l <= 1e-14 {
				return
			}
			w = w.Scale(1 / l)
			h.lp.add(w, w.Dot(A)+collapseMargin)
			added = true
		}
		if !added {
			if sliver || !h.convexAround(c, link) {
				return
			}
			break
		}
	}
	h.pos[x] = c
	for _, t := range h.vt[x] {
		h.plane[t] = h.trianglePlane(h.tri[t])
	}
}

// addTriangle appends the triangle (a, b, c) and its plane (not yet to
// the lists around its vertices).
func (h *collapser) addTriangle(a, b, c int32) {
	t := [3]int32{a, b, c}
	h.tri = append(h.tri, t)
	h.dead = append(h.dead, false)
	h.plane = append(h.plane, h.trianglePlane(t))
}

// trianglePlane returns the triangle's unit normal and offset, or a zero
// normal for a triangle without area.
func (h *collapser) trianglePlane(t [3]int32) plane {
	p0 := h.pos[t[0]]
	n := h.pos[t[1]].Sub(p0).Cross(h.pos[t[2]].Sub(p0))
	l := n.Len()
	if !(l > 1e-300) {
		return plane{}
	}
	n = n.Scale(1 / l)
	return plane{n, n.Dot(p0)}
}

// directions indexes points by their direction from a centre: the cells
// of a cube map (directionCell), each with its mean direction and the
// cosine and sine of the largest angle between it and its points.
type directions struct {
	axis     []geom.Vec3
	cos, sin []float64
	pts      [][]int32
}

// directionCells is k, the cells per cube face edge (6k² cells).
const directionCells = 8

func newDirections(p []geom.Vec3, centre geom.Vec3) directions {
	n := 6 * directionCells * directionCells
	d := directions{axis: make([]geom.Vec3, n), cos: make([]float64, n), sin: make([]float64, n), pts: make([][]int32, n)}
	unit := make([]geom.Vec3, len(p))
	for i, x := range p {
		unit[i] = x.Sub(centre).Normalize()
		c := directionCell(unit[i], directionCells)
		d.pts[c] = append(d.pts[c], int32(i))
		d.axis[c] = d.axis[c].Add(unit[i])
	}
	for c := range d.axis {
		d.axis[c] = d.axis[c].Normalize()
		cos := 1.0
		for _, i := range d.pts[c] {
			cos = math.Min(cos, d.axis[c].Dot(unit[i]))
		}
		cos = math.Max(-1, cos-1e-9) // widened a little for rounding
		d.cos[c], d.sin[c] = cos, math.Sqrt(1-cos*cos)
	}
	return d
}

// within appends to out the points that may lie within the angle whose
// cosine is cosMax of the unit direction u (a superset: every such point,
// perhaps more), in increasing order of cell and index.
func (d directions) within(u geom.Vec3, cosMax float64, out []int32) []int32 {
	cosMax = math.Max(-1, math.Min(1, cosMax-1e-9))
	sinMax := math.Sqrt(1 - cosMax*cosMax)
	for c, pts := range d.pts {
		if len(pts) == 0 {
			continue
		}
		// The angle to the axis is at most the sum of the two angles:
		// compare cosines, cos(a+b) = cos a cos b - sin a sin b, unless
		// the sum passes π (then every direction qualifies).
		// (a + b > π exactly when cos a + cos b < 0).
		if cosMax+d.cos[c] < 0 || u.Dot(d.axis[c]) >= cosMax*d.cos[c]-sinMax*d.sin[c] {
			out = append(out, pts...)
		}
	}
	return out
}
