package hull

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// polytope is a convex polyhedron as vertices and faces; each face is a
// counter-clockwise loop seen from outside, with its outward plane.
type polytope struct {
	v []geom.Vec3
	f [][]int32
	n []geom.Vec3
	d []float64

	vf [][]int32 // faces around each vertex, built by cutVolume on first use
}

// cutScratch is cutVolume's reusable memory.
type cutScratch struct {
	s     []float64 // signed distance of each vertex to the plane
	above []int32   // vertices above the plane
	mark  []int32   // per face: stamp of the last call that visited it
	stamp int32
}

type plane struct {
	n geom.Vec3
	d float64
}

// volume of the polytope by fan triangulation of its faces.
func (p *polytope) volume() float64 {
	if len(p.v) == 0 {
		return 0
	}
	o := p.v[0]
	var vol float64
	for _, f := range p.f {
		a := p.v[f[0]].Sub(o)
		for k := 1; k+1 < len(f); k++ {
			vol += a.Dot(p.v[f[k]].Sub(o).Cross(p.v[f[k+1]].Sub(o)))
		}
	}
	return vol / 6
}

// cutVolume returns how much volume the half-space n·x <= d removes from
// the polytope, without building the cut polytope: the removed part's
// volume is the sum of cones from a point on the cutting plane to the
// parts of the faces above it (the cap's cone is flat). Only the faces
// around the vertices above the plane are visited (through a vertex-to-
// faces index built once per polytope), so a cut near the surface, the
// common case, costs about one dot product per vertex.
//
// It also returns upper bounds of the cut polytope's vertex and face
// counts (clip can only merge vertices and drop faces beyond these).
func (p *polytope) cutVolume(c plane, sc *cutScratch) (gain float64, nv, nf int) {
	s := sc.s[:0]
	above := sc.above[:0]
	out := false
	for i, x := range p.v {
		d := c.n.Dot(x) - c.d
		s = append(s, d)
		if d > 0 {
			above = append(above, int32(i))
			out = out || d > clipTolerance
		}
	}
	sc.s, sc.above = s, above
	nv = len(p.v)
	if !out {
		return 0, nv, len(p.f)
	}
	if p.vf == nil {
		p.vf = make([][]int32, len(p.v))
		for fi, f := range p.f {
			for _, a := range f {
				p.vf[a] = append(p.vf[a], int32(fi))
			}
		}
	}
	if len(sc.mark) < len(p.f) {
		sc.mark = make([]int32, len(p.f))
		sc.stamp = 0
	}
	sc.stamp++
	crossings := 0
	nf = len(p.f)
	o := c.n.Scale(c.d)
	var removed float64
	var poly [64]geom.Vec3
	for _, v := range above {
		if s[v] > clipTolerance {
			nv--
		}
		for _, fi := range p.vf[v] {
			if sc.mark[fi] == sc.stamp {
				continue
			}
			sc.mark[fi] = sc.stamp
			f := p.f[fi]
			keeps := false
			pl := poly[:0]
			for k, a := range f {
				b := f[(k+1)%len(f)]
				keeps = keeps || s[a] <= clipTolerance
				if (s[a] < -clipTolerance && s[b] > clipTolerance) || (s[a] > clipTolerance && s[b] < -clipTolerance) {
					crossings++
				}
				if s[a] >= 0 {
					pl = append(pl, p.v[a].Sub(o))
				}
				if (s[a] < 0 && s[b] > 0) || (s[a] > 0 && s[b] < 0) {
					t := s[a] / (s[a] - s[b])
					pl = append(pl, p.v[a].Add(p.v[b].Sub(p.v[a]).Scale(t)).Sub(o))
				}
			}
			if !keeps {
				nf--
			}
			for k := 1; k+1 < len(pl); k++ {
				removed += pl[0].Dot(pl[k].Cross(pl[k+1]))
			}
		}
	}
	return removed / 6, nv + crossings/2, nf + 1
}

