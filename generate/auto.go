package generate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mass"
)

// Auto picks a method per mesh instance; see autoColliders.
const Auto Method = "auto"

// Defaults of the auto choice.
const (
	// DefaultAutoTolerance is how much a primitive may overshoot the
	// mesh's convex hull, as a fraction of the hull's volume, and still be
	// chosen: 0.15 accepts a sphere around an icosphere of 2 subdivisions
	// (3.5% over) and a cylinder around a 32-sided prism (0.6%), and rejects
	// a box around a cylinder (27%) or a sphere around a cube (172%).
	DefaultAutoTolerance = 0.15
	// DefaultHullFill is the share of its convex hull a closed mesh must
	// fill to get a single hull rather than a decomposition.
	DefaultHullFill = 0.9
	// AutoSearchTriangles bounds the proxy a decomposition chosen by auto
	// searches its cuts on (decompose.Options.SearchTriangles), unless
	// ColliderSettings.SearchTriangles says otherwise: the default profile runs on
	// whole asset trees, where a big mesh must not cost more than a few
	// seconds; --method decompose searches on a finer proxy. A
	// decomposition chosen by auto also skips the relax pass
	// (decompose.Options.SkipRelax). On the eleven corpus meshes auto
	// decomposes this took 35.2 CPU s to 21.7 (ToyCar body 9.5 to 5.0) and
	// their mean surface distance from 1.13 to 1.01 % of the diagonal
	// (tools/acd-bench/RESULTS.md, session 9). It skips the tightening
	// pass too (decompose.Options.SkipTighten), which took the corpus
	// from 23.1 to 56.7 CPU s (session 11).
	AutoSearchTriangles = 1500
)

// autoOrder is the order primitives are tried in: cheapest to simulate
// first in the common engines (PhysX has no cylinder at all, and Jolt's
// and Bullet's cylinders are their costliest primitive).
var autoOrder = []Method{Sphere, Capsule, Box, Cylinder}

// autoColliders tries the primitives from the cheapest and takes the first
// whose volume overshoots the convex hull by at most the tolerance and
// which the mesh itself fills within it (see filledVolume); else a single
// hull when the mesh is closed and fills at least HullFill of its hull;
// else a decomposition within the collider budget whose parts become
// primitives where one fits the part's hull within the tolerance
// (primitiveParts). The note says what was chosen and the errors it saw.
func autoColliders(ctx context.Context, vertices []geom.Vec3, triangles [][3]uint32, opt ColliderSettings, run Run) ([]Collider, []string, error) {
	tol := opt.AutoTolerance
	if tol == 0 {
		tol = DefaultAutoTolerance
	}
	fill := opt.HullFill
	if fill == 0 {
		fill = DefaultHullFill
	}
	in, err := fit.Prepare(vertices)
	if err != nil {
		return nil, nil, err
	}
	a := autoRun{ctx: ctx, vertices: vertices, triangles: triangles, opt: opt, run: run, hullVolume: in.HullVolume()}
	a.closed = mass.IsClosedByPosition(vertices, triangles)
	var seen, unfilled []string
	for _, m := range autoOrder {
		k, _ := kinds.ByMethod(string(m))
		s, err := in.Fit(k.Fit, fit.Options{GapSamples: -1})
		if err != nil {
			return nil, nil, err
		}
		if math.IsInf(s.Overshoot, 1) {
			// A flat part: a thin box is the honest primitive.
			box, _ := kinds.ByMethod(string(Box))
			c, err := primitive(vertices, box)
			return []Collider{c}, []string{"auto: box (flat part)"}, err
		}
		seen = append(seen, fmt.Sprintf("%s %.2f×", m, s.Overshoot))
		if s.Overshoot > 1+tol {
			continue
		}
		filled, what, err := a.filledVolume()
		if err != nil {
			return nil, nil, err
		}
		if s.Volume <= (1+tol)*filled {
			c := fitted(vertices, s, k)
			return []Collider{c}, []string{fmt.Sprintf("auto: %s (hull volume ×: %s; tolerance %.2f×; %s fill %.2f of it)", m, strings.Join(seen, ", "), 1+tol, what, filled/s.Volume)}, nil
		}
		unfilled = append(unfilled, fmt.Sprintf("%s %.2f", m, filled/s.Volume))
	}
	why := fmt.Sprintf("primitives over tolerance %.2f× (%s)", 1+tol, strings.Join(seen, ", "))
	if len(unfilled) > 0 {
		_, what, _ := a.filledVolume()
		why += fmt.Sprintf("; %s fill under %.2f of %s", what, 1/(1+tol), strings.Join(unfilled, ", "))
	}
	if a.closed {
		if mp, err := mass.Mesh(vertices, triangles); err == nil && in.HullVolume() > 0 {
			ratio := mp.Volume / in.HullVolume()
			if ratio >= fill {
				h, err := hull.Build(vertices, hull.Options{MaxVertices: opt.MaxHullVertices})
				if err != nil {
					return nil, nil, err
				}
				return []Collider{hullCollider(h, Hull, vertices)}, []string{fmt.Sprintf("auto: hull (%s; the closed mesh fills %.2f of its hull)", why, ratio)}, nil
			}
			why += fmt.Sprintf("; the closed mesh fills %.2f of its hull", ratio)
		}
	}
	if err := a.decompose(); err != nil {
		return nil, nil, err
	}
	cs := a.parts
	if len(cs) > 1 {
		// One part is the whole mesh, whose primitives were judged
		// against the mesh above.
		if cs, err = primitiveParts(ctx, vertices, cs, tol, concavityReach(vertices, opt), run); err != nil {
			return nil, nil, err
		}
	}
	return cs, append([]string{fmt.Sprintf("auto: decompose into %d parts (%s; budget %d) (%s)", len(cs), partCounts(cs), opt.budget(), why)}, a.notes...), nil
}

