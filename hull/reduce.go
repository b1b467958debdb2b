package hull

import (
	"container/heap"
	"errors"
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
	"gonum.org/v1/gonum/mat"
)

// Reduction parameters (normalized units: the points' diagonal is 1).
const (
	// clipTolerance: polytope vertices within this of a cutting plane are
	// kept on it rather than producing a new, nearly coincident vertex.
	clipTolerance = 1e-9
	// maxCandidates bounds how many hull polygons (largest first) are
	// considered as cutting planes.
	maxCandidates = 4096
	// minCutVolume: the greedy stops when the best cut removes less than
	// this fraction of the starting box's volume.
	minCutVolume = 1e-9
	// offsetMargin is added, with the construction tolerance, to every
	// cutting plane's offset after it is pushed out to the farthest point.
	offsetMargin = 1e-12
	// weldTolerance: a new vertex this close to an existing one is merged
	// with it (the polytope moves by at most this much).
	weldTolerance = 1e-8
)

// reduce replaces the hull (v, tris) by a polytope that contains every
// point within margin of it (the points lie within the construction
// tolerance of their hull, so only the hull's vertices are scanned), with at most maxV vertices (if > 0)
// and maxF faces (if > 0). It starts from the tighter of the bounding box
// and the principal-axes box and greedily cuts it with the hull's polygon
// planes, each time taking the cut that removes the most volume among
// those that keep the polytope within the limits (lazy greedy: a cut can
// only remove less once the polytope has shrunk). The kept planes are then
// pushed out to the farthest input point and the polytope rebuilt.
func reduce(v []geom.Vec3, tris [][3]uint32, margin float64, maxV, maxF int) (*polytope, error) {
	pts := v
	fits := func(p *polytope) bool {
		return (maxV <= 0 || len(p.v) <= maxV) && (maxF <= 0 || len(p.f) <= maxF)
	}
	cands := candidatePlanes(v, tris)
	axes := [][3]geom.Vec3{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	if pa, ok := principalAxes(v); ok {
		axes = append(axes, pa)
	}
	var start *polytope
	for _, ax := range axes {
		b := boxPolytope(ax, pts, margin)
		if start == nil || b.volume() < start.volume() {
			start = b
		}
	}
	if !fits(start) {
		return nil, errors.New("the limits are below the bounding box's 8 vertices and 6 faces")
	}
	minCut := minCutVolume * start.volume()

	// Lazy greedy over candidate cuts.
	cur := start
	var scratch cutScratch
	pq := make(cutQueue, 0, len(cands))
	for i, c := range cands {
		if g, _, _ := cur.cutVolume(c, &scratch); g > minCut {
			pq = append(pq, cut{gain: g, idx: i})
		}
	}
	heap.Init(&pq)
	var chosen []plane
	for pq.Len() > 0 {
		top := heap.Pop(&pq).(cut)
		if top.gain <= minCut {
			break
		}
		gain, nv, nf := cur.cutVolume(cands[top.idx], &scratch)
		if gain <= minCut {
			continue // the polytope only shrinks: this cut is done for
		}
		if (maxV > 0 && nv > maxV) || (maxF > 0 && nf > maxF) {
			continue // would break a limit (up to rare merges): skip
		}
		if pq.Len() > 0 && gain < pq[0].gain {
			heap.Push(&pq, cut{gain: gain, idx: top.idx})
			continue
		}
		nx, ok := cur.clip(cands[top.idx])
		if !ok || !fits(nx) {
			continue // this cut would break a limit; it cannot get cheaper
		}
		cur = nx
		chosen = append(chosen, cands[top.idx])
	}

	// Push every kept plane out to the farthest point, then rebuild.
	for i := range chosen {
		chosen[i].d = farthest(pts, chosen[i].n) + margin
	}
	for len(chosen) >= 0 {
		p := start
		for _, c := range chosen {
			if nx, ok := p.clip(c); ok {
				p = nx
			}
		}
		if fits(p) {
			return p, nil
		}
		if len(chosen) == 0 {
			break
		}
		chosen = chosen[:len(chosen)-1]
	}
	return nil, errors.New("no bounding polytope within the limits")
}

type cut struct {
	gain float64
	idx  int
}

type cutQueue []cut

func (q cutQueue) Len() int { return len(q) }
func (q cutQueue) Less(i, j int) bool {
	if q[i].gain != q[j].gain {
		return q[i].gain > q[j].gain
	}
	return q[i].idx < q[j].idx
}
func (q cutQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *cutQueue) Push(x any)   { *q = append(*q, x.(cut)) }
func (q *cutQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func farthest(pts []geom.Vec3, n geom.Vec3) float64 {
	m := math.Inf(-1)
	for _, p := range pts {
		if d := n[0]*p[0] + n[1]*p[1] + n[2]*p[2]; d > m {
			m = d
		}
	}
	return m
}

// candidatePlanes merges the hull's coplanar triangles into polygons and
// returns their supporting planes, largest polygon first (at most
// maxCandidates).
func candidatePlanes(v []geom.Vec3, tris [][3]uint32) []plane {
	region, count := coplanarRegions(v, tris, CoplanarTolerance)
	sum := make([]geom.Vec3, count)
	for i, t := range tris {
		r := region[i]
		sum[r] = sum[r].Add(v[t[1]].Sub(v[t[0]]).Cross(v[t[2]].Sub(v[t[0]])))
	}
	type cand struct {
		plane
		area float64
		idx  int
	}
	cs := make([]cand, count)
	for r := range cs {
		cs[r] = cand{plane{n: sum[r].Normalize(), d: math.Inf(-1)}, sum[r].Len() / 2, r}
	}
	for i, t := range tris {
		c := &cs[region[i]]
		for _, x := range t {
			c.d = math.Max(c.d, c.n.Dot(v[x]))
		}
	}
	if len(cs) > maxCandidates {
		// Keep the largest polygon in each cell of a cube map of normal
		// directions, so that the candidates cover every direction.
		k := int(math.Sqrt(float64(maxCandidates) / 6))
		best := make([]int32, 6*k*k)
		for i := range best {
			best[i] = -1
		}
		for i := range cs {
			cell := directionCell(cs[i].n, k)
			if j := best[cell]; j < 0 || cs[i].area > cs[j].area {
				best[cell] = int32(i)
			}
		}
		kept := cs[:0:0]
		for _, j := range best {
			if j >= 0 {
				kept = append(kept, cs[j])
			}
		}
		cs = kept
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].area != cs[j].area {
			return cs[i].area > cs[j].area
		}
		return cs[i].idx < cs[j].idx
	})
	out := make([]plane, len(cs))
	for i, c := range cs {
		out[i] = plane{c.n, c.d + clipTolerance}
	}
	return out
}

