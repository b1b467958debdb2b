package meshopt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/autocollide/autocollide/internal/testassets"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// glbMeshoptViews parses a GLB (JSON and BIN chunks) and returns one stream
// per bufferView that carries EXT_meshopt_compression, with its compressed
// bytes sliced from the buffer the extension names.
func glbMeshoptViews(t testing.TB, path string) []stream {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if len(data) < 20 || string(data[:4]) != "glTF" || le.Uint32(data[4:]) != 2 {
		t.Fatalf("%s: not a GLB v2", path)
	}
	var jsonChunk, binChunk []byte
	for off := 12; off+8 <= len(data); {
		n, typ := int(le.Uint32(data[off:])), le.Uint32(data[off+4:])
		if off+8+n > len(data) {
			t.Fatalf("%s: chunk at %d overflows the file", path, off)
		}
		switch typ {
		case 0x4e4f534a: // JSON
			jsonChunk = data[off+8 : off+8+n]
		case 0x004e4942: // BIN
			binChunk = data[off+8 : off+8+n]
		}
		off += 8 + n
	}
	var doc struct {
		Buffers []struct {
			URI string `json:"uri"`
		} `json:"buffers"`
		BufferViews []struct {
			Extensions struct {
				Meshopt *struct {
					Buffer     int    `json:"buffer"`
					ByteOffset int    `json:"byteOffset"`
					ByteLength int    `json:"byteLength"`
					ByteStride int    `json:"byteStride"`
					Count      int    `json:"count"`
					Mode       string `json:"mode"`
					Filter     string `json:"filter"`
				} `json:"EXT_meshopt_compression"`
			} `json:"extensions"`
		} `json:"bufferViews"`
	}
	if err := json.Unmarshal(jsonChunk, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []stream
	for i, bv := range doc.BufferViews {
		m := bv.Extensions.Meshopt
		if m == nil {
			continue
		}
		if m.Buffer != 0 || len(doc.Buffers) == 0 || doc.Buffers[0].URI != "" {
			t.Fatalf("%s: bufferView %d: compressed data outside the GLB BIN chunk is not handled by this test", path, i)
		}
		if m.ByteOffset < 0 || m.ByteLength < 0 || m.ByteOffset+m.ByteLength > len(binChunk) {
			t.Fatalf("%s: bufferView %d: range outside the BIN chunk", path, i)
		}
		out = append(out, stream{
			Name: fmt.Sprintf("%s#bufferView%d", filepath.Base(path), i), Mode: m.Mode, Filter: m.Filter,
			Count: m.Count, ByteStride: m.ByteStride, Src: binChunk[m.ByteOffset : m.ByteOffset+m.ByteLength],
		})
	}
	return out
}

func pirateStreams(t testing.TB) []stream {
	t.Helper()
	streams := glbMeshoptViews(t, filepath.Join(testassets.Shared(t), "corpus", "Pirate", "pirate.glb"))
	if len(streams) == 0 {
		t.Fatal("pirate.glb has no EXT_meshopt_compression bufferViews")
	}
	return streams
}

// goDecode runs Decode on a stream into a fresh buffer.
func goDecode(s stream) ([]byte, error) {
	dst := make([]byte, s.Count*s.ByteStride)
	err := Decode(dst, s.Count, s.ByteStride, s.Src, s.Mode, s.Filter)
	return dst, err
}

// TestPirateAgainstNPM decodes every compressed bufferView of the corpus
// Pirate and requires the npm decoder's bytes exactly.
func TestPirateAgainstNPM(t *testing.T) {
	streams := pirateStreams(t)
	want := npmDecode(t, streams)
	for i, s := range streams {
		if want[i].Error != "" {
			t.Fatalf("%s: npm decoder failed: %s", s.Name, want[i].Error)
		}
		got, err := goDecode(s)
		if err != nil {
			t.Fatalf("%s (%s %s stride %d count %d): %v", s.Name, s.Mode, s.Filter, s.ByteStride, s.Count, err)
		}
		if !bytes.Equal(got, want[i].Out) {
			t.Fatalf("%s: output differs from npm at byte %d", s.Name, firstDiff(got, want[i].Out))
		}
		t.Logf("%s: %s/%s stride %d count %d: %d → %d bytes, identical to npm", s.Name, s.Mode, s.Filter, s.ByteStride, s.Count, len(s.Src), len(got))
	}
}

// sameTriangles reports the first triangle of got that is not a cyclic
// rotation of the same triangle of want (the index codec keeps triangle
// order and winding but may rotate a triangle's vertices), or -1.
func sameTriangles(got, want []byte, stride int) int {
	if len(got) != len(want) {
		return 0
	}
	idx := func(b []byte, i int) uint32 {
		if stride == 2 {
			return uint32(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return binary.LittleEndian.Uint32(b[4*i:])
	}
	for t := 0; t < len(got)/stride/3; t++ {
		g := [3]uint32{idx(got, 3*t), idx(got, 3*t+1), idx(got, 3*t+2)}
		w := [3]uint32{idx(want, 3*t), idx(want, 3*t+1), idx(want, 3*t+2)}
		if g != w && g != [3]uint32{w[1], w[2], w[0]} && g != [3]uint32{w[2], w[0], w[1]} {
			return t
		}
	}
	return -1
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestGeneratedAgainstNPM compresses generated buffers with the npm encoder
// (all codec versions and levels, all filters, both index sizes) and
// requires Decode to reproduce the npm decoder's output byte for byte, and
// unfiltered streams to reproduce the encoder's input exactly.
func TestGeneratedAgainstNPM(t *testing.T) {
	reqs := generatedCases()
	streams, raws := npmEncode(t, reqs)
	want := npmDecode(t, streams)
	versions := map[string]int{}
	for i, s := range streams {
		if want[i].Error != "" {
			t.Errorf("%s: npm decoder failed: %s", s.Name, want[i].Error)
			continue
		}
		got, err := goDecode(s)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if !bytes.Equal(got, want[i].Out) {
			t.Errorf("%s: output differs from npm at byte %d of %d", s.Name, firstDiff(got, want[i].Out), len(got))
			continue
		}
		if s.Mode == "TRIANGLES" {
			if tri := sameTriangles(got, raws[i], s.ByteStride); tri >= 0 {
				t.Errorf("%s: triangle %d is not a rotation of the encoder's input triangle", s.Name, tri)
			}
		} else if s.Filter == "" && !bytes.Equal(got, raws[i]) {
			t.Errorf("%s: not lossless: differs from the encoder input at byte %d", s.Name, firstDiff(got, raws[i]))
		}
		versions[fmt.Sprintf("%s header 0x%02x", s.Mode, s.Src[0])]++
		if s.Src[0] == 0xa1 && s.Count > 0 {
			// The tail's channel bytes: count each channel mode seen.
			for _, ch := range s.Src[len(s.Src)-s.ByteStride/4:] {
				if ch&3 == 2 && ch>>4 != 0 {
					versions["channel XOR rotated"]++
				}
				versions[fmt.Sprintf("channel mode %d", ch&3)]++
			}
		}
	}
	t.Logf("%d streams identical to npm; by header: %v", len(streams), versions)
	// The generated set must cover both attribute versions and both index codecs.
	for _, h := range []string{"ATTRIBUTES header 0xa0", "ATTRIBUTES header 0xa1", "TRIANGLES header 0xe1", "INDICES header 0xd1",
		"channel mode 0", "channel mode 1", "channel mode 2", "channel XOR rotated"} {
		if versions[h] == 0 {
			t.Errorf("no generated stream with %s", h)
		}
	}
}

// strictReasons are the checks by which Decode rejects streams that the
// npm decoder accepts: the specification calls these streams invalid, the
// reference implementation does not look. Any other disagreement fails.
var strictReasons = []string{
	"read before it was written", // FIFO entry never written (KHR spec)
	"varint longer than",         // 5th LEB128 byte with its high bit set
	"reserved mode byte",         // channel mode ≥ 3, or high nibble with mode 0/1
	"codeaux table",              // table with a 0xf nibble or non-zero last bytes
	"header byte 0xe0",           // legacy index codec version 0, not allowed in glTF
	"header byte 0xd0",           // legacy index sequence version 0, not allowed in glTF
}

// TestCorruptAgainstNPM mutates valid streams (byte flips, truncation,
// extension, header changes) and compares both decoders: whenever Decode
// accepts a stream the npm decoder must accept it with the same bytes, and
// whenever Decode rejects a stream the npm decoder accepts, the reason must
// be one of the documented stricter checks.
func TestCorruptAgainstNPM(t *testing.T) {
	reqs := generatedCases()
	var small []encodeRequest
	for _, r := range reqs {
		if len(r.Data) <= 4096 && r.Count > 0 && !strings.HasPrefix(r.name, "sweep") {
			small = append(small, r)
		}
	}
	streams, _ := npmEncode(t, small)
	var mutated []stream
	r := newRand(99)
	for _, s := range streams {
		for m := range 6 {
			src := bytes.Clone(s.Src)
			name := s.Name
			switch m {
			case 0, 1, 2: // flip bits of a random byte
				p := r.IntN(len(src))
				x := byte(1 + r.IntN(255))
				src[p] ^= x
				name += fmt.Sprintf("/xor%d@%d", x, p)
			case 3: // truncate
				n := 1 + r.IntN(min(len(src), 40))
				src = src[:len(src)-n]
				name += fmt.Sprintf("/cut%d", n)
			case 4: // one byte too many, inserted before the tail
				p := r.IntN(len(src) + 1)
				src = append(src[:p:p], append([]byte{byte(r.Uint32())}, s.Src[p:]...)...)
				name += fmt.Sprintf("/insert@%d", p)
			case 5: // other header byte
				src[0] = []byte{0xa0, 0xa1, 0xa2, 0xb0, 0xe0, 0xe1, 0xd0, 0xd1, 0x00}[r.IntN(9)]
				name += fmt.Sprintf("/header%02x", src[0])
			}
			mutated = append(mutated, stream{Name: name, Mode: s.Mode, Filter: s.Filter, Count: s.Count, ByteStride: s.ByteStride, Src: src})
		}
	}
	want := npmDecode(t, mutated)
	var bothOK, bothErr, strict int
	reasons := map[string]int{}
	for i, s := range mutated {
		got, err := goDecode(s)
		switch {
		case err == nil && want[i].Error != "":
			t.Errorf("%s: Decode accepted a stream the npm decoder rejects (%s)", s.Name, want[i].Error)
		case err == nil:
			bothOK++
			if !bytes.Equal(got, want[i].Out) {
				t.Errorf("%s: both accept, output differs at byte %d", s.Name, firstDiff(got, want[i].Out))
			}
		case !errors.Is(err, ErrMalformed):
			t.Errorf("%s: error does not wrap ErrMalformed: %v", s.Name, err)
		case want[i].Error != "":
			bothErr++
		default:
			found := false
			for _, reason := range strictReasons {
				if strings.Contains(err.Error(), reason) {
					reasons[reason]++
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: Decode rejects a stream the npm decoder accepts: %v", s.Name, err)
			}
			strict++
		}
	}
	t.Logf("%d mutated streams: %d accepted by both (identical), %d rejected by both, %d rejected only by Decode's stricter checks %v",
		len(mutated), bothOK, bothErr, strict, reasons)
}
