package draco

import "math"

// Prediction transforms (spec "Prediction transforms"): how a correction
// read from the stream combines with a predicted value. Values are the
// integer "portable" form of an attribute: quantized values, or octahedral
// coordinates for normals.

const (
	// 0 (delta) is a valid id that no decoder supports: no prediction.
	transformNone                    = -1
	transformWrap                    = 1
	transformNormalOctahedron        = 2
	transformNormalOctahedronCanonic = 3
)

type transform interface {
	// decodeData reads the transform's parameters.
	decodeData(r *reader) bool
	// original combines one predicted value and its correction; out may
	// alias corr.
	original(pred, corr, out []int32)
	// positive reports whether corrections are stored unsigned.
	positive() bool
}

// wrapTransform keeps values inside [min, max] by wrapping corrections.
type wrapTransform struct {
	min, max, maxDif int32
	clamped          []int32
}

func (w *wrapTransform) positive() bool { return false }

func (w *wrapTransform) decodeData(r *reader) bool {
	w.min, w.max = int32(r.u32()), int32(r.u32())
	if r.err != nil {
		return false
	}
	dif := int64(w.max) - int64(w.min)
	if dif < 0 || dif >= math.MaxInt32 {
		r.failf("wrap transform range [%d, %d] invalid", w.min, w.max)
		return false
	}
	w.maxDif = int32(dif) + 1
	return true
}

func (w *wrapTransform) original(pred, corr, out []int32) {
	if len(w.clamped) < len(pred) {
		w.clamped = make([]int32, len(pred))
	}
	cl := w.clamped[:len(pred)]
	for i, p := range pred {
		switch {
		case p > w.max:
			cl[i] = w.max
		case p < w.min:
			cl[i] = w.min
		default:
			cl[i] = p
		}
	}
	for i := range cl {
		v := int32(uint32(cl[i]) + uint32(corr[i]))
		if v > w.max {
			v -= w.maxDif
		} else if v < w.min {
			v += w.maxDif
		}
		out[i] = v
	}
}

// octahedron holds the octahedral-coordinate constants of a quantization.
type octahedron struct {
	bits, maxQuantized, maxValue, center int32
	scale                                float32
}

