package gltfio

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf/modeler"

	"github.com/autocollide/autocollide/geom"
)

// addHull appends a generated tetrahedron under node 0, as generate does.
func addHull(t *testing.T, a *Asset, glb bool) {
	t.Helper()
	m, err := a.AppendMesh("hull", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		[][3]uint32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}, glb)
	if err != nil {
		t.Fatal(err)
	}
	n := NewObject()
	n.Set("mesh", IntNum(m))
	if _, err := a.AppendNode(0, n); err != nil {
		t.Fatal(err)
	}
}

// TestPackedGLBStripsToPackedInput: for every corpus file, a GLB written
// after an edit, loaded again (which strips the edit), encodes to the
// same bytes as the unedited input packed as a GLB: the undo record of a
// packed file describes the packed layout (images and merged buffers
// included) exactly. The packed GLB has one buffer with bytes, its BIN
// chunk (and meshopt fallbacks, which have none), and no URI.
func TestPackedGLBStripsToPackedInput(t *testing.T) {
	for _, f := range corpusFiles(t) {
		plain, err := Load(f, Limits{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(plain.Tree.Arr("nodes")) == 0 {
			continue
		}
		want, err := plain.Encode(true)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		packed := reparse(t, want)
		withBytes := 0
		for _, b := range packed.Arr("buffers") {
			if !isMeshoptFallback(b.(*Object)) {
				withBytes++
			}
		}
		if withBytes != 1 {
			t.Errorf("%s: %d buffers with bytes in the GLB, want 1", f, withBytes)
		}
		if js, _ := packed.MarshalJSON(); bytes.Contains(js, []byte(`"uri"`)) {
			t.Errorf("%s: the GLB still has a URI", f)
		}
		a, _ := Load(f, Limits{})
		addHull(t, a, true)
		out := filepath.Join(t.TempDir(), "out.glb")
		if err := a.Save(out); err != nil {
			t.Fatal(err)
		}
		checkHull(t, out)
		b, err := Load(out, Limits{})
		if err != nil {
			t.Fatalf("%s: the packed output does not load: %v", f, err)
		}
		got, err := b.Encode(true)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the stripped output is not the packed input (%d and %d bytes)", f, len(got), len(want))
		}
	}
}

// checkHull fails unless the last mesh of the file at path is the
// tetrahedron addHull made, read through its accessors.
func checkHull(t *testing.T, path string) {
	t.Helper()
	a, err := LoadRaw(path, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	prim := a.Doc.Meshes[len(a.Doc.Meshes)-1].Primitives[0]
	pos, err := modeler.ReadPosition(a.Doc, a.Doc.Accessors[prim.Attributes["POSITION"]], nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	idx, err := modeler.ReadIndices(a.Doc, a.Doc.Accessors[*prim.Indices], nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if fmt.Sprint(pos, idx) != "[[0 0 0] [1 0 0] [0 1 0] [0 0 1]] [0 2 1 0 1 3 0 3 2 1 2 3]" {
		t.Errorf("%s: the generated hull reads %v %v", path, pos, idx)
	}
}

// writeAsset writes a .gltf made of doc (as JSON) and the given side
// files into a new folder and returns its path.
func writeAsset(t *testing.T, doc map[string]any, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "in.gltf")
	if err := os.WriteFile(p, js, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// triangle is one triangle's float32 positions (36 bytes) and uint16
// indices (6 bytes, padded to 8).
var triangle = append(append(make([]byte, 12), 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0), 0, 0, 1, 0, 2, 0, 0, 0)

// triangleDoc is a one-triangle asset whose buffer 0 is geoURI; extra
// buffers, views, accessors and images are appended by the caller.
func triangleDoc(geoURI string) map[string]any {
	return map[string]any{
		"asset":  map[string]any{"version": "2.0"},
		"scenes": []any{map[string]any{"nodes": []any{0}}},
		"nodes":  []any{map[string]any{"mesh": 0}},
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": 0}, "indices": 1}}}},
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": []any{0, 0, 0}, "max": []any{1, 1, 0}},
			map[string]any{"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
		},
		"bufferViews": []any{
			map[string]any{"buffer": 0, "byteLength": 36},
			map[string]any{"buffer": 0, "byteOffset": 36, "byteLength": 6},
		},
		"buffers": []any{map[string]any{"byteLength": len(triangle), "uri": geoURI}},
	}
}

// TestMissingResources: a missing image and a missing buffer that only an
// animation reads are warnings naming the JSON path, keep their
// reference in both containers, and the GLB's views point at the kept
// buffer; a missing buffer a mesh reads is an error naming it.
func TestMissingResources(t *testing.T) {
	doc := triangleDoc("geo.bin")
	doc["buffers"] = append(doc["buffers"].([]any), map[string]any{"byteLength": 8, "uri": "anim.bin"})
	doc["bufferViews"] = append(doc["bufferViews"].([]any), map[string]any{"buffer": 1, "byteLength": 8})
	doc["accessors"] = append(doc["accessors"].([]any),
		map[string]any{"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": []any{0}, "max": []any{1}})
	doc["images"] = []any{map[string]any{"uri": "gone.png"}}
	in := writeAsset(t, doc, map[string][]byte{"geo.bin": triangle})
	a, err := Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Warnings) != 2 || !strings.HasPrefix(a.Warnings[0], `buffers[1].uri "anim.bin": file not found`) ||
		!strings.HasPrefix(a.Warnings[1], `images[0].uri "gone.png": file not found`) {
		t.Fatalf("warnings %q", a.Warnings)
	}
	addHull(t, a, true)
	for _, name := range []string{"out.glb", "out.gltf"} {
		out := filepath.Join(t.TempDir(), name)
		if err := a.Save(out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkHull(t, out)
		b, err := LoadRaw(out, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(b.Warnings) != 2 {
			t.Errorf("%s: warnings %q, want the same two", name, b.Warnings)
		}
		bufs := b.Tree.Arr("buffers")
		if name == "out.glb" {
			if len(bufs) != 2 || b.Tree.Arr("bufferViews")[2].(*Object).vals["buffer"] != IntNum(1) {
				t.Errorf("%s: buffers %v: want the BIN chunk and the kept anim.bin, its view re-pointed", name, len(bufs))
			}
		}
		if u, _ := bufs[len(bufs)-1].(*Object).Get("uri"); name == "out.glb" && u != "anim.bin" {
			t.Errorf("%s: last buffer's uri %v, want anim.bin kept", name, u)
		}
		if u, _ := b.Tree.Arr("images")[0].(*Object).Get("uri"); u != "gone.png" {
			t.Errorf("%s: image uri %v, want it kept", name, u)
		}
	}
	os.Remove(filepath.Join(filepath.Dir(in), "geo.bin"))
	if _, err := Load(in, Limits{}); err == nil || !strings.Contains(err.Error(), `buffers[0].uri "geo.bin": file not found, and mesh geometry is read from it`) {
		t.Errorf("missing geometry buffer: %v", err)
	}
}

// TestGLTFOutputData: a .gltf output's generated data goes to
// <name>.colliders.<hash>.bin, beside an input file of the plain name, unless the input's
// buffers were all data: URIs; the input's own files are untouched.
func TestGLTFOutputData(t *testing.T) {
	in := writeAsset(t, triangleDoc("out.colliders.bin"), map[string][]byte{"out.colliders.bin": triangle})
	a, err := Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	addHull(t, a, false)
	out := filepath.Join(filepath.Dir(in), "out.gltf")
	if err := a.Save(out); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(filepath.Dir(in), "out.colliders.bin")); !bytes.Equal(data, triangle) {
		t.Error("the input's out.colliders.bin was overwritten")
	}
	b, err := LoadRaw(out, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Resources) != 2 || b.Resources[0] != "out.colliders.bin" || !IsGeneratedBin("out", b.Resources[1]) {
		t.Errorf("resources %q, want out.colliders.bin and out.colliders.<hash>.bin", b.Resources)
	}

	embedded := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(triangle)
	in = writeAsset(t, triangleDoc(embedded), nil)
	a, err = Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	addHull(t, a, false)
	out = filepath.Join(t.TempDir(), "x.gltf")
	if err := a.Save(out); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("wrote %d files, want the .gltf alone (its input was all data: URIs)", len(entries))
	}
}

// TestPackMeshoptSources: a view compressed with EXT_meshopt_compression
// reads its source from the BIN chunk after packing, and keeps its
// fallback buffer (which has no bytes) as a buffer of its own.
func TestPackMeshoptSources(t *testing.T) {
	doc := triangleDoc("geo.bin")
	doc["buffers"] = append(doc["buffers"].([]any),
		map[string]any{"byteLength": 16, "extensions": map[string]any{"EXT_meshopt_compression": map[string]any{"fallback": true}}},
		map[string]any{"byteLength": 4, "uri": "data:application/octet-stream;base64,AQIDBA=="})
	doc["bufferViews"] = append(doc["bufferViews"].([]any), map[string]any{"buffer": 1, "byteLength": 16,
		"extensions": map[string]any{"EXT_meshopt_compression": map[string]any{"buffer": 2, "byteOffset": 1, "byteLength": 3, "byteStride": 4, "count": 4, "mode": "ATTRIBUTES"}}})
	doc["extensionsUsed"] = []any{"EXT_meshopt_compression"}
	in := writeAsset(t, doc, map[string][]byte{"geo.bin": triangle})
	a, err := Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Encode(true)
	if err != nil {
		t.Fatal(err)
	}
	js, bin, err := splitGLB(out)
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := ParseJSON(js)
	if n := len(tree.Arr("buffers")); n != 2 {
		t.Fatalf("%d buffers, want the BIN chunk and the fallback", n)
	}
	v := tree.Arr("bufferViews")[2].(*Object)
	e := v.Obj("extensions").Obj("EXT_meshopt_compression")
	b, _ := v.Int("buffer")
	eb, _ := e.Int("buffer")
	off, _ := e.Int("byteOffset")
	if b != 1 || eb != 0 || !bytes.Equal(bin[off:off+3], []byte{2, 3, 4}) {
		t.Errorf("view buffer %d, source buffer %d at %d: want the fallback (1) and the bytes 2 3 4 in the BIN chunk", b, eb, off)
	}
}

// TestEncodeLeavesTreeAlone: hashing and encoding share the asset's
// tree with the copy they rewrite (only the members packing changes are
// copied), and change none of it: for every corpus file, before and after
// an edit, and for a reloaded output carrying an undo record, the tree
// encodes to the same text after ContentHash, Encode(true) and
// Encode(false) as after the first Encode(true) (which finishes an edit),
// and a second Encode(true) gives the same bytes as the first.
func TestEncodeLeavesTreeAlone(t *testing.T) {
	check := func(name string, a *Asset) {
		t.Helper()
		first, err := a.Encode(true) // finishes the edit: its undo record is written into the tree
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		before, err := Encode(a.Tree, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.ContentHash(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := a.Encode(false); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, _ := a.Encode(true)
		after, _ := Encode(a.Tree, "")
		if !bytes.Equal(before, after) || !bytes.Equal(first, again) {
			t.Errorf("%s: the tree or its GLB changed by encoding it", name)
		}
	}
	for _, f := range corpusFiles(t) {
		a, err := Load(f, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		check(f, a)
		addHull(t, a, false)
		check(f+" (edited)", a)
		out := filepath.Join(t.TempDir(), "out.glb")
		if err := a.Save(out); err != nil {
			t.Fatal(err)
		}
		raw, err := LoadRaw(out, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if undoRecord(raw.Tree) == nil {
			t.Fatalf("%s: the output carries no undo record", f)
		}
		check(f+" (output)", raw)
	}
}
