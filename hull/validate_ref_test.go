package hull

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/autocollide/autocollide/internal/pointcloud"

	"github.com/autocollide/autocollide/geom"
)

// edgeCount returns how many triangles have the directed edge a→b.
func edgeCount(e edgeIndex, a, b uint32) int {
	n := 0
	for j := e.start[a]; j < e.start[a+1]; j++ {
		if e.to[j] == b {
			n++
		}
	}
	return n
}

// validateScan is validate as it was before the edge adjacency was
// computed once and the global convexity check pruned by vertex clusters:
// the reference that validate must match bit for bit (same error text).
func validateScan(h *Hull, points []geom.Vec3, global bool) error {
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
			if n := edgeCount(ei, a, b); n > 1 && ei.owner(a, b) == int32(i) {
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

// TestValidateMatchesScan: validate (adjacency looked up once, global
// convexity pruned by vertex clusters) gives the error text of the plain
// scan, nil included, on valid hulls of several sizes, exact and reduced,
// and on the same hulls broken: a vertex pushed out or in, a triangle
// flipped or dropped, with and without the points and the global check.
func TestValidateMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	var hulls []*Hull
	var clouds [][]geom.Vec3
	for _, n := range []int{8, 60, 300, 2000} {
		for _, c := range [][]geom.Vec3{pointcloud.OnSphere(n, uint64(n)), pointcloud.UniformCube(n, uint64(n+1))} {
			for _, maxV := range []int{-1, 255, 32} {
				h, err := Build(c, Options{MaxVertices: maxV})
				if err != nil {
					t.Fatal(err)
				}
				hulls = append(hulls, h)
				clouds = append(clouds, c)
			}
		}
	}
	checked, failed := 0, 0
	for hi, h := range hulls {
		variants := []*Hull{h}
		for k := 0; k < 6; k++ {
			v := &Hull{Vertices: append([]geom.Vec3(nil), h.Vertices...), Triangles: append([][3]uint32(nil), h.Triangles...)}
			x := rng.Intn(len(v.Vertices))
			switch k {
			case 0, 1: // push a vertex out (not convex) by a small or a large step
				v.Vertices[x] = v.Vertices[x].Scale(1 + 1e-5*math.Pow(1e3, float64(k)))
			case 2: // pull a vertex in
				v.Vertices[x] = v.Vertices[x].Scale(0.9)
			case 3: // flip a triangle
				i := rng.Intn(len(v.Triangles))
				tr := v.Triangles[i]
				v.Triangles[i] = [3]uint32{tr[0], tr[2], tr[1]}
			case 4: // drop a triangle
				i := rng.Intn(len(v.Triangles))
				v.Triangles = append(v.Triangles[:i], v.Triangles[i+1:]...)
			case 5: // move a vertex far along a random direction
				v.Vertices[x] = v.Vertices[x].Add(geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Scale(0.3))
			}
			variants = append(variants, v)
		}
		for _, v := range variants {
			for _, pts := range [][]geom.Vec3{nil, clouds[hi]} {
				for _, global := range []bool{false, true} {
					got, want := validate(v, pts, global), validateScan(v, pts, global)
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("hull %d (%d vertices), points %v, global %v:\n got %v\nwant %v", hi, len(v.Vertices), pts != nil, global, got, want)
					}
					checked++
					if want != nil {
						failed++
					}
				}
			}
		}
	}
	if failed == 0 || failed == checked {
		t.Fatalf("%d of %d cases invalid: the variants do not exercise both outcomes", failed, checked)
	}
	t.Logf("%d cases, %d invalid", checked, failed)
}
