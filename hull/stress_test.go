package hull

import (
	"errors"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/pointcloud"
)

// stressClouds are near-degenerate inputs around the rank tolerance and
// quantized (many exactly coplanar and duplicate) points, over many seeds.
func stressClouds(seed uint64) []cloud {
	r := rng(seed)
	noisy := func(p []geom.Vec3, axisNoise geom.Vec3) []geom.Vec3 {
		out := make([]geom.Vec3, len(p))
		for i, q := range p {
			out[i] = q.Add(geom.Vec3{r.NormFloat64() * axisNoise[0], r.NormFloat64() * axisNoise[1], r.NormFloat64() * axisNoise[2]})
		}
		return out
	}
	flat := make([]geom.Vec3, 300)
	line := make([]geom.Vec3, 300)
	quant := make([]geom.Vec3, 600)
	for i := range flat {
		flat[i] = geom.Vec3{r.Float64(), r.Float64(), 0}
		line[i] = geom.Vec3{r.Float64(), 0, 0}
	}
	for i := range quant {
		quant[i] = geom.Vec3{float64(r.IntN(4)), float64(r.IntN(4)), float64(r.IntN(4))}
	}
	return []cloud{
		{"flat+1e-9", noisy(flat, geom.Vec3{0, 0, 1e-9}), 0},
		{"flat+1e-7", noisy(flat, geom.Vec3{0, 0, 1e-7}), 0},
		{"flat+1e-5", noisy(flat, geom.Vec3{0, 0, 1e-5}), 0},
		{"line+1e-7", noisy(line, geom.Vec3{0, 1e-7, 1e-7}), 0},
		{"line+1e-5", noisy(line, geom.Vec3{0, 1e-5, 1e-5}), 0},
		{"quantized", quant, 0},
		{"sphere+1e-9", noisy(pointcloud.OnSphere(500, seed), geom.Vec3{1e-9, 1e-9, 1e-9}), 0},
		{"cubefaces", pointcloud.OnCubeFaces(500, seed), 0},
	}
}

func TestStress(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		for _, c := range stressClouds(seed) {
			name, pts := c.name, c.pts
			for _, lim := range []int{-1, 16} {
				h, err := Build(pts, Options{MaxVertices: lim})
				if err == nil {
					err = Validate(h, pts)
				}
				if err != nil {
					t.Errorf("%s seed %d limit %d: %v", name, seed, lim, err)
				}
			}
		}
	}
}

// FuzzBuild decodes bytes into coordinates (any float64, NaN and Inf
// included): Build must not panic, and must return either ErrNoPoints or a
// valid hull containing every finite point.
func FuzzBuild(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x7f}, uint8(0))
	f.Add(make([]byte, 8*3*5), uint8(3))
	f.Add([]byte("the quick brown fox jumps over the lazy dog, twice over."), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, quant uint8) {
		var pts []geom.Vec3
		for i := 0; i+24 <= len(data); i += 24 {
			var p geom.Vec3
			for k := 0; k < 3; k++ {
				var u uint64
				for j := 0; j < 8; j++ {
					u |= uint64(data[i+8*k+j]) << (8 * j)
				}
				p[k] = math.Float64frombits(u)
				if quant > 0 {
					// Small integers: many duplicates and exact coplanarity.
					p[k] = float64(u % (uint64(quant) + 1))
				}
			}
			pts = append(pts, p)
		}
		h, err := Build(pts, Options{MaxVertices: 8 + int(quant%32)})
		if errors.Is(err, ErrNoPoints) || errors.Is(err, ErrRange) {
			return
		}
		if err != nil {
			t.Fatalf("%v (points %v)", err, pts)
		}
		if err := Validate(h, pts); err != nil {
			t.Fatalf("%v (points %v)", err, pts)
		}
	})
}
