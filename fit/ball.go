package fit

import (
	"math"
	"math/rand/v2"

	"github.com/autocollide/autocollide/geom"
)

// ballSlack is the relative slack (on the squared radius) with which the
// Welzl recursions consider a point inside the current ball. It keeps
// round-off from sending the recursion after points that are already on
// the boundary; the final radius is always recomputed from every point.
const ballSlack = 1e-12

// shuffleSeed seeds the deterministic shuffle that gives Welzl's algorithm
// its expected linear time.
const shuffleSeed = 0x5eed

// ball3 is a sphere given by centre and squared radius; r2 < 0 is empty.
type ball3 struct {
	c  geom.Vec3
	r2 float64
}

func (b ball3) contains(p geom.Vec3) bool {
	return p.Sub(b.c).Len2() <= b.r2*(1+ballSlack)
}

// minBall returns the smallest ball enclosing pts (Welzl's algorithm with
// move-to-front, on a deterministically shuffled copy).
func minBall(pts []geom.Vec3) ball3 {
	p := append([]geom.Vec3(nil), pts...)
	r := rand.New(rand.NewPCG(shuffleSeed, uint64(len(p))))
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	var bnd [4]geom.Vec3
	return mtfBall(p, len(p), &bnd, 0)
}

func mtfBall(p []geom.Vec3, n int, bnd *[4]geom.Vec3, nb int) ball3 {
	b := ballOn(bnd[:nb])
	if nb == 4 {
		return b
	}
	for i := 0; i < n; i++ {
		if b.contains(p[i]) {
			continue
		}
		bnd[nb] = p[i]
		b = mtfBall(p, i, bnd, nb+1)
		pi := p[i]
		copy(p[1:i+1], p[:i])
		p[0] = pi
	}
	return b
}

// ballOn returns the smallest ball with every point of s (0 to 4 points) on
// its boundary. When the points are affinely dependent (three collinear,
// four coplanar) it returns the smallest ball enclosing them instead.
func ballOn(s []geom.Vec3) ball3 {
	switch len(s) {
	case 0:
		return ball3{r2: -1}
	case 1:
		return ball3{c: s[0]}
	case 2:
		c := s[0].Add(s[1]).Scale(0.5)
		return ball3{c, s[0].Sub(c).Len2()}
	case 3:
		a, b := s[1].Sub(s[0]), s[2].Sub(s[0])
		n := a.Cross(b)
		den := 2 * n.Len2()
		if den <= 1e-24*a.Len2()*b.Len2() {
			return enclosingOf(s)
		}
		off := b.Cross(n).Scale(a.Len2()).Add(n.Cross(a).Scale(b.Len2())).Scale(1 / den)
		return ball3{s[0].Add(off), off.Len2()}
	default:
		a, b, c := s[1].Sub(s[0]), s[2].Sub(s[0]), s[3].Sub(s[0])
		det := a.Dot(b.Cross(c))
		scale := a.Len() * b.Len() * c.Len()
		if math.Abs(det) <= 1e-12*scale {
			return enclosingOf(s)
		}
		// Solve [a;b;c]·x = ½(|a|²,|b|²,|c|²) by Cramer's rule.
		ra, rb, rc := a.Len2()/2, b.Len2()/2, c.Len2()/2
		x := b.Cross(c).Scale(ra).Add(c.Cross(a).Scale(rb)).Add(a.Cross(b).Scale(rc)).Scale(1 / det)
		return ball3{s[0].Add(x), x.Len2()}
	}
}

