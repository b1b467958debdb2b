package fit

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// cloud draws n points of one of several distributions, randomly posed.
func cloud(r *rand.Rand, kind, n int) []geom.Vec3 {
	scale := geom.Vec3{0.2 + 3*r.Float64(), 0.2 + 2*r.Float64(), 0.2 + r.Float64()}
	pts := make([]geom.Vec3, n)
	for i := range pts {
		var p geom.Vec3
		switch kind % 3 {
		case 0: // anisotropic Gaussian
			p = geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		case 1: // uniform in a cube
			p = geom.Vec3{r.Float64(), r.Float64(), r.Float64()}
		default: // on an ellipsoid
			p = randUnit(r)
		}
		pts[i] = p.Mul(scale)
	}
	return pose(pts, randQuat(r), randUnit(r).Scale(100*r.Float64()))
}

// TestContainmentProperty: every fit of random clouds, small and big,
// contains every point, and the box is never worse than the PCA box.
func TestContainmentProperty(t *testing.T) {
	for trial := 0; trial < 24; trial++ {
		r := newRand(uint64(1000 + trial))
		n := []int{4, 9, 30, 200, 3000}[trial%5]
		pts := cloud(r, trial, n)
		in, err := Prepare(pts)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range Kinds() {
			s, err := in.Fit(k, Options{GapSamples: -1})
			if err != nil {
				t.Fatal(err)
			}
			checkContains(t, s, pts)
			if k == KindBox {
				pca := in.finishBox(in.pca, in.diag*DefaultTolerance)
				if s.Volume > volume(pca)*(1+1e-9) {
					t.Errorf("trial %d: box %v worse than PCA box %v", trial, s.Volume, volume(pca))
				}
				aabb := in.aabb(in.diag * DefaultTolerance)
				if s.Volume > volume(aabb)*(1+1e-9) {
					t.Errorf("trial %d: box %v worse than AABB %v", trial, s.Volume, volume(aabb))
				}
			}
		}
	}
}

// gridBoxVolume is the smallest box volume over a grid of Euler angles with
// the given step (brute force).
func gridBoxVolume(pts []geom.Vec3, step float64) float64 {
	best := math.Inf(1)
	n := int(math.Round(math.Pi / step))
	for i := 0; i < n; i++ {
		rz := rotAbout(geom.Vec3{0, 0, 1}, float64(i)*step)
		for j := 0; j < n; j++ {
			ry := rz.Mul(rotAbout(geom.Vec3{0, 1, 0}, float64(j)*step))
			for k := 0; k < n; k++ {
				m := ry.Mul(rotAbout(geom.Vec3{1, 0, 0}, float64(k)*step))
				if v := boxVolume(pts, m); v < best {
					best = v
				}
			}
		}
	}
	return best
}

