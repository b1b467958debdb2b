package meshopt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// goldenCases are the small streams committed under testdata/ so that the
// decoder is tested without node: one per codec version, level and channel
// kind, one per filter and stride, and both index codecs.
func goldenCases() []encodeRequest {
	att := func(name, kind string, count, stride int, version, level *int, seed uint64) encodeRequest {
		return encodeRequest{name: name, Mode: "ATTRIBUTES", Count: count, ByteStride: stride,
			Data: genAttributes(kind, count, stride, seed), Version: version, Level: level}
	}
	flt := func(name, kind string, count, stride, bits int, expMode string, seed uint64) encodeRequest {
		return encodeRequest{name: name, Mode: "ATTRIBUTES", Count: count, ByteStride: stride,
			Data: genFilterInput(kind, count, stride, seed), Filter: &filterParams{Kind: kind, Bits: bits, ExpMode: expMode},
			Version: intp(1), decodeFilter: kind}
	}
	idx := func(name, mode string, v []uint32, stride int) encodeRequest {
		return encodeRequest{name: name, Mode: mode, Count: len(v), ByteStride: stride, Data: packIndices(v, stride)}
	}
	return []encodeRequest{
		att("v0/walk16/stride8/count100", "walk16", 100, 8, intp(0), nil, 501),
		att("v0/random/stride12/count40", "random", 40, 12, intp(0), nil, 502),
		att("v1-level0/walk16/stride8/count50", "walk16", 50, 8, intp(1), intp(0), 503),
		att("v1-level1/random/stride4/count40", "random", 40, 4, intp(1), intp(1), 504),
		att("v1-level2/counter/stride16/count257", "counter", 257, 16, intp(1), intp(2), 505),
		att("v1-level3/float/stride12/count300", "float", 300, 12, intp(1), intp(3), 506),
		att("v1-level3/constant/stride20/count33", "constant", 33, 20, intp(1), intp(3), 507),
		att("v1-level3/sparse/stride256/count17", "sparse", 17, 256, intp(1), intp(3), 508),
		flt("filter/OCTAHEDRAL/stride4/bits8", "OCTAHEDRAL", 50, 4, 8, "", 509),
		flt("filter/OCTAHEDRAL/stride8/bits12", "OCTAHEDRAL", 50, 8, 12, "", 510),
		flt("filter/QUATERNION/stride8/bits12", "QUATERNION", 50, 8, 12, "", 511),
		flt("filter/EXPONENTIAL/stride12/bits15", "EXPONENTIAL", 50, 12, 15, "SharedVector", 512),
		flt("filter/COLOR/stride4/bits8", "COLOR", 50, 4, 8, "", 513),
		flt("filter/COLOR/stride8/bits12", "COLOR", 50, 8, 12, "", 514),
		idx("triangles/grid10x7-shuffled/stride2", "TRIANGLES", genGrid(10, 7, 0, true, 515), 2),
		idx("triangles/grid8x8-offset70000/stride4", "TRIANGLES", genGrid(8, 8, 70000, true, 516), 4),
		idx("indices/strip300/stride2", "INDICES", genStrip(300, 517), 2),
		idx("indices/random200/stride4", "INDICES", genRandomIndices(200, 1<<20, 518), 4),
	}
}

// handStreams are the hand-built streams of meshopt_test.go.
func handStreams() []stream {
	tri, triWant := handTriangleStream()
	seq, seqWant := handSequenceStream()
	return []stream{
		{Name: "hand/spec-example", Mode: "ATTRIBUTES", Count: 16, ByteStride: 4, Src: specExampleStream()},
		{Name: "hand/triangles", Mode: "TRIANGLES", Count: len(triWant), ByteStride: 2, Src: tri},
		{Name: "hand/indices", Mode: "INDICES", Count: len(seqWant), ByteStride: 4, Src: seq},
	}
}

// TestHandBuiltAgainstNPM checks that the npm decoder agrees with the
// hand-built streams (whose expected outputs were worked out from the spec).
func TestHandBuiltAgainstNPM(t *testing.T) {
	streams := handStreams()
	want := npmDecode(t, streams)
	for i, s := range streams {
		got, err := goDecode(s)
		if err != nil || want[i].Error != "" {
			t.Fatalf("%s: Decode: %v, npm: %s", s.Name, err, want[i].Error)
		}
		if !bytes.Equal(got, want[i].Out) {
			t.Fatalf("%s: differs from npm at byte %d", s.Name, firstDiff(got, want[i].Out))
		}
	}
}

// TestWriteGolden regenerates testdata/golden.json with the npm encoder and
// decoder. It only runs with MESHOPT_WRITE_GOLDEN=1.
func TestWriteGolden(t *testing.T) {
	if os.Getenv("MESHOPT_WRITE_GOLDEN") != "1" {
		t.Skip("set MESHOPT_WRITE_GOLDEN=1 to regenerate testdata/golden.json")
	}
	streams, _ := npmEncode(t, goldenCases())
	streams = append(streams, handStreams()...)
	want := npmDecode(t, streams)
	out := make([]golden, len(streams))
	for i, s := range streams {
		if want[i].Error != "" {
			t.Fatalf("%s: npm decoder failed: %s", s.Name, want[i].Error)
		}
		out[i] = golden{stream: s, Want: want[i].Out}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "golden.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
