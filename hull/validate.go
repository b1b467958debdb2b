package hull

import (
	"fmt"
	"math"
	"strings"

	"github.com/autocollide/autocollide/geom"
)

// ValidationError lists why a hull is not a valid convex hull of its points.
type ValidationError struct {
	// Problems holds one line per problem found (at most maxProblems).
	Problems []string
	// More counts the problems found beyond those listed.
	More int
}

const maxProblems = 8

func (e *ValidationError) Error() string {
	s := "invalid hull: " + strings.Join(e.Problems, "; ")
	if e.More > 0 {
		s += fmt.Sprintf("; and %d more", e.More)
	}
	return s
}

func (e *ValidationError) add(format string, args ...any) {
	if len(e.Problems) < maxProblems {
		e.Problems = append(e.Problems, fmt.Sprintf(format, args...))
	} else {
		e.More++
	}
}

// Validate checks that h is a valid convex hull containing points and
// returns a *ValidationError saying why when it is not:
//   - every vertex finite, every index in range, no repeated index in a
//     triangle, no zero-area triangle, no unused vertex;
//   - closed and consistently wound: every directed edge appears once and
//     its reverse once, the mesh is connected and has Euler
//     characteristic 2 (a sphere: no pinched vertex);
//   - outward: positive volume;
//   - convex: across every edge, the far vertex of each triangle lies at
//     most ConvexityTolerance·(hull diagonal) above the other's plane, and
//     (when vertices × triangles ≤ 4e6) every vertex lies that close below
//     every triangle's plane;
//   - every finite point at most ContainmentTolerance·(points' diagonal)
//     outside every triangle's plane (cost: points × triangles).
//
// points may be nil to check the shape only.
func Validate(h *Hull, points []geom.Vec3) error {
	return validate(h, points, true)
}

// validate is Validate; global=false skips the all-vertices-against-all-
// planes convexity check (Build relies on the per-edge check for exact
// hulls, whose every vertex is a point checked during construction).
func validate(h *Hull, points []geom.Vec3, global bool) error {
	e := &ValidationError{}
	if h == nil {
		e.add("nil hull")
		return e
	}
	nv := len(h.Vertices)
	if nv < 4 || len(h.Triangles) < 4 {
		e.add("%d vertices and %d triangles: a closed convex hull needs at least 4 of each", nv, len(h.Triangles))
		return e
	}
	for i, v := range h.Vertices {
		if !v.IsFinite() {
			e.add("vertex %d is not finite: %v", i, v)
		}
	}
	used := make([]bool, nv)
	for i, t := range h.Triangles {
		for _, x := range t {
			if int(x) >= nv {
				e.add("triangle %d has index %d, out of range", i, x)
				return e
			}
			used[x] = true
		}
		if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
			e.add("triangle %d repeats a vertex: %v", i, t)
		}
	}
	if len(e.Problems) > 0 {
		return e
	}
	for i, u := range used {
		if !u {
			e.add("vertex %d is unused", i)
		}
	}
	// Work in coordinates recentred on the hull's box and scaled by its
	// diagonal, so that tiny and huge hulls are judged alike.
	hb := geom.BoundsOf(h.Vertices)
	hd := hb.Diagonal()
	if !(hd > 0) || math.IsInf(hd, 0) {
		e.add("hull has a bounding-box diagonal of %g", hd)
		return e
	}
	hc := hb.Center()
	vs := make([]geom.Vec3, nv)
	for i, v := range h.Vertices {
		vs[i] = v.Sub(hc).Scale(1 / hd)
	}
	normals := make([]geom.Vec3, len(h.Triangles))
	offsets := make([]float64, len(h.Triangles))
	for i, t := range h.Triangles {
		a, b, c := vs[t[0]], vs[t[1]], vs[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Len() == 0 {
			e.add("triangle %d has zero area", i)
		}
		normals[i] = n.Normalize()
		offsets[i] = normals[i].Dot(a.Add(b).Add(c).Scale(1.0 / 3))
	}

	// Topology.
	ei := newEdgeIndex(nv, h.Triangles)
	edges := 0
	for i, t := range h.Triangles {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if n := ei.count(a, b); n > 1 && ei.owner(a, b) == int32(i) {
				e.add("edge %d→%d is used in the same direction by %d triangles (non-manifold or inconsistent winding)", a, b, n)
			}
			if ei.owner(b, a) < 0 {
				e.add("edge %d→%d has no opposite edge (open mesh or inconsistent winding)", a, b)
			}
			if a < b {
				edges++
			}
		}
	}
	if len(e.Problems) > 0 {
		return e
	}
	if chi := nv - edges + len(h.Triangles); chi != 2 {
		e.add("Euler characteristic %d, want 2 (pinched vertex, handle or several pieces)", chi)
	}
	// Connectivity over shared edges.
	seen := make([]bool, len(h.Triangles))
	stack := []int32{0}
	seen[0] = true
	reached := 1
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t := h.Triangles[i]
		for k := 0; k < 3; k++ {
			if j := ei.owner(t[(k+1)%3], t[k]); j >= 0 && !seen[j] {
				seen[j] = true
				reached++
				stack = append(stack, j)
			}
		}
	}
	if reached != len(h.Triangles) {
		e.add("mesh has several pieces: %d of %d triangles connected to the first", reached, len(h.Triangles))
	}
	if vol := (&Hull{Vertices: vs, Triangles: h.Triangles}).Volume(); !(vol > 0) {
		e.add("volume %g is not positive (inward winding or flat)", vol*hd*hd*hd)
	}

	// Convexity.
	ctol := ConvexityTolerance
	worst, worstAt := 0.0, -1
	for i, t := range h.Triangles {
		for k := 0; k < 3; k++ {
			j := ei.owner(t[(k+1)%3], t[k])
			for _, x := range h.Triangles[j] {
				if d := normals[i].Dot(vs[x]) - offsets[i]; d > worst {
					worst, worstAt = d, i
				}
			}
		}
	}
	if global && nv*len(h.Triangles) <= 4_000_000 {
		for i := range h.Triangles {
			for _, v := range vs {
				if d := normals[i].Dot(v) - offsets[i]; d > worst {
					worst, worstAt = d, i
				}
			}
		}
	}
	if worst > ctol {
		e.add("not convex: a vertex lies %.3g above the plane of triangle %d (tolerance %.3g)", worst*hd, worstAt, ctol*hd)
	}

	// Containment.
	if len(points) > 0 {
		pb := geom.EmptyBox()
		for _, p := range points {
			if p.IsFinite() {
				pb = pb.Extend(p)
			}
		}
		scale := pb.Diagonal()
		if scale == 0 {
			scale = hd
		}
		tol := ContainmentTolerance * scale / hd
		outside := 0
		for pi, p := range points {
			if !p.IsFinite() {
				continue
			}
			q := p.Sub(hc).Scale(1 / hd)
			best, at := math.Inf(-1), 0
			for i := range normals {
				if d := normals[i].Dot(q) - offsets[i]; d > best {
					best, at = d, i
				}
			}
			if best > tol {
				if outside < 3 {
					e.add("point %d %v lies %.3g outside triangle %d (tolerance %.3g)", pi, p, best*hd, at, tol*hd)
				} else {
					e.More++
				}
				outside++
			}
		}
	}
	if len(e.Problems) > 0 || e.More > 0 {
		return e
	}
	return nil
}
