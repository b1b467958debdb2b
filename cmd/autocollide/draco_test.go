package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
)

// brokenDracoFile is an entry of draco/testdata/broken/cases.json.
type brokenDracoFile struct {
	File    string `json:"file"`
	Name    string `json:"name"`
	Points  int    `json:"points"`
	Indices int    `json:"indices"`
}

// dracoGLTF writes a .gltf whose one mesh is a KHR_draco_mesh_compression
// primitive over stream (POSITION is the stream's attribute 0), declaring
// points positions and indices indices.
func dracoGLTF(t *testing.T, path string, stream []byte, points, indices int) string {
	t.Helper()
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"name":"Broken","mesh":0}],
"meshes":[{"name":"Part","primitives":[{"attributes":{"POSITION":0},"indices":1,
  "extensions":{"KHR_draco_mesh_compression":{"bufferView":0,"attributes":{"POSITION":0}}}}]}],
"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[{"buffer":0,"byteLength":%d}],
"accessors":[{"componentType":5126,"count":%d,"type":"VEC3","min":[-2,-2,-2],"max":[2,2,2]},
  {"componentType":5125,"count":%d,"type":"SCALAR"}],
"extensionsUsed":["KHR_draco_mesh_compression"],"extensionsRequired":["KHR_draco_mesh_compression"]}`,
		len(stream), base64.StdEncoding.EncodeToString(stream), len(stream), points, indices)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrokenDraco: each hand-broken Draco stream of the draco package's
// tests, wrapped in a glTF file, makes generate exit 1 with one line
// naming the file, node, mesh and primitive, and write nothing.
func TestBrokenDraco(t *testing.T) {
	dir := filepath.Join(testassets.Repo(), "draco", "testdata", "broken")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []brokenDracoFile
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d broken streams", len(cases))
	}
	tmp := t.TempDir()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			stream, err := os.ReadFile(filepath.Join(dir, c.File))
			if err != nil {
				t.Fatal(err)
			}
			if len(stream) == 0 {
				t.Skip("a glTF bufferView cannot be empty; the draco package tests the empty stream")
			}
			in := dracoGLTF(t, filepath.Join(tmp, strings.TrimSuffix(c.File, ".drc")+".gltf"), stream, c.Points, c.Indices)
			out := filepath.Join(tmp, "out", c.File+".glb")
			code, _, stderr := runCLI("generate", in, "-o", out)
			line := strings.TrimSpace(stderr)
			want := in + `: nodes[0] "Broken": mesh 0 primitive 0: KHR_draco_mesh_compression: `
			if code != 1 || strings.Contains(line, "\n") || !strings.HasPrefix(line, want) {
				t.Errorf("want exit 1 and one line %q…, got %d %q", want, code, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("output written")
			}
			t.Log(strings.TrimPrefix(line, want))
		})
	}
}

// dracoViews returns the bytes of the compressed bufferView of every
// KHR_draco_mesh_compression primitive, by "mesh/primitive".
func dracoViews(t *testing.T, a *gltfio.Asset) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for mi, m := range a.Doc.Meshes {
		for pi, p := range m.Primitives {
			ext, ok := p.Extensions["KHR_draco_mesh_compression"]
			if !ok {
				continue
			}
			raw, err := json.Marshal(ext)
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				BufferView int `json:"bufferView"`
			}
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
			bv := a.Doc.BufferViews[d.BufferView]
			out[fmt.Sprintf("%d/%d", mi, pi)] = a.Doc.Buffers[bv.Buffer].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
		}
	}
	return out
}

// TestDracoCorpus: the corpus's Draco assets go through generate in every
// format (generateCorpus; the validator, schema, containment, idempotence
// and drop tests cover them with the rest): each output keeps every
// Draco-compressed bufferView byte for byte and extensionsRequired as the
// input had it, and validate (hull checks included) and preview accept it.
func TestDracoCorpus(t *testing.T) {
	tmp := t.TempDir()
	assets := map[string]bool{}
	n := 0
	for _, r := range generateCorpus(t) {
		if !isDraco(t, r.in) {
			continue
		}
		n++
		assets[r.in] = true
		in, err := gltfio.LoadRaw(r.in, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := gltfio.LoadRaw(r.out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want, got := dracoViews(t, in), dracoViews(t, out)
		if len(want) == 0 || len(got) != len(want) {
			t.Errorf("%s (%s): %d Draco primitives in the output, %d in the input", r.in, r.format, len(got), len(want))
		}
		for k, w := range want {
			if !bytes.Equal(got[k], w) {
				t.Errorf("%s (%s): mesh/primitive %s: the Draco stream changed", r.in, r.format, k)
			}
		}
		if !slices.Equal(in.Doc.ExtensionsRequired, out.Doc.ExtensionsRequired) {
			t.Errorf("%s (%s): extensionsRequired %v, the input had %v", r.in, r.format, out.Doc.ExtensionsRequired, in.Doc.ExtensionsRequired)
		}
		if code, stdout, stderr := runCLI("validate", r.out); code != 0 {
			t.Errorf("%s (%s): validate exit %d: %s%s", r.in, r.format, code, stdout, stderr)
		}
		if r.format == "omi" {
			png := filepath.Join(tmp, fmt.Sprintf("%d.png", n))
			if code, _, stderr := runCLI("preview", r.out, "-o", png); code != 0 {
				t.Errorf("%s: preview exit %d: %s", r.in, code, stderr)
			} else if st, err := os.Stat(png); err != nil || st.Size() == 0 {
				t.Errorf("%s: preview wrote no picture", r.in)
			}
		}
	}
	if len(assets) != 3 || n != 9 {
		t.Errorf("%d Draco assets in %d runs, want the corpus's 3 in 3 formats", len(assets), n)
	}
}

// TestValidateDracoHull: validate checks a convex hull mesh that was
// Draco-compressed after generation (as a publishing pipeline does) from
// its decoded data: the generated hull passes, and the same hull with one
// corner pushed inward is reported as not convex (a note: the engine uses
// the hull of the points, so --strict passes).
func TestValidateDracoHull(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "box.gltf")
	in := filepath.Join(testassets.Shared(t), "corpus", "Box", "glTF-Binary", "Box.glb")
	if code, _, stderr := runCLI("generate", in, "-o", gen, "--method", "hull", "--format", "omi"); code != 0 {
		t.Fatal(stderr)
	}
	a, err := gltfio.LoadRaw(gen, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	hm := len(a.Doc.Meshes) - 1 // the hull, appended after the render mesh
	prim := a.Doc.Meshes[hm].Primitives[0]
	pos, idx, err := mesh.Primitive(a.Doc, prim)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		inward bool
		code   int
		want   string
	}{{"generated hull", false, 0, "ok"}, {"dented hull", true, 0, "info: meshes[1]: convex hull mesh is not convex"}} {
		t.Run(c.name, func(t *testing.T) {
			var flat []byte
			for i, p := range pos {
				if c.inward && i == 0 {
					p = p.Scale(0.2)
				}
				for _, x := range p {
					flat = binary.LittleEndian.AppendUint32(flat, math.Float32bits(float32(x)))
				}
			}
			var ind []byte
			for _, v := range idx {
				ind = binary.LittleEndian.AppendUint32(ind, v)
			}
			req := []map[string]any{{"indices": ind, "method": "sequential", "level": 7,
				"attributes": []map[string]any{{"type": "POSITION", "dataType": "float32", "components": 3, "data": flat}}}}
			var res []struct {
				Drc   []byte `json:"drc"`
				Error string `json:"error"`
			}
			testassets.RunNode(t, "draco3dgltf", filepath.Join("draco", "encode.mjs"), req, &res)
			if len(res) != 1 || res[0].Error != "" {
				t.Fatalf("encode: %+v", res)
			}
			// Point the hull's primitive at the stream; its accessors lose
			// their data, so only the Draco stream can give the geometry.
			var doc map[string]any
			raw, _ := os.ReadFile(gen)
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			drc := res[0].Drc
			doc["buffers"] = append(doc["buffers"].([]any), map[string]any{"byteLength": len(drc), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(drc)})
			doc["bufferViews"] = append(doc["bufferViews"].([]any), map[string]any{"buffer": len(doc["buffers"].([]any)) - 1, "byteLength": len(drc)})
			p := doc["meshes"].([]any)[hm].(map[string]any)["primitives"].([]any)[0].(map[string]any)
			for _, acc := range []int{prim.Attributes["POSITION"], *prim.Indices} {
				delete(doc["accessors"].([]any)[acc].(map[string]any), "bufferView")
			}
			p["extensions"] = map[string]any{"KHR_draco_mesh_compression": map[string]any{"bufferView": len(doc["bufferViews"].([]any)) - 1, "attributes": map[string]any{"POSITION": 0}}}
			doc["extensionsUsed"] = append(doc["extensionsUsed"].([]any), "KHR_draco_mesh_compression")
			out, _ := json.Marshal(doc)
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".gltf")
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("validate", "--strict", path)
			if code != c.code || !strings.Contains(stdout, c.want) || strings.Contains(stdout, "not checked") {
				t.Errorf("validate: exit %d %q %q, want %d and %q", code, stdout, stderr, c.code, c.want)
			}
		})
	}
}

// TestDracoMaxTriangles: --max-triangles counts a Draco primitive's
// declared indices before anything is decoded (the milk truck declares
// 3624 triangles over its instances).
func TestDracoMaxTriangles(t *testing.T) {
	in := milkTruck(t)
	dir := t.TempDir()
	for _, c := range []struct {
		limit string
		code  int
	}{{"3623", 1}, {"3624", 0}} {
		out := filepath.Join(dir, c.limit+".gltf")
		code, _, stderr := runCLI("generate", in, "-o", out, "--method", "aabb", "--max-triangles", c.limit)
		if code != c.code || c.code == 1 && !strings.Contains(stderr, "the scene has more than 3623 triangles") {
			t.Errorf("--max-triangles %s: exit %d %q, want %d", c.limit, code, stderr, c.code)
		}
	}
}
