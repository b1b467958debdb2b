package draco_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/draco"
)

// brokenCase is one hand-broken stream: a valid fixture with one section
// damaged, or a valid stream decoded under limits it exceeds.
type brokenCase struct {
	name string
	data []byte
	lim  draco.Limits
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// uvarint reads the LEB128 varint at off and returns it and its length.
func uvarint(t testing.TB, b []byte, off int) (uint64, int) {
	t.Helper()
	v, n := binary.Uvarint(b[off:])
	if n <= 0 {
		t.Fatalf("no varint at offset %d", off)
	}
	return v, n
}

// withVarint returns a copy of b with the varint at off replaced by v.
func withVarint(t testing.TB, b []byte, off int, v uint64) []byte {
	t.Helper()
	_, n := uvarint(t, b, off)
	out := append([]byte{}, b[:off]...)
	out = binary.AppendUvarint(out, v)
	return append(out, b[off+n:]...)
}

// with returns a copy of b with the bytes at off replaced by vals.
func with(b []byte, off int, vals ...byte) []byte {
	out := bytes.Clone(b)
	copy(out[off:], vals)
	return out
}

// sequentialLayout finds the sections of a sequential stream with raw
// connectivity (testdata/sequential.drc): the counts, the index block, the
// attribute header, the first attribute's prediction, transform and
// symbol-coding bytes, its rANS probability table and the encoded size
// after it. It is the Draco 2.2 layout, read independently of the decoder.
type sequentialLayout struct {
	faces, points, method, indices, decoders, attrTypes  int
	prediction, transform, compressed, scheme, bitLength int
	numSymbols, table, encodedSize                       int
}

func layoutSequential(t testing.TB, b []byte) sequentialLayout {
	t.Helper()
	var l sequentialLayout
	if string(b[:5]) != "DRACO" || b[5] != 2 || b[6] != 2 || b[7] != 1 || b[8] != 0 || b[9]|b[10] != 0 {
		t.Fatalf("not a Draco 2.2 sequential mesh without metadata")
	}
	l.faces = 11
	faces, n := uvarint(t, b, l.faces)
	l.points = l.faces + n
	points, n := uvarint(t, b, l.points)
	l.method = l.points + n
	if b[l.method] != 1 {
		t.Fatalf("connectivity method %d, want 1 (raw indices)", b[l.method])
	}
	l.indices = l.method + 1
	size := 4
	switch {
	case points < 256:
		size = 1
	case points < 1<<16:
		size = 2
	}
	l.decoders = l.indices + int(faces)*3*size
	if b[l.decoders] != 1 {
		t.Fatalf("%d attribute decoders, want 1", b[l.decoders])
	}
	numAttrs, n := uvarint(t, b, l.decoders+1)
	off := l.decoders + 1 + n
	for range numAttrs {
		_, n := uvarint(t, b, off+4) // type, data type, components, normalized, unique id
		off += 4 + n
	}
	l.attrTypes = off
	l.prediction = off + int(numAttrs)
	l.transform = l.prediction + 1
	l.compressed = l.transform + 1
	l.scheme = l.compressed + 1
	l.bitLength = l.scheme + 1
	l.numSymbols = l.bitLength + 1
	if b[l.compressed] != 1 || b[l.scheme] != 1 {
		t.Fatalf("first attribute not rANS raw-coded (compressed %d scheme %d)", b[l.compressed], b[l.scheme])
	}
	ns, n := uvarint(t, b, l.numSymbols)
	l.table = l.numSymbols + n
	off = l.table
	for i := uint64(0); i < ns; i++ {
		p := b[off]
		off++
		if p&3 == 3 {
			i += uint64(p >> 2)
		} else {
			off += int(p & 3)
		}
	}
	l.encodedSize = off
	return l
}

// brokenCases are the hand-broken streams, each a damage the decoder must
// report: truncation in every section, counts too large for the stream,
// unknown method, prediction and transform ids, symbol tables that
// overflow, and valid streams over the caller's limits.
func brokenCases(t testing.TB) []brokenCase {
	t.Helper()
	seq := readFixture(t, "sequential.drc")
	eb := readFixture(t, "edgebreaker.drc")
	val := readFixture(t, "valence.drc")
	l := layoutSequential(t, seq)
	const huge = 1 << 31
	// Edgebreaker 2.2 connectivity header: traversal type at 11, then
	// varints: encoded vertices, faces; one byte: attribute data count;
	// varints: symbols, split symbols.
	ebVerts := 12
	_, n := uvarint(t, eb, ebVerts)
	ebFaces := ebVerts + n
	_, n = uvarint(t, eb, ebFaces)
	ebAttrData := ebFaces + n
	ebSymbols := ebAttrData + 1
	_, n = uvarint(t, eb, ebSymbols)
	ebSplits := ebSymbols + n
	_, n = uvarint(t, val, 12)
	valFaces := 12 + n

	cases := []brokenCase{
		{name: "empty", data: []byte{}},
		{name: "magic only", data: []byte("DRACO")},
		{name: "wrong magic", data: with(seq, 0, 'D', 'R', 'A', 'C', 'A')},
		{name: "major version 3", data: with(seq, 5, 3)},
		{name: "minor version 2.9", data: with(seq, 6, 9)},
		{name: "unknown geometry type 5", data: with(seq, 7, 5)},
		{name: "unknown encoding method 7", data: with(seq, 8, 7)},
		{name: "metadata flag without metadata", data: with(seq, 9, 0x00, 0x80)},

		{name: "sequential truncated after the header", data: seq[:11]},
		{name: "sequential truncated in the counts", data: seq[:l.points+1]},
		{name: "sequential truncated in the indices", data: seq[:(l.indices+l.decoders)/2]},
		{name: "sequential truncated in the attribute header", data: seq[:l.decoders+4]},
		{name: "sequential truncated in the symbol table", data: seq[:l.table+3]},
		{name: "sequential truncated in the attribute values", data: seq[:l.encodedSize+20]},
		{name: "sequential missing its last byte", data: seq[:len(seq)-1]},
		{name: "edgebreaker truncated after the traversal type", data: eb[:12]},
		{name: "edgebreaker truncated in the counts", data: eb[:ebSymbols]},
		{name: "edgebreaker truncated in the middle", data: eb[:len(eb)/2]},
		{name: "edgebreaker missing its last byte", data: eb[:len(eb)-1]},
		{name: "valence truncated after the traversal type", data: val[:12]},
		{name: "valence truncated in the middle", data: val[:len(val)/2]},
		{name: "valence missing its last byte", data: val[:len(val)-1]},

		{name: "sequential face count 2^31", data: withVarint(t, seq, l.faces, huge)},
		{name: "sequential point count 2^31", data: withVarint(t, seq, l.points, huge)},
		{name: "sequential indices beyond the point count", data: withVarint(t, seq, l.points, 100)},
		{name: "edgebreaker vertex count 2^31", data: withVarint(t, eb, ebVerts, huge)},
		{name: "edgebreaker face count 2^31", data: withVarint(t, eb, ebFaces, huge)},
		{name: "edgebreaker attribute data count 200", data: with(eb, ebAttrData, 200)},
		{name: "edgebreaker symbol count 2^31", data: withVarint(t, eb, ebSymbols, huge)},
		{name: "edgebreaker split symbol count 2^31", data: withVarint(t, eb, ebSplits, huge)},
		{name: "valence face count 2^31", data: withVarint(t, val, valFaces, huge)},

		{name: "unknown attribute decoder type 9", data: with(seq, l.attrTypes, 9)},
		{name: "attribute with 0 components", data: with(seq, l.decoders+4, 0)},
		{name: "unknown attribute data type 0", data: with(seq, l.decoders+3, 0)},
		{name: "unknown prediction scheme 85", data: with(seq, l.prediction, 85)},
		{name: "unknown prediction transform 85", data: with(seq, l.transform, 85)},
		{name: "unknown symbol coding 7", data: with(seq, l.scheme, 7)},
		{name: "symbol bit length 255", data: with(seq, l.bitLength, 255)},
		{name: "symbol count 2^31", data: withVarint(t, seq, l.numSymbols, huge)},
		// Two symbols, then a run of 63 zero probabilities: the table overflows.
		{name: "zero run past the symbol table", data: with(withVarint(t, seq, l.numSymbols, 2), l.numSymbols+1, 0xff)},
		// Two symbols of probability 2^14−1 each: more than the rANS precision.
		{name: "probabilities above the precision", data: with(withVarint(t, seq, l.numSymbols, 2), l.numSymbols+1, 0xfd, 0xff, 0xfd, 0xff)},
		{name: "encoded symbol data longer than the stream", data: withVarint(t, seq, l.encodedSize, huge)},

		{name: "sequential over MaxFaces", data: seq, lim: draco.Limits{MaxFaces: 10}},
		{name: "edgebreaker over MaxPoints", data: eb, lim: draco.Limits{MaxPoints: 10}},
	}
	return cases
}

// maxBrokenAlloc bounds what decoding one broken stream (at most 2 KB) may
// allocate: far below what a trusted 2^31 count would cost.
const maxBrokenAlloc = 32 << 20

// TestBrokenStreams: every hand-broken stream is a one-line error, without
// a panic and without a large allocation.
func TestBrokenStreams(t *testing.T) {
	cases := brokenCases(t)
	if len(cases) < 30 {
		t.Fatalf("only %d broken streams", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m, err := decodeNoPanic(c.data, c.lim)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("decoded %d bytes without error (%d points, %d faces)", len(c.data), m.NumPoints, len(m.Faces))
			}
			if strings.ContainsAny(err.Error(), "\n\r") || err.Error() == "" || strings.Contains(err.Error(), "internal error") {
				t.Errorf("error is not one line saying what is wrong: %q", err)
			}
			if a := after.TotalAlloc - before.TotalAlloc; a > maxBrokenAlloc {
				t.Errorf("allocated %d bytes for a %d-byte stream", a, len(c.data))
			}
			t.Logf("%d bytes: %v", len(c.data), err)
		})
	}
}

