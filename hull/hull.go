package hull

import (
	"errors"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Options controls hull construction.
type Options struct {
	// MaxVertices caps the hull's vertex count: 0 means DefaultMaxVertices
	// (255, the PhysX and Unity limit), a negative value means no limit.
	// A hull over the limit is replaced by a bounding polytope (edge
	// collapses or plane cuts, see DESIGN.md); a positive limit below 8 is
	// an error when such a reduction is needed.
	MaxVertices int
	// MaxFaces caps the hull's polygon count (coplanar triangles merged,
	// as PolygonCount counts them): 0 or negative means no cap, a positive
	// value below 6 is an error when a reduction is needed. There is no
	// default: a hull reduced by edge collapses is triangulated, so it has
	// about 2V-4 polygons (up to 506 at 255 vertices, where plane cuts
	// gave about V/2+2), and a default of 255 would halve the vertex
	// budget of every curved hull, while engines that cook their own hull
	// from the vertices (PhysX's and Jolt's cookers) apply their own
	// polygon limit. Set it (255; 64 for PhysX on the GPU) for consumers
	// that take the polygons as they are.
	MaxFaces int
	// MaxTriangles caps the hull's triangle count (0 or negative: no
	// cap), for engines that limit triangles rather than polygons (Unity's
	// convex MeshCollider: 255). Every hull Build returns is a closed
	// triangulated sphere, whose triangle count is 2V-4 for V vertices, so
	// this is the vertex cap (MaxTriangles+4)/2 (255 triangles: 129
	// vertices), combined with MaxVertices by taking the smaller; a
	// positive value below 12 is an error when a reduction is needed.
	MaxTriangles int
	// DegenerateHalfThickness is the half thickness, relative to the
	// bounding-box diagonal of the points, of the slab or box built for
	// flat, line-like and single-point inputs. 0 means
	// DefaultDegenerateHalfThickness.
	DegenerateHalfThickness float64
	// LocalCheck skips the final all-vertices-against-all-faces convexity
	// check of an exact hull (up to 4e6 operations), keeping the check
	// across every edge: for callers that build many throwaway hulls and
	// Validate the ones they keep (decompose's candidate cuts).
	LocalCheck bool
}

// DefaultMaxVertices is the vertex limit used when Options.MaxVertices is 0.
const DefaultMaxVertices = 255

// Tolerances, all relative to the bounding-box diagonal D of the finite
// input points (the algorithm works on points recentred on their bounding
// box and scaled by 1/D).
const (
	// PlaneEpsilon is the distance above a face beyond which a point is
	// treated as outside during construction; points closer than this are
	// considered on the hull. Escalated by 10× up to three times when an
	// insertion cannot be made topologically consistent.
	PlaneEpsilon = 1e-10
	// RankTolerance: inputs whose extent across a line (or out of a
	// plane) is at most this are treated as line-like (or flat).
	RankTolerance = 1e-7
	// DefaultDegenerateHalfThickness is the half thickness of the slab
	// (flat inputs) or box (line and point inputs) built around
	// degenerate inputs, added to their actual small extent.
	DefaultDegenerateHalfThickness = 5e-4
	// ContainmentTolerance is how far outside the hull an input point may
	// be for Validate to accept it.
	ContainmentTolerance = 1e-6
	// ConvexityTolerance is how far a vertex may lie above the plane of a
	// neighbouring face for Validate to accept the hull as convex.
	ConvexityTolerance = 1e-6
	// PointScaleTolerance: points whose bounding-box diagonal is at most
	// this times their largest absolute coordinate are treated as one
	// point (their spread is within a few million float64 steps: output
	// vertices rounded to the input's coordinates could not keep a finer
	// hull valid).
	PointScaleTolerance = 1e-8
	// CoplanarTolerance is the distance under which triangles are merged
	// into one polygon by PolygonCount and the reduction.
	CoplanarTolerance = 1e-7
)

// Degeneracy tells which kind of input produced the hull.
type Degeneracy int

const (
	// NotDegenerate: the points span a volume; the hull is theirs.
	NotDegenerate Degeneracy = iota
	// Flat: all points within RankTolerance of a plane; the hull is their
	// 2D hull extruded to a slab of half thickness
	// extent + DegenerateHalfThickness on each side of the plane.
	Flat
	// Line: all points within RankTolerance of a line; the hull is a box
	// along that line with half width extent + DegenerateHalfThickness.
	Line
	// Point: all points coincide (D at most PointScaleTolerance times the
	// largest coordinate); the hull is a cube around them (see DESIGN.md).
	Point
)

func (d Degeneracy) String() string {
	switch d {
	case NotDegenerate:
		return "none"
	case Flat:
		return "flat"
	case Line:
		return "line"
	case Point:
		return "point"
	}
	return fmt.Sprintf("Degeneracy(%d)", int(d))
}

// Hull is a closed convex triangle mesh with outward (counter-clockwise
// seen from outside, glTF) winding and no unused vertex.
type Hull struct {
	Vertices  []geom.Vec3
	Triangles [][3]uint32
	// Degenerate says whether the input was flat, line-like or a point,
	// in which case the hull is a thin slab or box (see Degeneracy).
	Degenerate Degeneracy
	// Reduced is true when the exact hull exceeded MaxVertices or
	// MaxFaces and was replaced by a bounding polytope with fewer vertices.
	Reduced bool
	// Dropped is how many input points were not finite and ignored.
	Dropped int
	// Fallback is empty when the hull was built by the normal pipeline.
	// Otherwise the construction or its validation failed and the hull is
	// a conservative substitute, checked to contain every finite point:
	// FallbackSnapped or FallbackBox (see DESIGN.md).
	Fallback string
}

// ErrNoPoints is returned when no finite point is given.
var ErrNoPoints = errors.New("hull: no finite points")

// MaxCoordinate bounds the absolute value of input coordinates: beyond it
// products of coordinates could overflow, and Build returns ErrRange.
const MaxCoordinate = 1e150

// ErrRange is returned when a finite input coordinate exceeds
// MaxCoordinate in absolute value.
var ErrRange = errors.New("hull: coordinate beyond ±1e150")

// ErrTooFewPoints is the former name of ErrNoPoints.
var ErrTooFewPoints = ErrNoPoints

// Build returns a convex hull containing every finite point of points,
// with at most opt.MaxVertices vertices and opt.MaxFaces polygons. See the
// package documentation for the algorithm and its guarantees. Build never
// panics on any input; it fails only when no point is finite
// (ErrNoPoints), when a coordinate exceeds MaxCoordinate (ErrRange) or when
// a limit is too small to reduce to. When the construction or the
// validation of its result fails, Build falls back to a conservative hull
// and says so in Hull.Fallback.
func Build(points []geom.Vec3, opt Options) (h *Hull, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("hull: internal error: %v", r)
		}
	}()
	maxV := opt.MaxVertices
	if maxV == 0 {
		maxV = DefaultMaxVertices
	}
	if opt.MaxTriangles > 0 {
		if t := (opt.MaxTriangles + 4) / 2; maxV < 0 || t < maxV {
			maxV = t
		}
	}
	maxF := opt.MaxFaces
	halfT := opt.DegenerateHalfThickness
	if halfT <= 0 || math.IsNaN(halfT) || math.IsInf(halfT, 0) {
		halfT = DefaultDegenerateHalfThickness
	}

	for _, p := range points {
		if p.IsFinite() && (math.Abs(p[0]) > MaxCoordinate || math.Abs(p[1]) > MaxCoordinate || math.Abs(p[2]) > MaxCoordinate) {
			return nil, fmt.Errorf("%w: %v", ErrRange, p)
		}
	}
	n := normalize(points)
	if len(n.p) == 0 {
		return nil, ErrNoPoints
	}
	src := n.p
	deg := NotDegenerate
	var t [4]int32
	var limitErr error
	if n.diag <= PointScaleTolerance*n.maxAbs {
		deg = Point
	} else {
		var length, lineDist, planeDist float64
		t, length, lineDist, planeDist = initialSimplex(n.p)
		switch {
		case length <= RankTolerance:
			deg = Point
		case lineDist <= RankTolerance:
			deg = Line
		case planeDist <= RankTolerance:
			deg = Flat
		}
		if deg != NotDegenerate {
			src = degenerateHullPoints(n.p, deg, t, halfT)
			t, _, _, _ = initialSimplex(src)
		}
	}
	if deg == Point {
		return pointHull(points, n, halfT)
	}

	if maxV > 0 && maxV < 8 {
		limitErr = fmt.Errorf("hull: MaxVertices %d is below 8, the smallest reduced hull", maxV)
		if opt.MaxTriangles > 0 && opt.MaxTriangles < 12 {
			limitErr = fmt.Errorf("hull: MaxTriangles %d is below 12, the smallest reduced hull", opt.MaxTriangles)
		}
	}
	if maxF > 0 && maxF < 6 {
		limitErr = fmt.Errorf("hull: MaxFaces %d is below 6, the smallest reduced hull", maxF)
	}
	var out func(int32) geom.Vec3
	if deg == NotDegenerate {
		// Output the input points themselves, not their normalized copies.
		out = func(i int32) geom.Vec3 { return n.orig[i] }
	} else {
		out = func(i int32) geom.Vec3 { return n.denorm(src[i]) }
	}
	h, err = construct(src, t, out, n, maxV, maxF, limitErr, !opt.LocalCheck)
	if err == nil || (limitErr != nil && err == limitErr) {
		if h != nil {
			h.Degenerate, h.Dropped = deg, len(points)-len(n.p)
		}
		return h, err
	}
	// Fallbacks (see DESIGN.md), each checked against every input point.
	firstErr := err
	if sn, ok := snapPoints(src); ok {
		if st, _, _, pd := initialSimplex(sn); pd > RankTolerance {
			h, err = construct(sn, st, func(i int32) geom.Vec3 { return n.denorm(sn[i]) }, n, maxV, maxF, limitErr, true)
			if err == nil {
				err = Validate(h, points)
			}
			if err == nil {
				h.Degenerate, h.Dropped, h.Fallback = deg, len(points)-len(n.p), FallbackSnapped
				return h, nil
			}
		}
	}
	if limitErr != nil {
		return nil, firstErr // a box would break the limit too
	}
	h = boundingBox(src, n)
	if err := Validate(h, points); err != nil {
		return nil, fmt.Errorf("hull: %w; bounding box fallback: %v", firstErr, err)
	}
	h.Degenerate, h.Dropped, h.Fallback = deg, len(points)-len(n.p), FallbackBox
	return h, nil
}

