package decompose

import (
	"math"
	"math/bits"
	"sort"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Open-air parameters.
const (
	// airProbe is the radius of the probe sphere that must keep fitting
	// through a mesh's holes and into its cavities, in concavity
	// thresholds (issue #36: 1.5 times the tolerance). A hull may stray
	// up to one threshold from the surface, so where the probe fits with
	// a threshold to spare on each side, the search's own hulls leave the
	// way open, and only merging can close it.
	airProbe = 1.5
	// airSpacing is the spacing of the air grid, in probe radii: the free
	// centres in a hole one probe diameter wider than the probe form a
	// channel a radius wide, which half a radius cannot step over. (The
	// hole tests pass at 1/4, 1/3 and 1/2.)
	airSpacing = 0.5
	// airMaxPoints caps the grid's nodes (its spacing grows to keep
	// under it), which bounds the cost of a small threshold on a large
	// box.
	airMaxPoints = 1 << 15
)

// openAir samples the empty space a mesh leaves inside its convex hull
// that a probe sphere of radius r fits into: points outside the solid,
// farther than r from every triangle, and within r of the hull of all the
// parts (no part's hull, nor a merge of parts, can come within r of a
// point farther from that hull). A hull blocks a point when it comes
// within r of it: the probe sphere there would touch it.
//
// The points are the nodes of a grid, so that what a merge does to the
// shape of the free space (the air no hull blocks, with the exterior
// around the parts) can be told, not only how much of it is lost: the
// free nodes span a cubical complex (an edge between two free neighbours,
// a square or cube where all corners are free) whose Euler characteristic
// χ = components − tunnels + enclosed voids. Blocking air that bridges a
// through-hole (a handle's opening: one tunnel less) or shuts a cavity's
// mouth (its inside becomes a component of its own) raises χ by one;
// blocking air at the side of a hole or along a cavity's wall leaves it
// as it is. fitBudget's merges avoid the first most (see leastGapMerge).
type openAir struct {
	r float64
	// n is the grid's size; state holds each node's kind (gridNever,
	// gridExterior, gridAir) and idx, for air nodes, the air point's
	// number.
	n     [3]int
	state []int8
	idx   []int32
	// pts are the air points, node their grid nodes.
	pts  []geom.Vec3
	node []int32
	// cell is the volume of one grid cell: a blocked air node stands for
	// that much lost space.
	cell float64
}

// Grid node kinds.
const (
	gridNever    = iota // within r of the mesh, or inside it: never free
	gridExterior        // r or more beyond every hull: always free
	gridAir             // free until a hull blocks it
)

// sampleAir returns the open air of the mesh (indexed by mesh; d.flip
// says how it is wound) around parts, on a grid of spacing airSpacing
// probe radii over the parts' box, padded with exterior nodes. It returns
// nil when no node is open air.
func (d *decomposer) sampleAir(mesh *bvh, parts []*part) (*openAir, error) {
	r := airProbe * d.thr
	var all []geom.Vec3
	for _, p := range parts {
		all = append(all, p.hull.Vertices...)
	}
	box := geom.BoundsOf(all)
	outer, err := buildHull(all, -1, flatThickness*d.diag)
	if err != nil {
		return nil, err
	}
	planes := facePlanes(outer)
	size := box.Max.Sub(box.Min)
	h := airSpacing * r
	if cells := (size[0] + 2*r) * (size[1] + 2*r) * (size[2] + 2*r) / (h * h * h); cells > airMaxPoints {
		h *= math.Cbrt(cells / airMaxPoints)
	}
	// pad nodes on each side reach r beyond the box, so the outermost are
	// exterior and every air node has its whole neighbourhood in the grid.
	pad := int(math.Ceil(r/h)) + 1
	a := &openAir{r: r, cell: h * h * h}
	// The grid is square (spacing h on every axis) and centred on the box.
	var lo geom.Vec3
	for k := range a.n {
		in := max(1, int(math.Ceil(size[k]/h)))
		a.n[k] = in + 2*pad
		lo[k] = box.Center()[k] - float64(a.n[k])*h/2
	}
	at := func(g int) geom.Vec3 {
		k := g % a.n[2]
		j := (g / a.n[2]) % a.n[1]
		i := g / (a.n[1] * a.n[2])
		return lo.Add(geom.Vec3{float64(i) + 0.5, float64(j) + 0.5, float64(k) + 0.5}.Scale(h))
	}
	total := a.n[0] * a.n[1] * a.n[2]
	a.state = make([]int8, total)
	if err := d.parallel(total, func(g int) {
		x := at(g)
		switch {
		case depthAbove(planes, x, -r) <= -r:
			a.state[g] = gridExterior
		case mesh.dist(x, r) >= r && !d.insideMesh(mesh, x):
			a.state[g] = gridAir
		}
	}); err != nil {
		return nil, err
	}
	a.idx = make([]int32, total)
	for g, s := range a.state {
		a.idx[g] = -1
		if s == gridAir {
			a.idx[g] = int32(len(a.pts))
			a.pts = append(a.pts, at(g))
			a.node = append(a.node, int32(g))
		}
	}
	if len(a.pts) == 0 {
		return nil, nil
	}
	return a, nil
}

// insideMesh reports whether x is inside the solid: the median winding
// number over rayDirs, counted with the input's own orientation (inward
// wound input counts negative), is at least 1.
func (d *decomposer) insideMesh(mesh *bvh, x geom.Vec3) bool {
	var w [3]int
	for k, dir := range rayDirs {
		w[k] = mesh.winding(x, dir)
		if d.flip {
			w[k] = -w[k]
		}
	}
	return median3(w) >= 1
}

// airSet is a set of air points, one bit each.
type airSet []uint64

// newSet returns an empty set of a's points.
func (a *openAir) newSet() airSet { return make(airSet, (len(a.pts)+63)/64) }

func (s airSet) has(i int32) bool { return s[i/64]&(1<<(i%64)) != 0 }

// blocked returns the air points h comes within a.r of, by its face planes
// (the largest face-plane distance is a lower bound of the distance to a
// convex hull, so a point is counted blocked when in doubt).
func (a *openAir) blocked(h *hull.Hull) airSet {
	s := a.newSet()
	planes := facePlanes(h)
	b := geom.BoundsOf(h.Vertices)
	for i, x := range a.pts {
		if boxDist2(b, x) >= a.r*a.r {
			continue
		}
		if depthAbove(planes, x, -a.r) > -a.r {
			s[i/64] |= 1 << (i % 64)
		}
	}
	return s
}

// or adds t's points to s.
func (s airSet) or(t airSet) {
	for i := range s {
		s[i] |= t[i]
	}
}

// choose returns the pair to merge among pairs, given each pair's added
// gap and the air its union blocks (cost), the air blocked already being
// cover: of the pairs that close no passage, the one of least cost, where
// a pair's cost is its gap plus the volume of air it newly blocks; when
// every pair closes one, the one closing fewest, then of least cost (with
// openOnly, none: -1, -1). Ties
// go to the first pair. The passages are counted (closes) only as far as
// needed: in order of cost up to the first pair that closes none.
func (a *openAir) choose(pairs [][2]int, cost func([2]int) (float64, airSet), cover airSet, openOnly bool) (int, int) {
	if len(pairs) == 0 {
		return -1, -1
	}
	type cand struct {
		k    int
		cost float64
		air  airSet
	}
	cs := make([]cand, len(pairs))
	for k, pr := range pairs {
		c, s := cost(pr)
		n := 0
		for w := range s {
			n += bits.OnesCount64(s[w] &^ cover[w])
		}
		cs[k] = cand{k, c + float64(n)*a.cell, s}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].cost < cs[j].cost })
	best, fewest := -1, 0
	for i, c := range cs {
		n := max(0, a.closes(c.air, cover))
		if n == 0 {
			best = i
			break
		}
		if openOnly {
			continue
		}
		if best < 0 || n < fewest {
			best, fewest = i, n
		}
	}
	if best < 0 {
		return -1, -1
	}
	pr := pairs[cs[best].k]
	return pr[0], pr[1]
}

