package draco_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/autocollide/autocollide/draco"
)

// benchStream is one stream of the decoding benchmark.
type benchStream struct {
	name string
	data []byte
}

// benchStreams returns the benchmark's streams: the shared corpus's
// largest Draco primitive and a generated 1M-triangle mesh (positions,
// normals, texture coordinates at glTF-Transform's default quantization,
// edgebreaker at level 7) encoded by the npm encoder. With
// DRACO_BENCH_DIR set they are read from (or first written to) that
// folder, so tools/draco/bench.sh can time the npm decoder on the same
// bytes.
func benchStreams(t testing.TB) []benchStream {
	t.Helper()
	dir := os.Getenv("DRACO_BENCH_DIR")
	names := []string{"corpus-largest.drc", "generated-1M-triangles.drc"}
	if dir != "" {
		var out []benchStream
		for _, n := range names {
			if b, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
				out = append(out, benchStream{n, b})
			}
		}
		if len(out) == len(names) {
			return out
		}
	}
	prims := corpusDraco(t)
	sort.SliceStable(prims, func(i, j int) bool { return len(prims[i].data) > len(prims[j].data) })
	big := grid("grid-1M", 1000, 500, 0, 9)
	gen := refEncode(t, []encRequest{{name: "grid-1M", Indices: big.indices(),
		Attributes: genAttributes(big, []string{"position", "normal", "texcoord"}, defaultBits, 0, 77),
		Method:     "edgebreaker", Level: 7}})[0]
	out := []benchStream{{names[0], prims[0].data}, {names[1], gen}}
	if dir != "" {
		for _, s := range out {
			if err := os.WriteFile(filepath.Join(dir, s.name), s.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestWriteBenchStreams writes the benchmark's streams to DRACO_BENCH_DIR
// (for tools/draco/bench.sh) and checks they decode to what was encoded.
func TestWriteBenchStreams(t *testing.T) {
	if os.Getenv("DRACO_BENCH_DIR") == "" {
		t.Skip("set DRACO_BENCH_DIR to write the benchmark streams")
	}
	for _, s := range benchStreams(t) {
		m, err := draco.Decode(s.data, draco.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		t.Logf("%s: %d bytes, %d points, %d faces, %d attributes, %s", s.name, len(s.data), m.NumPoints, len(m.Faces), len(m.Attributes), streamKind(s.data))
	}
}

// BenchmarkDecode decodes the corpus's largest Draco primitive and a
// generated 1M-triangle stream; MB/s counts compressed bytes.
// tools/draco/bench.sh runs it beside the npm decoder on the same bytes.
func BenchmarkDecode(b *testing.B) {
	for _, s := range benchStreams(b) {
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(s.data)))
			b.ReportAllocs()
			for range b.N {
				if _, err := draco.Decode(s.data, draco.Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