// Fallback values of Hull.Fallback.
const (
	// FallbackSnapped: the hull is that of the points rounded to a grid of
	// SnapGrid·D (near-duplicates merged, near-coplanar points made
	// coplanar); its vertices are grid points, not input points.
	FallbackSnapped = "snapped"
	// FallbackBox: the hull is the smaller of the axis-aligned and the
	// principal-axes bounding box of the points.
	FallbackBox = "box"
)

// SnapGrid is the grid step, relative to D, of the FallbackSnapped retry
// (2^-23: every point moves at most 1.04e-7·D, a tenth of
// ContainmentTolerance).
const SnapGrid = 1.0 / (1 << 23)

// construct runs quickhull on src (normalized) from the simplex t, with
// the epsilon escalation, then reduces to the limits and validates the
// result. out maps a point index of src to its output coordinates.
// limitErr, when not nil, is returned as is if a reduction is needed.
func construct(src []geom.Vec3, t [4]int32, out func(int32) geom.Vec3, n normalized, maxV, maxF int, limitErr error, global bool) (*Hull, error) {
	var tris [][3]int32
	eps := PlaneEpsilon
	for try := 0; ; try++ {
		q := quickhull{p: src, eps: eps}
		err := q.run(t)
		if err == nil {
			tris = q.triangles()
			break
		}
		if try == 3 {
			return nil, fmt.Errorf("hull: construction failed at tolerance %g: %w", eps, err)
		}
		eps *= 10
	}
	m := compact(tris, out, src)
	h := &Hull{Vertices: m.out, Triangles: m.tris}

	over := maxV > 0 && len(h.Vertices) > maxV
	if !over && maxF > 0 {
		over = PolygonCount(m.norm, m.tris, CoplanarTolerance) > maxF
	}
	if over {
		if limitErr != nil {
			return nil, limitErr
		}
		r, err := reduceHull(m, n, eps, maxV, maxF)
		if err != nil {
			return nil, fmt.Errorf("hull: reducing %d vertices to %d: %w", len(h.Vertices), maxV, err)
		}
		return r, nil
	}
	// The exact hull contains the points by construction; check its shape.
	if err := validate(h, nil, global); err != nil {
		return nil, fmt.Errorf("hull: hull failed validation: %w", err)
	}
	return h, nil
}