// TestBoxAgainstGrid: on small clouds the box is within 1% of (and usually
// below) the best box over a 2° orientation grid.
func TestBoxAgainstGrid(t *testing.T) {
	for trial := 0; trial < 3; trial++ {
		r := newRand(uint64(2000 + trial))
		pts := cloud(r, trial, 8+trial)
		s, err := Fit(KindBox, pts, Options{Tolerance: -1, GapSamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		grid := gridBoxVolume(pts, 2*math.Pi/180)
		if s.Volume > 1.01*grid {
			t.Errorf("trial %d: box %v, grid optimum %v (ratio %.4f)", trial, s.Volume, grid, s.Volume/grid)
		}
		t.Logf("trial %d: box/grid = %.5f", trial, s.Volume/grid)
	}
}

// bruteBall is the smallest ball through 1 to 4 of the points that encloses
// them all.
func bruteBall(pts []geom.Vec3) ball3 {
	best := ball3{r2: math.Inf(1)}
	n := len(pts)
	try := func(s ...geom.Vec3) {
		b := ballOn(s)
		if b.r2 >= best.r2 {
			return
		}
		for _, p := range pts {
			if p.Sub(b.c).Len2() > b.r2*(1+1e-9) {
				return
			}
		}
		best = b
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			try(pts[i], pts[j])
			for k := j + 1; k < n; k++ {
				try(pts[i], pts[j], pts[k])
				for l := k + 1; l < n; l++ {
					try(pts[i], pts[j], pts[k], pts[l])
				}
			}
		}
	}
	return best
}

func TestSphereAgainstBruteForce(t *testing.T) {
	for trial := 0; trial < 40; trial++ {
		r := newRand(uint64(3000 + trial))
		pts := cloud(r, trial, 5+trial%10)
		s, err := Fit(KindSphere, pts, Options{Tolerance: -1, GapSamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		b := bruteBall(pts)
		d := geom.BoundsOf(pts).Diagonal()
		if rb := math.Sqrt(b.r2); math.Abs(s.Radius-rb) > 1e-9*d || s.Center.Sub(b.c).Len() > 1e-6*d {
			t.Errorf("trial %d: sphere %v r=%v, brute force %v r=%v", trial, s.Center, s.Radius, b.c, rb)
		}
	}
	// Circle against brute force too (used by capsules and cylinders).
	for trial := 0; trial < 20; trial++ {
		r := newRand(uint64(4000 + trial))
		q := make([]vec2, 4+trial%8)
		for i := range q {
			q[i] = vec2{r.NormFloat64(), 3 * r.Float64()}
		}
		c := minCircle(append([]vec2(nil), q...))
		best := math.Inf(1)
		for i := range q {
			for j := i + 1; j < len(q); j++ {
				for k := j; k < len(q); k++ {
					s := []vec2{q[i], q[j], q[k]}
					if k == j {
						s = s[:2]
					}
					cc := circleOn(s)
					ok := true
					for _, p := range q {
						ok = ok && dist2(p, cc.c) <= cc.r2*(1+1e-9)
					}
					if ok {
						best = math.Min(best, cc.r2)
					}
				}
			}
		}
		if math.Abs(math.Sqrt(c.r2)-math.Sqrt(best)) > 1e-9 {
			t.Errorf("circle trial %d: r=%v, brute force %v", trial, math.Sqrt(c.r2), math.Sqrt(best))
		}
	}
}

// TestDeterministic: the same input gives bit-identical shapes.
func TestDeterministic(t *testing.T) {
	pts := cloud(newRand(5), 2, 2000)
	for _, k := range Kinds() {
		a, err := Fit(k, pts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Fit(k, pts, Options{})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %+v != %+v", k, a, b)
		}
	}
}

// TestCappedHull: a hull that misses points (vertex cap) must not break
// containment.
func TestCappedHull(t *testing.T) {
	pts := cloud(newRand(6), 2, 1000)
	h, err := hull.Build(pts, hull.Options{MaxVertices: 16})
	if err != nil {
		t.Fatal(err)
	}
	in, err := PrepareWithHull(pts, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		s, err := in.Fit(k, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkContains(t, s, pts)
	}
}

// TestHullDistance checks the GJK query against a unit cube.
func TestHullDistance(t *testing.T) {
	var cube []geom.Vec3
	for i := 0; i < 8; i++ {
		cube = append(cube, geom.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	in, err := Prepare(cube)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    geom.Vec3
		want float64
	}{
		{geom.Vec3{0.5, 0.5, 0.5}, 0},
		{geom.Vec3{2, 0.5, 0.5}, 1},
		{geom.Vec3{2, 2, 0.5}, math.Sqrt2},
		{geom.Vec3{-1, -1, -1}, math.Sqrt(3)},
		{geom.Vec3{0.3, 0.7, 1.25}, 0.25},
	} {
		for start := range in.support {
			d, _ := in.hullDistance(c.p.Sub(in.origin), start)
			if math.Abs(d-c.want) > 1e-9 {
				t.Errorf("distance from %v (start %d) = %v, want %v", c.p, start, d, c.want)
			}
		}
	}
	// Points on the surface of a small cube with float32-like noise, from
	// every start vertex (a start on the same face once made the iteration
	// cycle on a degenerate simplex and report 0.005 instead of 0).
	r := newRand(12)
	for i := range cube {
		cube[i] = cube[i].Sub(geom.Vec3{0.5, 0.5, 0.5}).Scale(0.02).Add(randUnit(r).Scale(5e-9))
	}
	if in, err = Prepare(cube); err != nil {
		t.Fatal(err)
	}
	s, err := in.Fit(KindBox, Options{Tolerance: -1, GapSamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range surfaceSamples(s, 128) {
		for start := range in.support {
			if d, _ := in.hullDistance(p.Sub(in.origin), start); d > 1e-6 {
				t.Errorf("surface point %v (start %d): distance %v", p, start, d)
			}
		}
	}
}

// TestAxialNotWorseThanSeeds: on clouds small enough for the exact path,
// the capsule and cylinder are never larger than those along the principal
// axes, which seed the search.
func TestAxialNotWorseThanSeeds(t *testing.T) {
	for trial := 0; trial < 12; trial++ {
		pts := cloud(newRand(uint64(5000+trial)), trial, 60)
		in, err := Prepare(pts)
		if err != nil {
			t.Fatal(err)
		}
		tol := DefaultTolerance * in.diag
		for _, c := range []struct {
			kind Kind
			f    axialFunc
		}{{KindCapsule, (*axialEval).capsule}, {KindCylinder, (*axialEval).cylinder}} {
			s, err := in.Fit(c.kind, Options{GapSamples: -1})
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 3; k++ {
				u := in.pca.Col(k)
				a, b := orthoFrame(u)
				f := c.f(newAxialEval(in.support), a, b, u, finalGolden)
				r, h := f.r+tol, f.hi-f.lo
				seed := capsuleVolume(r, h)
				if c.kind == KindCylinder {
					seed = math.Pi * r * r * (h + 2*tol)
				}
				if s.Volume > seed*(1+1e-6) {
					t.Errorf("trial %d %s: volume %v above the principal axis %d's %v", trial, c.kind, s.Volume, k, seed)
				}
			}
		}
	}
}

// TestFarFromOrigin: a cloud a million units away still fits tightly and is
// contained (the hull library's epsilon scales with absolute coordinates).
func TestFarFromOrigin(t *testing.T) {
	r := newRand(8)
	local := boxSurface(r, geom.Vec3{1, 2, 3}, 2000)
	pts := pose(local, randQuat(r), geom.Vec3{1e6, -2e6, 5e5})
	in, err := Prepare(pts)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		s, err := in.Fit(k, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkContains(t, s, pts)
		if k == KindBox && math.Abs(s.Volume-6) > 6e-3 {
			t.Errorf("box volume %v, want 6", s.Volume)
		}
	}
}

// TestMaxGap: the AABB of a unit cube turned 45° about Z reaches 0.5 beyond
// it at its corners; the oriented box of the same cube has no gap.
func TestMaxGap(t *testing.T) {
	var cube []geom.Vec3
	for i := 0; i < 8; i++ {
		cube = append(cube, geom.Vec3{float64(i&1) - 0.5, float64(i>>1&1) - 0.5, float64(i>>2&1) - 0.5})
	}
	q := geom.Quat{0, 0, math.Sin(math.Pi / 8), math.Cos(math.Pi / 8)}
	pts := pose(cube, q, geom.Vec3{3, 4, 5})
	in, err := Prepare(pts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind Kind
		want float64
	}{{KindAABB, 0.5}, {KindBox, 0}} {
		s, err := in.Fit(c.kind, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s.MaxGap-c.want) > 1e-5 {
			t.Errorf("%s: MaxGap %v, want %v", c.kind, s.MaxGap, c.want)
		}
	}
}

// TestUnusableHull: a solid cloud given with an empty hull is searched on
// every point; the fits stay contained and close to those with the hull.
func TestUnusableHull(t *testing.T) {
	pts := cloud(newRand(9), 1, 500)
	with, err := Prepare(pts)
	if err != nil {
		t.Fatal(err)
	}
	without, err := PrepareWithHull(pts, &hull.Hull{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		a, err := with.Fit(k, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := without.Fit(k, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkContains(t, b, pts)
		if !math.IsInf(b.Overshoot, 1) {
			t.Errorf("%s: overshoot %v without a hull, want +Inf", k, b.Overshoot)
		}
		if b.Volume > a.Volume*1.01 {
			t.Errorf("%s: volume %v without hull, %v with", k, b.Volume, a.Volume)
		}
	}
	var zero Input
	if _, err := zero.Fit(KindBox, Options{}); err == nil {
		t.Error("zero Input: no error")
	}
}

// TestConcurrentInput: fits of one Input from several goroutines equal the
// sequential ones (run with -race to check the memo's locking).
func TestConcurrentInput(t *testing.T) {
	pts := cloud(newRand(10), 0, 3000)
	seq, err := Prepare(pts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[Kind]Shape{}
	for _, k := range Kinds() {
		if want[k], err = seq.Fit(k, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	par, err := Prepare(pts)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]Shape, len(Kinds()))
	done := make(chan int)
	for i, k := range Kinds() {
		go func() {
			got[i], _ = par.Fit(k, Options{})
			done <- i
		}()
	}
	for range Kinds() {
		<-done
	}
	for i, k := range Kinds() {
		if !reflect.DeepEqual(got[i], want[k]) {
			t.Errorf("%s: concurrent %+v, sequential %+v", k, got[i], want[k])
		}
	}
}

// TestAwkwardSets: inputs that stress the hull and the searches — a regular
// grid (coplanar faces everywhere), repeated corners, a needle, a sliver,
// a huge spread of scales — still give contained, finite shapes.
func TestAwkwardSets(t *testing.T) {
	var grid, corners, needle, sliver, scales []geom.Vec3
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			for k := 0; k < 6; k++ {
				grid = append(grid, geom.Vec3{float64(i), float64(j), float64(k)})
			}
		}
	}
	for i := 0; i < 400; i++ {
		corners = append(corners, geom.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	r := newRand(11)
	for i := 0; i < 300; i++ {
		a := 2 * math.Pi * r.Float64()
		needle = append(needle, geom.Vec3{1e-7 * math.Cos(a), 10 * r.Float64(), 1e-7 * math.Sin(a)})
		sliver = append(sliver, geom.Vec3{r.Float64(), r.Float64(), 1e-9 * r.Float64()})
		scales = append(scales, randUnit(r).Scale(math.Pow(10, -6+8*r.Float64())))
	}
	for _, c := range []struct {
		name string
		pts  []geom.Vec3
	}{{"grid", grid}, {"corners", corners}, {"needle", needle}, {"sliver", sliver}, {"scales", scales}} {
		in, err := Prepare(c.pts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, k := range Kinds() {
			s, err := in.Fit(k, Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, k, err)
			}
			checkContains(t, s, c.pts)
			if math.IsNaN(s.Volume) || math.IsNaN(s.MaxGap) || math.IsNaN(s.Overshoot) || !s.Center.IsFinite() {
				t.Errorf("%s %s: NaN in %+v", c.name, k, s)
			}
		}
		box, _ := in.Fit(KindBox, Options{})
		if c.name == "grid" || c.name == "corners" {
			want := 125.0
			if c.name == "corners" {
				want = 1
			}
			if math.Abs(box.Volume-want) > 1e-4*want {
				t.Errorf("%s: box volume %v, want %v", c.name, box.Volume, want)
			}
		}
	}
}
