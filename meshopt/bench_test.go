package meshopt

import (
	"testing"
)

// BenchmarkDecodePirate decodes every compressed bufferView of the corpus
// Pirate per iteration; MB/s counts decoded bytes.
func BenchmarkDecodePirate(b *testing.B) {
	streams := pirateStreams(b)
	dsts := make([][]byte, len(streams))
	total := 0
	for i, s := range streams {
		dsts[i] = make([]byte, s.Count*s.ByteStride)
		total += len(dsts[i])
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for range b.N {
		for i, s := range streams {
			if err := Decode(dsts[i], s.Count, s.ByteStride, s.Src, s.Mode, s.Filter); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchCases are the 1M-element streams of BenchmarkDecode1M, compressed
// by the npm encoder: 16-byte quantized vertices (v0 as in glTF files, and
// v1 level 3), octahedral normals, and a 1M-index triangle list.
func benchCases() []encodeRequest {
	const n = 1 << 20
	tri := genGrid(725, 725, 0, false, 0)[:3*349525]
	return []encodeRequest{
		{name: "vertex16-v0", Mode: "ATTRIBUTES", Count: n, ByteStride: 16, Data: genAttributes("walk16", n, 16, 7), Version: intp(0)},
		{name: "vertex16-v1-level3", Mode: "ATTRIBUTES", Count: n, ByteStride: 16, Data: genAttributes("walk16", n, 16, 7), Version: intp(1), Level: intp(3)},
		{name: "normal4-octahedral", Mode: "ATTRIBUTES", Count: n, ByteStride: 4, Data: genFilterInput("OCTAHEDRAL", n, 4, 8),
			Filter: &filterParams{Kind: "OCTAHEDRAL", Bits: 8}, Version: intp(0), decodeFilter: "OCTAHEDRAL"},
		{name: "triangles-1M-indices", Mode: "TRIANGLES", Count: len(tri), ByteStride: 4, Data: packIndices(tri, 4)},
	}
}

// BenchmarkDecode1M decodes generated 1M-element streams (needs node to
// build them); MB/s counts decoded bytes.
func BenchmarkDecode1M(b *testing.B) {
	streams, _ := npmEncode(b, benchCases())
	for _, s := range streams {
		b.Run(s.Name, func(b *testing.B) {
			dst := make([]byte, s.Count*s.ByteStride)
			b.SetBytes(int64(len(dst)))
			b.ReportMetric(float64(len(s.Src))/float64(len(dst)), "ratio")
			for range b.N {
				if err := Decode(dst, s.Count, s.ByteStride, s.Src, s.Mode, s.Filter); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
