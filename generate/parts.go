package generate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/physics"
	"golang.org/x/sync/errgroup"
)

// primitiveTie is how far over the tightest primitive a cheaper one (earlier
// in autoOrder) may be and still be preferred for a part: 1%, so that a
// sphere beats a capsule of zero height around the same ball, while a
// 32-sided leg keeps its cylinder (0.6% over its prism) rather than the
// capsule (4r/3h over it: 6% for a 0.7 m leg of 3 cm radius).
const primitiveTie = 0.01

// bestPrimitive returns the primitive of autoOrder that fits the points with
// the least volume (the cheapest within primitiveTie of it), its kind, and
// ok false when the points are flat or no fit worked. The shape contains
// every point (fit's guarantee).
func bestPrimitive(in *fit.Input) (fit.Shape, kinds.Kind, bool) {
	var shapes []fit.Shape
	var ks []kinds.Kind
	best := -1
	for _, m := range autoOrder {
		k, _ := kinds.ByMethod(string(m))
		s, err := in.Fit(k.Fit, fit.Options{GapSamples: -1})
		if err != nil || s.Overshoot <= 0 || s.Overshoot > 1e300 {
			return fit.Shape{}, kinds.Kind{}, false
		}
		shapes, ks = append(shapes, s), append(ks, k)
		if best < 0 || s.Volume < shapes[best].Volume {
			best = len(shapes) - 1
		}
	}
	if best < 0 {
		return fit.Shape{}, kinds.Kind{}, false
	}
	for i, s := range shapes {
		if s.Volume <= shapes[best].Volume*(1+primitiveTie) {
			return s, ks[i], true
		}
	}
	return shapes[best], ks[best], true
}

// primitiveParts replaces each hull of a decomposition of vertices whose
// best primitive (bestPrimitive over partPoints) overshoots the hull of
// those points by at most tol of its volume, and reaches at most reach
// past the part's hull (primitiveReach; the caller passes the
// decomposition's concavity threshold), with that primitive; the others
// stay hulls. The primitive contains the part's points, so every vertex
// its hull covered stays covered. Each part stays one collider, so the count (the
// budget) is unchanged. The parts are fitted on up to run.Workers
// goroutines, each into its own slot: the result does not depend on the
// worker count.
func primitiveParts(ctx context.Context, vertices []geom.Vec3, cs []Collider, tol, reach float64, run Run) ([]Collider, error) {
	out := make([]Collider, len(cs))
	copy(out, cs)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(run.Workers, 1))
	for i, c := range cs {
		if c.Hull == nil || c.Shape.Type != physics.Convex {
			continue
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			pts, h := partPoints(vertices, c)
			in, err := fit.PrepareWithHull(pts, h)
			if err != nil {
				return nil // a degenerate part stays as it is
			}
			s, k, ok := bestPrimitive(in)
			if !ok || s.Overshoot > 1+tol {
				return nil
			}
			if f := fitted(pts, s, k); primitiveReach(f, c.Hull) <= reach {
				out[i] = f
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// partPoints are the points a part's primitive must contain, and their
// hull when known: the hull's own vertices (the part's vertices and cut
// points) when it is exact; when it was capped (Collider.Capped: a
// bounding polytope around the part, bigger than it, as a round part of
// more than MaxHullVertices vertices gets), the mesh vertices inside that
// polytope: the part's own and any of a neighbour's it overlaps, which
// only makes the primitive bigger.
func partPoints(vertices []geom.Vec3, c Collider) ([]geom.Vec3, *hull.Hull) {
	if !c.Capped {
		return c.Hull.Vertices, c.Hull
	}
	h := c.Hull
	box := geom.BoundsOf(h.Vertices)
	eps := 1e-7 * box.Diagonal()
	lo, hi := box.Min.Sub(geom.Vec3{eps, eps, eps}), box.Max.Add(geom.Vec3{eps, eps, eps})
	planes := hullPlanes(h)
	var pts []geom.Vec3
	for _, v := range vertices {
		if v[0] < lo[0] || v[1] < lo[1] || v[2] < lo[2] || v[0] > hi[0] || v[1] > hi[1] || v[2] > hi[2] {
			continue
		}
		in := true
		for _, p := range planes {
			if p.n.Dot(v) > p.d+eps {
				in = false
				break
			}
		}
		if in {
			pts = append(pts, v)
		}
	}
	if len(pts) < 4 {
		return c.Hull.Vertices, c.Hull
	}
	return pts, nil
}

// partCounts describes a set of colliders by shape type, hulls first and
// then the primitives by name: "3 hulls, 4 cylinders, 1 box".
func partCounts(cs []Collider) string {
	n := map[physics.ShapeType]int{}
	for _, c := range cs {
		n[c.Shape.Type]++
	}
	types := make([]string, 0, len(n))
	for t := range n {
		types = append(types, string(t))
	}
	sort.Slice(types, func(i, j int) bool {
		ci, cj := types[i] == string(physics.Convex), types[j] == string(physics.Convex)
		if ci != cj {
			return ci
		}
		return types[i] < types[j]
	})
	var parts []string
	for _, t := range types {
		name := t
		if t == string(physics.Convex) {
			name = "hull"
		}
		k := n[physics.ShapeType(t)]
		if k != 1 && strings.HasSuffix(name, "x") {
			name += "es"
		} else if k != 1 {
			name += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", k, name))
	}
	return strings.Join(parts, ", ")
}
