package generate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
)

// DefaultDensity is the density (kg/m³) used when neither a density, a
// material nor a mass is given: water's, a neutral middle for props.
const DefaultDensity = 1000

// Mass says how a dynamic body's mass is found. With Mass > 0 every
// generated body weighs that much; else Density (kg/m³, DefaultDensity
// when 0) times the body's volume.
type Mass struct {
	Density float64
	Mass    float64
}

// Mass sources reported per body: the volume a body's mass and inertia
// come from (one solid for both), or SourceExplicit for a mass the
// options give (its inertia then comes from the solid the report names).
const (
	SourceMesh      = "mesh"      // the closed render meshes
	SourceColliders = "colliders" // the union of the colliders
	SourceExplicit  = "explicit"  // Mass.Mass kilograms
)

// Solid is one mesh instance of a body, in the body frame.
type Solid struct {
	Vertices  []geom.Vec3
	Triangles [][3]uint32
}

// BodyMass computes a body's mass properties at density 1 in its frame:
// from its solids when every one of them is closed (watertight after
// welding by position; copies of one solid at one place, such as GPU
// instances at one position, counted once: see mass.Distinct), else from
// its colliders (their Mass and Convex; the caller leaves triggers out):
// the union of their polyhedra with overlaps counted once when all are
// polyhedra, else the sum of their closed forms (overlaps between round
// primitives counted twice). Closed meshes whose integrals are not those
// of a solid (mass.Physical: a mesh that passes through itself, pieces
// wound against each other, get negative moments of inertia) are weighed
// by the colliders instead; when theirs are not physical either, BodyMass
// fails (the body's mass is then left to the engine, with a warning). The
// string is the source, SourceMesh or SourceColliders. The glTF and the
// G4MF paths both weigh their bodies with it. It fails with ctx's error
// once ctx is done.
func BodyMass(ctx context.Context, solids []Solid, colliders []Collider) (mass.Properties, string, error) {
	closed := len(solids) > 0
	for _, s := range solids {
		if !mass.IsClosedByPosition(s.Vertices, s.Triangles) {
			closed = false
			break
		}
	}
	if closed {
		all := make([]mass.Convex, len(solids))
		for i, s := range solids {
			all[i] = mass.Convex{Vertices: s.Vertices, Triangles: s.Triangles}
		}
		distinct := mass.Distinct(all)
		parts := make([]mass.Properties, 0, len(distinct))
		for n, i := range distinct {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return mass.Properties{}, "", err
				}
			}
			s := solids[i]
			p, err := mass.Mesh(s.Vertices, s.Triangles)
			if err != nil {
				closed = false
				break
			}
			parts = append(parts, p)
		}
		if sum := mass.Sum(parts...); closed && sum.Physical() {
			return sum, SourceMesh, nil
		}
	}
	p, err := CollidersMass(ctx, colliders)
	if err == nil && !p.Physical() {
		err = fmt.Errorf("the colliders' mass properties are not those of a solid (volume %.3g m³, inertia %v)", p.Volume, p.Inertia)
	}
	return p, SourceColliders, err
}

// CollidersMass computes the mass properties at density 1 of the solid
// the colliders enclose: the union of their polyhedra with overlaps
// counted once when all are polyhedra, else the sum of their closed
// forms (overlaps between round primitives counted twice). Its time and
// memory are linear in the colliders (see mass.UnionContext); it fails
// with ctx's error once ctx is done.
func CollidersMass(ctx context.Context, colliders []Collider) (mass.Properties, error) {
	var convex []mass.Convex
	var props []mass.Properties
	for _, c := range colliders {
		props = append(props, c.Mass)
		if c.Convex != nil {
			convex = append(convex, *c.Convex)
		}
	}
	if len(convex) == len(colliders) {
		return mass.UnionContext(ctx, convex, 0)
	}
	return mass.Sum(props...), nil
}

// HollowRatio is how many times the mass's volume a body's colliders may
// enclose before the report warns: engines that weigh a body by its
// colliders, or a reader comparing the two, see it that much heavier, and
// it moves as a hollow shell (a thin glass under a solid hull: 26×). A
// bounding primitive on a compact mesh stays under it (a sphere on the
// Duck: 2.5×; one hull on the Fox: 2.3×).
const HollowRatio = 3

// Plausible dynamic bodies: a size (the diagonal of the colliders' box)
// and a mass outside these bounds gets a report warning. glTF units are
// metres, and they are followed: an asset modelled in centimetres comes
// out 100 times too big and a million times too heavy.
const (
	MinBodySize = 0.01 // m
	MaxBodySize = 20   // m
	MinBodyMass = 1e-3 // kg
	MaxBodyMass = 5e4  // kg
)

// implausible returns why a dynamic body of the given size (m) and mass
// (kg) is implausible, or "".
func implausible(size, kg float64) string {
	var why []string
	switch {
	case size > MaxBodySize:
		why = append(why, fmt.Sprintf("%.3g m across (over %g m)", size, float64(MaxBodySize)))
	case size < MinBodySize:
		why = append(why, fmt.Sprintf("%.3g m across (under %g m)", size, MinBodySize))
	}
	switch {
	case kg > MaxBodyMass:
		why = append(why, fmt.Sprintf("%.3g kg (over %g kg)", kg, float64(MaxBodyMass)))
	case kg < MinBodyMass:
		why = append(why, fmt.Sprintf("%.3g kg (under %g kg)", kg, MinBodyMass))
	}
	return strings.Join(why, " and ")
}

// Body scales mass properties at density 1 to the body spec asks for:
// Mass kilograms, else Density (DefaultDensity when 0) times the volume.
// It fails on no volume or a non-finite result.
func (spec Mass) Body(p mass.Properties) (mass.Body, error) {
	if !(p.Volume > 0) {
		return mass.Body{}, errors.New("no volume")
	}
	var b mass.Body
	if spec.Mass > 0 {
		b = mass.FromMass(p, spec.Mass)
	} else {
		d := spec.Density
		if d == 0 {
			d = DefaultDensity
		}
		b = mass.FromDensity(p, d)
	}
	all := append(append([]float64{b.Mass}, b.CenterOfMass[:]...), b.InertiaDiagonal[:]...)
	for _, v := range append(all, b.InertiaOrientation[:]...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return mass.Body{}, fmt.Errorf("non-finite mass property %v", v)
		}
	}
	return b, nil
}

// boxConvex returns the box of the given size centred at c as a closed
// outward-wound mesh.
func boxConvex(c, size geom.Vec3) mass.Convex {
	v := make([]geom.Vec3, 8)
	for i := range v {
		v[i] = c.Add(geom.Vec3{float64(i&1) - 0.5, float64(i>>1&1) - 0.5, float64(i>>2&1) - 0.5}.Mul(size))
	}
	return mass.Convex{Vertices: v, Triangles: [][3]uint32{
		{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, // -z, +z
		{0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7}, // -y, +y
		{0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}, // -x, +x
	}}
}
