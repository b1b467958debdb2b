package hull

import (
	"fmt"
	"math"
	"sort"
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

	// Topology. adj[3i+k] is the triangle across edge k of triangle i
	// (the owner of the reverse edge), looked up once for the checks
	// below.
	ei := newEdgeIndex(nv, h.Triangles)
	adj := make([]int32, 3*len(h.Triangles))
	edges := 0
	for i, t := range h.Triangles {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if n, first := ei.countOwner(a, b); n > 1 && first == int32(i) {
				e.add("edge %d→%d is used in the same direction by %d triangles (non-manifold or inconsistent winding)", a, b, n)
			}
			j := ei.owner(b, a)
			adj[3*i+k] = j
			if j < 0 {
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
		for _, j := range adj[3*i : 3*i+3] {
			if j >= 0 && !seen[j] {
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
	for i := range h.Triangles {
		for _, j := range adj[3*i : 3*i+3] {
			for _, x := range h.Triangles[j] {
				if d := normals[i].Dot(vs[x]) - offsets[i]; d > worst {
					worst, worstAt = d, i
				}
			}
		}
	}
	if global && nv*len(h.Triangles) <= 4_000_000 {
		worst, worstAt = farthestAbove(vs, normals, offsets, worst, worstAt)
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

// Vertex clusters of farthestAbove.
const (
	// clusterSize is the most vertices a leaf cluster holds.
	clusterSize = 8
	// clusterSlack covers the rounding of a dot product of normalized
	// coordinates (|v| ≤ 1, |n| = 1 within a few ulps) in the cluster
	// bound, with a wide margin.
	clusterSlack = 1e-12
)

// farthestAbove returns, from (worst, worstAt), the largest
// normals[i]·v − offsets[i] over every vertex v and triangle i, and the
// first triangle (in order) reaching it when it exceeds worst: the same
// bits as testing every pair in order, since the maximum over a triangle's
// vertices does not depend on their order. The vertices are split by
// median cuts into a tree of clusters, each with a bounding sphere; a
// cluster whose sphere lies at most worst above a triangle's plane cannot
// raise worst and is skipped with its subtree (on a convex hull, all but
// the clusters near the triangle).
func farthestAbove(vs, normals []geom.Vec3, offsets []float64, worst float64, worstAt int) (float64, int) {
	if len(vs) <= 4*clusterSize {
		for i := range normals {
			for _, v := range vs {
				if d := normals[i].Dot(v) - offsets[i]; d > worst {
					worst, worstAt = d, i
				}
			}
		}
		return worst, worstAt
	}
	order := make([]int32, len(vs))
	for i := range order {
		order[i] = int32(i)
	}
	// Nodes in preorder: a node's left child follows it, its right child
	// is at right (-1 for a leaf, whose vertices are pos[lo:hi]).
	type node struct {
		c             geom.Vec3
		r             float64
		lo, hi, right int32
	}
	var nodes []node
	var split func(lo, hi int)
	split = func(lo, hi int) {
		b := geom.EmptyBox()
		for _, x := range order[lo:hi] {
			b = b.Extend(vs[x])
		}
		at := len(nodes)
		nodes = append(nodes, node{b.Center(), b.Diagonal() / 2, int32(lo), int32(hi), -1})
		if hi-lo <= clusterSize {
			return
		}
		s := b.Size()
		ax := 0
		for k := 1; k < 3; k++ {
			if s[k] > s[ax] {
				ax = k
			}
		}
		part := order[lo:hi]
		sort.Slice(part, func(i, j int) bool {
			if a, b := vs[part[i]][ax], vs[part[j]][ax]; a != b {
				return a < b
			}
			return part[i] < part[j]
		})
		mid := (lo + hi) / 2
		split(lo, mid)
		nodes[at].right = int32(len(nodes))
		split(mid, hi)
	}
	split(0, len(vs))
	pos := make([]geom.Vec3, len(vs))
	for i, x := range order {
		pos[i] = vs[x]
	}
	var stack []int32
	for i, n := range normals {
		off := offsets[i]
		stack = append(stack[:0], 0)
		for len(stack) > 0 {
			nd := &nodes[stack[len(stack)-1]]
			at := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n.Dot(nd.c)+nd.r+clusterSlack-off <= worst {
				continue
			}
			if nd.right >= 0 {
				stack = append(stack, nd.right, at+1)
				continue
			}
			for _, v := range pos[nd.lo:nd.hi] {
				if d := n.Dot(v) - off; d > worst {
					worst, worstAt = d, i
				}
			}
		}
	}
	return worst, worstAt
}
