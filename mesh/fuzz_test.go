package mesh

import (
	"encoding/json"
	"testing"

	"github.com/qmuntal/gltf"
)

// fuzzSeeds are the hand-built documents of the other tests, as JSON plus
// buffer bytes.
func fuzzSeeds(t testing.TB) [][2][]byte {
	var docs []*gltf.Document
	f := newFixture()
	f.scene(f.node(&gltf.Node{Mesh: gltf.Index(f.cubeMesh()), Scale: [3]float64{-1, 1, 1}}))
	docs = append(docs, f.done())
	docs = append(docs, skinFixture(3, [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0.25, 0.25, 0, 0}, {0.5, 0, 0, 0}}, true))

	f = newFixture()
	pos := f.vec3(cubeCorners...)
	strip := f.scalars(gltf.ComponentUbyte, 0, 1, 2, 3, 4, 5, 6, 7)
	sparse := f.accessor(&gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 8, Sparse: &gltf.Sparse{
		Count:   1,
		Indices: gltf.SparseIndices{BufferView: f.view(u8s(6), 0), ComponentType: gltf.ComponentUbyte},
		Values:  gltf.SparseValues{BufferView: f.view(f32s(1, 1, 1), 0)}}})
	m := f.mesh(&gltf.Primitive{Mode: gltf.PrimitiveTriangleStrip, Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(strip),
		Targets: []map[string]int{{gltf.POSITION: sparse}}},
		&gltf.Primitive{Mode: gltf.PrimitiveTriangleFan, Attributes: map[string]int{gltf.POSITION: pos}},
		&gltf.Primitive{Mode: gltf.PrimitiveLines, Attributes: map[string]int{gltf.POSITION: pos}})
	f.doc.Meshes[m].Weights = []float64{0.5}
	tr := f.vec3([3]float32{0, 0, 0}, [3]float32{10, 0, 0})
	child := f.node(&gltf.Node{Mesh: gltf.Index(m), Extensions: gltf.Extensions{extInstancing: map[string]any{"attributes": map[string]int{"TRANSLATION": tr}}}})
	f.scene(f.node(&gltf.Node{Children: []int{child}, Matrix: [16]float64{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}}))
	docs = append(docs, f.done())

	var out [][2][]byte
	for _, d := range docs {
		js, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, [2][]byte{js, d.Buffers[0].Data})
	}
	return out
}

// FuzzExtract decodes arbitrary JSON as a glTF document, gives buffer 0
// the second input as its bytes, and runs WorldTransforms and Extract:
// they may fail, never panic, and a successful result must be well formed.
func FuzzExtract(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, js, bin []byte) {
		var doc gltf.Document
		if err := json.Unmarshal(js, &doc); err != nil {
			return
		}
		for i, b := range doc.Buffers {
			if b != nil && i == 0 {
				b.Data = bin
			}
		}
		_, _ = WorldTransforms(&doc)
		res, err := Extract(&doc)
		if err != nil {
			return
		}
		for _, p := range res.Parts {
			for _, tri := range p.Triangles {
				for _, v := range tri {
					if int(v) >= len(p.Vertices) {
						t.Fatalf("%s: index %d out of %d vertices", p.Name, v, len(p.Vertices))
					}
				}
			}
			for _, v := range p.Vertices {
				if !v.IsFinite() {
					t.Fatalf("%s: non-finite vertex %v", p.Name, v)
				}
			}
		}
	})
}

// TestFuzzSeedsExtract makes sure the seeds themselves decode and extract,
// so the fuzzer starts from valid documents.
func TestFuzzSeedsExtract(t *testing.T) {
	for i, s := range fuzzSeeds(t) {
		var doc gltf.Document
		if err := json.Unmarshal(s[0], &doc); err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		doc.Buffers[0].Data = s[1]
		res, err := Extract(&doc)
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if len(res.Parts) == 0 {
			t.Errorf("seed %d: no parts", i)
		}
	}
}

// FuzzAccessor drives the accessor validation arithmetic directly: any
// count, offsets, stride, types and sparse layout over arbitrary bytes must
// give values or an error, never a panic or an out-of-range read.
func FuzzAccessor(f *testing.F) {
	f.Add(3, 0, 0, 12, 0, uint8(5), uint8(2), false, 0, 0, 0, []byte("0123456789abcdef0123456789abcdef0123456789"))
	f.Add(2, 4, 4, 16, 20, uint8(2), uint8(3), true, 1, 2, 8, make([]byte, 64))
	f.Fuzz(func(t *testing.T, count, byteOffset, viewOffset, viewLength, stride int, ct, typ uint8, normalized bool, sparseCount, sparseIdxOffset, sparseValOffset int, bin []byte) {
		f := newFixture()
		f.buf = bin
		f.doc.BufferViews = []*gltf.BufferView{{ByteOffset: viewOffset, ByteLength: viewLength, ByteStride: stride}}
		a := &gltf.Accessor{BufferView: gltf.Index(0), ByteOffset: byteOffset, Count: count,
			ComponentType: gltf.ComponentType(ct % 7), Type: gltf.AccessorType(typ % 8), Normalized: normalized}
		if sparseCount != 0 {
			a.Sparse = &gltf.Sparse{Count: sparseCount,
				Indices: gltf.SparseIndices{BufferView: 0, ByteOffset: sparseIdxOffset, ComponentType: gltf.ComponentUbyte},
				Values:  gltf.SparseValues{BufferView: 0, ByteOffset: sparseValOffset}}
		}
		if count%2 == 1 {
			a.BufferView = nil
		}
		f.accessor(a)
		d := newDecoder(f.done())
		vals, _, lay, err := d.read(0)
		if err == nil && len(vals) != count*lay.comps {
			t.Fatalf("%d values for count %d × %d", len(vals), count, lay.comps)
		}
		_, _ = d.indices(0, 7)
	})
}