// enclosingOf is the smallest ball enclosing up to four points, by trying
// every pair and triple (used only for degenerate boundary sets).
func enclosingOf(s []geom.Vec3) ball3 {
	best := ball3{r2: math.Inf(1)}
	try := func(b ball3) {
		if b.r2 >= best.r2 {
			return
		}
		for _, p := range s {
			if !b.contains(p) {
				return
			}
		}
		best = b
	}
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			try(ballOn([]geom.Vec3{s[i], s[j]}))
			for k := j + 1; k < len(s) && len(s) == 4; k++ {
				a, b := s[j].Sub(s[i]), s[k].Sub(s[i])
				if n := a.Cross(b); 2*n.Len2() > 1e-24*a.Len2()*b.Len2() {
					try(ballOn([]geom.Vec3{s[i], s[j], s[k]}))
				}
			}
		}
	}
	if math.IsInf(best.r2, 1) { // cannot happen for finite input; stay safe
		c := s[0]
		r2 := 0.0
		for _, p := range s {
			r2 = math.Max(r2, p.Sub(c).Len2())
		}
		best = ball3{c, r2}
	}
	return best
}

// circle is a disc in a projection plane; r2 < 0 is empty.
type circle struct {
	c  vec2
	r2 float64
}

func (b circle) contains(p vec2) bool { return dist2(p, b.c) <= b.r2*(1+ballSlack) }

// minCircle returns the smallest disc enclosing q (Welzl with move-to-front
// on a deterministically shuffled order).
func minCircle(q []vec2) circle {
	return mtfCircle(q, shuffledOrder(len(q)), len(q), &[3]vec2{}, 0)
}

// shuffledOrder is a permutation of 0..n-1 shuffled with the fixed seed.
func shuffledOrder(n int) []int32 {
	ord := make([]int32, n)
	for i := range ord {
		ord[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(shuffleSeed, uint64(n)))
	r.Shuffle(n, func(i, j int) { ord[i], ord[j] = ord[j], ord[i] })
	return ord
}

// mtfCircle is Welzl's recursion over the points q[ord[0:n]] with the
// boundary points bnd[:nb]; it reorders ord by move-to-front, so a caller
// that keeps ord between related point sets starts with the likely boundary
// points first.
func mtfCircle(q []vec2, ord []int32, n int, bnd *[3]vec2, nb int) circle {
	b := circleOn(bnd[:nb])
	if nb == 3 {
		return b
	}
	for i := 0; i < n; i++ {
		p := q[ord[i]]
		if b.contains(p) {
			continue
		}
		bnd[nb] = p
		b = mtfCircle(q, ord, i, bnd, nb+1)
		oi := ord[i]
		copy(ord[1:i+1], ord[:i])
		ord[0] = oi
	}
	return b
}

// circleOn is the 2-D counterpart of ballOn.
func circleOn(s []vec2) circle {
	switch len(s) {
	case 0:
		return circle{r2: -1}
	case 1:
		return circle{c: s[0]}
	case 2:
		c := mid2(s[0], s[1])
		return circle{c, dist2(c, s[0])}
	default:
		a, b := s[1].sub(s[0]), s[2].sub(s[0])
		d := 2 * (a[0]*b[1] - a[1]*b[0])
		if math.Abs(d) <= 1e-12*math.Sqrt(a.len2()*b.len2()) {
			best := circle{r2: math.Inf(1)}
			for i := 0; i < 3; i++ {
				c := circleOn([]vec2{s[i], s[(i+1)%3]})
				if c.r2 < best.r2 && c.contains(s[(i+2)%3]) {
					best = c
				}
			}
			if math.IsInf(best.r2, 1) {
				best = circle{s[0], math.Max(dist2(s[0], s[1]), dist2(s[0], s[2]))}
			}
			return best
		}
		ux := (b[1]*a.len2() - a[1]*b.len2()) / d
		uy := (a[0]*b.len2() - b[0]*a.len2()) / d
		off := vec2{ux, uy}
		return circle{s[0].add(off), off.len2()}
	}
}

// sphere fits the minimum enclosing sphere: Welzl on the hull vertices,
// then the radius is taken over every input point and inflated by tol.
func (in *Input) sphere(tol float64) Shape {
	b := minBall(in.support)
	c := b.c.Add(in.origin)
	var r2 float64
	for _, p := range in.points {
		if e := p.Sub(c).Len2(); e > r2 {
			r2 = e
		}
	}
	r := math.Sqrt(r2) + tol
	return Shape{Kind: KindSphere, Center: c, Rotation: geom.IdentityQuat(), Radius: r}
}