// closes returns by how much blocking the points of s not in cover (the
// air blocked already) changes the free space's Euler characteristic (see
// openAir): positive when they bridge a through-hole or shut a cavity's
// mouth. Only the cells around the newly blocked nodes change, so only
// those are counted.
func (a *openAir) closes(s, cover airSet) (dchi int) {
	free := func(g int, after bool) bool {
		switch a.state[g] {
		case gridExterior:
			return true
		case gridAir:
			i := a.idx[g]
			return !cover.has(i) && !(after && s.has(i))
		}
		return false
	}
	// newly reports whether node g is newly blocked, for counting each
	// changed cell once: at its newly blocked corner of least number.
	newly := func(g int) bool { return a.state[g] == gridAir && s.has(a.idx[g]) && !cover.has(a.idx[g]) }
	strides := [3]int{a.n[1] * a.n[2], a.n[2], 1}
	var corners [8]int
	for w := range s {
		bitsLeft := s[w] &^ cover[w]
		for bitsLeft != 0 {
			b := bits.TrailingZeros64(bitsLeft)
			bitsLeft &^= 1 << b
			dchi-- // the node itself
			g := int(a.node[w*64+b])
			// Every cell with g as a corner: for each subset of axes
			// (edge: one, square: two, cube: three) and each direction
			// along them. The grid is padded with exterior nodes, so
			// g's neighbours exist.
			for mask := 1; mask < 8; mask++ {
				dims := bits.OnesCount(uint(mask))
				sign := 1 // edges −1, squares +1, cubes −1 in χ
				if dims%2 == 1 {
					sign = -1
				}
				for dir := 0; dir < 8; dir++ {
					if dir&^mask != 0 {
						continue // directions only along the cell's axes
					}
					// The cell's corners: g moved by 0 or ±1 along each axis.
					nc := 0
					for sub := 0; sub < 8; sub++ {
						if sub&^mask != 0 {
							continue
						}
						c := g
						for k := 0; k < 3; k++ {
							if sub&(1<<k) != 0 {
								if dir&(1<<k) != 0 {
									c -= strides[k]
								} else {
									c += strides[k]
								}
							}
						}
						corners[nc] = c
						nc++
					}
					first, before, after := true, true, true
					for _, c := range corners[:nc] {
						if c < g && newly(c) {
							first = false
							break
						}
						before = before && free(c, false)
						after = after && free(c, true)
					}
					if !first {
						continue
					}
					if before {
						dchi -= sign
					}
					if after {
						dchi += sign
					}
				}
			}
		}
	}
	return dchi
}