// clip returns the polytope cut by the half-space n·x <= d, and false when
// the plane removes nothing (or everything) or when the cut could not be
// made topologically consistent (then the plane is simply not used).
//
// New vertices closer than weldTolerance to an existing one are merged
// with it, so that no sliver face appears; the cap face is made of the
// edges left without a twin once the faces are clipped, which keeps the
// result closed by construction.
func (p *polytope) clip(c plane) (*polytope, bool) {
	s := make([]float64, len(p.v))
	anyOut, anyIn := false, false
	for i, x := range p.v {
		s[i] = c.n.Dot(x) - c.d
		if s[i] > clipTolerance {
			anyOut = true
		} else if s[i] < -clipTolerance {
			anyIn = true
		}
	}
	if !anyOut || !anyIn {
		return p, false
	}
	q := &polytope{}
	remap := make([]int32, len(p.v))
	for i, x := range p.v {
		remap[i] = -1
		if s[i] <= clipTolerance {
			remap[i] = int32(len(q.v))
			q.v = append(q.v, x)
		}
	}
	type ekey struct{ a, b int32 }
	var memo []struct {
		k  ekey
		id int32
	}
	inter := func(a, b int32) int32 {
		k := ekey{a, b}
		if b < a {
			k = ekey{b, a}
		}
		for _, m := range memo {
			if m.k == k {
				return m.id
			}
		}
		t := s[k.a] / (s[k.a] - s[k.b])
		x := p.v[k.a].Add(p.v[k.b].Sub(p.v[k.a]).Scale(t))
		id := int32(-1)
		for j, y := range q.v {
			if x.Sub(y).Len2() <= weldTolerance*weldTolerance {
				id = int32(j)
				break
			}
		}
		if id < 0 {
			id = int32(len(q.v))
			q.v = append(q.v, x)
		}
		memo = append(memo, struct {
			k  ekey
			id int32
		}{k, id})
		return id
	}
	for fi, f := range p.f {
		var loop []int32
		push := func(x int32) {
			if len(loop) == 0 || loop[len(loop)-1] != x {
				loop = append(loop, x)
			}
		}
		for k, a := range f {
			b := f[(k+1)%len(f)]
			if remap[a] >= 0 {
				push(remap[a])
			}
			if (s[a] < -clipTolerance && s[b] > clipTolerance) || (s[a] > clipTolerance && s[b] < -clipTolerance) {
				push(inter(a, b))
			}
		}
		for len(loop) > 1 && loop[0] == loop[len(loop)-1] {
			loop = loop[:len(loop)-1]
		}
		if len(loop) >= 3 {
			q.f = append(q.f, loop)
			q.n = append(q.n, p.n[fi])
			q.d = append(q.d, p.d[fi])
		}
	}
	// The cap: reverse every directed edge that has no twin, then chain.
	next := make([]int32, len(q.v))
	for i := range next {
		next[i] = -1
	}
	type dedge struct{ a, b int32 }
	has := make(map[dedge]bool, 4*len(q.f))
	for _, f := range q.f {
		for k, a := range f {
			has[dedge{a, f[(k+1)%len(f)]}] = true
		}
	}
	start, count := int32(-1), 0
	for _, f := range q.f {
		for k, a := range f {
			b := f[(k+1)%len(f)]
			if has[dedge{b, a}] {
				continue
			}
			if next[b] >= 0 {
				return p, false // the boundary branches
			}
			next[b] = a
			count++
			if start < 0 {
				start = b
			}
		}
	}
	if count < 3 {
		return p, false
	}
	capLoop := make([]int32, 0, count)
	for x := start; ; {
		capLoop = append(capLoop, x)
		x = next[x]
		if x < 0 || len(capLoop) > count {
			return p, false
		}
		if x == start {
			break
		}
	}
	if len(capLoop) != count {
		return p, false // several boundary loops
	}
	q.f = append(q.f, capLoop)
	q.n = append(q.n, c.n)
	q.d = append(q.d, c.d)
	q.cleanup()
	if len(q.v) < 4 || len(q.f) < 4 {
		return p, false
	}
	return q, true
}

// cleanup removes vertices that are in fewer than three faces (they lie on
// an edge, not at a corner) and renumbers the rest.
func (p *polytope) cleanup() {
	deg := make([]int, len(p.v))
	for _, f := range p.f {
		for _, x := range f {
			deg[x]++
		}
	}
	remap := make([]int32, len(p.v))
	var nv []geom.Vec3
	for i, x := range p.v {
		remap[i] = -1
		if deg[i] >= 3 {
			remap[i] = int32(len(nv))
			nv = append(nv, x)
		}
	}
	var nf [][]int32
	var nn []geom.Vec3
	var nd []float64
	for i, f := range p.f {
		var loop []int32
		for _, x := range f {
			if remap[x] >= 0 {
				loop = append(loop, remap[x])
			}
		}
		if len(loop) >= 3 {
			nf = append(nf, loop)
			nn = append(nn, p.n[i])
			nd = append(nd, p.d[i])
		}
	}
	p.v, p.f, p.n, p.d, p.vf = nv, nf, nn, nd, nil
}

// mesh returns the polytope as an indexed triangle mesh (fan per face),
// with vertices mapped by out.
func (p *polytope) mesh(out func(geom.Vec3) geom.Vec3) ([]geom.Vec3, [][3]uint32) {
	vs := make([]geom.Vec3, len(p.v))
	for i, x := range p.v {
		vs[i] = out(x)
	}
	var tris [][3]uint32
	for _, f := range p.f {
		for k := 1; k+1 < len(f); k++ {
			tris = append(tris, [3]uint32{uint32(f[0]), uint32(f[k]), uint32(f[k+1])})
		}
	}
	return vs, tris
}

// maxOutside returns how far the farthest of pts lies outside the
// polytope's face planes (negative when all are strictly inside).
func (p *polytope) maxOutside(pts []geom.Vec3) float64 {
	worst := math.Inf(-1)
	for i, n := range p.n {
		worst = math.Max(worst, farthest(pts, n)-p.d[i])
	}
	return worst
}
