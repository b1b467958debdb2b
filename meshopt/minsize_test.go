package meshopt

import (
	"errors"
	"testing"
)

// zeroStream builds the shortest version-1 ATTRIBUTES stream: every byte
// channel of every block stored as "all deltas zero", so each element
// decodes to the tail's baseline values.
func zeroStream(count, stride int, last []byte) []byte {
	blockMax := min((attrBlockBytes/stride)&^(groupSize-1), attrBlockMax)
	src := []byte{attrHeader | 1}
	for base := 0; base < count; base += blockMax {
		for range stride / 4 {
			src = append(src, 0xaa) // control 2 for the four bytes
		}
	}
	tail := make([]byte, max(stride+stride/4, tailMinV1))
	copy(tail[len(tail)-stride-stride/4:], last)
	return append(src, tail...)
}

// TestMinEncodedSize: the bound is met exactly by the shortest streams
// (so it is tight), every committed fixture is at least that long, and
// one byte less is refused.
func TestMinEncodedSize(t *testing.T) {
	for _, g := range loadGolden(t) {
		if min := MinEncodedSize(g.Count, g.ByteStride, g.Mode); len(g.Src) < min {
			t.Errorf("%s: %d bytes, under the bound %d", g.Name, len(g.Src), min)
		}
	}
	for _, c := range []struct{ count, stride int }{{1, 4}, {16, 12}, {256, 12}, {257, 12}, {10000, 12}, {1000, 256}, {5000, 64}} {
		last := make([]byte, c.stride)
		for i := range last {
			last[i] = byte(i + 1)
		}
		src := zeroStream(c.count, c.stride, last)
		if min := MinEncodedSize(c.count, c.stride, "ATTRIBUTES"); len(src) != min {
			t.Errorf("count %d stride %d: shortest stream %d bytes, bound %d", c.count, c.stride, len(src), min)
		}
		dst := make([]byte, c.count*c.stride)
		if err := Decode(dst, c.count, c.stride, src, "ATTRIBUTES", "NONE"); err != nil {
			t.Errorf("count %d stride %d: %v", c.count, c.stride, err)
			continue
		}
		if dst[len(dst)-1] != byte(c.stride) {
			t.Errorf("count %d stride %d: last byte %d", c.count, c.stride, dst[len(dst)-1])
		}
		if err := Decode(dst, c.count, c.stride, src[:len(src)-1], "ATTRIBUTES", "NONE"); !errors.Is(err, ErrMalformed) {
			t.Errorf("count %d stride %d: one byte short: %v", c.count, c.stride, err)
		}
	}
	if MinEncodedSize(3, 5, "TRIANGLES") != -1 || MinEncodedSize(-1, 4, "INDICES") != -1 {
		t.Error("bad arguments give a bound")
	}
}

// FuzzStreamHeader checks the header bound against the decoder on
// arbitrary streams and headers: whenever a stream decodes, it is at
// least MinEncodedSize bytes, so refusing shorter streams before
// allocating never refuses a valid one.
func FuzzStreamHeader(f *testing.F) {
	for _, g := range loadGolden(f) {
		f.Add(g.Src, uint16(g.Count), uint8(g.ByteStride), g.Mode)
	}
	f.Add(zeroStream(300, 12, make([]byte, 12)), uint16(300), uint8(12), "ATTRIBUTES")
	f.Fuzz(func(t *testing.T, src []byte, count uint16, stride uint8, mode string) {
		c, s := int(count)%2048, int(stride)
		min := MinEncodedSize(c, s, mode)
		if min < 0 {
			return
		}
		dst := make([]byte, c*s)
		if Decode(dst, c, s, src, mode, "NONE") == nil && len(src) < min {
			t.Fatalf("%s count %d stride %d: a %d-byte stream decodes, under the bound %d", mode, c, s, len(src), min)
		}
	})
}
