package meshopt

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// Deterministic generators of raw buffers for the encoder. Each takes its
// own seeded PCG so the cases do not depend on each other's order.

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6d6573686f7074)) }

// attributeKinds are the shapes of raw attribute data the tests compress.
var attributeKinds = []string{"walk16", "random", "constant", "sparse", "float", "counter"}

// genAttributes returns count elements of stride bytes of the given kind.
func genAttributes(kind string, count, stride int, seed uint64) []byte {
	r := newRand(seed)
	d := make([]byte, count*stride)
	le := binary.LittleEndian
	switch kind {
	case "walk16": // quantized positions: 16-bit lanes doing small random walks
		lanes := make([]uint16, stride/2)
		for i := range lanes {
			lanes[i] = uint16(r.Uint32())
		}
		for e := range count {
			for l := range lanes {
				lanes[l] += uint16(r.IntN(65) - 32)
				le.PutUint16(d[e*stride+2*l:], lanes[l])
			}
		}
	case "random":
		for i := range d {
			d[i] = byte(r.Uint32())
		}
	case "constant":
		el := make([]byte, stride)
		for i := range el {
			el[i] = byte(r.Uint32())
		}
		for e := range count {
			copy(d[e*stride:], el)
		}
	case "sparse":
		for i := range d {
			if r.IntN(10) == 0 {
				d[i] = byte(r.Uint32())
			}
		}
	case "float": // float32 random walks (exercises the XOR channel)
		lanes := make([]float32, stride/4)
		for i := range lanes {
			lanes[i] = float32(r.NormFloat64() * 100)
		}
		for e := range count {
			for l := range lanes {
				lanes[l] += float32(r.NormFloat64() * 0.01)
				le.PutUint32(d[e*stride+4*l:], math.Float32bits(lanes[l]))
			}
		}
	case "counter": // 32-bit lanes with large regular steps (exercises 16-bit deltas)
		lanes := make([]uint32, stride/4)
		steps := make([]uint32, stride/4)
		for i := range lanes {
			lanes[i], steps[i] = r.Uint32(), uint32(r.IntN(3000))
		}
		for e := range count {
			for l := range lanes {
				lanes[l] += steps[l]
				le.PutUint32(d[e*stride+4*l:], lanes[l])
			}
		}
	default:
		panic("unknown kind " + kind)
	}
	return d
}

// floats32 packs float32 values little-endian.
func floats32(v []float32) []byte {
	d := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(d[4*i:], math.Float32bits(f))
	}
	return d
}

// genFilterInput returns the float input of a filter encoder: 4 floats per
// element (unit vector + w, unit quaternion, RGBA), or stride/4 floats for
// the exponential filter.
func genFilterInput(kind string, count, stride int, seed uint64) []byte {
	r := newRand(seed)
	var v []float32
	switch kind {
	case "OCTAHEDRAL", "QUATERNION":
		for range count {
			var q [4]float64
			n := 0.0
			for j := range q {
				q[j] = r.NormFloat64()
				n += q[j] * q[j]
			}
			n = math.Sqrt(n)
			if kind == "OCTAHEDRAL" {
				n3 := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2])
				sign := 1.0
				if r.IntN(2) == 0 {
					sign = -1
				}
				v = append(v, float32(q[0]/n3), float32(q[1]/n3), float32(q[2]/n3), float32(sign))
			} else {
				v = append(v, float32(q[0]/n), float32(q[1]/n), float32(q[2]/n), float32(q[3]/n))
			}
		}
	case "COLOR":
		for range count * 4 {
			v = append(v, float32(r.Float64()))
		}
	case "EXPONENTIAL":
		for range count * stride / 4 {
			mag := math.Pow(10, float64(r.IntN(16)-8))
			v = append(v, float32(r.NormFloat64()*mag))
		}
	default:
		panic("unknown filter " + kind)
	}
	return floats32(v)
}

