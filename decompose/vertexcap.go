package decompose

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/hull"
)

// capHull replaces a part's uncapped hull by one within the vertex cap (a
// conservative reduction, so it still contains the part). It does not
// update the concavity estimate.
func (d *decomposer) capHull(p *part) error {
	if !p.checked {
		// A candidate's hull, built unchecked: rebuild it checked if it is
		// not convex or misses a point (quickhull-go can fail on coplanar
		// sets).
		pts := p.from
		if pts == nil {
			pts = p.points()
		}
		if hull.Validate(p.hull, nil) != nil || hullViolation(p.hull, pts) > hullTol {
			h, err := buildHull(pts, -1, flatThickness*d.diag)
			if err != nil {
				return err
			}
			p.hull = h
		}
		p.checked, p.from = true, nil
	}
	if len(p.hull.Vertices) <= d.maxV {
		return nil
	}
	h, err := buildHull(p.hull.Vertices, d.maxV, flatThickness*d.diag)
	if err != nil {
		return err
	}
	p.hull = h
	return nil
}

// capFinal reduces the hulls over the returned cap (Options.MaxHullVertices
// below the search's) conservatively, in place: each still contains its
// part. The concavity the search judged was of the uncapped hull, so the
// cap never adds a part; figures in tools/sim-bench/RESULTS.md.
func (d *decomposer) capFinal(parts []*part, res *Result) error {
	if d.capV >= d.maxV {
		return nil
	}
	errs := make([]error, len(parts))
	capped := make([]bool, len(parts))
	if err := d.parallel(len(parts), func(i int) {
		p := parts[i]
		if len(p.hull.Vertices) <= d.capV {
			return
		}
		h, err := buildHull(p.hull.Vertices, d.capV, flatThickness*d.diag)
		if err != nil {
			errs[i] = fmt.Errorf("hull %d: reducing to %d vertices: %w", i, d.capV, err)
			return
		}
		p.hull, capped[i] = h, true
	}); err != nil {
		return err
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	n := 0
	for _, c := range capped {
		if c {
			n++
		}
	}
	if n > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("reduced %d hulls to MaxHullVertices=%d (bounding polytopes of the search's hulls)", n, d.capV))
	}
	return nil
}
