package mass

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// Convex is a convex solid given by its hull: vertices and triangles wound
// consistently (outward, as hull.Hull builds them; a consistently
// inside-out hull is accepted too).
type Convex struct {
	Vertices  []geom.Vec3
	Triangles [][3]uint32
}

// DefaultUnionResolution is the number of lattice cells along the longest
// side of the union's bounding box that Union uses when given resolution ≤ 0.
const DefaultUnionResolution = 128

// maxUnionResolution caps the lattice at about 8·10⁹ candidate points.
const maxUnionResolution = 2048

// unionRowBudget bounds the work of Union's lattice: the sum over the
// parts of the lattice rows their bounding boxes cross. A union whose
// parts would cross more at the asked resolution is estimated on a
// coarser lattice (halved until it fits), so that the cost grows with the
// parts, never with their pairs, and a few thousand overlapping copies
// cost seconds, not hours. 64 hulls spanning the whole union cross about
// a million rows at the default resolution, well under it.
const unionRowBudget = 1 << 22

// Union estimates the mass properties of the union of convex parts that may
// overlap (the hulls of an approximate convex decomposition), counting each
// point of space once. It is UnionContext without a deadline.
func Union(parts []Convex, resolution int) (Properties, error) {
	return UnionContext(context.Background(), parts, resolution)
}

// UnionContext estimates the mass properties of the union of convex parts
// that may overlap, counting each point of space once, and fails with
// ctx's error once ctx is done (checked between parts and lattice rows).
//
// Parts equal in every vertex and triangle (instances of one hull at one
// place) count once. The others are integrated exactly (Mesh) and summed;
// only the excess where k ≥ 2 parts overlap — counted k times instead of
// once — is estimated, by the midpoint rule on a deterministic cubic
// lattice of spacing h = (longest side of the union's bounding box) /
// resolution, at the points inside at least two parts' bounding boxes.
// Each lattice cell inside k parts removes (k−1) cells of volume h³ (with
// their own second moment h²/12). So the result is exact when no two parts
// overlap, and its error is a fraction of the overlap: at most about
// (overlap surface area)·h/2 in volume, usually far less as boundary errors
// cancel. Measured (TestUnionAccuracy: three rotated boxes whose overlaps
// are 18 % of the union's volume), the largest relative error of volume,
// centre of mass and inertia is 9e-3 at resolution 16, 2e-3 at 32, 3e-4 at
// 64 and 8e-5 at 128. The resolution is lowered when the parts' boxes
// would cross more than unionRowBudget lattice rows in all, so time and
// memory are linear in the parts.
//
// Parts must be convex: a point is inside a part when it lies on the inner
// side of every face plane. UnionContext returns an error if a part fails
// Mesh or there are no parts.
func UnionContext(ctx context.Context, parts []Convex, resolution int) (Properties, error) {
	if len(parts) == 0 {
		return Properties{}, fmt.Errorf("mass: union of no parts")
	}
	if resolution <= 0 {
		resolution = DefaultUnionResolution
	}
	resolution = min(resolution, maxUnionResolution)
	solids := make([]solid, 0, len(parts))
	all := geom.EmptyBox()
	for n, i := range Distinct(parts) {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return Properties{}, err
			}
		}
		p := parts[i]
		m, flipped, err := meshMoments(p.Vertices, p.Triangles)
		if err != nil {
			return Properties{}, fmt.Errorf("union part %d: %w", i, err)
		}
		box := geom.EmptyBox()
		for _, t := range p.Triangles {
			for _, k := range t {
				box = box.Extend(p.Vertices[k])
			}
		}
		solids = append(solids, solid{m: m, box: box, planes: facePlanes(p, flipped)})
		all = all.Union(box)
	}
	o := all.Center()
	var total moments
	total.o = o
	for _, s := range solids {
		total = total.add(s.m.about(o), 1)
	}
	if len(solids) > 1 {
		excess, covered, err := overlapExcess(ctx, solids, all, resolution)
		if err != nil {
			return Properties{}, err
		}
		if covered.v > 0 && total.v > maxMultiplicity*(total.v-excess.v) {
			// Parts piled on each other: the excess, weighted k−1 per
			// cell, would multiply the lattice's error by k.
			total = covered
		} else {
			total = total.add(excess, -1)
		}
	}
	if !(total.v > 0) {
		return Properties{}, fmt.Errorf("mass: union has no volume (%g)", total.v)
	}
	return total.properties(), nil
}

// solid is a part of a union: its moments, bounding box and face planes.
type solid struct {
	m      moments
	box    geom.Box
	planes []plane
}

// maxMultiplicity: when the parts' volumes add up to more than this many
// times what is left after the lattice's excess, Union gives the
// lattice's estimate of the union itself (its error bounded by the
// union's surface, whatever the pile) instead of the exact sum less the
// lattice's excess (whose error grows with the number of parts piled up:
// 3,000 shifted copies of a cube weighed 23 times their union). Hulls of
// a decomposition overlap by far less.
const maxMultiplicity = 2