// genGrid returns the triangles of a w×h vertex grid, offset by base,
// optionally in shuffled triangle order.
func genGrid(w, h int, base uint32, shuffle bool, seed uint64) []uint32 {
	var tris [][3]uint32
	for y := range h - 1 {
		for x := range w - 1 {
			v := base + uint32(y*w+x)
			tris = append(tris, [3]uint32{v, v + 1, v + uint32(w)}, [3]uint32{v + 1, v + uint32(w) + 1, v + uint32(w)})
		}
	}
	if shuffle {
		r := newRand(seed)
		r.Shuffle(len(tris), func(i, j int) { tris[i], tris[j] = tris[j], tris[i] })
	}
	out := make([]uint32, 0, 3*len(tris))
	for _, t := range tris {
		out = append(out, t[0], t[1], t[2])
	}
	return out
}

// genRandomIndices returns n indices below limit.
func genRandomIndices(n int, limit uint32, seed uint64) []uint32 {
	r := newRand(seed)
	out := make([]uint32, n)
	for i := range out {
		out[i] = r.Uint32N(limit)
	}
	return out
}

// genStrip returns a triangle-strip-like sequence with occasional jumps.
func genStrip(n int, seed uint64) []uint32 {
	r := newRand(seed)
	out := make([]uint32, n)
	a, b := uint32(0), uint32(1000)
	for i := range out {
		if i%2 == 0 {
			a += uint32(r.IntN(3))
			out[i] = a
		} else {
			b += uint32(r.IntN(3))
			out[i] = b
		}
		if r.IntN(50) == 0 {
			a = r.Uint32N(60000)
		}
	}
	return out
}

// packIndices stores indices as 16-bit or 32-bit little-endian values.
func packIndices(idx []uint32, stride int) []byte {
	d := make([]byte, len(idx)*stride)
	for i, v := range idx {
		putIndex(d, stride, i, v)
	}
	return d
}

