package fit

import (
	"math"
	"math/rand/v2"

	"github.com/autocollide/autocollide/geom"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func randUnit(r *rand.Rand) geom.Vec3 {
	for {
		v := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if l := v.Len(); l > 1e-9 {
			return v.Scale(1 / l)
		}
	}
}

func randQuat(r *rand.Rand) geom.Quat {
	q := geom.Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	return q.Normalize()
}

// pose applies a rotation and translation to local points.
func pose(local []geom.Vec3, q geom.Quat, t geom.Vec3) []geom.Vec3 {
	m := q.Mat3()
	out := make([]geom.Vec3, len(local))
	for i, p := range local {
		out[i] = m.MulVec(p).Add(t)
	}
	return out
}

func addNoise(r *rand.Rand, pts []geom.Vec3, amp float64) {
	for i := range pts {
		pts[i] = pts[i].Add(randUnit(r).Scale(amp * r.Float64()))
	}
}

// boxSurface samples n points on the surface of a box of full size s
// centred at the origin, uniformly by area.
func boxSurface(r *rand.Rand, s geom.Vec3, n int) []geom.Vec3 {
	areas := [3]float64{s[1] * s[2], s[0] * s[2], s[0] * s[1]}
	total := areas[0] + areas[1] + areas[2]
	out := make([]geom.Vec3, n)
	for i := range out {
		x := r.Float64() * total
		ax := 0
		for ax < 2 && x > areas[ax] {
			x -= areas[ax]
			ax++
		}
		var p geom.Vec3
		for k := 0; k < 3; k++ {
			p[k] = (r.Float64() - 0.5) * s[k]
		}
		p[ax] = s[ax] / 2
		if r.IntN(2) == 0 {
			p[ax] = -p[ax]
		}
		out[i] = p
	}
	return out
}

func sphereSurface(r *rand.Rand, radius float64, n int) []geom.Vec3 {
	out := make([]geom.Vec3, n)
	for i := range out {
		out[i] = randUnit(r).Scale(radius)
	}
	return out
}

// capsuleSurface samples a capsule along +Y (h between hemisphere centres).
func capsuleSurface(r *rand.Rand, radius, h float64, n int) []geom.Vec3 {
	side := 2 * math.Pi * radius * h
	caps := 4 * math.Pi * radius * radius
	out := make([]geom.Vec3, n)
	for i := range out {
		if r.Float64()*(side+caps) < side {
			a := 2 * math.Pi * r.Float64()
			out[i] = geom.Vec3{radius * math.Cos(a), (r.Float64() - 0.5) * h, radius * math.Sin(a)}
			continue
		}
		d := randUnit(r).Scale(radius)
		d[1] += math.Copysign(h/2, d[1])
		out[i] = d
	}
	return out
}

// cylinderSurface samples a cylinder along +Y of full height h.
func cylinderSurface(r *rand.Rand, radius, h float64, n int) []geom.Vec3 {
	side := 2 * math.Pi * radius * h
	caps := 2 * math.Pi * radius * radius
	out := make([]geom.Vec3, n)
	for i := range out {
		a := 2 * math.Pi * r.Float64()
		if r.Float64()*(side+caps) < side {
			out[i] = geom.Vec3{radius * math.Cos(a), (r.Float64() - 0.5) * h, radius * math.Sin(a)}
			continue
		}
		rho := radius * math.Sqrt(r.Float64())
		y := h / 2
		if r.IntN(2) == 0 {
			y = -y
		}
		out[i] = geom.Vec3{rho * math.Cos(a), y, rho * math.Sin(a)}
	}
	return out
}

func sorted3(v geom.Vec3) geom.Vec3 {
	s := v
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}