// decodeNoPanic runs Decode and turns a panic into an error that fails
// the test's expectations (a panic is never an acceptable answer).
func decodeNoPanic(data []byte, lim draco.Limits) (m *draco.Mesh, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("PANIC: %v\n", r)
		}
	}()
	return draco.Decode(data, lim)
}

// TestBrokenStreamsReference: the npm decoder rejects every hand-broken
// stream too (except the limit cases, which are valid streams), so each
// case is a real fault of the stream, not a guess about the format.
func TestBrokenStreamsReference(t *testing.T) {
	cases := brokenCases(t)
	var streams [][]byte
	for _, c := range cases {
		streams = append(streams, c.data)
	}
	want := refDecode(t, streams)
	for i, c := range cases {
		valid := c.lim != (draco.Limits{})
		t.Logf("%s: %q", c.name, want[i].Error)
		if rejected := want[i].Error != ""; rejected == valid {
			t.Errorf("%s: npm decoder error %q", c.name, want[i].Error)
		}
	}
}

// TestFixturesValid: the checked-in fixtures the broken streams start from
// decode, and equal the npm decoder.
func TestFixturesValid(t *testing.T) {
	var streams [][]byte
	for _, b := range brokenBases {
		streams = append(streams, readFixture(t, b.file))
	}
	for i, s := range streams {
		m, err := draco.Decode(s, draco.Limits{})
		if err != nil {
			t.Errorf("%s: %v", brokenBases[i].file, err)
			continue
		}
		if len(m.Faces) == 0 || m.NumPoints == 0 {
			t.Errorf("%s: empty mesh", brokenBases[i].file)
		}
	}
	want := refDecode(t, streams)
	for i, s := range streams {
		m, err := draco.Decode(s, draco.Limits{})
		if err != nil {
			continue
		}
		if err := sameAsReference(m, want[i]); err != nil {
			t.Errorf("%s: %v", brokenBases[i].file, err)
		}
	}
}

