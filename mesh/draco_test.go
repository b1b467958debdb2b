package mesh

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/draco"
	"github.com/autocollide/autocollide/internal/testassets"
)

// fakeDraco stands in for the Draco decoder in tests of the plumbing: it
// returns a prepared mesh and records the limits it was called with.
type fakeDraco struct {
	mesh  *draco.Mesh
	err   error
	calls []draco.Limits
	data  [][]byte
}

func (f *fakeDraco) decode(data []byte, lim draco.Limits) (*draco.Mesh, error) {
	f.calls = append(f.calls, lim)
	f.data = append(f.data, data)
	if f.err != nil {
		return nil, f.err
	}
	return f.mesh, nil
}

// dracoize turns primitive 0 of mesh m into a KHR_draco_mesh_compression
// primitive: its accessors lose their bufferViews (so only the stream can
// give their values), a small bufferView stands for the stream, and the
// returned fake decoder gives the values the accessors held (as raw
// integers where the accessor is a normalized integer type). unique ids
// are 10, 11, ... in semantic order.
func dracoize(t *testing.T, doc *gltf.Document, m int) *fakeDraco {
	t.Helper()
	d := newDecoder(doc)
	prim := doc.Meshes[m].Primitives[0]
	semantics := make([]string, 0, len(prim.Attributes))
	for s := range prim.Attributes {
		semantics = append(semantics, s)
	}
	sort.Strings(semantics)
	ext := map[string]int{}
	fake := &fakeDraco{mesh: &draco.Mesh{}}
	for k, s := range semantics {
		acc := prim.Attributes[s]
		vals, a, lay, err := d.read(acc)
		if err != nil {
			t.Fatal(err)
		}
		if a.Normalized {
			scale := map[gltf.ComponentType]float64{gltf.ComponentUbyte: 255, gltf.ComponentUshort: 65535, gltf.ComponentByte: 127, gltf.ComponentShort: 32767}[a.ComponentType]
			for i := range vals {
				vals[i] = math.Round(vals[i] * scale)
			}
		}
		id := uint32(10 + k)
		ext[s] = int(id)
		fake.mesh.NumPoints = a.Count
		fake.mesh.Attributes = append(fake.mesh.Attributes, draco.Attribute{UniqueID: id, NumComponents: lay.comps, Values: vals})
		a.BufferView, a.ByteOffset = nil, 0
	}
	var idx []uint32
	if prim.Indices != nil {
		var err error
		if idx, err = d.indices(*prim.Indices, fake.mesh.NumPoints); err != nil {
			t.Fatal(err)
		}
		doc.Accessors[*prim.Indices].BufferView = nil
	}
	for i := 0; i+2 < len(idx); i += 3 {
		fake.mesh.Faces = append(fake.mesh.Faces, [3]uint32{idx[i], idx[i+1], idx[i+2]})
	}
	doc.Buffers[0].Data = append(doc.Buffers[0].Data, []byte("DRACO-fake")...)
	doc.Buffers[0].ByteLength = len(doc.Buffers[0].Data)
	doc.BufferViews = append(doc.BufferViews, &gltf.BufferView{ByteOffset: len(doc.Buffers[0].Data) - 10, ByteLength: 10})
	raw, _ := json.Marshal(map[string]any{"bufferView": len(doc.BufferViews) - 1, "attributes": ext})
	prim.Extensions = gltf.Extensions{extDraco: json.RawMessage(raw)}
	return fake
}

func sameParts(t *testing.T, got, want *Result, tol float64) {
	t.Helper()
	if len(got.Parts) != len(want.Parts) {
		t.Fatalf("%d parts, want %d", len(got.Parts), len(want.Parts))
	}
	for i, p := range got.Parts {
		w := want.Parts[i]
		if !slices.Equal(p.Triangles, w.Triangles) || len(p.Vertices) != len(w.Vertices) || p.Dropped != w.Dropped {
			t.Fatalf("part %d: %d triangles %d vertices, want %d and %d", i, len(p.Triangles), len(p.Vertices), len(w.Triangles), len(w.Vertices))
		}
		for k, v := range p.Vertices {
			if !near(v, w.Vertices[k], tol) {
				t.Fatalf("part %d vertex %d at %v, want %v", i, k, v, w.Vertices[k])
			}
		}
	}
}

