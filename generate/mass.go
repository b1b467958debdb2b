package generate

import (
	"errors"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
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

// Mass sources reported per body.
const (
	SourceMesh      = "mesh"      // the closed render meshes
	SourceColliders = "colliders" // the union of the colliders
)

// solid is one mesh instance of a body in the body frame.
type solid struct {
	vertices  []geom.Vec3
	triangles [][3]uint32
}

// colliderMass is what the mass computation needs of a collider: its
// properties in the body frame at density 1, and its convex polyhedron
// when it is one (boxes and hulls).
type colliderMass struct {
	props  mass.Properties
	convex *mass.Convex
}

// bodyMass computes a body's mass properties in its frame F: from its
// meshes when every one of them is closed (watertight after welding by
// position), else from its colliders: the union of their polyhedra with
// overlaps counted once when all are polyhedra, else the sum of their
// closed forms (overlaps between round primitives counted twice).
func bodyMass(solids []solid, colliders []colliderMass) (mass.Properties, string, error) {
	closed := len(solids) > 0
	for _, s := range solids {
		if !mass.IsClosedByPosition(s.vertices, s.triangles) {
			closed = false
			break
		}
	}
	if closed {
		parts := make([]mass.Properties, 0, len(solids))
		for _, s := range solids {
			p, err := mass.Mesh(s.vertices, s.triangles)
			if err != nil {
				closed = false
				break
			}
			parts = append(parts, p)
		}
		if closed {
			return mass.Sum(parts...), SourceMesh, nil
		}
	}
	var convex []mass.Convex
	var props []mass.Properties
	for _, c := range colliders {
		props = append(props, c.props)
		if c.convex != nil {
			convex = append(convex, *c.convex)
		}
	}
	if len(convex) == len(colliders) {
		p, err := mass.Union(convex, 0)
		return p, SourceColliders, err
	}
	return mass.Sum(props...), SourceColliders, nil
}

// motion turns mass properties in frame F into an OMI/KHR motion in the
// body node's space, which is F scaled by s (see frame).
func motion(p mass.Properties, spec Mass, s geom.Vec3) (*physics.Motion, error) {
	if !(p.Volume > 0) {
		return nil, errors.New("no volume")
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
	com := [3]float64{b.CenterOfMass[0] / s[0], b.CenterOfMass[1] / s[1], b.CenterOfMass[2] / s[2]}
	diag := b.InertiaDiagonal
	q := [4]float64(b.InertiaOrientation)
	for _, v := range append(append(com[:], diag[:]...), b.Mass, q[0], q[1], q[2], q[3]) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("non-finite mass property %v", v)
		}
	}
	m := b.Mass
	return &physics.Motion{Type: physics.Dynamic, Mass: &m, CenterOfMass: &com, InertiaDiagonal: &diag, InertiaOrientation: &q}, nil
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
