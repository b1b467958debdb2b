package fit

import (
	"math"
	"sort"

	"github.com/autocollide/autocollide/geom"
)

// Axis-search parameters for capsules and cylinders.
const (
	// axisSeedsSphere is the number of extra seed directions spread over the
	// sphere, on top of the principal and box axes.
	axisSeedsSphere = 16
	// axisRefined is how many of the best seeds are refined down to
	// axisCoarseStop radians; the best axisFine of them are then refined
	// down to refineStop.
	axisRefined    = 6
	axisCoarseStop = 0.004
	axisFine       = 2
	// coarseTilts and fineTilts are the tilt axes of the two phases.
	coarseTilts = 6
	fineTilts   = 4
	// radiusScan and radiusGolden are the coarse samples and golden-section
	// steps of the capsule radius search for one axis.
	radiusScan   = 4
	radiusGolden = 10
	// finalGolden is the number of golden-section steps of the final fit.
	finalGolden = 32
)

// axial is a capsule or cylinder for a given axis u, in the frame (a, b, u):
// the axis line passes through a·c[0] + b·c[1], the segment (capsule) or the
// body (cylinder) spans [lo, hi] along u.
type axial struct {
	c      vec2
	r      float64
	lo, hi float64
	vol    float64
}

// axialEval evaluates capsules or cylinders of many axes around one point
// set. It keeps the Welzl move-to-front order from one axis to the next:
// nearby axes share their boundary points, so a circle then costs about one
// pass over the points.
type axialEval struct {
	pts []geom.Vec3
	ord []int32
	q   []vec2
	t   []float64
	d2  []float64
}

func newAxialEval(pts []geom.Vec3) *axialEval {
	n := len(pts)
	return &axialEval{pts: pts, ord: shuffledOrder(n), q: make([]vec2, n), t: make([]float64, n), d2: make([]float64, n)}
}

// project projects the points onto the plane (a, b), records their heights
// along u and returns the minimum enclosing circle of the projection.
func (e *axialEval) project(a, b, u geom.Vec3) circle {
	for i, p := range e.pts {
		e.q[i] = project(p, a, b)
		e.t[i] = p.Dot(u)
	}
	return mtfCircle(e.q, e.ord, len(e.ord), &[3]vec2{}, 0)
}