// generatedCases builds the encoder requests of the generated test set:
// every attribute kind over many strides and counts in every codec version
// and level, every filter over its strides and bit counts (both from the
// filter encoders and from raw random bytes), and triangle and index
// buffers of several shapes and both index sizes.
func generatedCases() []encodeRequest {
	var reqs []encodeRequest
	seed := uint64(1)
	next := func() uint64 { seed++; return seed }

	strides := []int{4, 8, 12, 16, 20, 24, 32, 48, 64, 100, 128, 200, 252, 256}
	counts := []int{0, 1, 2, 15, 16, 17, 31, 100, 255, 256, 257, 513, 1000, 3001}
	type codec struct {
		name           string
		version, level *int
		def            bool
	}
	codecs := []codec{
		{"gltf-v0", intp(0), nil, false},
		{"gltf-v1", intp(1), nil, false},
		{"v0-level3", intp(0), intp(3), false},
		{"v1-level0", intp(1), intp(0), false},
		{"v1-level1", intp(1), intp(1), false},
		{"v1-level2", intp(1), intp(2), false},
		{"v1-level3", intp(1), intp(3), false},
		{"library-default", nil, nil, true},
	}
	i := 0
	for _, s := range strides {
		for _, c := range counts {
			if c*s > 160_000 {
				continue
			}
			kind := attributeKinds[i%len(attributeKinds)]
			cd := codecs[(i/len(attributeKinds))%len(codecs)]
			i++
			// Every case in one codec of its own rotation, and the densest
			// kinds in all codecs.
			sel := []codec{cd}
			if kind == "float" || kind == "walk16" || kind == "counter" {
				sel = codecs
			}
			data := genAttributes(kind, c, s, next())
			for _, cd := range sel {
				reqs = append(reqs, encodeRequest{
					name: fmt.Sprintf("attr/%s/stride%d/count%d/%s", kind, s, c, cd.name),
					Mode: "ATTRIBUTES", Count: c, ByteStride: s, Data: data,
					Version: cd.version, Level: cd.level, DefaultEncoder: cd.def,
				})
			}
		}
	}

	// Filters through the npm filter encoders.
	type fcase struct {
		kind    string
		stride  int
		bits    []int
		expMode []string
	}
	fcases := []fcase{
		{"OCTAHEDRAL", 4, []int{2, 4, 6, 7, 8}, nil},
		{"OCTAHEDRAL", 8, []int{2, 8, 10, 12, 14, 16}, nil},
		{"QUATERNION", 8, []int{4, 8, 10, 12, 16}, nil},
		{"COLOR", 4, []int{2, 5, 8}, nil},
		{"COLOR", 8, []int{2, 10, 12, 16}, nil},
		{"EXPONENTIAL", 4, []int{1, 8, 15, 23, 24}, []string{"Separate", "SharedVector", "SharedComponent", "Clamped"}},
		{"EXPONENTIAL", 12, []int{10, 16, 24}, []string{"Separate", "SharedVector", "SharedComponent", "Clamped"}},
		{"EXPONENTIAL", 16, []int{12}, []string{"SharedVector"}},
	}
	for _, f := range fcases {
		modes := f.expMode
		if modes == nil {
			modes = []string{""}
		}
		for _, bits := range f.bits {
			for _, m := range modes {
				for _, c := range []int{1, 3, 4, 5, 17, 300, 2000} {
					for _, v := range []int{0, 1} {
						reqs = append(reqs, encodeRequest{
							name: fmt.Sprintf("filter/%s/stride%d/bits%d/%s/count%d/v%d", f.kind, f.stride, bits, m, c, v),
							Mode: "ATTRIBUTES", Count: c, ByteStride: f.stride,
							Data:   genFilterInput(f.kind, c, f.stride, next()),
							Filter: &filterParams{Kind: f.kind, Bits: bits, ExpMode: m}, Version: intp(v),
							decodeFilter: f.kind,
						})
					}
				}
			}
		}
	}
	// Filters on arbitrary bytes: out-of-range inputs (degenerate vectors,
	// negative scales, extreme exponents) must still match bit for bit.
	for _, f := range []struct {
		kind   string
		stride int
	}{{"OCTAHEDRAL", 4}, {"OCTAHEDRAL", 8}, {"QUATERNION", 8}, {"EXPONENTIAL", 4}, {"EXPONENTIAL", 8}, {"COLOR", 4}, {"COLOR", 8}} {
		for _, c := range []int{1, 7, 4096} {
			reqs = append(reqs, encodeRequest{
				name: fmt.Sprintf("rawfilter/%s/stride%d/count%d", f.kind, f.stride, c),
				Mode: "ATTRIBUTES", Count: c, ByteStride: f.stride,
				Data: genAttributes("random", c, f.stride, next()), Version: intp(1), decodeFilter: f.kind,
			})
		}
	}
	// Hand-picked extreme filter inputs: degenerate vectors (0/0), zero and
	// negative scales, alpha 0, out-of-range exponents (-128 gives -Inf·m,
	// NaN for m = 0), overflowing and signed-zero products.
	edge := map[string]struct {
		stride int
		words  []uint32
	}{
		"EXPONENTIAL": {4, []uint32{0x80000000, 0x80000001, 0x80ffffff, 0x7f7fffff, 0x7f800000, 0x81000000, 0, 0xff000000,
			0xff800000, 0x01800000, 0x9c000001, 0x64ffffff, 0x81ffffff, 0x00800000}},
		"OCTAHEDRAL": {4, []uint32{0, 0x7f000000, 0x00010000, 0x00ff0000, 0x00800000, 0x00807f80, 0x7f7f7f7f, 0x01017f00, 0x80808080}},
		"QUATERNION": {8, []uint32{0, 0, 0, 3, 0x7fff7fff, 0x7fff, 0x80008000, 0x80000000, 0x12345678, 0xfffc1234, 1, 0x7ffd0000}},
		"COLOR":      {4, []uint32{0, 0xff000000, 0x01000000, 0x00ffffff, 0x807f80ff, 0x7f807f7f, 0x80ffffff, 0x0180807f}},
	}
	for _, kind := range []string{"EXPONENTIAL", "OCTAHEDRAL", "QUATERNION", "COLOR"} {
		e := edge[kind]
		strides := []int{e.stride}
		if kind == "OCTAHEDRAL" || kind == "COLOR" {
			strides = append(strides, 8)
		}
		for _, stride := range strides {
			count := len(e.words) * 4 / stride
			data := make([]byte, count*stride)
			for i, w := range e.words[:count*stride/4] {
				binary.LittleEndian.PutUint32(data[4*i:], w)
			}
			reqs = append(reqs, encodeRequest{
				name: fmt.Sprintf("edge/%s/stride%d", kind, stride), Mode: "ATTRIBUTES", Count: count, ByteStride: stride,
				Data: data, Version: intp(0), decodeFilter: kind,
			})
		}
	}

	// Exhaustive small inputs of the 8-bit filters: every value of the
	// first three bytes with a fixed fourth, in chunks.
	for _, kind := range []string{"OCTAHEDRAL", "COLOR"} {
		d := make([]byte, 0, 4*65536)
		for v := range 65536 {
			d = append(d, byte(v), byte(v>>8), byte(v*7+3), byte(v>>3))
		}
		reqs = append(reqs, encodeRequest{
			name: "sweep/" + kind, Mode: "ATTRIBUTES", Count: 65536, ByteStride: 4, Data: d,
			Version: intp(0), decodeFilter: kind,
		})
	}

	// Triangles.
	type icase struct {
		name string
		idx  []uint32
	}
	var tcases []icase
	for _, g := range []struct{ w, h int }{{2, 2}, {3, 3}, {10, 7}, {40, 40}, {200, 120}} {
		tcases = append(tcases,
			icase{fmt.Sprintf("grid%dx%d", g.w, g.h), genGrid(g.w, g.h, 0, false, 0)},
			icase{fmt.Sprintf("grid%dx%d-shuffled", g.w, g.h), genGrid(g.w, g.h, 0, true, next())},
		)
	}
	tcases = append(tcases,
		icase{"empty", nil},
		icase{"random-small", genRandomIndices(300, 40, next())},
		icase{"random-large", genRandomIndices(3000, 60000, next())},
		icase{"concat", append(genGrid(20, 20, 0, false, 0), genGrid(20, 20, 0, false, 0)...)},
		icase{"degenerate", []uint32{0, 0, 0, 1, 1, 1, 0, 1, 0}},
	)
	for _, tc := range tcases {
		for _, s := range []int{2, 4} {
			reqs = append(reqs, encodeRequest{
				name: fmt.Sprintf("tri/%s/stride%d", tc.name, s), Mode: "TRIANGLES",
				Count: len(tc.idx), ByteStride: s, Data: packIndices(tc.idx, s),
			})
		}
	}
	for _, big := range []uint32{70000, 1 << 31, math.MaxUint32 - 5000} {
		idx := genGrid(30, 30, big, true, next())
		reqs = append(reqs, encodeRequest{name: fmt.Sprintf("tri/offset%d/stride4", big), Mode: "TRIANGLES",
			Count: len(idx), ByteStride: 4, Data: packIndices(idx, 4)})
	}

	// Index sequences.
	var scases []icase
	scases = append(scases,
		icase{"empty", nil},
		icase{"one", []uint32{7}},
		icase{"strip", genStrip(5000, next())},
		icase{"random", genRandomIndices(2000, 65536, next())},
		icase{"lines", genGrid(50, 50, 0, false, 0)},
	)
	for _, sc := range scases {
		for _, s := range []int{2, 4} {
			reqs = append(reqs, encodeRequest{
				name: fmt.Sprintf("seq/%s/stride%d", sc.name, s), Mode: "INDICES",
				Count: len(sc.idx), ByteStride: s, Data: packIndices(sc.idx, s),
			})
		}
	}
	wide := genRandomIndices(1000, 1<<30, next())
	reqs = append(reqs, encodeRequest{name: "seq/wide/stride4", Mode: "INDICES", Count: len(wide), ByteStride: 4, Data: packIndices(wide, 4)})
	return reqs
}
