package generate

import (
	"fmt"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// checkSizes refuses an asset with a mesh instance that would get
// colliders and whose world-space size (the largest side of its bounding
// box) is outside [physics.MinShapeSize, physics.MaxShapeSize]: fitting
// it would write a 1e-45 m box or a 1e39 m one. Instances under authored
// physics get nothing generated and are not checked.
func checkSizes(ex *mesh.Result, authored map[int]bool) error {
	for _, p := range ex.Parts {
		if len(p.Triangles) == 0 || authored[p.Root] {
			continue
		}
		ext := geom.BoundsOf(p.Vertices).Size()
		size := max(ext[0], ext[1], ext[2])
		where := p.Name
		if p.Instance >= 0 {
			where = fmt.Sprintf("%s: instance %d", p.Name, p.Instance)
		}
		switch {
		case size < physics.MinShapeSize:
			return fmt.Errorf("%s: mesh %d is %.3g m across, below the %g m minimum for a collider", where, p.Mesh, size, physics.MinShapeSize)
		case size > physics.MaxShapeSize:
			return fmt.Errorf("%s: mesh %d is %.3g m across, above the %g m maximum for a collider", where, p.Mesh, size, physics.MaxShapeSize)
		}
	}
	return nil
}