func newOctahedron(bits int32) (octahedron, bool) {
	if bits < 2 || bits > 30 {
		return octahedron{}, false
	}
	o := octahedron{bits: bits, maxQuantized: int32(uint32(1)<<uint(bits) - 1)}
	o.maxValue = o.maxQuantized - 1
	o.center = o.maxValue / 2
	o.scale = 2 / float32(o.maxValue)
	return o, true
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

func (o *octahedron) inDiamond(s, t int32) bool { return abs32(s)+abs32(t) <= o.center }

func (o *octahedron) invertDiamond(s, t *int32) {
	var ss, st int32
	switch {
	case *s >= 0 && *t >= 0:
		ss, st = 1, 1
	case *s <= 0 && *t <= 0:
		ss, st = -1, -1
	default:
		ss, st = -1, -1
		if *s > 0 {
			ss = 1
		}
		if *t > 0 {
			st = 1
		}
	}
	cs, cts := ss*o.center, st*o.center
	*s = 2**s - cs
	*t = 2**t - cts
	if ss*st >= 0 {
		*s, *t = -*t, -*s
	} else {
		*s, *t = *t, *s
	}
	*s = (*s + cs) / 2
	*t = (*t + cts) / 2
}

func (o *octahedron) modMax(x int32) int32 {
	if x > o.center {
		return x - o.maxQuantized
	}
	if x < -o.center {
		return x + o.maxQuantized
	}
	return x
}

// canonicalize maps the edge points of the octahedral square that have two
// coordinates onto one.
func (o *octahedron) canonicalize(s, t int32) (int32, int32) {
	m, c := o.maxValue, o.center
	switch {
	case (s == 0 && t == 0) || (s == 0 && t == m) || (s == m && t == 0):
		s, t = m, m
	case s == 0 && t > c:
		t = c - (t - c)
	case s == m && t < c:
		t = c + (c - t)
	case t == m && s < c:
		s = c + (c - s)
	case t == 0 && s > c:
		s = c - (s - c)
	}
	return s, t
}

// vectorToOctahedral converts an integer vector whose absolute values sum
// to the center value into octahedral coordinates.
func (o *octahedron) vectorToOctahedral(v [3]int32) (int32, int32) {
	var s, t int32
	if v[0] >= 0 {
		s, t = v[1]+o.center, v[2]+o.center
	} else {
		if v[1] < 0 {
			s = abs32(v[2])
		} else {
			s = o.maxValue - abs32(v[2])
		}
		if v[2] < 0 {
			t = abs32(v[1])
		} else {
			t = o.maxValue - abs32(v[1])
		}
	}
	return o.canonicalize(s, t)
}

// canonicalizeVector scales an integer vector so its absolute values sum to
// the center value.
func (o *octahedron) canonicalizeVector(v *[3]int32) {
	sum := int64(abs32(v[0])) + int64(abs32(v[1])) + int64(abs32(v[2]))
	if sum == 0 {
		v[0] = o.center
		return
	}
	v[0] = int32(int64(v[0]) * int64(o.center) / sum)
	v[1] = int32(int64(v[1]) * int64(o.center) / sum)
	if v[2] >= 0 {
		v[2] = o.center - abs32(v[0]) - abs32(v[1])
	} else {
		v[2] = -(o.center - abs32(v[0]) - abs32(v[1]))
	}
}

// unitVector decodes quantized octahedral coordinates in float32, step by
// step as the reference does (each product rounded on its own).
func (o *octahedron) unitVector(s, t int32) [3]float32 {
	y := float32(float32(s)*o.scale) - 1
	z := float32(float32(t)*o.scale) - 1
	x := 1 - abs(y) - abs(z)
	off := -x
	if off < 0 {
		off = 0
	}
	if y < 0 {
		y += off
	} else {
		y -= off
	}
	if z < 0 {
		z += off
	} else {
		z -= off
	}
	n2 := float32(float32(x*x)+float32(y*y)) + float32(z*z)
	if n2 < 1e-6 {
		return [3]float32{}
	}
	d := 1 / float32(math.Sqrt(float64(n2)))
	return [3]float32{float32(x * d), float32(y * d), float32(z * d)}
}

func abs(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }

// octTransform is the normal octahedron transform, canonicalized or not.
type octTransform struct {
	octahedron
	canonical bool
}

func (o *octTransform) positive() bool { return true }

func (o *octTransform) decodeData(r *reader) bool {
	maxQ := int32(r.u32())
	if o.canonical {
		// The center value, derived from the maximum; the plain transform
		// stopped storing it in 2.2, the canonicalized one did not.
		r.u32()
	}
	if r.err != nil {
		return false
	}
	if maxQ%2 == 0 || maxQ <= 0 {
		r.failf("octahedron transform maximum %d is not a positive odd number", maxQ)
		return false
	}
	bits := int32(32 - bitsLeadingZeros(uint32(maxQ)))
	oc, ok := newOctahedron(bits)
	if !ok {
		r.failf("octahedron transform of %d bits", bits)
		return false
	}
	o.octahedron = oc
	return true
}

func bitsLeadingZeros(x uint32) int {
	n := 0
	for i := 31; i >= 0 && x&(1<<uint(i)) == 0; i-- {
		n++
	}
	return n
}

func (o *octTransform) original(pred, corr, out []int32) {
	ps, pt := pred[0]-o.center, pred[1]-o.center
	cs, ctt := corr[0], corr[1]
	inDiamond := o.inDiamond(ps, pt)
	if !inDiamond {
		o.invertDiamond(&ps, &pt)
	}
	rot := int32(0)
	bottomLeft := true
	if o.canonical {
		bottomLeft = (ps == 0 && pt == 0) || (ps < 0 && pt <= 0)
		rot = rotationCount(ps, pt)
		if !bottomLeft {
			ps, pt = rotate(ps, pt, rot)
		}
	}
	s := o.modMax(ps + cs)
	t := o.modMax(pt + ctt)
	if !bottomLeft {
		s, t = rotate(s, t, (4-rot)%4)
	}
	if !inDiamond {
		o.invertDiamond(&s, &t)
	}
	out[0], out[1] = s+o.center, t+o.center
}

func rotationCount(x, y int32) int32 {
	switch {
	case x == 0:
		switch {
		case y == 0:
			return 0
		case y > 0:
			return 3
		default:
			return 1
		}
	case x > 0:
		if y >= 0 {
			return 2
		}
		return 1
	default:
		if y <= 0 {
			return 0
		}
		return 3
	}
}

func rotate(x, y, n int32) (int32, int32) {
	switch n {
	case 1:
		return y, -x
	case 2:
		return -x, -y
	case 3:
		return -y, x
	}
	return x, y
}
