package preview

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
)

// builder assembles a small glTF document with an embedded buffer.
type builder struct {
	bin       []byte
	accessors []any
	views     []any
	meshes    []any
}

func (b *builder) view(data []byte, target int) int {
	for len(b.bin)%4 != 0 {
		b.bin = append(b.bin, 0)
	}
	b.views = append(b.views, map[string]any{"buffer": 0, "byteOffset": len(b.bin), "byteLength": len(data), "target": target})
	b.bin = append(b.bin, data...)
	return len(b.views) - 1
}

// mesh adds a triangle mesh and returns its index.
func (b *builder) mesh(pos [][3]float32, idx []uint16) int {
	var pb []byte
	lo := [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
	hi := [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
	for _, p := range pos {
		for k := range 3 {
			pb = binary.LittleEndian.AppendUint32(pb, math.Float32bits(p[k]))
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	var ib []byte
	for _, i := range idx {
		ib = binary.LittleEndian.AppendUint16(ib, i)
	}
	pv := b.view(pb, 34962)
	b.accessors = append(b.accessors, map[string]any{"bufferView": pv, "componentType": 5126, "count": len(pos), "type": "VEC3", "min": lo[:], "max": hi[:]})
	pa := len(b.accessors) - 1
	iv := b.view(ib, 34963)
	b.accessors = append(b.accessors, map[string]any{"bufferView": iv, "componentType": 5123, "count": len(idx), "type": "SCALAR"})
	ia := len(b.accessors) - 1
	b.meshes = append(b.meshes, map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pa}, "indices": ia}}})
	return len(b.meshes) - 1
}

// write saves the document with nodes, the scene roots and document
// extensions to dir/name and returns the path.
func (b *builder) write(t testing.TB, dir, name string, nodes []any, roots []int, exts map[string]any, used []string) string {
	t.Helper()
	doc := map[string]any{
		"asset":  map[string]any{"version": "2.0"},
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": roots}},
		"nodes":  nodes,
	}
	if len(b.meshes) > 0 {
		doc["meshes"] = b.meshes
		doc["accessors"] = b.accessors
		doc["bufferViews"] = b.views
		doc["buffers"] = []any{map[string]any{"byteLength": len(b.bin), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.bin)}}
	}
	if exts != nil {
		doc["extensions"] = exts
	}
	if used != nil {
		doc["extensionsUsed"] = used
	}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// tetra is a tetrahedron's corners and triangles, offset by o.
func tetra(o [3]float32) ([][3]float32, []uint16) {
	return [][3]float32{{o[0], o[1], o[2]}, {o[0] + 1, o[1], o[2]}, {o[0], o[1] + 1, o[2]}, {o[0], o[1], o[2] + 1}},
		[]uint16{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}
}

// omiBody is a node carrying an OMI body with the given members.
func omiBody(name string, translation []float64, body map[string]any) map[string]any {
	n := map[string]any{"name": name, "extensions": map[string]any{"OMI_physics_body": body}}
	if translation != nil {
		n["translation"] = translation
	}
	return n
}

var omiUsed = []string{"OMI_physics_shape", "OMI_physics_body"}

// generated runs generate on src into dir/name and returns the path.
func generated(t testing.TB, src, dir, name string, opt generate.Options) string {
	t.Helper()
	a, err := gltfio.Load(src, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	opt.Encoding.Binary = gltfio.IsBinaryName(out)
	if _, err := generate.Asset(context.Background(), a, opt); err != nil {
		t.Fatalf("generate %s: %v", src, err)
	}
	if err := a.Save(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func renderPNG(t testing.TB, path string, opt Options) ([]byte, Stats) {
	t.Helper()
	img, st, err := RenderFile(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodePNG(img)
	if err != nil {
		t.Fatal(err)
	}
	return b, st
}
