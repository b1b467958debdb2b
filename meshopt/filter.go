package meshopt

import (
	"encoding/binary"
	"math"
)

// The filters follow the specification's formulas in float32 arithmetic,
// in the exact operation order of meshoptimizer's WebAssembly SIMD decoder
// (the one the npm package runs), so that the output is bit-identical to
// it. Every product is converted to float32 explicitly so that no platform
// fuses it with a following addition.

// snapBias is 1.5·2^23: adding it to a float32 of magnitude below 2^22
// leaves round-half-to-even(v) in the low mantissa bits. The decoders keep
// only the low 8 or 16 bits of the sum.
const snapBias = float32(3 << 22)

// snap returns the bits of v+snapBias, whose low 8 or 16 bits are v
// rounded to an integer. NaN (from 0·∞ on degenerate input) gives 0, the
// low bits of every hardware default NaN, so the result does not depend on
// the platform's NaN payload.
func snap(v float32) uint32 {
	r := v + snapBias
	if r != r {
		return 0
	}
	return math.Float32bits(r)
}

// sqrt32 is the correctly rounded float32 square root.
func sqrt32(v float32) float32 { return float32(math.Sqrt(float64(v))) }

// applyFilter runs the post-decode filter over the count decoded elements.
func applyFilter(dst []byte, count, stride int, filter string) {
	switch filter {
	case "OCTAHEDRAL":
		if stride == 4 {
			octahedral8(dst[:count*4])
		} else {
			octahedral16(dst[:count*8])
		}
	case "QUATERNION":
		quaternion(dst[:count*8])
	case "EXPONENTIAL":
		exponential(dst[:count*stride])
	case "COLOR":
		if stride == 4 {
			color8(dst[:count*4])
		} else {
			color16(dst[:count*8])
		}
	}
}