// planeRetryGrowth: when the edge collapses give a polytope more than this
// fraction larger than the exact hull, plane cuts are tried too.
const planeRetryGrowth = 0.05

// collapseMaxVertices: exact hulls with more vertices are reduced by plane
// cuts only. Collapses cost about 40 small linear programs per vertex
// removed (a 5,000-vertex sphere: about 0.2 s of CPU, 4 to 6 times the
// plane cuts), and such hulls come from finely tessellated curved
// surfaces, which every engine-sized limit coarsens a lot anyway.
const collapseMaxVertices = 2048

// reduceHull replaces the exact hull m by a bounding polytope within the
// limits: by edge collapses (collapse.go; only up to collapseMaxVertices)
// and, when they are not tried, fail, grow the volume by more than
// planeRetryGrowth (box-like hulls at few vertices, whose corners the
// collapses cannot cut) or when a face limit is set (plane cuts make
// simple polytopes, about half as many faces as vertices), by plane cuts
// (reduce.go) whose vertices are then relocated (tighten). Each result
// must pass Validate and contain every vertex of the exact hull; the
// smaller valid one is kept.
func reduceHull(m mesh, n normalized, eps float64, maxV, maxF int) (*Hull, error) {
	var best *Hull
	var bestVol float64
	var firstErr error
	var methods []func() (*polytope, error)
	if len(m.norm) <= collapseMaxVertices {
		methods = append(methods, func() (*polytope, error) { return collapseReduce(m.norm, m.tris, maxV, maxF) })
	}
	var cuts *polytope
	methods = append(methods, func() (*polytope, error) {
		p, err := reduce(m.norm, m.tris, eps+offsetMargin, maxV, maxF)
		if err != nil {
			return nil, err
		}
		cuts = p
		t := tighten(p, m.norm)
		if maxF > 0 {
			// Moving vertices bends the polygons into triangles.
			if v, tris := t.mesh(func(x geom.Vec3) geom.Vec3 { return x }); PolygonCount(v, tris, CoplanarTolerance) > maxF {
				return p, nil
			}
		}
		return t, nil
	}, func() (*polytope, error) {
		// The plane cuts as they were, when the relocated ones fail
		// verification (relocation next to nearly collinear vertices).
		if cuts == nil {
			return nil, errors.New("no plane cuts")
		}
		return cuts, nil
	})
	exact := (&Hull{Vertices: m.norm, Triangles: m.tris}).Volume()
	for _, method := range methods {
		if best != nil && maxF <= 0 && bestVol <= exact*(1+planeRetryGrowth) {
			break
		}
		pt, err := method()
		if err == nil {
			h := &Hull{Reduced: true}
			h.Vertices, h.Triangles = pt.mesh(n.denorm)
			if err = Validate(h, nil); err != nil {
				err = fmt.Errorf("reduced hull failed validation: %w", err)
			} else if d := pt.maxOutside(m.norm); d > ContainmentTolerance {
				// Every point is within eps of the exact hull: check that
				// the exact hull's vertices are inside every face.
				err = fmt.Errorf("reduced hull leaves a hull vertex %.3g (relative) outside", d)
			} else if v := pt.volume(); best == nil || v < bestVol {
				best, bestVol = h, v
			}
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if best == nil {
		return nil, firstErr
	}
	return best, nil
}

// snapPoints rounds normalized points to the SnapGrid and drops repeats
// (first occurrence kept, so the order stays deterministic). It reports
// false when rounding changed nothing.
func snapPoints(p []geom.Vec3) ([]geom.Vec3, bool) {
	type key [3]int64
	seen := make(map[key]bool, len(p))
	out := make([]geom.Vec3, 0, len(p))
	changed := false
	for _, x := range p {
		var k key
		var y geom.Vec3
		for c := 0; c < 3; c++ {
			k[c] = int64(math.Round(x[c] / SnapGrid))
			y[c] = float64(k[c]) * SnapGrid
		}
		if y != x {
			changed = true
		}
		if seen[k] {
			changed = true
			continue
		}
		seen[k] = true
		out = append(out, y)
	}
	return out, changed
}

// boundingBox is the last fallback: the smaller of the axis-aligned and
// the principal-axes box of the normalized points src, pushed out by
// offsetMargin.
func boundingBox(src []geom.Vec3, n normalized) *Hull {
	var best *polytope
	axes := [][3]geom.Vec3{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	if pa, ok := principalAxes(src); ok {
		axes = append(axes, pa)
	}
	for _, ax := range axes {
		b := boxPolytope(ax, src, PlaneEpsilon+offsetMargin)
		if best == nil || b.volume() < best.volume() {
			best = b
		}
	}
	h := &Hull{Reduced: true}
	h.Vertices, h.Triangles = best.mesh(n.denorm)
	return h
}

// normalized holds the finite input points recentred on their bounding box
// and scaled so that its diagonal is 1.
type normalized struct {
	p      []geom.Vec3
	orig   []geom.Vec3
	center geom.Vec3
	diag   float64
	maxAbs float64 // largest absolute coordinate
}

func (n normalized) denorm(v geom.Vec3) geom.Vec3 { return v.Scale(n.diag).Add(n.center) }

func normalize(points []geom.Vec3) normalized {
	var n normalized
	b := geom.EmptyBox()
	n.orig = make([]geom.Vec3, 0, len(points))
	for _, p := range points {
		if !p.IsFinite() {
			continue
		}
		for k := 0; k < 3; k++ {
			if p[k] < b.Min[k] {
				b.Min[k] = p[k]
			}
			if p[k] > b.Max[k] {
				b.Max[k] = p[k]
			}
		}
		n.orig = append(n.orig, p)
	}
	if len(n.orig) == 0 {
		return n
	}
	n.center = b.Center()
	n.diag = b.Diagonal()
	for k := 0; k < 3; k++ {
		n.maxAbs = math.Max(n.maxAbs, math.Max(math.Abs(b.Min[k]), math.Abs(b.Max[k])))
	}
	s := 1.0
	if n.diag > 0 {
		s = 1 / n.diag
	}
	n.p = make([]geom.Vec3, len(n.orig))
	for i, p := range n.orig {
		n.p[i] = p.Sub(n.center).Scale(s)
	}
	return n
}

// mesh is a compacted triangle mesh in output and normalized coordinates.
type mesh struct {
	out, norm []geom.Vec3
	tris      [][3]uint32
}

// compact renumbers the used points in order of first use.
func compact(tris [][3]int32, out func(int32) geom.Vec3, norm []geom.Vec3) mesh {
	var m mesh
	idx := make([]int32, len(norm))
	for i := range idx {
		idx[i] = -1
	}
	for _, t := range tris {
		var o [3]uint32
		for k, v := range t {
			j := uint32(idx[v])
			if idx[v] < 0 {
				j = uint32(len(m.out))
				idx[v] = int32(j)
				m.out = append(m.out, out(v))
				m.norm = append(m.norm, norm[v])
			}
			o[k] = j
		}
		m.tris = append(m.tris, o)
	}
	return m
}

// Volume returns the enclosed volume (divergence theorem); it is positive
// for outward winding.
func (h *Hull) Volume() float64 {
	if len(h.Vertices) == 0 {
		return 0
	}
	o := h.Vertices[0]
	var v float64
	for _, t := range h.Triangles {
		a, b, c := h.Vertices[t[0]].Sub(o), h.Vertices[t[1]].Sub(o), h.Vertices[t[2]].Sub(o)
		v += a.Dot(b.Cross(c))
	}
	return v / 6
}

// Polygons returns the number of faces of the hull once coplanar adjacent
// triangles are merged (within CoplanarTolerance of the hull's diagonal):
// the count that PhysX's and Unity's 255-polygon limits apply to.
func (h *Hull) Polygons() int {
	b := geom.BoundsOf(h.Vertices)
	d := b.Diagonal()
	if d == 0 {
		return len(h.Triangles)
	}
	c := b.Center()
	norm := make([]geom.Vec3, len(h.Vertices))
	for i, v := range h.Vertices {
		norm[i] = v.Sub(c).Scale(1 / d)
	}
	return PolygonCount(norm, h.Triangles, CoplanarTolerance)
}
