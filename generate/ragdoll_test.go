package generate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/ragdoll"
)

// TestStabilizeMasses: on a torso with a light arm chain and a separate
// two-body tree, stabilizeMasses keeps each tree's total mass, brings
// every jointed child within massRatio of its parent, scales inertia with
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
	stabilizeMasses(out, parent, ok)
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
		if r := out[i].Mass / out[p].Mass; r > massRatio*(1+1e-9) || r < 1/massRatio*(1-1e-9) {
			t.Errorf("body %d: mass ratio to its parent %g, outside [1/%g, %g]", i, r, massRatio, massRatio)
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
	floor := min(maxInertiaGain*in[2].InertiaDiagonal[0]*out[2].Mass/in[2].Mass, largest(out[3]))
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

// TestRagdollFilters: bodies whose colliders overlap at rest, and only
// those that are not jointed, get filters naming each other; a profile
// filter's systems are kept, and one with collideWithSystems is left
// alone with a warning.
func TestRagdollFilters(t *testing.T) {
	at := func(x, y, z float64) geom.Mat4 {
		m := geom.Identity4()
		m[0][3], m[1][3], m[2][3] = x, y, z
		return m
	}
	sphere := func(r float64) Collider {
		return Collider{Shape: physics.Shape{Type: physics.Sphere, Radius: r}, Rotation: geom.IdentityQuat()}
	}
	capsule := func(r, h float64) Collider {
		return Collider{Shape: physics.Shape{Type: physics.Capsule, RadiusTop: r, RadiusBottom: r, Height: h}, Rotation: geom.IdentityQuat()}
	}
	box := Collider{Shape: physics.Shape{Type: physics.Box, Size: geom.Vec3{0.2, 0.2, 0.2}}, Rotation: geom.IdentityQuat()}
	cv := boxConvex(geom.Vec3{}, geom.Vec3{0.2, 0.2, 0.2})
	box.Convex = &cv
	rd := &ragdoll.Ragdoll{Bodies: []ragdoll.Body{
		{Name: "pelvis", Bone: 0, Parent: -1, Frame: at(0, 0, 0)},
		{Name: "spine", Bone: 1, Parent: 0, Frame: at(0, 0.3, 0)},  // overlaps the pelvis: jointed
		{Name: "chest", Bone: 2, Parent: 1, Frame: at(0, 0.15, 0)}, // overlaps the pelvis: not jointed
		{Name: "arm", Bone: 3, Parent: 0, Frame: at(1, 0, 0)},
		{Name: "hand", Bone: 4, Parent: 2, Frame: at(1.15, 0, 0)}, // box overlapping the arm
		{Name: "foot", Bone: 5, Parent: 0, Frame: at(1.36, 0, 0)}, // a box 0.01 clear of the hand's
	}}
	cs := []Collider{sphere(0.2), capsule(0.1, 0.2), sphere(0.1), capsule(0.1, 0.1), box, box}
	joints := []int{10, 11, 12, 13, 14, 15}
	want := [][]int{{2}, nil, {0}, {4}, {3}, nil}
	got := restOverlaps(rd, cs)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("body %d overlaps %v, want %v", i, got[i], want[i])
		}
	}
	model := physics.NewModel()
	model.Filters = append(model.Filters, physics.Filter{Name: "profile", CollisionSystems: []string{"ragdoll"}})
	idx, warn := ragdollFilters(model, rd, cs, joints, 0)
	if warn != "" {
		t.Errorf("warning %q", warn)
	}
	for i, others := range want {
		if len(others) == 0 {
			if idx[i] != 0 {
				t.Errorf("body %d: filter %d, want the profile's", i, idx[i])
			}
			continue
		}
		f := model.Filters[idx[i]]
		self := fmt.Sprintf("%s.ragdoll%d", rd.Bodies[i].Name, joints[i])
		var not []string
		for _, o := range others {
			not = append(not, fmt.Sprintf("%s.ragdoll%d", rd.Bodies[o].Name, joints[o]))
		}
		if !slices.Equal(f.CollisionSystems, []string{"ragdoll", self}) || !slices.Equal(f.NotCollideWithSystems, not) {
			t.Errorf("body %d: filter %+v, want systems [ragdoll %s], not colliding with %v", i, f, self, not)
		}
	}
	only := physics.NewModel()
	only.Filters = append(only.Filters, physics.Filter{CollisionSystems: []string{"a"}, CollideWithSystems: []string{"b"}})
	idx, warn = ragdollFilters(only, rd, cs, joints, 0)
	if warn == "" || len(only.Filters) != 1 || slices.ContainsFunc(idx, func(i int) bool { return i != 0 }) {
		t.Errorf("collideWithSystems profile filter: filters %v, warning %q", idx, warn)
	}
}

// TestSegmentDistance: the closed form matches a dense sampling of both
// segments, degenerate ones included.
func TestSegmentDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	v := func() geom.Vec3 { return geom.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1} }
	for k := range 200 {
		p1, q1, p2, q2 := v(), v(), v(), v()
		switch k % 4 {
		case 1:
			q1 = p1
		case 2:
			q2 = p2
		case 3:
			q2 = p2.Add(q1.Sub(p1)) // parallel
		}
		const n = 400
		brute := math.Inf(1)
		for i := 0; i <= n; i++ {
			a := p1.Add(q1.Sub(p1).Scale(float64(i) / n))
			for j := 0; j <= n; j++ {
				brute = min(brute, a.Sub(p2.Add(q2.Sub(p2).Scale(float64(j)/n))).Len())
			}
		}
		d := segmentDistance(p1, q1, p2, q2)
		if d > brute+1e-12 || d < brute-0.01 {
			t.Fatalf("case %d: %g, sampling gives %g", k, d, brute)
		}
	}
}