// TestDracoPlumbing: a Draco primitive's accessors read the decoded
// attributes by the extension's unique ids, its triangles come from the
// stream's faces, the decoder is bounded by the declared counts, and a
// skinned mesh's joints and weights (normalized integers included) pose
// it as the same uncompressed mesh would be posed.
func TestDracoPlumbing(t *testing.T) {
	cube := func() *gltf.Document {
		f := newFixture()
		f.scene(f.node(&gltf.Node{Name: "Box", Mesh: gltf.Index(f.cubeMesh()), Translation: [3]float64{1, 2, 3}}))
		return f.done()
	}
	skin := func() *gltf.Document {
		return skinFixture(3, [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0.25, 0.25, 0, 0}, {0.5, 0, 0, 0}}, false)
	}
	for _, c := range []struct {
		name   string
		doc    func() *gltf.Document
		mutate func(doc *gltf.Document, fake *fakeDraco)
		tol    float64
	}{
		{"cube", cube, nil, 0},
		{"skinned", skin, nil, 0},
		{"skinned, weights normalized UNSIGNED_BYTE", skin, func(doc *gltf.Document, fake *fakeDraco) {
			// Same ratios as the float weights: 200·(1, 0), (0, 1), (0.25, 0.25), (0.5, 0).
			w := doc.Accessors[doc.Meshes[0].Primitives[0].Attributes["WEIGHTS_0"]]
			w.ComponentType, w.Normalized = gltf.ComponentUbyte, true
			for k := range fake.mesh.Attributes {
				if a := &fake.mesh.Attributes[k]; a.UniqueID == 12 { // WEIGHTS_0 after JOINTS_0 and POSITION
					for i := range a.Values {
						a.Values[i] *= 200
					}
				}
			}
		}, 1e-12},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := Extract(c.doc())
			if err != nil {
				t.Fatal(err)
			}
			doc := c.doc()
			fake := dracoize(t, doc, 0)
			if c.mutate != nil {
				c.mutate(doc, fake)
			}
			got, err := extract(doc, &decoder{doc: doc, dracoDecode: fake.decode})
			if err != nil {
				t.Fatal(err)
			}
			sameParts(t, got, want, c.tol)
			prim := doc.Meshes[0].Primitives[0]
			lim := draco.Limits{MaxPoints: doc.Accessors[prim.Attributes[gltf.POSITION]].Count, MaxFaces: doc.Accessors[*prim.Indices].Count / 3}
			if len(fake.calls) != 1 || fake.calls[0] != lim || string(fake.data[0]) != "DRACO-fake" {
				t.Errorf("decoder called %d times with %v on %q, want once with %v on the extension's bufferView", len(fake.calls), fake.calls, fake.data, lim)
			}
		})
	}
}

// TestDracoErrors: every disagreement between the stream and the glTF
// accessors, and a decoder failure, is an error naming the node, mesh and
// primitive; declared counts over the limits stop before decoding.
func TestDracoErrors(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(doc *gltf.Document, fake *fakeDraco)
		want   string
	}{
		{"decoder error", func(_ *gltf.Document, f *fakeDraco) { f.err = errors.New("edgebreaker: symbol 7 out of range") },
			"KHR_draco_mesh_compression: bufferView 2: edgebreaker: symbol 7 out of range"},
		{"more points than declared", func(_ *gltf.Document, f *fakeDraco) {
			f.mesh.NumPoints++
		}, "KHR_draco_mesh_compression: the stream has 9 points, accessor 0 declares 8"},
		{"fewer faces than declared", func(_ *gltf.Document, f *fakeDraco) { f.mesh.Faces = f.mesh.Faces[1:] },
			"KHR_draco_mesh_compression: the stream has 33 indices, accessor 1 declares 36"},
		{"unknown unique id", func(doc *gltf.Document, _ *fakeDraco) {
			doc.Meshes[0].Primitives[0].Extensions[extDraco] = json.RawMessage(`{"bufferView":2,"attributes":{"POSITION":4}}`)
		}, "KHR_draco_mesh_compression: POSITION: the stream has no attribute with unique id 4"},
		{"attribute not in the primitive", func(doc *gltf.Document, _ *fakeDraco) {
			doc.Meshes[0].Primitives[0].Extensions[extDraco] = json.RawMessage(`{"bufferView":2,"attributes":{"POSITION":10,"NORMAL":11}}`)
		}, "KHR_draco_mesh_compression: attribute NORMAL is not among the primitive's attributes"},
		{"components differ", func(_ *gltf.Document, f *fakeDraco) {
			f.mesh.Attributes[0].NumComponents = 2
		}, "KHR_draco_mesh_compression: POSITION: accessor 0 is VEC3, the stream's attribute 10 has 2 components"},
		{"index does not fit the indices accessor", func(doc *gltf.Document, f *fakeDraco) {
			doc.Accessors[1].ComponentType = gltf.ComponentUbyte
			doc.Accessors[0].Count, f.mesh.NumPoints = 300, 300
			f.mesh.Attributes[0].Values = append(f.mesh.Attributes[0].Values, make([]float64, 3*292)...)
			f.mesh.Faces[0][0] = 299
		}, "indices accessor 1: decoded value 0 does not fit componentType UNSIGNED_BYTE"},
		{"index out of range", func(_ *gltf.Document, f *fakeDraco) { f.mesh.Faces[5][1] = 8 },
			"KHR_draco_mesh_compression: index 16 is not below the point count 8"},
		{"no bufferView", func(doc *gltf.Document, _ *fakeDraco) {
			doc.Meshes[0].Primitives[0].Extensions[extDraco] = json.RawMessage(`{"attributes":{"POSITION":10}}`)
		}, "KHR_draco_mesh_compression: no bufferView"},
		{"strip", func(doc *gltf.Document, _ *fakeDraco) { doc.Meshes[0].Primitives[0].Mode = gltf.PrimitiveTriangleStrip },
			"KHR_draco_mesh_compression: mode TRIANGLE_STRIP is not TRIANGLES"},
		{"declared count over the limit", func(doc *gltf.Document, _ *fakeDraco) { doc.Accessors[1].Count = 3 * (MaxTriangles + 1) },
			fmt.Sprintf("KHR_draco_mesh_compression: 8 points and %d faces declared, over the limits", MaxTriangles+1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture()
			f.scene(f.node(&gltf.Node{Name: "Box", Mesh: gltf.Index(f.cubeMesh())}))
			doc := f.done()
			fake := dracoize(t, doc, 0)
			c.mutate(doc, fake)
			_, err := extract(doc, &decoder{doc: doc, dracoDecode: fake.decode})
			prefix := `nodes[0] "Box": mesh 0 primitive 0: `
			if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q…%q", err, prefix, c.want)
			}
			if strings.Contains(c.name, "limit") && len(fake.calls) != 0 {
				t.Errorf("the decoder ran despite the declared counts")
			}
		})
	}
}

