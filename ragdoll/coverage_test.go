package ragdoll

import (
	"math"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
)

// coverTol is the judge's containment tolerance for surface samples, as a
// fraction of the skin's bounding-box diagonal.
const coverTol = 1e-4

// surfaceSamples returns n points spread over the skin's triangles by
// area (stratified along the cumulative area, a golden-ratio sequence
// across each triangle), deterministic.
func surfaceSamples(skin Skin, n int) []geom.Vec3 {
	cum := make([]float64, len(skin.Triangles))
	total := 0.0
	for i, t := range skin.Triangles {
		a, b, c := skin.Positions[t[0]], skin.Positions[t[1]], skin.Positions[t[2]]
		total += b.Sub(a).Cross(c.Sub(a)).Len() / 2
		cum[i] = total
	}
	var out []geom.Vec3
	ti := 0
	for k := 0; k < n; k++ {
		x := (float64(k) + 0.5) / float64(n) * total
		for ti < len(cum)-1 && cum[ti] < x {
			ti++
		}
		t := skin.Triangles[ti]
		u, v := math.Mod(float64(k)*0.7548776662466927, 1), math.Mod(float64(k)*0.5698402909980532, 1)
		if u+v > 1 {
			u, v = 1-u, 1-v
		}
		a, b, c := skin.Positions[t[0]], skin.Positions[t[1]], skin.Positions[t[2]]
		out = append(out, a.Add(b.Sub(a).Scale(u)).Add(c.Sub(a).Scale(v)))
	}
	return out
}

// coverage is the share of n surface samples of the skin inside some
// body's collider at rest, within coverTol of the skin's diagonal, and
// the samples outside.
func coverage(rd *Ragdoll, skin Skin, n int) (float64, []geom.Vec3) {
	tol := coverTol * geom.BoundsOf(skin.Positions).Diagonal()
	var out []geom.Vec3
	pts := surfaceSamples(skin, n)
	for _, p := range pts {
		in := false
		for _, b := range rd.Bodies {
			if colliderContains(b.Collider, toLocal(b.Frame, p), tol) {
				in = true
				break
			}
		}
		if !in {
			out = append(out, p)
		}
	}
	return 1 - float64(len(out))/float64(len(pts)), out
}

// colliderContains is Collider.Contains with an absolute tolerance.
func colliderContains(c Collider, p geom.Vec3, tol float64) bool {
	if c.Method != Hull {
		return fit.Contains(c.Shape, p, tol)
	}
	v := c.Hull.Vertices
	for _, t := range c.Hull.Triangles {
		a := v[t[0]]
		n := v[t[1]].Sub(a).Cross(v[t[2]].Sub(a))
		if l := n.Len(); l > 0 && p.Sub(a).Dot(n)/l > tol {
			return false
		}
	}
	return true
}
