package mesh

import (
	"github.com/autocollide/autocollide/geom"
)

// signedVolume is the volume enclosed by a closed mesh: positive when its
// triangles face outward.
func signedVolume(v []geom.Vec3, tris [][3]uint32) float64 {
	var s float64
	for _, t := range tris {
		s += v[t[0]].Dot(v[t[1]].Cross(v[t[2]]))
	}
	return s / 6
}
