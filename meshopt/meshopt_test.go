package meshopt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// standardCodeaux is the codeaux table meshoptimizer's encoder writes.
var standardCodeaux = []byte{0x00, 0x76, 0x87, 0x56, 0x67, 0x78, 0xa9, 0x86, 0x65, 0x89, 0x68, 0x98, 0x01, 0x69, 0, 0}

// specExampleStream is a version-0 ATTRIBUTES stream of 16 elements of 4
// bytes whose byte 0 uses the 4-bit group of the specification's worked
// example and whose other bytes are all-zero groups; the baseline is zero.
func specExampleStream() []byte {
	s := []byte{0xa0}
	s = append(s, 0x02) // group header: group 0 uses width index 2 (4 bits)
	s = append(s, 0x17, 0x5f, 0xf0, 0xbc, 0x77, 0xa9, 0x21, 0x00, 0x34, 0xb5)
	s = append(s, 0x00, 0x00, 0x00) // bytes 1..3: one zero group each
	s = append(s, make([]byte, tailMinV0)...)
	return s
}

// TestSpecExample checks the specification's worked 4-bit example: the
// deltas -1 -4 -3 26 -91 0 -6 6 -4 -4 5 -5 1 -1 0 0 accumulate from 0.
func TestSpecExample(t *testing.T) {
	deltas := []int{-1, -4, -3, 26, -91, 0, -6, 6, -4, -4, 5, -5, 1, -1, 0, 0}
	want := make([]byte, 16*4)
	v := 0
	for i, d := range deltas {
		v += d
		want[4*i] = byte(v)
	}
	got := make([]byte, 16*4)
	if err := Decode(got, 16, 4, specExampleStream(), "ATTRIBUTES", ""); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got % x\nwant % x", got, want)
	}
}

// handTriangleStream exercises every triangle code family; the expected
// triangles were worked out by hand from the specification.
func handTriangleStream() ([]byte, []uint32) {
	s := []byte{0xe1}
	s = append(s, 0xf0, 0x00, 0x1e, 0xff, 0xfe, 0x13) // codes
	s = append(s, 0xff, 0x12, 0x09, 0xce, 0x04, 0x00) // data: 0xff's aux byte and 3 varints, 0xfe's reset
	s = append(s, standardCodeaux...)
	want := []uint32{0, 1, 2, 0, 2, 3, 3, 2, 1, 10, 5, 300, 0, 1, 2, 2, 1, 300}
	return s, want
}

func TestHandTriangles(t *testing.T) {
	src, want := handTriangleStream()
	for _, stride := range []int{2, 4} {
		got := make([]byte, len(want)*stride)
		if err := Decode(got, len(want), stride, src, "TRIANGLES", "NONE"); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, packIndices(want, stride)) {
			t.Fatalf("stride %d: got % x", stride, got)
		}
	}
}

// handSequenceStream uses both baselines and a multi-byte varint.
func handSequenceStream() ([]byte, []uint32) {
	// index 5 on baseline 0: delta +5 → zigzag 10 → v = 10<<1|0 = 20
	// index 1000 on baseline 1: delta +1000 → zigzag 2000 → v = 4001 = 0xa1 0x1f
	// index 4 on baseline 0: delta -1 → zigzag 1 → v = 2
	// index 999 on baseline 1: delta -1 → v = 3
	s := []byte{0xd1, 20, 0xa1, 0x1f, 2, 3, 0, 0, 0, 0}
	return s, []uint32{5, 1000, 4, 999}
}

func TestHandSequence(t *testing.T) {
	src, want := handSequenceStream()
	got := make([]byte, len(want)*4)
	if err := Decode(got, len(want), 4, src, "INDICES", ""); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, packIndices(want, 4)) {
		t.Fatalf("got % x", got)
	}
}

// TestVarint checks the specification's LEB128 examples and the 5-byte limit.
func TestVarint(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want uint32
		ok   bool
	}{
		{[]byte{0x7f}, 0x7f, true},
		{[]byte{0x81, 0x04}, 0x201, true},
		// The specification lists 0xff 0xa0 0x05 => 0x1fd005, which reads
		// the groups most significant first, unlike its other examples, LEB128
		// and the reference decoder; as LEB128 the bytes are 0x1507f.
		{[]byte{0xff, 0xa0, 0x05}, 0x1507f, true},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x7f}, 0xffffffff, true}, // bits beyond 32 are dropped
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 0, false},   // 6 bytes
		{[]byte{0x80}, 0, false},                                 // truncated
	} {
		v, n, err := readVarint(c.in, 0, len(c.in))
		if (err == nil) != c.ok || (c.ok && (v != c.want || n != len(c.in))) {
			t.Errorf("% x: got %#x, %d, %v; want %#x ok=%v", c.in, v, n, err, c.want, c.ok)
		}
	}
}

// golden is one committed fixture: a compressed stream and the npm
// decoder's output for it (see testdata/README.md).
type golden struct {
	stream
	Want []byte `json:"want"`
}