// octDecode turns octahedral coordinates (x, y) with one = zin into a
// vector scaled to maxv, rounded; it returns the snapped x, y, z. The
// hemisphere fold is branchless with sign-bit arithmetic, as in the SIMD
// decoder: t = min(z, 0) taken on the bits, added to x and y with their
// signs (random normals would mispredict every branch).
func octDecode(x, y, zin, maxv float32) (uint32, uint32, uint32) {
	const sign = 1 << 31
	z := zin - (abs32(x) + abs32(y))
	zb := math.Float32bits(z)
	tb := zb & uint32(int32(zb)>>31) // z when its sign bit is set, else +0
	x += math.Float32frombits(tb ^ (math.Float32bits(x) & sign))
	y += math.Float32frombits(tb ^ (math.Float32bits(y) & sign))
	ll := float32(x*x) + (float32(y*y) + float32(z*z))
	s := maxv / sqrt32(ll)
	return snap(float32(x * s)), snap(float32(y * s)), snap(float32(z * s))
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// octahedral8 decodes 4-byte octahedral normals (signed 8-bit x, y, one;
// the fourth byte passes through).
func octahedral8(d []byte) {
	for i := 0; i+4 <= len(d); i += 4 {
		e := d[i : i+4 : i+4]
		xr, yr, zr := octDecode(float32(int8(e[0])), float32(int8(e[1])), float32(int8(e[2])), 127)
		e[0], e[1], e[2] = byte(xr), byte(yr), byte(zr)
	}
}

// octahedral16 decodes 8-byte octahedral normals (signed 16-bit x, y; the
// third component's low 15 bits are one; the fourth passes through).
func octahedral16(d []byte) {
	le := binary.LittleEndian
	for i := 0; i+8 <= len(d); i += 8 {
		e := d[i : i+8 : i+8]
		x := float32(int16(le.Uint16(e[0:])))
		y := float32(int16(le.Uint16(e[2:])))
		z := float32(le.Uint16(e[4:]) & 0x7fff)
		xr, yr, zr := octDecode(x, y, z, 32767)
		le.PutUint16(e[0:], uint16(xr))
		le.PutUint16(e[2:], uint16(yr))
		le.PutUint16(e[4:], uint16(zr))
	}
}

// quaternion decodes 8-byte quaternions: three signed 16-bit components
// scaled by sqrt(2), and a fourth whose bits above the low two encode one
// and whose low two bits name the omitted (largest) component.
func quaternion(d []byte) {
	le := binary.LittleEndian
	scale := float32(32767) / float32(math.Sqrt2)
	for i := 0; i+8 <= len(d); i += 8 {
		e := d[i : i+8 : i+8]
		x := float32(int16(le.Uint16(e[0:])))
		y := float32(int16(le.Uint16(e[2:])))
		z := float32(int16(le.Uint16(e[4:])))
		c := int32(int16(le.Uint16(e[6:])))
		s := float32(c | 3)
		ws := float32(s * s)
		ww := (ws + ws) - (float32(x*x) + (float32(y*y) + float32(z*z)))
		if !(ww > 0) {
			ww = 0
		}
		w := sqrt32(ww)
		ss := scale / s
		q := [4]uint32{snap(float32(w * ss)), snap(float32(x * ss)), snap(float32(y * ss)), snap(float32(z * ss))}
		qc := int(c & 3)
		for j := range 4 {
			le.PutUint16(e[2*((qc+j)&3):], uint16(q[j]))
		}
	}
}

// defaultNaN is the NaN x86 produces for invalid operations; the npm
// decoder yields it for the out-of-range exponent -128 with mantissa 0.
const defaultNaN = 0xffc00000

// exponential decodes 32-bit values of 8-bit signed exponent e and 24-bit
// signed mantissa m into the float32 2^e·m (2^e built from its bits).
func exponential(d []byte) {
	le := binary.LittleEndian
	for i := 0; i+4 <= len(d); i += 4 {
		v := int32(le.Uint32(d[i:]))
		e := v >> 24
		m := (v << 8) >> 8
		r := math.Float32frombits(uint32(e+127)<<23) * float32(m)
		bitsOut := math.Float32bits(r)
		if r != r {
			bitsOut = defaultNaN
		}
		le.PutUint32(d[i:], bitsOut)
	}
}

// colorScale returns the expanded alpha and the scale that maps a
// component of the alpha's bit width to maxv.
func colorScale(a int32, maxv float32) (int32, float32) {
	as := a | a>>1
	as |= as >> 2
	as |= as >> 4
	as |= as >> 8
	a = ((a << 1) & as) | (a & 1)
	return a, maxv / float32(as)
}

// color8 decodes 4-byte YCoCg colours (unsigned Y, signed Co and Cg, alpha
// whose highest set bit gives the bit width) into RGBA.
func color8(d []byte) {
	for i := 0; i+4 <= len(d); i += 4 {
		e := d[i : i+4 : i+4]
		y, co, cg := int32(e[0]), int32(int8(e[1])), int32(int8(e[2]))
		a, ss := colorScale(int32(e[3]), 255)
		r, g, b := y+(co-cg), y+cg, y-(co+cg)
		e[0] = byte(snap(float32(float32(r) * ss)))
		e[1] = byte(snap(float32(float32(g) * ss)))
		e[2] = byte(snap(float32(float32(b) * ss)))
		e[3] = byte(snap(float32(float32(a) * ss)))
	}
}

// color16 is color8 for 8-byte colours of 16-bit components.
func color16(d []byte) {
	le := binary.LittleEndian
	for i := 0; i+8 <= len(d); i += 8 {
		e := d[i : i+8 : i+8]
		y := int32(le.Uint16(e[0:]))
		co := int32(int16(le.Uint16(e[2:])))
		cg := int32(int16(le.Uint16(e[4:])))
		a, ss := colorScale(int32(le.Uint16(e[6:])), 65535)
		r, g, b := y+(co-cg), y+cg, y-(co+cg)
		le.PutUint16(e[0:], uint16(snap(float32(float32(r)*ss))))
		le.PutUint16(e[2:], uint16(snap(float32(float32(g)*ss))))
		le.PutUint16(e[4:], uint16(snap(float32(float32(b)*ss))))
		le.PutUint16(e[6:], uint16(snap(float32(float32(a)*ss))))
	}
}