// overlapExcess returns the moments, about all's centre, of the lattice
// cells counted more than once by the sum of the solids (all is their
// bounding box), each cell inside k ≥ 2 solids weighing k−1 cells, and
// those of the cells inside at least one solid (the lattice's estimate
// of the union), at a resolution lowered to unionRowBudget. The cells
// are visited in lattice order (x, then y, then z), so the sums do not
// depend on the solids' order.
func overlapExcess(ctx context.Context, solids []solid, all geom.Box, resolution int) (excess, covered moments, err error) {
	o := all.Center()
	size := all.Size()
	longest := math.Max(size[0], math.Max(size[1], size[2]))
	var h float64
	coord := func(a, k int) float64 { return all.Min[a] + (float64(k)+0.5)*h }
	// span[i] holds solid i's lattice index ranges along x and y (the
	// indices whose coordinates fall in its box, lo > hi: none).
	span := make([][2][2]int, len(solids))
	for {
		h = longest / float64(resolution)
		rows := 0
		for i, s := range solids {
			for a := 0; a < 2; a++ {
				l, u := passing(0, resolution+1, func(k int) bool { return !(coord(a, k) >= s.box.Min[a]) })
				l, u = passing(l, u, func(k int) bool { return !(coord(a, k) <= s.box.Max[a]) })
				span[i][a] = [2]int{l, u}
			}
			rows += max(0, span[i][0][1]-span[i][0][0]+1) * max(0, span[i][1][1]-span[i][1][0]+1)
		}
		if rows <= unionRowBudget || resolution == 1 {
			break
		}
		resolution = max(1, resolution/2)
	}
	cell := h * h * h
	own := cell * h * h / 12 // ∫ x² over a cell about its centre
	excess.o, covered.o = o, o
	// The solids crossing each x slab come from a sweep over their
	// x ranges; within a slab they are listed per y row. Along a row of
	// fixed (ix, iy) each test is monotone in iz (see rowRange), so the
	// points of a row inside a solid are one run of iz, found with a few
	// tests per face; a difference array counts the solids at each iz.
	byX := make([]int, 0, len(solids))
	for i := range solids {
		if span[i][0][0] <= span[i][0][1] && span[i][1][0] <= span[i][1][1] {
			byX = append(byX, i)
		}
	}
	slices.SortStableFunc(byX, func(a, b int) int { return span[a][0][0] - span[b][0][0] })
	var active []int
	next := 0
	rowStart := make([]int, resolution+3)
	var inRow []int
	count := make([]int, resolution+3)
	for ix := 0; ix <= resolution+1; ix++ {
		if err := ctx.Err(); err != nil {
			return moments{}, moments{}, err
		}
		active = slices.DeleteFunc(active, func(i int) bool { return span[i][0][1] < ix })
		for next < len(byX) && span[byX[next]][0][0] <= ix {
			active = append(active, byX[next])
			next++
		}
		if len(active) == 0 {
			continue
		}
		// inRow[rowStart[iy]:rowStart[iy+1]] are the active solids over
		// row iy (a counting sort).
		clear(rowStart)
		for _, i := range active {
			for iy := span[i][1][0]; iy <= span[i][1][1]; iy++ {
				rowStart[iy+1]++
			}
		}
		for iy := 1; iy < len(rowStart); iy++ {
			rowStart[iy] += rowStart[iy-1]
		}
		inRow = slices.Grow(inRow[:0], rowStart[len(rowStart)-1])[:rowStart[len(rowStart)-1]]
		fill := slices.Clone(rowStart)
		for _, i := range active {
			for iy := span[i][1][0]; iy <= span[i][1][1]; iy++ {
				inRow[fill[iy]] = i
				fill[iy]++
			}
		}
		x := coord(0, ix)
		for iy := 0; iy <= resolution+1; iy++ {
			over := inRow[rowStart[iy]:rowStart[iy+1]]
			if len(over) == 0 {
				continue
			}
			y := coord(1, iy)
			clear(count)
			for _, si := range over {
				l, u := boxRange(solids[si].box, x, y, 0, resolution+1, func(k int) float64 { return coord(2, k) })
				for _, pl := range solids[si].planes {
					if l > u {
						break
					}
					l, u = rowRange(pl, x, y, l, u, func(k int) float64 { return coord(2, k) })
				}
				if l <= u {
					count[l]++
					count[u+1]--
				}
			}
			k := 0
			for iz := 0; iz <= resolution+1; iz++ {
				k += count[iz]
				if k < 1 {
					continue
				}
				p := geom.Vec3{x, y, coord(2, iz)}
				d := p.Sub(o)
				covered.v += cell
				covered.s = covered.s.Add(d.Scale(cell))
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						covered.c[i][j] += cell * d[i] * d[j]
					}
					covered.c[i][i] += own
				}
				if k < 2 {
					continue
				}
				w := float64(k-1) * cell
				excess.v += w
				excess.s = excess.s.Add(d.Scale(w))
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						excess.c[i][j] += w * d[i] * d[j]
					}
					excess.c[i][i] += float64(k-1) * own
				}
			}
		}
	}
	return excess, covered, nil
}