func loadGolden(t testing.TB) []golden {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g []golden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g) == 0 {
		t.Fatal("no golden fixtures")
	}
	return g
}

// TestGolden decodes the committed fixtures without node.
func TestGolden(t *testing.T) {
	for _, g := range loadGolden(t) {
		got, err := goDecode(g.stream)
		if err != nil {
			t.Errorf("%s: %v", g.Name, err)
			continue
		}
		if !bytes.Equal(got, g.Want) {
			t.Errorf("%s: differs from the npm output at byte %d", g.Name, firstDiff(got, g.Want))
		}
	}
}

// TestTruncated requires every proper prefix of every fixture to be rejected.
func TestTruncated(t *testing.T) {
	for _, g := range loadGolden(t) {
		for n := range len(g.Src) {
			if _, err := goDecode(stream{Mode: g.Mode, Filter: g.Filter, Count: g.Count, ByteStride: g.ByteStride, Src: g.Src[:n]}); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s cut to %d of %d bytes: got %v, want a malformed-stream error", g.Name, n, len(g.Src), err)
			}
		}
	}
}

// TestBadHeader requires every header byte but the mode's own to be rejected.
func TestBadHeader(t *testing.T) {
	valid := map[string][]byte{"ATTRIBUTES": {0xa0, 0xa1}, "TRIANGLES": {0xe1}, "INDICES": {0xd1}}
	for _, g := range loadGolden(t) {
		for h := range 256 {
			if slices.Contains(valid[g.Mode], byte(h)) {
				continue
			}
			src := bytes.Clone(g.Src)
			src[0] = byte(h)
			if _, err := goDecode(stream{Mode: g.Mode, Filter: g.Filter, Count: g.Count, ByteStride: g.ByteStride, Src: src}); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s with header 0x%02x: got %v, want a malformed-stream error", g.Name, h, err)
			}
		}
	}
}

// TestOversizedCount requires counts larger than the stream holds to be
// rejected (the destination is sized by the caller; Decode allocates
// nothing). An attribute count that only fills the last group of 16 further
// has the same layout and cannot be detected, so attribute counts grow by
// two whole blocks.
func TestOversizedCount(t *testing.T) {
	for _, g := range loadGolden(t) {
		counts := []int{g.Count + 3, g.Count*2 + 3, 3 * 100_000}
		if g.Mode == "ATTRIBUTES" {
			blockMax := min((attrBlockBytes/g.ByteStride)&^(groupSize-1), attrBlockMax)
			counts = []int{g.Count + 2*blockMax, 3 * 100_000}
		}
		for _, count := range counts {
			s := stream{Mode: g.Mode, Filter: g.Filter, Count: count, ByteStride: g.ByteStride, Src: g.Src}
			if _, err := goDecode(s); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s with count %d instead of %d: got %v, want a malformed-stream error", g.Name, count, g.Count, err)
			}
		}
	}
}

// TestMalformedStructures covers the invalid streams the specification
// names that a random mutation rarely produces.
func TestMalformedStructures(t *testing.T) {
	triNoFifo := append([]byte{0xe1, 0x50}, standardCodeaux...) // edge 5 before any edge exists
	triVertexFifo := append([]byte{0xe1, 0xf1}, standardCodeaux...)
	triVertexFifo[2+1] = 0x50 // codeaux[1]: b from vertex FIFO entry 4 after one push
	badTable := append([]byte{0xe1, 0xf0}, standardCodeaux...)
	badTable[2+3] = 0x5f // nibble 0xf in the table
	badTableTail := append([]byte{0xe1, 0xf0}, standardCodeaux...)
	badTableTail[2+15] = 1
	longVarint := []byte{0xd1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0, 0, 0, 0}
	extraSeq := []byte{0xd1, 0x02, 0x02, 0, 0, 0, 0}
	attrV1 := func(channel byte) []byte {
		s := []byte{0xa1, 0xaa} // control header: all four bytes zero deltas; no data
		s = append(s, make([]byte, tailMinV1-5)...)
		return append(s, 1, 2, 3, 4, channel)
	}
	for _, c := range []struct {
		name, mode string
		count      int
		stride     int
		src        []byte
	}{
		{"edge FIFO unwritten", "TRIANGLES", 3, 2, triNoFifo},
		{"vertex FIFO unwritten", "TRIANGLES", 3, 2, triVertexFifo},
		{"codeaux nibble 0xf", "TRIANGLES", 3, 2, badTable},
		{"codeaux last bytes", "TRIANGLES", 3, 2, badTableTail},
		{"varint of 6 bytes", "INDICES", 1, 4, longVarint},
		{"bytes left before tail", "INDICES", 1, 4, extraSeq},
		{"channel mode 3", "ATTRIBUTES", 1, 4, attrV1(3)},
		{"channel mode 0 with rotation", "ATTRIBUTES", 1, 4, attrV1(0x10)},
		{"attribute version 2", "ATTRIBUTES", 1, 4, append([]byte{0xa2}, make([]byte, 40)...)},
		{"empty", "ATTRIBUTES", 0, 4, nil},
	} {
		_, err := goDecode(stream{Mode: c.mode, Count: c.count, ByteStride: c.stride, Src: c.src})
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: got %v, want a malformed-stream error", c.name, err)
		}
	}
	// The same version-1 stream with valid channel bytes decodes.
	for _, ch := range []byte{0, 1, 2, 0x72} {
		got, err := goDecode(stream{Mode: "ATTRIBUTES", Count: 1, ByteStride: 4, Src: attrV1(ch)})
		if err != nil || !bytes.Equal(got, []byte{1, 2, 3, 4}) {
			t.Errorf("channel 0x%02x: got % x, %v; want the baseline 01 02 03 04", ch, got, err)
		}
	}
}