// cylinder is the smallest cylinder of axis u enclosing the points: exact
// for that axis (minimum enclosing circle of the projection, extent along u).
func (e *axialEval) cylinder(a, b, u geom.Vec3, _ int) axial {
	mec := e.project(a, b, u)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range e.t {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	r := math.Sqrt(math.Max(mec.r2, 0))
	return axial{c: mec.c, r: r, lo: lo, hi: hi, vol: math.Pi * r * r * (hi - lo)}
}

// capsule is the smallest capsule of axis u enclosing the points whose axis
// line passes through the centre of the projection's minimum enclosing
// circle. For a radius r every point i at distance dᵢ ≤ r from the line and
// height tᵢ is covered iff the segment reaches tᵢ ∓ √(r²−dᵢ²), which gives
// the shortest segment for r exactly; r itself is found by a coarse scan and
// golden golden-section steps on the volume, between the circle radius
// (smallest feasible) and the radius at which the capsule becomes a sphere.
func (e *axialEval) capsule(a, b, u geom.Vec3, golden int) axial {
	mec := e.project(a, b, u)
	t, d2 := e.t, e.d2
	tmin, tmax := math.Inf(1), math.Inf(-1)
	for i := range e.q {
		d2[i] = dist2(e.q[i], mec.c)
		tmin, tmax = math.Min(tmin, t[i]), math.Max(tmax, t[i])
	}
	tm := (tmin + tmax) / 2
	r0, r1 := 0.0, 0.0
	for i := range d2 {
		r0 = math.Max(r0, d2[i])
		dt := t[i] - tm
		r1 = math.Max(r1, d2[i]+dt*dt)
	}
	r0, r1 = math.Sqrt(r0), math.Sqrt(r1)
	seg := func(r float64) (lo, hi float64) {
		top, bot := math.Inf(-1), math.Inf(1)
		rr := r * r
		for i, ti := range t {
			s := 0.0
			if e := rr - d2[i]; e > 0 {
				s = math.Sqrt(e)
			}
			if ti-s > top {
				top = ti - s
			}
			if ti+s < bot {
				bot = ti + s
			}
		}
		if top < bot { // the capsule is a sphere
			m := (top + bot) / 2
			return m, m
		}
		return bot, top
	}
	vol := func(r float64) float64 {
		lo, hi := seg(r)
		return capsuleVolume(r, hi-lo)
	}
	// Coarse scan, then golden-section search around the best sample.
	bestR, bestV := r0, vol(r0)
	step := (r1 - r0) / radiusScan
	for k := 1; k <= radiusScan && step > 0; k++ {
		if v := vol(r0 + float64(k)*step); v < bestV {
			bestR, bestV = r0+float64(k)*step, v
		}
	}
	if step > 0 {
		x0, x1 := math.Max(r0, bestR-step), math.Min(r1, bestR+step)
		g := (math.Sqrt(5) - 1) / 2
		xa, xb := x1-g*(x1-x0), x0+g*(x1-x0)
		va, vb := vol(xa), vol(xb)
		for k := 0; k < golden; k++ {
			if va < vb {
				x1, xb, vb = xb, xa, va
				xa = x1 - g*(x1-x0)
				va = vol(xa)
			} else {
				x0, xa, va = xa, xb, vb
				xb = x0 + g*(x1-x0)
				vb = vol(xb)
			}
		}
		for _, c := range [2][2]float64{{xa, va}, {xb, vb}} {
			if c[1] < bestV {
				bestR, bestV = c[0], c[1]
			}
		}
	}
	lo, hi := seg(bestR)
	return axial{c: mec.c, r: bestR, lo: lo, hi: hi, vol: bestV}
}

// axialFunc fits one capsule or cylinder for an axis (golden: radius
// search steps, capsules only).
type axialFunc func(e *axialEval, a, b, u geom.Vec3, golden int) axial

// axisSearch returns the axis minimising the volume fit(u) over the search
// set: seeds from the principal axes, the best box's axes and a spread of
// directions; the best few are refined by pattern search on the sphere.
func (in *Input) axisSearch(opt Options, fit axialFunc) geom.Vec3 {
	s := in.searchSet(opt)
	fine := newAxialEval(s)
	coarse := fine
	if half := max(8, opt.coreDirections()/2); len(s) > half {
		// Seeds and the coarse phase use a core half as dense as the box's.
		coarse = newAxialEval(in.core(half))
	}
	costOn := func(e *axialEval) func(geom.Vec3) float64 {
		return func(u geom.Vec3) float64 {
			a, b := orthoFrame(u)
			return fit(e, a, b, u, radiusGolden).vol
		}
	}
	cost := costOn(coarse)
	type cand struct {
		u geom.Vec3
		v float64
	}
	var seeds []geom.Vec3
	box := in.boxFrame(opt)
	for k := 0; k < 3; k++ {
		seeds = append(seeds, in.pca.Col(k), box.Col(k))
	}
	for _, d := range fibonacci(2 * axisSeedsSphere) {
		if d[2] > 0 { // an axis and its opposite are the same
			seeds = append(seeds, d)
		}
	}
	cands := make([]cand, len(seeds))
	for i, u := range seeds {
		cands[i] = cand{u, cost(u)}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].v < cands[j].v })
	// Coarse refinement of the best seeds, fine refinement of the best two.
	cands = cands[:min(len(cands), axisRefined)]
	for i := range cands {
		cands[i].u, cands[i].v = refineAxis(cands[i].u, cands[i].v, cost, refineStart, axisCoarseStop, coarseTilts)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].v < cands[j].v })
	best := cand{v: math.Inf(1)}
	cost = costOn(fine)
	for i := 0; i < len(cands) && i < axisFine; i++ {
		c := cands[i]
		c.u, c.v = refineAxis(c.u, cost(c.u), cost, axisCoarseStop, refineStop, fineTilts)
		if c.v < best.v {
			best = c
		}
	}
	return best.u
}

