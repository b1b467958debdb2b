package hull

import (
	"errors"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// errHorizon reports that some points could not be inserted because their
// horizon was not a single simple loop, even after retries.
var errHorizon = errors.New("horizon is not a simple loop")

// qface is one triangle of the hull under construction. Edge i runs from
// v[i] to v[(i+1)%3]; adj[i] is the face across it.
type qface struct {
	v       [3]int32
	adj     [3]int32
	n       geom.Vec3
	d       float64
	outside []int32 // points strictly above the plane (dist > eps)
	far     int32   // farthest outside point, -1 if none
	farDist float64
	vis     int32 // stamp of the last visibility search that found it visible
	dead    bool
}

// hedge is a horizon edge a→b whose outer neighbour face is nb.
type hedge struct{ a, b, nb int32 }

// quickhull builds the convex hull of p (already recentred and rescaled so
// that the bounding-box diagonal is 1) with the plane tolerance eps.
type quickhull struct {
	p       []geom.Vec3
	eps     float64
	faces   []qface
	free    []int32
	pending []int32
	stamp   int32

	// scratch, reused between insertions
	visible  []int32
	horizon  []hedge
	newFaces []int32
	moved    []int32
	vStamp   []int32 // per point: stamp when it started a horizon edge
	vEdge    []int32 // per point: index of that horizon edge
	deferred []int32
}

func (q *quickhull) dist(f *qface, i int32) float64 { return f.n.Dot(q.p[i]) - f.d }

// newFace allocates a face with vertices a, b, c (counter-clockwise seen
// from outside) and computes its plane.
func (q *quickhull) newFace(a, b, c int32) int32 {
	var id int32
	var out []int32
	if n := len(q.free); n > 0 {
		id = q.free[n-1]
		q.free = q.free[:n-1]
		out = q.faces[id].outside[:0]
	} else {
		id = int32(len(q.faces))
		q.faces = append(q.faces, qface{})
	}
	pa, pb, pc := q.p[a], q.p[b], q.p[c]
	n := pb.Sub(pa).Cross(pc.Sub(pa)).Normalize()
	q.faces[id] = qface{
		v: [3]int32{a, b, c}, adj: [3]int32{-1, -1, -1},
		n: n, d: n.Dot(pa.Add(pb).Add(pc)) / 3,
		outside: out, far: -1, vis: -1,
	}
	return id
}

func (q *quickhull) addOutside(fi, pi int32, d float64) {
	f := &q.faces[fi]
	f.outside = append(f.outside, pi)
	if f.far < 0 || d > f.farDist {
		f.far, f.farDist = pi, d
	}
}

// run builds the hull from the initial tetrahedron t (non-degenerate, as
// found by the rank detection). It returns errHorizon when some point
// stayed outside the hull by more than eps.
func (q *quickhull) run(t [4]int32) error {
	q.vStamp = make([]int32, len(q.p))
	q.vEdge = make([]int32, len(q.p))
	for i := range q.vStamp {
		q.vStamp[i] = -1
	}
	// Tetrahedron with outward faces: orient so that t[3] is below (a,b,c).
	a, b, c, d := t[0], t[1], t[2], t[3]
	n := q.p[b].Sub(q.p[a]).Cross(q.p[c].Sub(q.p[a]))
	if n.Dot(q.p[d].Sub(q.p[a])) > 0 {
		b, c = c, b
	}
	fs := [4]int32{q.newFace(a, b, c), q.newFace(a, d, b), q.newFace(b, d, c), q.newFace(c, d, a)}
	for _, fi := range fs {
		for e := 0; e < 3; e++ {
			u, w := q.faces[fi].v[e], q.faces[fi].v[(e+1)%3]
			for _, gi := range fs {
				for k := 0; k < 3; k++ {
					if q.faces[gi].v[k] == w && q.faces[gi].v[(k+1)%3] == u {
						q.faces[fi].adj[e] = gi
					}
				}
			}
		}
	}
	for i := range q.p {
		pi := int32(i)
		if pi == a || pi == b || pi == c || pi == d {
			continue
		}
		q.assign(pi, fs[:])
	}
	for _, fi := range fs {
		if len(q.faces[fi].outside) > 0 {
			q.pending = append(q.pending, fi)
		}
	}
	for round := 0; ; round++ {
		q.drain()
		if len(q.deferred) == 0 {
			return nil
		}
		// Points whose insertion failed: retry those still outside.
		def := append([]int32(nil), q.deferred...)
		q.deferred = q.deferred[:0]
		live := q.liveFaces()
		still := 0
		for _, pi := range def {
			if q.assign(pi, live) {
				still++
			}
		}
		if still == 0 {
			return nil
		}
		if round == 2 {
			return errHorizon
		}
		for _, fi := range live {
			if len(q.faces[fi].outside) > 0 {
				q.pending = append(q.pending, fi)
			}
		}
	}
}

// assign puts point pi in the outside set of the first face of fs it is
// more than eps above; it reports whether there was one.
func (q *quickhull) assign(pi int32, fs []int32) bool {
	for _, fi := range fs {
		if d := q.dist(&q.faces[fi], pi); d > q.eps {
			q.addOutside(fi, pi, d)
			return true
		}
	}
	return false
}

func (q *quickhull) liveFaces() []int32 {
	var out []int32
	for i := range q.faces {
		if !q.faces[i].dead {
			out = append(out, int32(i))
		}
	}
	return out
}

// drain inserts farthest points until no face has an outside set.
func (q *quickhull) drain() {
	for len(q.pending) > 0 {
		fi := q.pending[len(q.pending)-1]
		f := &q.faces[fi]
		if f.dead || len(f.outside) == 0 {
			q.pending = q.pending[:len(q.pending)-1]
			continue
		}
		if !q.insert(fi, f.far) {
			// Drop the point from this face and remember it.
			f = &q.faces[fi]
			pi := f.far
			k := 0
			f.far, f.farDist = -1, 0
			for _, o := range f.outside {
				if o == pi {
					continue
				}
				f.outside[k] = o
				k++
				if d := q.dist(f, o); f.far < 0 || d > f.farDist {
					f.far, f.farDist = o, d
				}
			}
			f.outside = f.outside[:k]
			q.deferred = append(q.deferred, pi)
		}
	}
}

// insert adds point pi, which is outside face seed, to the hull. It
// reports false (leaving the hull untouched) when the visible region's
// boundary is not one simple loop, which only numerical noise can cause.
func (q *quickhull) insert(seed, pi int32) bool {
	q.stamp++
	st := q.stamp
	q.visible = append(q.visible[:0], seed)
	q.faces[seed].vis = st
	for k := 0; k < len(q.visible); k++ {
		f := &q.faces[q.visible[k]]
		for e := 0; e < 3; e++ {
			gi := f.adj[e]
			g := &q.faces[gi]
			if g.vis == st {
				continue
			}
			if q.dist(g, pi) > q.eps {
				g.vis = st
				q.visible = append(q.visible, gi)
			}
		}
	}
	// Horizon: edges of visible faces whose neighbour is not visible.
	q.horizon = q.horizon[:0]
	for _, fi := range q.visible {
		f := &q.faces[fi]
		for e := 0; e < 3; e++ {
			gi := f.adj[e]
			if q.faces[gi].vis == st {
				continue
			}
			a := f.v[e]
			if q.vStamp[a] == st {
				return false // pinched: a vertex starts two horizon edges
			}
			q.vStamp[a] = st
			q.vEdge[a] = int32(len(q.horizon))
			q.horizon = append(q.horizon, hedge{a, f.v[(e+1)%3], gi})
		}
	}
	// The horizon must be one loop through every horizon edge.
	n := len(q.horizon)
	if n < 3 {
		return false
	}
	e, steps := int32(0), 0
	for {
		b := q.horizon[e].b
		if q.vStamp[b] != st {
			return false
		}
		e = q.vEdge[b]
		steps++
		if e == 0 || steps > n {
			break
		}
	}
	if steps != n {
		return false // several loops: the visible region has a hole
	}
	// Collect the outside points of the visible faces before reuse.
	q.moved = q.moved[:0]
	for _, fi := range q.visible {
		f := &q.faces[fi]
		for _, o := range f.outside {
			if o != pi {
				q.moved = append(q.moved, o)
			}
		}
		f.outside = f.outside[:0]
		f.dead = true
	}
	// Cone of new faces, in loop order.
	q.newFaces = q.newFaces[:0]
	e = 0
	for k := 0; k < n; k++ {
		h := q.horizon[e]
		nf := q.newFace(h.a, h.b, pi)
		q.faces[nf].adj[0] = h.nb
		nb := &q.faces[h.nb]
		for j := 0; j < 3; j++ {
			if nb.v[j] == h.b && nb.v[(j+1)%3] == h.a {
				nb.adj[j] = nf
			}
		}
		q.newFaces = append(q.newFaces, nf)
		e = q.vEdge[h.b]
	}
	for k, nf := range q.newFaces {
		next := q.newFaces[(k+1)%n]
		prev := q.newFaces[(k+n-1)%n]
		q.faces[nf].adj[1] = next // edge b→p
		q.faces[nf].adj[2] = prev // edge p→a
	}
	// Dead faces go back to the pool only now, so that newFace above could
	// not hand out a face whose outside list was still being read.
	q.free = append(q.free, q.visible...)
	for _, o := range q.moved {
		q.assign(o, q.newFaces)
	}
	for _, nf := range q.newFaces {
		if len(q.faces[nf].outside) > 0 {
			q.pending = append(q.pending, nf)
		}
	}
	return true
}

// triangles returns the live faces as point-index triangles, in face order.
func (q *quickhull) triangles() [][3]int32 {
	var out [][3]int32
	for i := range q.faces {
		if !q.faces[i].dead {
			out = append(out, q.faces[i].v)
		}
	}
	return out
}

// initialSimplex finds four extreme points: the farthest pair among the
// axis extremes, the point farthest from their line and the point farthest
// from that plane, along with those distances (for rank detection).
func initialSimplex(p []geom.Vec3) (t [4]int32, length, lineDist, planeDist float64) {
	var ext [6]int32
	for i := range p {
		for k := 0; k < 3; k++ {
			if p[i][k] < p[ext[2*k]][k] {
				ext[2*k] = int32(i)
			}
			if p[i][k] > p[ext[2*k+1]][k] {
				ext[2*k+1] = int32(i)
			}
		}
	}
	best := -1.0
	for i := 0; i < 6; i++ {
		for j := i + 1; j < 6; j++ {
			if d := p[ext[i]].Sub(p[ext[j]]).Len2(); d > best {
				best, t[0], t[1] = d, ext[i], ext[j]
			}
		}
	}
	length = math.Sqrt(best)
	a := p[t[0]]
	u := p[t[1]].Sub(a).Normalize()
	best = -1
	for i := range p {
		w := p[i].Sub(a)
		if d := w.Sub(u.Scale(w.Dot(u))).Len2(); d > best {
			best, t[2] = d, int32(i)
		}
	}
	lineDist = math.Sqrt(best)
	n := p[t[1]].Sub(a).Cross(p[t[2]].Sub(a)).Normalize()
	best = -1
	for i := range p {
		if d := math.Abs(n.Dot(p[i].Sub(a))); d > best {
			best, t[3] = d, int32(i)
		}
	}
	planeDist = best
	return t, length, lineDist, planeDist
}