// TestInvalidArguments checks the extension's JSON rules.
func TestInvalidArguments(t *testing.T) {
	src := specExampleStream()
	for _, c := range []struct {
		name          string
		dstLen, count int
		stride        int
		mode, filter  string
	}{
		{"negative count", 0, -1, 4, "ATTRIBUTES", ""},
		{"zero stride", 0, 0, 0, "ATTRIBUTES", ""},
		{"short dst", 63, 16, 4, "ATTRIBUTES", ""},
		{"long dst", 65, 16, 4, "ATTRIBUTES", ""},
		{"overflowing size", 0, 1 << 62, 256, "ATTRIBUTES", ""},
		{"stride not multiple of 4", 6 * 16, 16, 6, "ATTRIBUTES", ""},
		{"stride above 256", 260 * 16, 16, 260, "ATTRIBUTES", ""},
		{"triangles count", 8, 4, 2, "TRIANGLES", ""},
		{"triangles stride", 9, 3, 3, "TRIANGLES", ""},
		{"indices stride", 8, 1, 8, "INDICES", ""},
		{"filter on indices", 8, 2, 4, "INDICES", "OCTAHEDRAL"},
		{"octahedral stride", 12 * 16, 16, 12, "ATTRIBUTES", "OCTAHEDRAL"},
		{"quaternion stride", 4 * 16, 16, 4, "ATTRIBUTES", "QUATERNION"},
		{"color stride", 16 * 16, 16, 16, "ATTRIBUTES", "COLOR"},
		{"unknown filter", 64, 16, 4, "ATTRIBUTES", "ZIGZAG"},
		{"unknown mode", 64, 16, 4, "VERTICES", ""},
		{"lower-case mode", 64, 16, 4, "attributes", ""},
	} {
		err := Decode(make([]byte, c.dstLen), c.count, c.stride, src, c.mode, c.filter)
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: got %v, want an invalid-argument error", c.name, err)
		}
	}
}

// TestFilterOutputs checks the filters against the specification's
// formulas on a few hand-picked inputs (independently of npm).
func TestFilterOutputs(t *testing.T) {
	le := binary.LittleEndian
	// Octahedral 8-bit: (0, 0, one=127) is +Z; (127, 0, 127) is +X.
	oct := []byte{0, 0, 127, 9, 127, 0, 127, 7, 0, 0x81, 127, 5} // third: (0, -127) is -Y
	octahedral8(oct)
	if want := []byte{0, 0, 127, 9, 127, 0, 0, 7, 0, 0x81, 0, 5}; !bytes.Equal(oct, want) {
		t.Errorf("octahedral8: got % x, want % x", oct, want)
	}
	// Quaternion: x=y=z=0 with one=0x7ffc|qc: the largest component is 1.
	for qc := range 4 {
		q := make([]byte, 8)
		le.PutUint16(q[6:], uint16(0x7ffc|qc))
		quaternion(q)
		for j := range 4 {
			want := uint16(0)
			if j == qc {
				want = 32767
			}
			if got := le.Uint16(q[2*j:]); got != want {
				t.Errorf("quaternion qc=%d: component %d = %d, want %d", qc, j, got, want)
			}
		}
	}
	// Exponential: e=-2, m=6 is 1.5; e=3, m=-1 is -8.
	ex := make([]byte, 8)
	le.PutUint32(ex[0:], uint32(0xfe000006))
	le.PutUint32(ex[4:], uint32(0x03ffffff))
	exponential(ex)
	if a, b := le.Uint32(ex[0:]), le.Uint32(ex[4:]); a != 0x3fc00000 || b != 0xc1000000 {
		t.Errorf("exponential: got %#x %#x, want 1.5 (0x3fc00000) and -8 (0xc1000000)", a, b)
	}
	// Color 8-bit: Y=100, Co=Cg=0 with alpha 127 (7 bits, so the scale is
	// 255/127) is grey round(100·255/127) = 201 and alpha 255.
	col := []byte{100, 0, 0, 127}
	color8(col)
	if want := []byte{201, 201, 201, 255}; !bytes.Equal(col, want) {
		t.Errorf("color8: got % d, want % d", col, want)
	}
}
