package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// DefaultSamples is the sample count for Measure the benchmarks use (its
// precision: DESIGN.md, Metrics).
const DefaultSamples = 20000

// UncoveredTol is how far (fraction of the diagonal) a surface sample may lie
// outside every hull and still count as covered (why 0.1 %: DESIGN.md,
// Metrics).
const UncoveredTol = 1e-3

// volumeWeight is CoACD's weight k of the volume term in its concavity.
const volumeWeight = 0.3

// parallelTol: a face whose normal's z component is below this is taken as
// parallel to the z rays of overlapVolume.
const parallelTol = 1e-12

// volumeRays is the side of the grid of rays used to measure the hulls'
// overlap.
const volumeRays = 128

// Metrics describes how well hulls approximate a mesh. Distances are
// fractions of the mesh's bounding-box diagonal.
type Metrics struct {
	Hulls       int
	Vertices    int // total over all hulls
	MaxVertices int // of the largest hull
	// Uncovered is the share of area-uniform surface samples lying more than
	// UncoveredTol outside every hull.
	Uncovered float64
	// MaxVertexOutside is the largest distance of an input vertex outside
	// the union of the hulls (0 when all are inside).
	MaxVertexOutside float64
	// BloatMean and BloatMax: one-sided distance from area-uniform samples
	// of the hulls' surface to the nearest mesh triangle. Samples inside or
	// on another hull (within UncoveredTol) are skipped: they are not on
	// the union's boundary (two hulls meeting at a cut share a face). So are
	// samples inside the mesh's solid (median winding number of three rays
	// at least 1): a hull face inside the object, where neighbouring hulls'
	// cut faces do not match exactly, adds no volume outside the object.
	BloatMean, BloatMax float64
	// SurfaceDistMean is the mean distance from area-uniform samples on
	// every hull's whole surface to the nearest mesh triangle, nothing
	// skipped: faces inside the union (where hulls meet at a cut) and
	// inside the solid count too. It is the bloat definition behind the
	// reference figures of the benchmark meshes (V-HACD's and CoACD's), so
	// it charges each cut face with its depth below the surface; BloatMean
	// charges only what sticks out of the object.
	SurfaceDistMean float64
	// OuterDistMean is the mean distance from area-uniform samples on the
	// hulls' surface to the nearest mesh triangle, leaving out the samples
	// inside or on another hull (within UncoveredTol): the faces where hulls
	// meet. It is the definition of the reference figures for CoACD's real
	// meshes (shared/bench/real-meshes); unlike BloatMean it keeps the
	// faces inside the object's solid.
	OuterDistMean float64
	// Concavity is CoACD's figure max(Hb, k·Rv): Hb the boundary Hausdorff
	// distance between mesh and hulls (BloatMax one way; the other way the
	// depth of mesh samples inside the union, taken as their largest depth
	// inside a single hull, a lower bound), Rv the cube root of |volume of
	// the union − volume of the mesh| (the mesh's volume by the divergence
	// theorem, meaningful for closed meshes only), k = 0.3.
	Concavity float64
	// Volume terms behind Concavity, in the mesh's units.
	HullVolume, MeshVolume float64
}

type measuredHull struct {
	h      *hull.Hull
	planes []plane
	box    geom.Box
	tris   []tri
}

func newMeasuredHull(h *hull.Hull) measuredHull {
	m := measuredHull{h: h, planes: facePlanes(h), box: geom.BoundsOf(h.Vertices), tris: hullTris(h)}
	return m
}

// outside returns the Euclidean distance from x to the hull (0 inside),
// computing the exact distance only when x is within limit of it; beyond,
// it returns a lower bound > limit.
func (m *measuredHull) outside(x geom.Vec3, limit float64) float64 {
	if len(m.planes) == 0 {
		return math.Inf(1)
	}
	s := -depth(m.planes, x)
	if s <= 0 {
		return 0
	}
	if s > limit {
		return s
	}
	best := math.Inf(1)
	for _, t := range m.tris {
		best = math.Min(best, pointTriDist2(x, t))
	}
	return math.Sqrt(best)
}

