package mesh

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

// readGLB parses a GLB container without resolving any URI: the BIN chunk
// becomes buffer 0's data and other buffers stay empty. It exists because
// gltf.Open refuses EXT_meshopt_compression fallback buffers (no URI).
func readGLB(t *testing.T, path string) *gltf.Document {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 20 || string(b[:4]) != "glTF" {
		t.Fatalf("%s: not a GLB", path)
	}
	n := int(binary.LittleEndian.Uint32(b[12:]))
	var doc gltf.Document
	if err := json.Unmarshal(b[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	rest := b[20+n:]
	if len(rest) >= 8 && string(rest[4:8]) == "BIN\x00" && len(doc.Buffers) > 0 {
		m := int(binary.LittleEndian.Uint32(rest))
		doc.Buffers[0].Data = rest[8 : 8+m]
	}
	return &doc
}

// TestPirate extracts the EXT_meshopt_compression + KHR_mesh_quantization
// Pirate end to end with the real decoder.
func TestPirate(t *testing.T) {
	doc := readGLB(t, filepath.Join(testassets.Shared(t), "corpus", "Pirate", "pirate.glb"))
	res, err := Extract(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 1 {
		t.Fatalf("%d parts, want 1", len(res.Parts))
	}
	p := res.Parts[0]
	if n := len(p.Triangles) + p.Dropped; n != 15030/3 {
		t.Errorf("%d triangles, want %d", n, 15030/3)
	}
	// The decoded positions must span the accessor's declared min/max
	// (UNSIGNED_SHORT, unnormalized), mapped by the node transform.
	a := doc.Accessors[doc.Meshes[0].Primitives[0].Attributes[gltf.POSITION]]
	want := geom.Box{Min: p.World.Point(geom.Vec3(a.Min)), Max: p.World.Point(geom.Vec3(a.Max))}
	got := geom.BoundsOf(p.Vertices)
	tol := 1e-6 * want.Diagonal()
	for k := 0; k < 3; k++ {
		if d := got.Min[k] - want.Min[k]; d > tol || d < -tol {
			t.Errorf("min %v, want %v", got.Min, want.Min)
		}
		if d := got.Max[k] - want.Max[k]; d > tol || d < -tol {
			t.Errorf("max %v, want %v", got.Max, want.Max)
		}
	}
}
