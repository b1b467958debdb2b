package ragdoll

import (
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// weights is the checked skin: per vertex its bones and their shares of
// the vertex's weight (duplicates summed, zero weights dropped).
type weights struct {
	pos        []geom.Vec3
	start      []int     // vertex v's influences are bone[start[v]:start[v+1]]
	bone       []int     // by influence
	share      []float64 // by influence, summing to 1 per weighted vertex
	dominant   []int     // by vertex; -1 when unweighted
	total      []float64 // by bone: the sum of its shares
	weighted   int       // vertices with a non-zero weight
	unweighted int
	bounds     geom.Box // of the weighted vertices
	// The segments (Skin.Segments): the first vertex of each, and the
	// count of each one's weighted vertices.
	segStart    []int
	segWeighted []int
}

// seg is the segment of vertex v.
func (w *weights) seg(v int) int {
	k, _ := slices.BinarySearch(w.segStart, v+1)
	return k - 1
}

// readWeights checks the skin against a skeleton whose joints (bone
// heads, world) are head: matching lengths, finite positions, finite
// non-negative weights, and bone indices in range wherever the weight is
// not zero. A vertex's dominant bone is the one with its largest share;
// among bones tied for it, the one whose joint is nearest the vertex (then
// the lower index). A vertex shared equally by a bone and its parent
// lies at the joint between them, and that joint is the child's head:
// the child's body starts there, so it takes the vertex, where the
// parent's body would have to reach past the joint into the child's
// (a pelvis swallowing the tops of both thighs).
func readWeights(s Skin, head []geom.Vec3) (*weights, error) {
	n := len(head)
	nv := len(s.Positions)
	if nv == 0 {
		return nil, fmt.Errorf("%w: no vertices", ErrSkin)
	}
	k := s.Influences
	if k <= 0 || len(s.Joints) != nv*k || len(s.Weights) != nv*k {
		return nil, fmt.Errorf("%w: %d vertices × %d influences, but %d joints and %d weights", ErrSkin, nv, k, len(s.Joints), len(s.Weights))
	}
	w := &weights{pos: s.Positions, start: make([]int, nv+1), dominant: make([]int, nv), total: make([]float64, n), bounds: geom.EmptyBox()}
	w.segStart = []int{0}
	for i, st := range s.Segments {
		if st < w.segStart[len(w.segStart)-1] || st >= nv || (i == 0 && st != 0) {
			return nil, fmt.Errorf("%w: segment %d starts at vertex %d: segments must start at 0 and ascend within the %d vertices", ErrSkin, i, st, nv)
		}
		if i > 0 && st > w.segStart[len(w.segStart)-1] {
			w.segStart = append(w.segStart, st)
		}
	}
	w.segWeighted = make([]int, len(w.segStart))
	for v, p := range s.Positions {
		if !p.IsFinite() {
			return nil, fmt.Errorf("%w: vertex %d position %v is not finite", ErrSkin, v, p)
		}
		w.start[v] = len(w.bone)
		var sum float64
		for i := v * k; i < (v+1)*k; i++ {
			wt, j := s.Weights[i], s.Joints[i]
			if !finite(wt) || wt < 0 {
				return nil, fmt.Errorf("%w: vertex %d weight %d is %v (must be finite and not negative)", ErrSkin, v, i-v*k, wt)
			}
			if wt == 0 {
				continue
			}
			if j < 0 || j >= n {
				return nil, fmt.Errorf("%w: vertex %d joint %d is %d, outside the %d bones", ErrSkin, v, i-v*k, j, n)
			}
			sum += wt
			if d := w.find(v, j); d >= 0 {
				w.share[d] += wt
				continue
			}
			w.bone = append(w.bone, j)
			w.share = append(w.share, wt)
		}
		w.dominant[v] = -1
		if sum == 0 {
			w.unweighted++
			continue
		}
		if !finite(sum) {
			return nil, fmt.Errorf("%w: vertex %d weights overflow", ErrSkin, v)
		}
		w.weighted++
		w.bounds = w.bounds.Extend(p)
		w.segWeighted[w.seg(v)]++
		best := -1
		for i := w.start[v]; i < len(w.bone); i++ {
			w.share[i] /= sum
			w.total[w.bone[i]] += w.share[i]
			if best < 0 || w.share[i] > w.share[best] || (w.share[i] == w.share[best] && nearer(p, head, w.bone[i], w.bone[best])) {
				best = i
			}
		}
		w.dominant[v] = w.bone[best]
	}
	w.start[nv] = len(w.bone)
	if w.weighted == 0 {
		return nil, ErrNoWeights
	}
	return w, nil
}

// nearer reports whether bone a's joint is nearer p than bone b's (at
// equal distances, whether a is the lower index).
func nearer(p geom.Vec3, head []geom.Vec3, a, b int) bool {
	da, db := p.Sub(head[a]).Len(), p.Sub(head[b]).Len()
	return da < db || da == db && a < b
}

// find returns the influence of vertex v (still being read) on bone j, or -1.
func (w *weights) find(v, j int) int {
	for i := w.start[v]; i < len(w.bone); i++ {
		if w.bone[i] == j {
			return i
		}
	}
	return -1
}

// takes returns, per bone, the vertices it takes by the assignment rule,
// ascending.
func (w *weights) takes(n int, s Settings) [][]int {
	own := make([][]int, n)
	for v, d := range w.dominant {
		if d < 0 {
			continue
		}
		own[d] = append(own[d], v)
		if s.Assign != Threshold {
			continue
		}
		for i := w.start[v]; i < w.start[v+1]; i++ {
			if b := w.bone[i]; b != d && w.share[i] >= s.WeightThreshold {
				own[b] = append(own[b], v)
			}
		}
	}
	return own
}