// autoRun is one auto choice: its input, and the decomposition made once
// when the choice needs it (for the volume an open mesh fills, or as the
// result).
type autoRun struct {
	ctx        context.Context
	vertices   []geom.Vec3
	triangles  [][3]uint32
	opt        ColliderSettings
	run        Run
	hullVolume float64
	closed     bool
	// meshVolume is the closed mesh's volume once measured (0: not yet).
	meshVolume float64
	done       bool
	parts      []Collider
	notes      []string
}

// filledVolume is the volume the mesh fills, to judge a primitive against
// the mesh rather than its convex hull, and what it was measured on. A
// closed mesh fills its own volume. An open mesh (a shell, cards, pieces
// with holes) has no inside of its own; what it fills is taken to be the
// union of its decomposition's hulls (their volume sum, overlaps counted
// twice): each hull hugs a nearly convex piece of the surface within the
// concavity threshold, so the sum follows the surface where it is
// concave, as the closed mesh's volume does, and a table of open boxes
// fills its top and legs, not the box around them. Both are capped at the
// hull's volume; points without triangles fill their hull. The decomposition is kept for the result.
func (a *autoRun) filledVolume() (float64, string, error) {
	if a.closed {
		if a.meshVolume == 0 {
			if mp, err := mass.Mesh(a.vertices, a.triangles); err == nil && mp.Volume > 0 {
				a.meshVolume = mp.Volume
			} else {
				a.closed = false // no usable volume: judge it as open
			}
		}
		if a.closed {
			return math.Min(a.meshVolume, a.hullVolume), "the closed mesh's volume would", nil
		}
	}
	if len(a.triangles) == 0 {
		// Points without a surface: nothing but their hull to go by.
		return a.hullVolume, "the points' hull would", nil
	}
	if err := a.decompose(); err != nil {
		return 0, "", err
	}
	sum := 0.0
	for _, c := range a.parts {
		sum += c.Mass.Volume
	}
	return math.Min(sum, a.hullVolume), fmt.Sprintf("the open mesh's %d decomposed hulls would", len(a.parts)), nil
}

// decompose makes the decomposition once, with the settings auto gives it.
func (a *autoRun) decompose() error {
	if a.done {
		return nil
	}
	o := a.opt
	o.Method = Decompose
	if o.SearchTriangles == 0 {
		o.SearchTriangles = AutoSearchTriangles
	}
	cs, notes, err := decomposed(a.ctx, a.vertices, a.triangles, o, a.run, true)
	if err != nil {
		return err
	}
	a.parts, a.notes, a.done = cs, notes, true
	return nil
}
