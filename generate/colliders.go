package generate

import (
	"context"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// minThickness is the smallest extent of a generated primitive or hull,
// relative to the part's bounding-box diagonal: flat parts (a single quad)
// get a box or slab this thin rather than a degenerate one, which KHR
// forbids. It is 1%: on a 1 m body 1 cm, thicker than the engines'
// contact tolerances (Rapier's 5 mm allowed error, Jolt's slop as the drop
// test sets it, 1 mm), where 1:1000 is a fifth of Rapier's. At 1:1000,
// NegativeScaleTest's label panels landed balanced on an edge 1/1000 of
// their height and toppled only after 4 s in Rapier and Jolt (#29's drop
// test); at 1% they rest by 2.4 s in all three engines.
const minThickness = 1e-2

// Collider is one collider made from a mesh instance, in the frame of
// the points it was made from.
type Collider struct {
	// Shape is the collision shape; for a convex shape its Mesh is unset
	// and Hull holds the geometry.
	Shape physics.Shape
	// Translation and Rotation pose the shape (capsules and cylinders lie
	// along the rotated +Y); identity for hulls, whose vertices are
	// already in the points' frame.
	Translation geom.Vec3
	Rotation    geom.Quat
	// Hull is the convex geometry of a convex shape, vertices at float32
	// precision and convex at it.
	Hull *hull.Hull
	// Mass holds the collider's properties at density 1 in the points'
	// frame, and Convex its polyhedron when it is one (boxes and hulls).
	Mass   mass.Properties
	Convex *mass.Convex
	// Method is the method that made the collider (never Auto), and
	// Capped says a hull was over the limits and was replaced by a
	// bounding polytope within them.
	Method Method
	Capped bool
	// overshoot is the collider's volume over the points' convex hull
	// volume, minus one, when the method knew it (0 otherwise).
	overshoot float64
	// soup is the geometry of a trimesh collider (nil otherwise).
	soup *soup
}

// Colliders makes the colliders of one mesh instance (vertices and
// triangles in a rigid frame, in metres) with the method of opt: one
// collider, or one per hull for a decomposition, on up to run.Workers
// goroutines. It knows nothing of files, so other containers (G4MF) use
// it too.
func Colliders(ctx context.Context, vertices []geom.Vec3, triangles [][3]uint32, opt ColliderSettings, run Run) ([]Collider, []string, error) {
	k, ok := kinds.ByMethod(string(opt.Method))
	if !ok {
		return nil, nil, fmt.Errorf("unknown method %q", opt.Method)
	}
	switch k.Build {
	case kinds.ConvexHull:
		h, err := hull.Build(vertices, hullOptions(opt))
		if err != nil {
			return nil, nil, err
		}
		return []Collider{hullCollider(h, opt.Method, vertices)}, nil, nil
	case kinds.Decomposed:
		return decomposedParts(ctx, vertices, triangles, opt, run)
	case kinds.Mesh:
		return []Collider{trimeshCollider(vertices, triangles, opt.Method)}, nil, nil
	case kinds.Nothing:
		return nil, nil, nil
	case kinds.Fitted:
		c, err := primitive(vertices, k)
		return []Collider{c}, nil, err
	case kinds.Bounded:
		c, err := bounded(vertices, k, opt)
		return []Collider{c}, nil, err
	case kinds.Choose:
		return autoColliders(ctx, vertices, triangles, opt, run)
	}
	return nil, nil, fmt.Errorf("method %q: no way to build %d", opt.Method, k.Build)
}

// decomposed makes one hull collider per hull of a decomposition; bulk
// (set by auto) sets decompose.Options.SkipRelax and SkipTighten.
func decomposed(ctx context.Context, vertices []geom.Vec3, triangles [][3]uint32, opt ColliderSettings, run Run, bulk bool) ([]Collider, []string, error) {
	res, err := decompose.Decompose(ctx, vertices, triangles, decompose.Options{
		Concavity: opt.Concavity, AbsConcavity: opt.AbsConcavity, MaxHulls: opt.budget(),
		MaxHullVertices: hullOptions(opt).MaxVertices, Workers: max(run.Workers, 1),
		SearchTriangles: opt.SearchTriangles, GapSlack: opt.GapSlack, SkipRelax: bulk, SkipTighten: bulk, Progress: decomposeProgress(run.Progress),
	})
	if err != nil {
		return nil, nil, err
	}
	cs := make([]Collider, 0, len(res.Hulls))
	for i, h := range res.Hulls {
		if opt.MaxHullFaces > 0 {
			// The decomposition caps vertices only: rebuild each
			// hull from its vertices within the face cap too.
			hc, err := hull.Build(h.Vertices, hullOptions(opt))
			if err != nil {
				return nil, nil, fmt.Errorf("hull %d: %w", i, err)
			}
			h = hc
		}
		cs = append(cs, hullCollider(h, opt.Method, nil))
	}
	return cs, res.Notes, nil
}

// decomposedParts is Method Decompose: the decomposition, whose parts
// become primitives where one fits the part's hull within the auto
// tolerance (primitiveParts), as under auto; a decomposition of one part
// stays the mesh's hull. Each part stays one collider of the budget.
func decomposedParts(ctx context.Context, vertices []geom.Vec3, triangles [][3]uint32, opt ColliderSettings, run Run) ([]Collider, []string, error) {
	cs, notes, err := decomposed(ctx, vertices, triangles, opt, run, false)
	if err != nil || len(cs) < 2 {
		return cs, notes, err
	}
	tol := opt.AutoTolerance
	if tol == 0 {
		tol = DefaultAutoTolerance
	}
	if cs, err = primitiveParts(ctx, vertices, cs, tol, concavityReach(vertices, opt), run); err != nil {
		return nil, nil, err
	}
	return cs, append([]string{fmt.Sprintf("decompose: %d parts (%s; budget %d)", len(cs), partCounts(cs), opt.budget())}, notes...), nil
}

// decomposeProgress passes a decomposition's rounds on to f (nil: none).
func decomposeProgress(f func(Step)) func(done, total int) {
	if f == nil {
		return nil
	}
	return func(done, total int) { f(Step{Done: done, Total: total}) }
}

// hullOptions are the hull limits of opt: the vertex cap lowered to meet
// the triangle cap (a closed triangulated convex polytope of V vertices
// has 2V-4 triangles).
func hullOptions(opt ColliderSettings) hull.Options {
	o := hull.Options{MaxVertices: opt.MaxHullVertices, MaxFaces: opt.MaxHullFaces, DegenerateHalfThickness: minThickness / 2}
	if t := opt.MaxHullTriangles; t > 0 {
		v := (t + 4) / 2
		if o.MaxVertices == 0 {
			o.MaxVertices = hull.DefaultMaxVertices
		}
		if o.MaxVertices < 0 || o.MaxVertices > v {
			o.MaxVertices = v
		}
	}
	return o
}

// soup is a trimesh collider's triangles.
type soup struct {
	vertices  []geom.Vec3
	triangles [][3]uint32
}

// trimeshCollider makes the mesh itself the collider, with its mass
// properties when it is closed (they matter only for reports: triangle
// meshes are for static bodies).
func trimeshCollider(vertices []geom.Vec3, triangles [][3]uint32, m Method) Collider {
	c := Collider{Shape: physics.Shape{Type: physics.Trimesh}, Rotation: geom.IdentityQuat(), Method: m,
		soup: &soup{vertices, triangles}}
	if mass.IsClosedByPosition(vertices, triangles) {
		if p, err := mass.Mesh(vertices, triangles); err == nil {
			c.Mass = p
		}
	}
	return c
}

// storedHull returns the hull as it will be stored: its vertices rounded
// to float32, and its faces rebuilt from the rounded points, so that the
// mesh in the file is convex at the precision it is written in. (Rounding
// the vertices of a hull with sliver faces independently can tilt a
// sliver's plane enough to put points of a wide face outside it.) The
// rounding moves vertices by half a float32 ulp, far inside the
// containment tolerance.
func storedHull(h *hull.Hull) *hull.Hull {
	r := make([]geom.Vec3, len(h.Vertices))
	for i, v := range h.Vertices {
		r[i] = geom.Vec3{float64(float32(v[0])), float64(float32(v[1])), float64(float32(v[2]))}
	}
	h2, err := hull.Build(r, hull.Options{MaxVertices: len(r)})
	if err != nil || h2.Degenerate != hull.NotDegenerate {
		return h
	}
	return h2
}

// hullCollider makes the collider of a hull built from points (nil for a
// decomposition's hulls, whose overshoot is the decomposition's).
func hullCollider(h *hull.Hull, m Method, points []geom.Vec3) Collider {
	capped := h.Reduced
	exact := 0.0
	if capped && points != nil {
		if e, err := hull.Build(points, hull.Options{MaxVertices: -1}); err == nil {
			exact = e.Volume()
		}
	}
	c := convexCollider(h, m, capped)
	if exact > 0 {
		c.overshoot = c.Mass.Volume/exact - 1
	}
	return c
}

// convexCollider makes the collider of a hull as it will be stored (see
// storedHull), with its mass properties.
func convexCollider(h *hull.Hull, m Method, capped bool) Collider {
	h = storedHull(h)
	cv := mass.Convex{Vertices: h.Vertices, Triangles: h.Triangles}
	props, err := mass.Mesh(h.Vertices, h.Triangles)
	if err != nil {
		props = mass.Properties{CenterOfMass: geom.BoundsOf(h.Vertices).Center()}
	}
	return Collider{Shape: physics.Shape{Type: physics.Convex}, Rotation: geom.IdentityQuat(), Hull: h, Mass: props, Convex: &cv, Method: m, Capped: capped}
}

// primitive fits the primitive of a Fitted kind; its pose is the fit's
// exactly.
func primitive(local []geom.Vec3, k kinds.Kind) (Collider, error) {
	f, err := fit.Fit(k.Fit, local, fit.Options{GapSamples: -1})
	if err != nil {
		return Collider{}, err
	}
	return fitted(local, f, k), nil
}

// bounded makes the convex collider of a Bounded kind's polytope, within
// the hull caps of opt; its overshoot is over the points' exact hull.
func bounded(local []geom.Vec3, k kinds.Kind, opt ColliderSettings) (Collider, error) {
	poly, err := k.Bound(local, minThickness*geom.BoundsOf(local).Diagonal())
	if err != nil {
		return Collider{}, err
	}
	h, err := hull.Build(poly, hullOptions(opt))
	if err != nil {
		return Collider{}, err
	}
	c := convexCollider(h, opt.Method, h.Reduced)
	if e, err := hull.Build(local, hull.Options{MaxVertices: -1}); err == nil && e.Volume() > 0 {
		c.overshoot = c.Mass.Volume/e.Volume() - 1
	}
	return c, nil
}

// fitted makes the collider of a fitted primitive of kind k, no thinner
// than minThickness of the points' diagonal.
func fitted(local []geom.Vec3, f fit.Shape, k kinds.Kind) Collider {
	floor := minThickness * geom.BoundsOf(local).Diagonal()
	c := Collider{Translation: f.Center, Rotation: f.Rotation, Method: Method(k.Method), overshoot: f.Overshoot - 1}
	sk, _ := kinds.ShapeOf(k.Shape)
	c.Shape = sk.FromFit(f, floor)
	if c.Shape.Type == physics.Box {
		cv := boxConvex(geom.Vec3{}, c.Shape.Size)
		for i, v := range cv.Vertices {
			cv.Vertices[i] = f.Rotation.Rotate(v).Add(f.Center)
		}
		c.Convex = &cv
	}
	c.Mass = sk.Mass(c.Shape).Transform(f.Rotation, f.Center)
	if math.IsInf(c.overshoot, 0) || math.IsNaN(c.overshoot) {
		c.overshoot = 0 // flat: no hull volume to compare with
	}
	return c
}
