package decompose

import (
	"errors"
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// containedTol: a hull whose vertices all lie within this fraction of the
// diagonal inside another hull is dropped as redundant.
const containedTol = 1e-9

// adjacencyGap: parts whose boxes are within this fraction of the diagonal
// of each other are merge candidates.
const adjacencyGap = 1e-6

type pairKey struct{ a, b int } // part ids, a < b

// merge greedily merges pairs of adjacent parts: the pair whose merged part
// has the lowest concavity goes first, as long as that is under the
// threshold. MaxHulls is kept afterwards, by fitBudget.
func (d *decomposer) merge(parts []*part) ([]*part, error) {
	ids := make([]int, len(parts))
	for i := range parts {
		ids[i] = i
	}
	nextID := len(parts)
	cache := map[pairKey]*part{}
	for len(parts) > 1 {
		// Evaluate the pairs not yet in the cache.
		var keys []pairKey
		var pairs [][2]int
		for i := range parts {
			for j := i + 1; j < len(parts); j++ {
				k := pairKey{ids[i], ids[j]}
				if _, ok := cache[k]; ok {
					continue
				}
				if !touch(parts[i].box, parts[j].box, adjacencyGap*d.diag) {
					continue
				}
				keys = append(keys, k)
				pairs = append(pairs, [2]int{i, j})
			}
		}
		// Pairs share their parts' trees (see mergePair): build them
		// first, one goroutine per part.
		if err := d.parallel(len(parts), func(i int) { parts[i].index() }); err != nil {
			return nil, err
		}
		merged := make([]*part, len(pairs))
		errs := make([]error, len(pairs))
		if err := d.parallel(len(pairs), func(n int) {
			merged[n], errs[n] = d.mergePair(parts[pairs[n][0]], parts[pairs[n][1]])
		}); err != nil {
			return nil, err
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		for n, k := range keys {
			cache[k] = merged[n]
		}
		// Pick the best pair in a fixed order.
		bi, bj := -1, -1
		best := math.Inf(1)
		for i := range parts {
			for j := i + 1; j < len(parts); j++ {
				m, ok := cache[pairKey{ids[i], ids[j]}]
				if !ok || m == nil {
					continue
				}
				if m.conc < best {
					best, bi, bj = m.conc, i, j
				}
			}
		}
		if bi < 0 || best > d.thr {
			break
		}
		m := cache[pairKey{ids[bi], ids[bj]}]
		// Checked and capped only now that it is chosen. A capped (or
		// rebuilt) hull is another hull, so check the pair again; it is not
		// chosen twice, its hull is final from now on.
		scout := m.hull
		if err := d.capHull(m); err != nil {
			return nil, err
		}
		if m.hull != scout {
			d.estimate(m, fullBudget)
			if m.conc > d.thr {
				continue
			}
		}
		parts[bi], ids[bi] = m, nextID
		nextID++
		parts = append(parts[:bj], parts[bj+1:]...)
		ids = append(ids[:bj], ids[bj+1:]...)
		d.progress(parts)
	}
	return parts, nil
}

func touch(a, b geom.Box, gap float64) bool {
	for i := 0; i < 3; i++ {
		if a.Min[i] > b.Max[i]+gap || b.Min[i] > a.Max[i]+gap {
			return false
		}
	}
	return true
}

// mergePair returns the union of two parts with its hull and concavity.
// Its hull is a scout hull (see unite), without the vertex cap: capping
// (the hull package's vertex reduction) and the checks are what cost, and
// most pairs are never merged; merge checks and caps a pair when it chooses
// it. A quick estimate first: most pairs are clearly not convex together.
// A pair is merged only if it is under the threshold, so the quick estimate
// stops as soon as it is above (the concavity of a pair above the threshold
// is then only a lower bound, and any such pair stays unmerged).
func (d *decomposer) mergePair(a, b *part) (*part, error) {
	m, err := d.unite(a, b)
	if err != nil {
		return nil, err
	}
	m.trees = append(append(forest(nil), a.trees...), b.trees...)
	sb := scoutBudget
	sb.stop = math.Nextafter(d.thr, math.Inf(1))
	d.estimate(m, sb)
	if m.conc <= d.thr {
		d.estimate(m, fullBudget)
	}
	return m, nil
}

// unite returns the union of two parts with a scout hull (see scoutHull)
// of their hulls' vertices, which hold its corners (kept in from).
func (d *decomposer) unite(a, b *part) (*part, error) {
	m := &part{tris: make([]tri, 0, len(a.tris)+len(b.tris))}
	m.tris = append(append(m.tris, a.tris...), b.tris...)
	if a.inner != nil || b.inner != nil {
		m.inner = append(append(m.inner, flags(a)...), flags(b)...)
	}
	m.caps = mergeCaps(a.caps, b.caps)
	m.origin.pair = [2]*part{a, b}
	m.box = a.box.Union(b.box)
	pts := append(append([]geom.Vec3(nil), a.hull.Vertices...), b.hull.Vertices...)
	h, err := scoutHull(pts, flatThickness*d.diag)
	if err != nil {
		return nil, err
	}
	m.hull, m.from = h, pts
	return m, nil
}

// mergeCaps keeps the cuts that still bound the union: a cut with the two
// parts on opposite sides is now inside it.
func mergeCaps(a, b []capRef) []capRef {
	var out []capRef
	has := func(cs []capRef, c capRef) (same, opposite bool) {
		for _, x := range cs {
			if x.sec == c.sec {
				if x.side == c.side {
					same = true
				} else {
					opposite = true
				}
			}
		}
		return
	}
	for _, c := range a {
		if _, opp := has(b, c); !opp {
			out = append(out, c)
		}
	}
	for _, c := range b {
		same, opp := has(a, c)
		if !opp && !same {
			out = append(out, c)
		}
	}
	return out
}

func flags(p *part) []bool {
	if p.inner != nil {
		return p.inner
	}
	return make([]bool, len(p.tris))
}

// dropContained removes the parts whose hull lies inside another part's
// hull (all its vertices within containedTol·diag of it): they add nothing
// to the union, only cut faces inside it. A cup's inner floor, cut into
// pieces while the base below was one part, is the typical case. Smaller
// hulls are tested first, and a hull is only compared with hulls still
// kept, so a chain of containments keeps the outermost; the order of the
// kept parts is unchanged.
func dropContained(parts []*part, diag float64) []*part {
	if len(parts) < 2 {
		return parts
	}
	order := make([]int, len(parts))
	vol := make([]float64, len(parts))
	planes := make([][]plane, len(parts))
	boxes := make([]geom.Box, len(parts))
	for i, p := range parts {
		order[i] = i
		vol[i] = p.hull.Volume()
		planes[i] = facePlanes(p.hull)
		boxes[i] = geom.BoundsOf(p.hull.Vertices)
	}
	sort.SliceStable(order, func(a, b int) bool { return vol[order[a]] < vol[order[b]] })
	tol := containedTol * diag
	dropped := make([]bool, len(parts))
	for _, i := range order {
		for j := range parts {
			if j == i || dropped[j] || !touch(boxes[j], boxes[i], tol) {
				continue
			}
			inside := true
			for _, v := range parts[i].hull.Vertices {
				if depthAbove(planes[j], v, -tol) < -tol {
					inside = false
					break
				}
			}
			if inside {
				dropped[i] = true
				break
			}
		}
	}
	out := parts[:0:0]
	for i, p := range parts {
		if !dropped[i] {
			out = append(out, p)
		}
	}
	return out
}