// Measure computes Metrics for hulls approximating the mesh, with samples
// area-uniform samples on each surface drawn from seed. Triangles with
// out-of-range indices are ignored.
func Measure(vertices []geom.Vec3, triangles [][3]uint32, hulls []*hull.Hull, samples int, seed int64) Metrics {
	var m Metrics
	m.Hulls = len(hulls)
	var ts []tri
	box := geom.EmptyBox()
	for _, t := range triangles {
		if int(t[0]) >= len(vertices) || int(t[1]) >= len(vertices) || int(t[2]) >= len(vertices) {
			continue
		}
		c := tri{vertices[t[0]], vertices[t[1]], vertices[t[2]]}
		ts = append(ts, c)
		box = box.Extend(c[0]).Extend(c[1]).Extend(c[2])
	}
	mh := make([]measuredHull, 0, len(hulls))
	for _, h := range hulls {
		if h == nil || len(h.Triangles) == 0 {
			continue
		}
		m.Vertices += len(h.Vertices)
		m.MaxVertices = max(m.MaxVertices, len(h.Vertices))
		mh = append(mh, newMeasuredHull(h))
	}
	if len(ts) == 0 {
		return m
	}
	diag := box.Diagonal()
	if diag == 0 {
		diag = 1
	}
	tol := UncoveredTol * diag
	minOutside := func(x geom.Vec3, limit float64) float64 {
		for i := range mh {
			if boxDist2(mh[i].box, x) == 0 && depthAbove(mh[i].planes, x, 0) >= 0 {
				return 0
			}
		}
		best := math.Inf(1)
		for i := range mh {
			if boxDist2(mh[i].box, x) >= best*best {
				continue
			}
			best = math.Min(best, mh[i].outside(x, limit))
			if best == 0 {
				return 0
			}
		}
		return best
	}
	// Vertices (those used by a triangle).
	used := make([]bool, len(vertices))
	for _, t := range triangles {
		if int(t[0]) < len(vertices) && int(t[1]) < len(vertices) && int(t[2]) < len(vertices) {
			used[t[0]], used[t[1]], used[t[2]] = true, true, true
		}
	}
	for i, v := range vertices {
		if !used[i] {
			continue
		}
		if d := minOutside(v, diag); d > m.MaxVertexOutside {
			m.MaxVertexOutside = d
		}
	}
	m.MaxVertexOutside /= diag
	// Mesh samples: coverage and depth inside the union.
	var hb float64
	if samples > 0 {
		ms := newSampler(ts, uint64(seed))
		out := 0
		for i := 0; i < samples; i++ {
			x, _ := ms.next()
			if minOutside(x, tol) > tol {
				out++
			}
			for k := range mh {
				if dp := depthAbove(mh[k].planes, x, hb); dp > hb {
					hb = dp
				}
			}
		}
		m.Uncovered = float64(out) / float64(samples)
	}
	// Hull samples: bloat.
	var all []tri
	for i := range mh {
		all = append(all, mh[i].tris...)
	}
	owner := make([]int, 0, len(all))
	for i := range mh {
		for range mh[i].tris {
			owner = append(owner, i)
		}
	}
	if samples > 0 && len(all) > 0 {
		tree := newBVH(ts)
		hs := newSampler(all, uint64(seed)+1)
		var sum, all, outer float64
		n, nOuter := 0, 0
		for i := 0; i < samples; i++ {
			x, ti := hs.next()
			dd := tree.dist(x, 0)
			if math.IsInf(dd, 1) {
				dd = 0 // no triangle with area: nothing to be far from
			}
			all += dd
			inside := false
			for k := range mh {
				if k != owner[ti] && depthAbove(mh[k].planes, x, -tol) >= -tol {
					inside = true
					break
				}
			}
			if inside {
				continue
			}
			outer += dd
			nOuter++
			if tree.insideSolid(x) {
				continue
			}
			sum += dd
			n++
			m.BloatMax = math.Max(m.BloatMax, dd)
		}
		if n > 0 {
			m.BloatMean = sum / float64(n) / diag
		}
		if nOuter > 0 {
			m.OuterDistMean = outer / float64(nOuter) / diag
		}
		m.BloatMax /= diag
		m.SurfaceDistMean = all / float64(samples) / diag
	}
	hb = math.Max(hb/diag, m.BloatMax)
	// Volumes.
	var sumV float64
	for i := range mh {
		sumV += mh[i].h.Volume()
	}
	m.HullVolume = sumV - overlapVolume(mh)
	o := box.Center()
	for _, t := range ts {
		m.MeshVolume += t[0].Sub(o).Dot(t[1].Sub(o).Cross(t[2].Sub(o))) / 6
	}
	m.MeshVolume = math.Abs(m.MeshVolume)
	rv := math.Cbrt(math.Abs(m.HullVolume-m.MeshVolume)) / diag
	m.Concavity = math.Max(hb, volumeWeight*rv)
	return m
}

// overlapVolume estimates the volume covered by more than one hull (counted
// with multiplicity − 1), integrating along a volumeRays² grid of rays
// parallel to z: each ray's chord through each hull is exact.
func overlapVolume(mh []measuredHull) float64 {
	if len(mh) < 2 {
		return 0
	}
	box := geom.EmptyBox()
	for i := range mh {
		box = box.Union(mh[i].box)
	}
	s := box.Size()
	dx, dy := s[0]/volumeRays, s[1]/volumeRays
	type iv struct{ a, b float64 }
	var ivs []iv
	var total float64
	for i := 0; i < volumeRays; i++ {
		x := box.Min[0] + (float64(i)+0.5)*dx
		for j := 0; j < volumeRays; j++ {
			y := box.Min[1] + (float64(j)+0.5)*dy
			ivs = ivs[:0]
			var sum float64
			for k := range mh {
				b := mh[k].box
				if x < b.Min[0] || x > b.Max[0] || y < b.Min[1] || y > b.Max[1] {
					continue
				}
				lo, hi := math.Inf(-1), math.Inf(1)
				for _, p := range mh[k].planes {
					// n·(x,y,z) ≤ d.
					r := p.d - p.n[0]*x - p.n[1]*y
					switch {
					case p.n[2] > parallelTol:
						hi = math.Min(hi, r/p.n[2])
					case p.n[2] < -parallelTol:
						lo = math.Max(lo, r/p.n[2])
					default:
						if r < 0 {
							lo, hi = 1, 0
						}
					}
				}
				if hi > lo && !math.IsInf(hi-lo, 0) {
					ivs = append(ivs, iv{lo, hi})
					sum += hi - lo
				}
			}
			if len(ivs) < 2 {
				continue
			}
			// Union length by sweeping sorted intervals.
			for a := 1; a < len(ivs); a++ {
				for b := a; b > 0 && ivs[b].a < ivs[b-1].a; b-- {
					ivs[b], ivs[b-1] = ivs[b-1], ivs[b]
				}
			}
			var union float64
			cur := ivs[0]
			for _, v := range ivs[1:] {
				if v.a > cur.b {
					union += cur.b - cur.a
					cur = v
				} else if v.b > cur.b {
					cur.b = v.b
				}
			}
			union += cur.b - cur.a
			total += (sum - union) * dx * dy
		}
	}
	return total
}
