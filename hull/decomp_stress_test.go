package hull

import (
	"fmt"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// blobMesh is a closed, star-shaped, generally non-convex triangle mesh: a
// UV sphere of nu×nv cells whose radius varies smoothly and randomly, with
// vertices rounded to float32 as glTF stores them.
func blobMesh(seed uint64, nu, nv int) (v []geom.Vec3, tris [][3]int) {
	r := rng(seed)
	var a [4][3]float64
	for i := range a {
		for k := range a[i] {
			a[i][k] = (r.Float64()*2 - 1) * 0.3
		}
	}
	stretch := geom.Vec3{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64()}
	f32 := func(x float64) float64 { return float64(float32(x)) }
	v = append(v, geom.Vec3{0, 0, f32(stretch[2])}, geom.Vec3{0, 0, f32(-stretch[2])})
	for i := 1; i < nv; i++ {
		th := math.Pi * float64(i) / float64(nv)
		for j := 0; j < nu; j++ {
			ph := 2 * math.Pi * float64(j) / float64(nu)
			rad := 1 + a[0][0]*math.Sin(2*th+a[0][1]) + a[1][0]*math.Cos(3*ph+a[1][1]) +
				a[2][0]*math.Sin(th)*math.Sin(2*ph+a[2][2]) + a[3][0]*math.Cos(5*ph)*math.Sin(3*th)
			d := geom.Vec3{math.Sin(th) * math.Cos(ph), math.Sin(th) * math.Sin(ph), math.Cos(th)}
			p := d.Scale(rad).Mul(stretch)
			v = append(v, geom.Vec3{f32(p[0]), f32(p[1]), f32(p[2])})
		}
	}
	ring := func(i, j int) int { return 2 + (i-1)*nu + (j % nu) }
	for j := 0; j < nu; j++ {
		tris = append(tris, [3]int{0, ring(1, j), ring(1, j+1)})
		tris = append(tris, [3]int{1, ring(nv-1, j+1), ring(nv-1, j)})
		for i := 1; i < nv-1; i++ {
			tris = append(tris, [3]int{ring(i, j), ring(i+1, j), ring(i+1, j+1)})
			tris = append(tris, [3]int{ring(i, j), ring(i+1, j+1), ring(i, j+1)})
		}
	}
	return v, tris
}

// clipPieces cuts the mesh by the plane x[axis] = c and returns the points
// of each side: its vertices plus the edge crossings. With exact, the
// mode 0 the crossings get exactly c on the axis; mode 1 they keep the
// rounding of the interpolation (values like c ± 1e-8, as in
// hullfail-215), mode 2 they are rounded to float32. Each edge is crossed
// from both of its triangles, from opposite ends: near-duplicate points.
func clipPieces(v []geom.Vec3, tris [][3]int, axis int, c float64, mode int) (below, above []geom.Vec3) {
	for _, p := range v {
		if p[axis] <= c {
			below = append(below, p)
		}
		if p[axis] >= c {
			above = append(above, p)
		}
	}
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := v[t[k]], v[t[(k+1)%3]]
			if (a[axis] < c) == (b[axis] < c) || a[axis] == c || b[axis] == c {
				continue
			}
			s := (c - a[axis]) / (b[axis] - a[axis])
			x := a.Add(b.Sub(a).Scale(s))
			switch mode {
			case 0:
				x[axis] = c
			case 2:
				x = geom.Vec3{float64(float32(x[0])), float64(float32(x[1])), float64(float32(x[2]))}
			}
			below = append(below, x)
			above = append(above, x)
		}
	}
	return below, above
}

// TestStressDecompositionPieces builds hulls of decomposition-like pieces
// (random closed meshes clipped by an axis-aligned plane, both sides, at
// several scales and offsets) over 200 seeds: every one must be a valid
// hull containing its points, at no limit and at 64 vertices. With -short
// it runs the first 24 seeds (every scale and offset pair twice), a tenth
// of the time.
func TestStressDecompositionPieces(t *testing.T) {
	scales := []float64{1e-3, 1, 87, 1e4}
	offsets := []float64{0, 1, 1e3}
	seeds := uint64(200)
	if testing.Short() {
		seeds = 24
	}
	fallbacks := map[string]int{}
	for seed := uint64(0); seed < seeds; seed++ {
		r := rng(seed + 1000)
		v, tris := blobMesh(seed, 12+int(seed%37), 8+int(seed%29))
		axis := int(seed % 3)
		b := geom.BoundsOf(v)
		c := float64(float32(b.Min[axis] + (0.2+0.6*r.Float64())*(b.Max[axis]-b.Min[axis])))
		if seed%5 == 0 {
			c = 0 // a cut through the mesh origin, as in hullfail-215
		}
		below, above := clipPieces(v, tris, axis, c, int(seed%3))
		// Near-duplicates, as a decomposition produces where a vertex and a
		// crossing nearly coincide: copies of some points moved by 1e-9 to
		// 1e-6 (relative to a mesh of size about 2).
		jitter := func(p []geom.Vec3) []geom.Vec3 {
			n := len(p)
			for i := 0; i < n; i += 1 + r.IntN(4) {
				d := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Scale(math.Pow(10, -9+3*r.Float64()))
				p = append(p, p[i].Add(d))
			}
			return p
		}
		below, above = jitter(below), jitter(above)
		scale := scales[seed%uint64(len(scales))]
		off := offsets[(seed/4)%uint64(len(offsets))] * scale
		for side, pts := range [][]geom.Vec3{below, above} {
			ps := make([]geom.Vec3, len(pts))
			for i, p := range pts {
				ps[i] = p.Scale(scale).Add(geom.Vec3{off, -off, 0.5 * off})
			}
			for _, lim := range []int{-1, 64} {
				name := fmt.Sprintf("seed %d side %d (%d points, axis %d, scale %g, offset %g) limit %d", seed, side, len(ps), axis, scale, off, lim)
				h, err := Build(ps, Options{MaxVertices: lim})
				if err == nil {
					err = Validate(h, ps)
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if h.Fallback != "" {
					fallbacks[h.Fallback]++
					t.Logf("%s: fallback %s", name, h.Fallback)
				}
			}
		}
	}
	t.Logf("fallbacks used: %v", fallbacks)
}