// principalAxes returns the eigenvectors of the covariance of v as a
// right-handed frame.
func principalAxes(v []geom.Vec3) ([3]geom.Vec3, bool) {
	var mean geom.Vec3
	for _, p := range v {
		mean = mean.Add(p)
	}
	mean = mean.Scale(1 / float64(len(v)))
	var c [6]float64
	for _, p := range v {
		d := p.Sub(mean)
		c[0] += d[0] * d[0]
		c[1] += d[0] * d[1]
		c[2] += d[0] * d[2]
		c[3] += d[1] * d[1]
		c[4] += d[1] * d[2]
		c[5] += d[2] * d[2]
	}
	sym := mat.NewSymDense(3, []float64{c[0], c[1], c[2], c[1], c[3], c[4], c[2], c[4], c[5]})
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return [3]geom.Vec3{}, false
	}
	var vec mat.Dense
	es.VectorsTo(&vec)
	var ax [3]geom.Vec3
	for k := 0; k < 3; k++ {
		ax[k] = geom.Vec3{vec.At(0, k), vec.At(1, k), vec.At(2, k)}.Normalize()
	}
	ax[2] = ax[0].Cross(ax[1]).Normalize()
	ax[1] = ax[2].Cross(ax[0]).Normalize()
	for _, a := range ax {
		if !a.IsFinite() || a.Len2() < 0.5 {
			return [3]geom.Vec3{}, false
		}
	}
	return ax, true
}

// boxPolytope returns the box with the right-handed axes ax that bounds pts.
func boxPolytope(ax [3]geom.Vec3, pts []geom.Vec3, margin float64) *polytope {
	var lo, hi [3]float64
	for k := 0; k < 3; k++ {
		hi[k] = farthest(pts, ax[k]) + margin
		lo[k] = -farthest(pts, ax[k].Scale(-1)) - margin
	}
	p := &polytope{}
	for i := 0; i < 8; i++ {
		var x geom.Vec3
		for k := 0; k < 3; k++ {
			s := lo[k]
			if i>>k&1 == 1 {
				s = hi[k]
			}
			x = x.Add(ax[k].Scale(s))
		}
		p.v = append(p.v, x)
	}
	quads := [6][4]int32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	normals := [6]geom.Vec3{ax[2].Scale(-1), ax[2], ax[1].Scale(-1), ax[1], ax[0].Scale(-1), ax[0]}
	offs := [6]float64{-lo[2], hi[2], -lo[1], hi[1], -lo[0], hi[0]}
	for i, q := range quads {
		p.f = append(p.f, []int32{q[0], q[1], q[2], q[3]})
		p.n = append(p.n, normals[i])
		p.d = append(p.d, offs[i])
	}
	return p
}

// directionCell numbers the cell of a k×k-per-face cube map that the unit
// vector n falls in.
func directionCell(n geom.Vec3, k int) int {
	ax := 0
	for j := 1; j < 3; j++ {
		if math.Abs(n[j]) > math.Abs(n[ax]) {
			ax = j
		}
	}
	face := 2 * ax
	if n[ax] < 0 {
		face++
	}
	m := math.Abs(n[ax])
	cellOf := func(x float64) int {
		c := int((x/m + 1) / 2 * float64(k))
		return min(max(c, 0), k-1)
	}
	return (face*k+cellOf(n[(ax+1)%3]))*k + cellOf(n[(ax+2)%3])
}
