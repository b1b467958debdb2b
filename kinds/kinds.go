// Package kinds is the one table of collider kinds: for every method a
// profile, --method or a report names, how its colliders are made (a fit,
// a bounding polytope, a hull, a decomposition, the mesh itself), which
// physics shape it writes, and for each shape type its mass properties, its
// tessellation and sampling, and its preview legend entry and colour.
// Profiles, the CLI, generate, preview and the report schema read it:
// adding a primitive is one fit file plus one row.
//
// The table imports the geometry packages (fit, mass) and the physics
// model; none of them imports it.
package kinds

import (
	"math"
	"slices"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// Build says how a kind's colliders are made from a mesh instance.
type Build int

// The ways of making colliders.
const (
	// Choose picks another kind per mesh instance (auto).
	Choose Build = iota
	// Fitted is one primitive from fit.Fit with Kind.Fit.
	Fitted
	// Bounded is the convex hull of the polytope Kind.Bound returns.
	Bounded
	// ConvexHull is the points' convex hull.
	ConvexHull
	// Decomposed is an approximate convex decomposition into hulls.
	Decomposed
	// Mesh is the triangle mesh itself.
	Mesh
	// Nothing makes no collider.
	Nothing
)

// Kind is one row of the table.
type Kind struct {
	// Method is the name profiles, --method and reports use.
	Method string
	Build  Build
	// Fit is the fit a Fitted kind runs.
	Fit fit.Kind
	// Bound returns the vertices of a Bounded kind's polytope around
	// points (input frame), no slab of it thinner than floor.
	Bound func(points []geom.Vec3, floor float64) ([]geom.Vec3, error)
	// Shape is the physics shape type the kind writes ("" when it writes
	// none, or when Choose decides).
	Shape physics.ShapeType
}

// table lists the kinds in the order methods are listed to users.
var table = [...]Kind{
	{Method: "auto", Build: Choose},
	{Method: "aabb", Build: Fitted, Fit: fit.KindAABB, Shape: physics.Box},
	{Method: "box", Build: Fitted, Fit: fit.KindBox, Shape: physics.Box},
	{Method: "sphere", Build: Fitted, Fit: fit.KindSphere, Shape: physics.Sphere},
	{Method: "capsule", Build: Fitted, Fit: fit.KindCapsule, Shape: physics.Capsule},
	{Method: "cylinder", Build: Fitted, Fit: fit.KindCylinder, Shape: physics.Cylinder},
	{Method: "kdop", Build: Bounded, Bound: kdop, Shape: physics.Convex},
	{Method: "hull", Build: ConvexHull, Shape: physics.Convex},
	{Method: "decompose", Build: Decomposed, Shape: physics.Convex},
	{Method: "trimesh", Build: Mesh, Shape: physics.Trimesh},
	{Method: "none", Build: Nothing},
}

// All returns every kind, in the order methods are listed to users (a
// copy: the table cannot be changed).
func All() []Kind { return slices.Clone(table[:]) }

// ByMethod returns the kind named method.
func ByMethod(method string) (Kind, bool) {
	for _, k := range table {
		if k.Method == method {
			return k, true
		}
	}
	return Kind{}, false
}

// ByFit returns the Fitted kind that runs the fit f.
func ByFit(f fit.Kind) (Kind, bool) {
	for _, k := range table {
		if k.Build == Fitted && k.Fit == f {
			return k, true
		}
	}
	return Kind{}, false
}

// Methods lists every method name, in table order.
func Methods() []string {
	out := make([]string, len(table))
	for i, k := range table {
		out[i] = k.Method
	}
	return out
}

// MadeMethods lists the methods that can have made a collider (every one
// but Choose, which reports the kind it chose), in table order.
func MadeMethods() []string {
	var out []string
	for _, k := range table {
		if k.Build != Choose {
			out = append(out, k.Method)
		}
	}
	return out
}

// ShapeKind is what the table knows of one physics shape type.
type ShapeKind struct {
	Type physics.ShapeType
	// Legend is the shape's entry in preview legends, Color its linear
	// RGB colour there.
	Legend string
	Color  [3]float32
	// FromFit is the shape of a fitted primitive whose fit kind writes
	// this type, no dimension below floor (nil for shapes no fit makes).
	FromFit func(f fit.Shape, floor float64) physics.Shape
	// Mass is the shape's mass properties at density 1 about its own
	// frame (nil for mesh-based shapes and planes).
	Mass func(s physics.Shape) mass.Properties
	// Tessellate returns a closed, consistently wound triangle mesh of
	// the shape in its own frame (a plane: its quad), round shapes with
	// RoundSegments segments around their axis (nil for mesh-based
	// shapes, whose mesh is their own).
	Tessellate func(s physics.Shape) (vertices []geom.Vec3, triangles [][3]uint32)
	// Sample returns points of a round shape in its own frame whose hull
	// is close inside it (within 2% of the radius); nil for shapes that
	// are polyhedra (a box's colliders carry their corners) or meshes.
	Sample func(s physics.Shape) []geom.Vec3
}

// shapes lists the shape types, in the order reports and legends use.
var shapes = [...]ShapeKind{
	{Type: physics.Box, Legend: "box", Color: [3]float32{0.93, 0.55, 0.10}, FromFit: boxOf,
		Mass:       func(s physics.Shape) mass.Properties { return mass.Box(geom.Vec3(s.Size)) },
		Tessellate: tessellation(func(s physics.Shape) solid { return boxSolid(s.Size) })},
	{Type: physics.Sphere, Legend: "sphere", Color: [3]float32{0.20, 0.47, 0.90}, FromFit: sphereOf,
		Mass:       func(s physics.Shape) mass.Properties { return mass.Sphere(s.Radius) },
		Tessellate: tessellation(func(s physics.Shape) solid { return sphereSolid(s.Radius) }),
		Sample:     sampleSphere},
	{Type: physics.Capsule, Legend: "capsule", Color: [3]float32{0.18, 0.68, 0.30}, FromFit: axialOf(physics.Capsule),
		Mass: func(s physics.Shape) mass.Properties {
			return mass.TaperedCapsule(s.Height, s.RadiusTop, s.RadiusBottom)
		},
		Tessellate: tessellation(func(s physics.Shape) solid { return capsuleSolid(s.RadiusTop, s.RadiusBottom, s.Height) }),
		Sample:     sampleCapsule},
	{Type: physics.Cylinder, Legend: "cylinder", Color: [3]float32{0.60, 0.32, 0.80}, FromFit: axialOf(physics.Cylinder),
		Mass: func(s physics.Shape) mass.Properties {
			return mass.TaperedCylinder(s.Height, s.RadiusTop, s.RadiusBottom)
		},
		Tessellate: tessellation(func(s physics.Shape) solid { return cylinderSolid(s.RadiusTop, s.RadiusBottom, s.Height) }),
		Sample:     sampleCylinder},
	{Type: physics.Convex, Legend: "hull (convex)", Color: [3]float32{0.00, 0.64, 0.64}},
	{Type: physics.Trimesh, Legend: "trimesh", Color: [3]float32{0.86, 0.20, 0.20}},
	{Type: physics.Plane, Legend: "plane", Color: [3]float32{0.55, 0.42, 0.28},
		Tessellate: tessellation(func(s physics.Shape) solid { return planeSolid(s.PlaneSizeX, s.PlaneSizeZ) })},
}

// Shapes returns every shape type's row, in the order reports use (a
// copy).
func Shapes() []ShapeKind { return slices.Clone(shapes[:]) }

// Written says whether some kind writes shape type t (plane, for one, is
// only ever read).
func Written(t physics.ShapeType) bool {
	for _, k := range table {
		if k.Shape == t {
			return true
		}
	}
	return false
}

// ShapeOf returns the row of shape type t.
func ShapeOf(t physics.ShapeType) (ShapeKind, bool) {
	for _, s := range shapes {
		if s.Type == t {
			return s, true
		}
	}
	return ShapeKind{}, false
}

// kdop is the 26-DOP of points, written as a convex shape.
func kdop(points []geom.Vec3, floor float64) ([]geom.Vec3, error) {
	return fit.KDOP26(points, floor, fit.Options{})
}

func boxOf(f fit.Shape, floor float64) physics.Shape {
	size := f.Size
	for i := range size {
		size[i] = math.Max(size[i], floor)
	}
	return physics.Shape{Type: physics.Box, Size: size}
}

func sphereOf(f fit.Shape, floor float64) physics.Shape {
	return physics.Shape{Type: physics.Sphere, Radius: math.Max(f.Radius, floor)}
}

// axialOf makes capsules and cylinders, no thinner than floor: the radius
// always, and a cylinder's height (a flat disc is a slab). A capsule's
// thickness is its diameter whatever its height, so its height only has
// to be positive: a round part's best capsule is a sphere (height 0),
// which both schemas forbid, and it is lengthened by capsuleHeightFloor
// of floor, which only grows it.
func axialOf(t physics.ShapeType) func(fit.Shape, float64) physics.Shape {
	return func(f fit.Shape, floor float64) physics.Shape {
		hf := floor
		if t == physics.Capsule {
			hf = capsuleHeightFloor * floor
		}
		r, h := math.Max(f.Radius, floor), math.Max(f.Height, hf)
		return physics.Shape{Type: t, Height: h, RadiusTop: r, RadiusBottom: r}
	}
}

// capsuleHeightFloor is a capsule's least height as a share of the
// thickness floor: enough to be positive and written, small enough not to
// lengthen a short capsule by more than a tenth of the floor.
const capsuleHeightFloor = 0.1
