package ragdoll

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
)

// TestStabilizeMasses: on a torso with a light arm chain and a separate
// two-body tree, StabilizeMasses keeps each tree's total mass, brings
// every jointed child within MassRatio of its parent, scales inertia with
// mass, raises a parent's moments to the floor the rule gives, keeps the
// centres of mass, and leaves a body without mass alone.
func TestStabilizeMasses(t *testing.T) {
	q := geom.Quat{0, 0, math.Sin(0.15), math.Cos(0.15)}
	body := func(m float64, d [3]float64) mass.Body {
		return mass.Body{Mass: m, CenterOfMass: geom.Vec3{m, 0, 0}, InertiaDiagonal: d, InertiaOrientation: q}
	}
	in := []mass.Body{
		body(40, [3]float64{2, 2, 1}),             // 0 torso
		body(2, [3]float64{0.02, 0.02, 0.005}),    // 1 upper arm
		body(1, [3]float64{0.01, 0.01, 0.002}),    // 2 forearm
		body(0.3, [3]float64{0.001, 0.001, 1e-4}), // 3 hand
		body(5, [3]float64{0.1, 0.1, 0.1}),        // 4 other root
		body(50, [3]float64{3, 3, 3}),             // 5 its heavy child
		{},                                        // 6 no mass
		body(1, [3]float64{0.01, 0.01, 0.01}),     // 7 child of the massless body
	}
	parent := []int{-1, 0, 1, 2, -1, 4, 0, 6}
	ok := []bool{true, true, true, true, true, true, false, true}
	out := append([]mass.Body(nil), in...)
	StabilizeMasses(out, parent, ok)
	trees := map[int][]int{0: {0, 1, 2, 3}, 4: {4, 5}, 7: {7}}
	for root, members := range trees {
		var before, after float64
		for _, i := range members {
			before += in[i].Mass
			after += out[i].Mass
		}
		if math.Abs(after-before) > 1e-9*before {
			t.Errorf("tree of body %d: mass %g, was %g", root, after, before)
		}
	}
	for i, p := range parent {
		if p < 0 || !ok[i] || !ok[p] {
			continue
		}
		if r := out[i].Mass / out[p].Mass; r > MassRatio*(1+1e-9) || r < 1/MassRatio*(1-1e-9) {
			t.Errorf("body %d: mass ratio to its parent %g, outside [1/%g, %g]", i, r, MassRatio, MassRatio)
		}
	}
	if out[7] != in[7] || out[6] != in[6] {
		t.Errorf("bodies beside a massless one changed: %+v, %+v", out[6], out[7])
	}
	for i := range out {
		if out[i].CenterOfMass != in[i].CenterOfMass || out[i].InertiaOrientation != in[i].InertiaOrientation {
			t.Errorf("body %d: centre of mass or principal axes moved", i)
		}
	}
	// The hand is a leaf: its inertia only scales with its mass.
	k := out[3].Mass / in[3].Mass
	for a := range 3 {
		if math.Abs(out[3].InertiaDiagonal[a]-k*in[3].InertiaDiagonal[a]) > 1e-12 {
			t.Errorf("hand moment %d: %g, want %g", a, out[3].InertiaDiagonal[a], k*in[3].InertiaDiagonal[a])
		}
	}
	// The forearm's moments reach the floor: the smaller of twice its
	// largest (after scaling) and the hand's largest.
	largest := func(b mass.Body) float64 {
		return max(b.InertiaDiagonal[0], b.InertiaDiagonal[1], b.InertiaDiagonal[2])
	}
	scaled := in[2].InertiaDiagonal[2] * out[2].Mass / in[2].Mass
	floor := min(MaxInertiaGain*in[2].InertiaDiagonal[0]*out[2].Mass/in[2].Mass, largest(out[3]))
	if got := out[2].InertiaDiagonal[2]; math.Abs(got-max(scaled, floor)) > 1e-12 {
		t.Errorf("forearm's smallest moment %g, want %g", got, max(scaled, floor))
	}
	// The tensor matches the diagonal and the orientation.
	r := q.Mat3()
	d := out[1].InertiaDiagonal
	want := r.Mul(geom.Mat3{{d[0], 0, 0}, {0, d[1], 0}, {0, 0, d[2]}}).Mul(r.Transpose())
	for i := range 3 {
		for j := range 3 {
			if math.Abs(out[1].Inertia[i][j]-want[i][j]) > 1e-12 {
				t.Fatalf("upper arm tensor %v, want %v", out[1].Inertia, want)
			}
		}
	}
}
