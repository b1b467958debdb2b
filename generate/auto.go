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
// whose volume overshoots the convex hull by at most the tolerance; else a
// single hull when the mesh is closed and fills at least HullFill of its
// hull; else a decomposition (which gives one hull for convex open
// input). The note says what was chosen and the errors it saw.
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
	var seen []string
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
		if s.Overshoot <= 1+tol {
			c := fitted(vertices, s, k)
			return []Collider{c}, []string{fmt.Sprintf("auto: %s (hull volume ×: %s; tolerance %.2f×)", m, strings.Join(seen, ", "), 1+tol)}, nil
		}
	}
	why := fmt.Sprintf("primitives over tolerance %.2f× (%s)", 1+tol, strings.Join(seen, ", "))
	if mass.IsClosedByPosition(vertices, triangles) {
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
	o := opt
	o.Method = Decompose
	if o.SearchTriangles == 0 {
		o.SearchTriangles = AutoSearchTriangles
	}
	cs, notes, err := decomposed(ctx, vertices, triangles, o, run, true)
	if err != nil {
		return nil, nil, err
	}
	return cs, append([]string{fmt.Sprintf("auto: decompose into %d hulls (%s)", len(cs), why)}, notes...), nil
}
