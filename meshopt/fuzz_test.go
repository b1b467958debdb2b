package meshopt

import (
	"bytes"
	"errors"
	"testing"
)

var (
	fuzzModes   = []string{"ATTRIBUTES", "TRIANGLES", "INDICES"}
	fuzzFilters = []string{"", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR"}
)

// FuzzDecode feeds arbitrary streams and parameters to Decode: it must
// never panic, must fail only with ErrMalformed or ErrInvalidArgument, and
// must be deterministic (a second decode gives the same bytes and error).
// The corpus is seeded with the golden fixtures.
func FuzzDecode(f *testing.F) {
	for _, g := range loadGolden(f) {
		mode, filter := 0, 0
		for i, m := range fuzzModes {
			if m == g.Mode {
				mode = i
			}
		}
		for i, fl := range fuzzFilters {
			if fl == g.Filter {
				filter = i
			}
		}
		f.Add(g.Src, uint16(g.Count), uint16(g.ByteStride), uint8(mode), uint8(filter))
	}
	f.Fuzz(func(t *testing.T, src []byte, count, stride uint16, mode, filter uint8) {
		c, s := int(count)%4096, int(stride)%300
		m, fl := fuzzModes[int(mode)%len(fuzzModes)], fuzzFilters[int(filter)%len(fuzzFilters)]
		dst := make([]byte, c*s)
		err := Decode(dst, c, s, src, m, fl)
		if err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrInvalidArgument) {
			t.Fatalf("error wraps neither sentinel: %v", err)
		}
		again := make([]byte, c*s)
		err2 := Decode(again, c, s, src, m, fl)
		if (err == nil) != (err2 == nil) || (err == nil && !bytes.Equal(dst, again)) {
			t.Fatalf("not deterministic: %v / %v", err, err2)
		}
	})
}