// Distinct returns the indices of the parts that equal no earlier part
// (the same vertices bit for bit, the same triangles), in order: copies
// of one solid at one place fill the same space, so a union or a sum of
// solids counts one of them. Its time is linear in the parts' sizes.
func Distinct(parts []Convex) []int {
	out := make([]int, 0, len(parts))
	seen := map[uint64][]int{} // content hash → indices of the parts kept
	seed := maphash.MakeSeed()
	for i, p := range parts {
		key := convexHash(seed, p)
		if slices.ContainsFunc(seen[key], func(j int) bool { return sameConvex(parts[j], p) }) {
			continue
		}
		seen[key] = append(seen[key], i)
		out = append(out, i)
	}
	return out
}

// convexHash hashes a part's vertices and triangles.
func convexHash(seed maphash.Seed, p Convex) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var b [8]byte
	for _, v := range p.Vertices {
		for _, c := range v {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(c))
			h.Write(b[:])
		}
	}
	for _, t := range p.Triangles {
		for _, k := range t {
			binary.LittleEndian.PutUint32(b[:4], k)
			h.Write(b[:4])
		}
	}
	return h.Sum64()
}

// sameConvex reports whether two parts have the same vertices (bit for
// bit) and triangles.
func sameConvex(a, b Convex) bool {
	if !slices.Equal(a.Triangles, b.Triangles) || len(a.Vertices) != len(b.Vertices) {
		return false
	}
	for i, v := range a.Vertices {
		w := b.Vertices[i]
		for c := range v {
			if math.Float64bits(v[c]) != math.Float64bits(w[c]) {
				return false
			}
		}
	}
	return true
}

// plane is the half-space n·x ≤ d.
type plane struct {
	n geom.Vec3
	d float64
}

// facePlanes returns the supporting planes of a convex part's triangles,
// oriented so that the inside is n·x ≤ d. Degenerate triangles are skipped.
func facePlanes(p Convex, flipped bool) []plane {
	planes := make([]plane, 0, len(p.Triangles))
	for _, t := range p.Triangles {
		a, b, c := p.Vertices[t[0]], p.Vertices[t[1]], p.Vertices[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		l := n.Len()
		if l == 0 {
			continue
		}
		n = n.Scale(1 / l)
		if flipped {
			n = n.Scale(-1)
		}
		planes = append(planes, plane{n: n, d: n.Dot(a)})
	}
	return planes
}

// passing narrows [lo, hi] to the k where out(k) is false, for an out
// that is monotone in k (false then true, or true then false): a prefix
// or a suffix of [lo, hi], found from its ends and a bisection. lo > hi
// means none.
func passing(lo, hi int, out func(int) bool) (int, int) {
	if lo > hi {
		return lo, hi
	}
	a, b := out(lo), out(hi)
	switch {
	case !a && !b:
		return lo, hi
	case a && b:
		return lo, lo - 1
	}
	l, u := lo, hi // out(l) = a, out(u) = b
	for u-l > 1 {
		if m := l + (u-l)/2; out(m) == a {
			l = m
		} else {
			u = m
		}
	}
	if a {
		return u, hi // a suffix passes
	}
	return lo, l // a prefix passes
}

// rowRange narrows [lo, hi] to the iz whose points (x, y, z(iz)) lie on
// the inner side of pl as inside tests them (n·p ≤ d). z is
// non-decreasing in iz, so the computed n·p is monotone in iz (each
// rounded product and sum is a monotone function of its operand).
func rowRange(pl plane, x, y float64, lo, hi int, z func(int) float64) (int, int) {
	return passing(lo, hi, func(k int) bool { return pl.n.Dot(geom.Vec3{x, y, z(k)}) > pl.d })
}

// boxRange returns the iz in [lo, hi] whose points (x, y, z(iz)) lie in
// b as inBox tests them (lo > hi: none).
func boxRange(b geom.Box, x, y float64, lo, hi int, z func(int) float64) (int, int) {
	if !(x >= b.Min[0] && x <= b.Max[0] && y >= b.Min[1] && y <= b.Max[1]) {
		return lo, lo - 1
	}
	lo, hi = passing(lo, hi, func(k int) bool { return !(z(k) >= b.Min[2]) })
	return passing(lo, hi, func(k int) bool { return !(z(k) <= b.Max[2]) })
}

// about returns the same moments taken about another origin q.
func (m moments) about(q geom.Vec3) moments {
	d := m.o.Sub(q) // x − q = (x − o) + d
	r := moments{o: q, v: m.v, s: m.s.Add(d.Scale(m.v)), c: m.c}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r.c[i][j] += m.s[i]*d[j] + d[i]*m.s[j] + m.v*d[i]*d[j]
		}
	}
	return r
}

// add returns m + w·n; both must be about the same origin.
func (m moments) add(n moments, w float64) moments {
	r := moments{o: m.o, v: m.v + w*n.v, s: m.s.Add(n.s.Scale(w))}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r.c[i][j] = m.c[i][j] + w*n.c[i][j]
		}
	}
	return r
}
