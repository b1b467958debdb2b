package hull

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Parameters of the small linear programs of the edge collapses
// (normalized units: the points' diagonal is 1).
const (
	// lpBox bounds every coordinate of an LP's solution, which keeps
	// every program bounded; a solution on the box is rejected.
	lpBox = 4.0
	// lpTolerance: a constraint violated by less than this is satisfied.
	lpTolerance = 1e-12
	// lpMaxPivots bounds the pivots of one program; a program that needs
	// more is given up (its collapse is not made).
	lpMaxPivots = 64
)

// lp3 solves min obj·c over c in R³ subject to a_i·c ≥ b_i and
// |c_k| ≤ lpBox, by the simplex method on the dual (max b·y subject to
// Σ y_i a_i = obj, y ≥ 0): three basic constraints at a time, whose
// intersection point is the current c; the most violated constraint
// enters, the ratio test picks the one that leaves. The box makes the
// first basis (three box faces) dual feasible, so there is no first phase.
// It is reused: reset, add, solve.
type lp3 struct {
	a []geom.Vec3
	b []float64
}

func (p *lp3) reset() { p.a, p.b = p.a[:0], p.b[:0] }

// add appends the constraint n·c ≥ d.
func (p *lp3) add(n geom.Vec3, d float64) {
	p.a = append(p.a, n)
	p.b = append(p.b, d)
}

// solve returns the optimum, or false when the program is infeasible, the
// optimum lies on the box or the pivots run out.
func (p *lp3) solve(obj geom.Vec3) (geom.Vec3, bool) {
	nc := len(p.a)
	defer func() { p.a, p.b = p.a[:nc], p.b[:nc] }()
	for k := 0; k < 3; k++ {
		var e geom.Vec3
		e[k] = 1
		p.add(e, -lpBox)
		p.add(e.Scale(-1), -lpBox)
	}
	var basis [3]int
	for k := 0; k < 3; k++ {
		basis[k] = nc + 2*k
		if obj[k] < 0 {
			basis[k]++
		}
	}
	for pivot := 0; pivot < lpMaxPivots; pivot++ {
		var m [3]geom.Vec3
		var rhs [3]float64
		for k, i := range basis {
			m[k], rhs[k] = p.a[i], p.b[i]
		}
		// inv: columns are the dual basis of the rows m[k].
		x01, x12, x20 := m[0].Cross(m[1]), m[1].Cross(m[2]), m[2].Cross(m[0])
		det := m[0].Dot(x12)
		if math.Abs(det) < 1e-14 {
			return geom.Vec3{}, false
		}
		inv := 1 / det
		// c solves m[k]·c = rhs[k].
		c := x12.Scale(rhs[0] * inv).Add(x20.Scale(rhs[1] * inv)).Add(x01.Scale(rhs[2] * inv))
		enter, worst := -1, lpTolerance
		for i, a := range p.a {
			if v := p.b[i] - (a[0]*c[0] + a[1]*c[1] + a[2]*c[2]); v > worst {
				enter, worst = i, v
			}
		}
		if enter < 0 {
			for _, i := range basis {
				if i >= nc {
					return geom.Vec3{}, false // on the box: unbounded in effect
				}
			}
			return c, true
		}
		// Dual values y (Σ y_k m[k] = obj) and the entering row in the
		// basis (Σ d_k m[k] = a_enter): coefficient k is v·(cross of the
		// two other rows)/det.
		ae := p.a[enter]
		duals := [3]geom.Vec3{x12, x20, x01}
		leave, best := -1, math.Inf(1)
		for k := 0; k < 3; k++ {
			d := ae.Dot(duals[k]) * inv
			if d <= 1e-12 {
				continue
			}
			y := math.Max(obj.Dot(duals[k])*inv, 0)
			if r := y / d; r < best {
				leave, best = k, r
			}
		}
		if leave < 0 {
			return geom.Vec3{}, false // the constraints cannot all hold
		}
		basis[leave] = enter
	}
	return geom.Vec3{}, false
}