// TestDracoSharedStream: primitives naming the same compressed bufferView
// decode it once.
func TestDracoSharedStream(t *testing.T) {
	f := newFixture()
	m := f.cubeMesh()
	f.scene(f.node(&gltf.Node{Name: "A", Mesh: gltf.Index(m)}), f.node(&gltf.Node{Name: "B", Mesh: gltf.Index(f.mesh(nil))}))
	doc := f.done()
	fake := dracoize(t, doc, m)
	doc.Meshes[1].Primitives = []*gltf.Primitive{doc.Meshes[0].Primitives[0]}
	res, err := extract(doc, &decoder{doc: doc, dracoDecode: fake.decode})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 2 || len(fake.calls) != 1 {
		t.Errorf("%d parts, %d decodes; want 2 parts from 1 decode", len(res.Parts), len(fake.calls))
	}
}

// TestDracoCorpus extracts each Draco asset of the shared corpus and the
// copy the npm decoder (glTF-Transform with draco3dgltf) wrote without
// compression: every part, vertex and triangle must be the same (every
// primitive's stored positions and indices exactly), and each Draco mesh
// gives the triangles its indices accessors declare.
func TestDracoCorpus(t *testing.T) {
	dir := filepath.Join(testassets.Shared(t), "corpus")
	for _, rel := range dracoCorpus {
		t.Run(rel, func(t *testing.T) {
			path := filepath.Join(dir, rel)
			doc, err := gltf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Extract(doc)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := gltf.Open(testassets.Decoded(t, path))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range plain.Meshes {
				for _, p := range m.Primitives {
					if _, ok := p.Extensions[extDraco]; ok {
						t.Fatal("the npm-decoded copy is still Draco-compressed")
					}
				}
			}
			want, err := Extract(plain)
			if err != nil {
				t.Fatal(err)
			}
			// glTF-Transform writes node matrices as TRS, so world
			// positions may differ by rounding; the stored values below
			// must be equal exactly.
			sameParts(t, got, want, 1e-12)
			for mi, m := range doc.Meshes {
				for pi, prim := range m.Primitives {
					pos, idx, err := Primitive(doc, prim)
					if err != nil {
						t.Fatalf("mesh %d primitive %d: %v", mi, pi, err)
					}
					wpos, widx, err := Primitive(plain, plain.Meshes[mi].Primitives[pi])
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(pos, wpos) || !slices.Equal(idx, widx) {
						t.Errorf("mesh %d primitive %d: Primitive differs from the npm-decoded copy", mi, pi)
					}
				}
			}
			tris := 0
			for _, p := range got.Parts {
				tris += len(p.Triangles) + p.Dropped
			}
			declared := 0
			for _, p := range got.Parts {
				for _, prim := range doc.Meshes[p.Mesh].Primitives {
					declared += doc.Accessors[*prim.Indices].Count / 3
				}
			}
			if tris != declared || tris == 0 {
				t.Errorf("%d triangles, the indices accessors declare %d", tris, declared)
			}
			t.Logf("%d parts, %d triangles, equal to the npm-decoded copy", len(got.Parts), tris)
		})
	}
}

// dracoCorpus are the corpus's KHR_draco_mesh_compression assets.
var dracoCorpus = []string{
	"Box_glTF-Draco/glTF-Draco/Box.gltf",
	"CesiumMilkTruck/glTF-Draco/CesiumMilkTruck.gltf",
	"MorphPrimitivesTest/glTF-Draco/MorphPrimitivesTest.gltf",
}