// brokenFile is one entry of testdata/broken/cases.json: a broken stream
// written out for the command-line test (cmd/autocollide), with the counts
// a glTF file wrapping it declares (the base fixture's, or the limits).
type brokenFile struct {
	File    string `json:"file"`
	Name    string `json:"name"`
	Points  int    `json:"points"`
	Indices int    `json:"indices"`
}

// TestBrokenFilesCurrent: testdata/broken/ holds exactly the broken
// streams of brokenCases (DRACO_WRITE_FIXTURES=1 rewrites them, with the
// counts the npm decoder gives for their base fixtures).
func TestBrokenFilesCurrent(t *testing.T) {
	cases := brokenCases(t)
	dir := filepath.Join("testdata", "broken")
	if os.Getenv("DRACO_WRITE_FIXTURES") == "1" {
		writeBrokenFiles(t, dir, cases)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files []brokenFile
	if err := json.Unmarshal(raw, &files); err != nil {
		t.Fatal(err)
	}
	if len(files) != len(cases) {
		t.Fatalf("cases.json lists %d streams, brokenCases has %d: rewrite with DRACO_WRITE_FIXTURES=1", len(files), len(cases))
	}
	for i, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != cases[i].name || !bytes.Equal(b, cases[i].data) {
			t.Errorf("%s differs from case %q: rewrite with DRACO_WRITE_FIXTURES=1", f.File, cases[i].name)
		}
	}
}

func writeBrokenFiles(t *testing.T, dir string, cases []brokenCase) {
	t.Helper()
	counts := map[string][2]int{}
	var streams [][]byte
	for _, b := range brokenBases {
		streams = append(streams, readFixture(t, b.file))
	}
	for i, m := range refDecode(t, streams) {
		counts[brokenBases[i].file] = [2]int{m.Points, len(m.Faces) / 4}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []brokenFile
	for i, c := range cases {
		base := "sequential.drc"
		switch {
		case strings.HasPrefix(c.name, "edgebreaker"):
			base = "edgebreaker.drc"
		case strings.HasPrefix(c.name, "valence"):
			base = "valence.drc"
		}
		n := counts[base]
		f := brokenFile{File: fmt.Sprintf("%02d.drc", i+1), Name: c.name, Points: n[0], Indices: n[1]}
		if c.lim.MaxPoints > 0 {
			f.Points = c.lim.MaxPoints
		}
		if c.lim.MaxFaces > 0 {
			f.Indices = 3 * c.lim.MaxFaces
		}
		if err := os.WriteFile(filepath.Join(dir, f.File), c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out, _ := json.MarshalIndent(files, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