// refineAxis improves the unit axis u by pattern search on the sphere:
// small tilts towards four directions orthogonal to u, step halved when
// none helps.
func refineAxis(u geom.Vec3, v float64, cost func(geom.Vec3) float64, start, stop float64, tilts int) (geom.Vec3, float64) {
	for step, it := start, 0; step > stop && it < refineIterations; it++ {
		a, b := orthoFrame(u)
		improved := false
	trials:
		for _, ax := range tiltAxes(a, b, tilts) {
			for _, sgn := range [2]float64{1, -1} {
				u2 := rotAbout(ax, sgn*step).MulVec(u).Normalize()
				if v2 := cost(u2); v2 < v*(1-refineGain) {
					u, v, improved = u2, v2, true
					break trials
				}
			}
		}
		if !improved {
			step /= 2
		}
	}
	return u, v
}

// tiltAxes are n rotation axes in the plane (a, b), π/n apart: the tilts
// of a pattern search on the sphere. Too few directions stall in the narrow
// valleys of the capsule and cylinder volumes.
func tiltAxes(a, b geom.Vec3, n int) []geom.Vec3 {
	out := make([]geom.Vec3, n)
	for k := range out {
		s, c := math.Sincos(math.Pi * float64(k) / float64(n))
		out[k] = a.Scale(c).Add(b.Scale(s))
	}
	return out
}

// axialFrame returns the axis of the flat or solid set for fit, as a
// rotation whose +Y is the axis, round-tripped through its quaternion.
func (in *Input) axialFrame(opt Options, fit axialFunc) (geom.Quat, geom.Mat3) {
	var u geom.Vec3
	if in.dim == 1 {
		u = in.pca.Col(0)
	} else {
		u = in.axisSearch(opt, fit)
	}
	q := geom.QuatFromMat3(axisFrame(u))
	return q, q.Mat3()
}

// capsule fits the minimum-volume capsule: axis search, exact segment and
// radius on the hull vertices, radius re-measured on every point.
func (in *Input) capsule(opt Options, tol float64) Shape {
	q, m := in.axialFrame(opt, (*axialEval).capsule)
	return in.capsuleIn(q, m, tol)
}

// capsuleIn fits the shortest capsule whose axis is m's +Y (q is m as a
// quaternion): exact segment and radius on the search set, radius
// re-measured on every point.
func (in *Input) capsuleIn(q geom.Quat, m geom.Mat3, tol float64) Shape {
	a, u, b := m.Col(0), m.Col(1), m.Col(2)
	// The evaluator's frame is (b, a, u): keep its coordinates consistent.
	f := newAxialEval(in.support).capsule(b, a, u, finalGolden)
	base := in.origin.Add(b.Scale(f.c[0])).Add(a.Scale(f.c[1]))
	var r2 float64
	for _, p := range in.points {
		d := p.Sub(base)
		t := d.Dot(u)
		if t < f.lo {
			t = f.lo
		} else if t > f.hi {
			t = f.hi
		}
		if e := d.Sub(u.Scale(t)).Len2(); e > r2 {
			r2 = e
		}
	}
	r := math.Sqrt(r2) + tol
	return Shape{
		Kind: KindCapsule, Center: base.Add(u.Scale((f.lo + f.hi) / 2)), Rotation: q,
		Radius: r, RadiusTop: r, RadiusBottom: r, Height: f.hi - f.lo,
	}
}

// cylinder fits the minimum-volume cylinder: axis search, then the exact
// circle and extent for that axis, re-measured on every point.
func (in *Input) cylinder(opt Options, tol float64) Shape {
	q, m := in.axialFrame(opt, (*axialEval).cylinder)
	a, u, b := m.Col(0), m.Col(1), m.Col(2)
	f := newAxialEval(in.support).cylinder(b, a, u, 0)
	base := in.origin.Add(b.Scale(f.c[0])).Add(a.Scale(f.c[1]))
	var r2 float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range in.points {
		d := p.Sub(base)
		t := d.Dot(u)
		if t < lo {
			lo = t
		}
		if t > hi {
			hi = t
		}
		if e := d.Sub(u.Scale(t)).Len2(); e > r2 {
			r2 = e
		}
	}
	r := math.Sqrt(r2) + tol
	return Shape{
		Kind: KindCylinder, Center: base.Add(u.Scale((lo + hi) / 2)), Rotation: q,
		Radius: r, RadiusTop: r, RadiusBottom: r, Height: hi - lo + 2*tol,
	}
}
