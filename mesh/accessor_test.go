package mesh

import (
	"math"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

// TestDequantize decodes every POSITION component type, normalized or
// not, and checks the glTF 2.0 formulas (§3.11) on the extreme values.
func TestDequantize(t *testing.T) {
	cases := []struct {
		name       string
		ct         gltf.ComponentType
		normalized bool
		raw        []byte
		want       [3]float64
	}{
		{"float", gltf.ComponentFloat, false, f32s(1.5, -2, 1e-3), [3]float64{1.5, -2, float64(float32(1e-3))}},
		{"byte", gltf.ComponentByte, false, u8s(0x80, 0x7f, 0xff), [3]float64{-128, 127, -1}},
		{"byte normalized", gltf.ComponentByte, true, u8s(0x80, 0x7f, 0x81), [3]float64{-1, 1, -1}},
		{"ubyte", gltf.ComponentUbyte, false, u8s(0, 255, 7), [3]float64{0, 255, 7}},
		{"ubyte normalized", gltf.ComponentUbyte, true, u8s(0, 255, 51), [3]float64{0, 1, 0.2}},
		{"short", gltf.ComponentShort, false, u16s(0x8000, 0x7fff, 0xfffe), [3]float64{-32768, 32767, -2}},
		{"short normalized", gltf.ComponentShort, true, u16s(0x8000, 0x7fff, 0x8001), [3]float64{-1, 1, -1}},
		{"ushort", gltf.ComponentUshort, false, u16s(0, 65535, 300), [3]float64{0, 65535, 300}},
		{"ushort normalized", gltf.ComponentUshort, true, u16s(0, 65535, 13107), [3]float64{0, 1, 0.2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture()
			// Two elements in an interleaved view of stride 12: the
			// element under test, then a copy shifted by 4 bytes of junk.
			elem := c.raw
			stride := 12
			b := append(append([]byte{}, elem...), make([]byte, stride-len(elem))...)
			b = append(b, elem...)
			v := f.view(b, stride)
			a := f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: c.ct, Normalized: c.normalized, Type: gltf.AccessorVec3, Count: 2})
			got, err := positions(f.done(), a)
			if err != nil {
				t.Fatal(err)
			}
			for e := 0; e < 2; e++ {
				for k := 0; k < 3; k++ {
					if math.Abs(got[e][k]-c.want[k]) > 1e-12 {
						t.Errorf("element %d component %d: got %v, want %v", e, k, got[e][k], c.want[k])
					}
				}
			}
		})
	}
}

// TestAccessorErrors feeds broken accessors to Positions and Indices and
// checks each is refused with a message that says why, before anything
// proportional to the declared count is allocated.
func TestAccessorErrors(t *testing.T) {
	type build func(f *fixture) *gltf.Accessor
	vec3 := func(view int, count int) *gltf.Accessor {
		return &gltf.Accessor{BufferView: gltf.Index(view), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: count}
	}
	cases := []struct {
		name  string
		build build
		want  string
	}{
		{"4 billion in 1 KB", func(f *fixture) *gltf.Accessor {
			return vec3(f.view(make([]byte, 1024), 0), 4_000_000_000)
		}, "exceeds bufferView 0 length 1024"},
		{"count past the view", func(f *fixture) *gltf.Accessor {
			return vec3(f.view(make([]byte, 36), 0), 4)
		}, "byteOffset 0 + 4×12 exceeds bufferView 0 length 36"},
		{"byteOffset past the view", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 36), 0), 1)
			a.ByteOffset = 40
			return a
		}, "byteOffset 40 is outside bufferView 0"},
		{"negative byteOffset", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 36), 0), 1)
			a.ByteOffset = -4
			return a
		}, "byteOffset -4 is outside"},
		{"interleaved stride past the end", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 64), 24), 3)
			a.ByteOffset = 12
			return a
		}, "byteOffset 12 + 3×24 exceeds bufferView 0 length 64"},
		{"huge stride", func(f *fixture) *gltf.Accessor {
			v := f.view(make([]byte, 64), 0)
			f.doc.BufferViews[v].ByteStride = math.MaxInt / 2
			return vec3(v, 2)
		}, "exceeds bufferView"},
		{"stride below element size", func(f *fixture) *gltf.Accessor {
			return vec3(f.view(make([]byte, 64), 8), 2)
		}, "byteStride 8 is smaller than the element size 12"},
		{"view past the buffer", func(f *fixture) *gltf.Accessor {
			v := f.view(make([]byte, 12), 0)
			f.doc.BufferViews[v].ByteLength = 1 << 40
			return vec3(v, 1)
		}, "exceeds buffer 0 length 12"},
		{"missing view", func(f *fixture) *gltf.Accessor { return vec3(5, 1) }, "bufferView 5 does not exist"},
		{"missing buffer", func(f *fixture) *gltf.Accessor {
			v := f.view(make([]byte, 12), 0)
			f.doc.BufferViews[v].Buffer = 3
			return vec3(v, 1)
		}, "buffer 3 does not exist"},
		{"zero count", func(f *fixture) *gltf.Accessor { return vec3(f.view(make([]byte, 12), 0), 0) }, "count 0 is not positive"},
		{"unbacked huge count", func(f *fixture) *gltf.Accessor {
			return &gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 4_000_000_000}
		}, "without a bufferView exceeds the limit"},
		{"unknown component type", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 12), 0), 1)
			a.ComponentType = 99
			return a
		}, "unknown componentType"},
		{"normalized float", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 12), 0), 1)
			a.Normalized = true
			return a
		}, "normalized is not allowed"},
		{"VEC2 positions", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 16), 0), 1)
			a.Type = gltf.AccessorVec2
			return a
		}, "POSITION must be VEC3"},
		{"UNSIGNED_INT positions", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 12), 0), 1)
			a.ComponentType = gltf.ComponentUint
			return a
		}, "POSITION cannot be UNSIGNED_INT"},
		{"NaN position", func(f *fixture) *gltf.Accessor {
			return vec3(f.view(f32s(0, float32(math.NaN()), 0), 0), 1)
		}, "POSITION 0 is not finite"},
		{"sparse indices not increasing", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 48), 0), 4)
			a.Sparse = &gltf.Sparse{Count: 2,
				Indices: gltf.SparseIndices{BufferView: f.view(u16s(2, 2), 0), ComponentType: gltf.ComponentUshort},
				Values:  gltf.SparseValues{BufferView: f.view(make([]byte, 24), 0)}}
			return a
		}, "not strictly increasing"},
		{"sparse index out of range", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 48), 0), 4)
			a.Sparse = &gltf.Sparse{Count: 1,
				Indices: gltf.SparseIndices{BufferView: f.view(u8s(4), 0), ComponentType: gltf.ComponentUbyte},
				Values:  gltf.SparseValues{BufferView: f.view(make([]byte, 12), 0)}}
			return a
		}, "index 0 is not below the accessor count 4"},
		{"sparse count above count", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 12), 0), 1)
			a.Sparse = &gltf.Sparse{Count: 2,
				Indices: gltf.SparseIndices{BufferView: f.view(u8s(0, 1), 0), ComponentType: gltf.ComponentUbyte},
				Values:  gltf.SparseValues{BufferView: f.view(make([]byte, 24), 0)}}
			return a
		}, "count 2 is outside [1, 1]"},
		{"sparse values short", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 48), 0), 4)
			a.Sparse = &gltf.Sparse{Count: 2,
				Indices: gltf.SparseIndices{BufferView: f.view(u8s(0, 1), 0), ComponentType: gltf.ComponentUbyte},
				Values:  gltf.SparseValues{BufferView: f.view(make([]byte, 20), 0)}}
			return a
		}, "values: byteOffset 0 + 2×12 exceeds length 20"},
		{"sparse float indices", func(f *fixture) *gltf.Accessor {
			a := vec3(f.view(make([]byte, 48), 0), 4)
			a.Sparse = &gltf.Sparse{Count: 1,
				Indices: gltf.SparseIndices{BufferView: f.view(f32s(0), 0), ComponentType: gltf.ComponentFloat},
				Values:  gltf.SparseValues{BufferView: f.view(make([]byte, 12), 0)}}
			return a
		}, "not an unsigned integer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture()
			a := f.accessor(c.build(f))
			_, err := positions(f.done(), a)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "accessor 0: ") {
				t.Errorf("error %q does not name the accessor", err)
			}
		})
	}
}

// TestSparse applies sparse substitutions over a base view and over
// implicit zeros (no bufferView).
func TestSparse(t *testing.T) {
	for _, withBase := range []bool{true, false} {
		f := newFixture()
		a := &gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 4}
		base := [4]geom.Vec3{}
		if withBase {
			a.BufferView = gltf.Index(f.view(f32s(1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4), 0))
			base = [4]geom.Vec3{{1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}}
		}
		a.Sparse = &gltf.Sparse{Count: 2,
			Indices: gltf.SparseIndices{BufferView: f.view(u32s(0, 0, 1, 3), 0), ByteOffset: 8, ComponentType: gltf.ComponentUint},
			Values:  gltf.SparseValues{BufferView: f.view(f32s(0, 9, 8, 7, 6, 5, 4), 0), ByteOffset: 4}}
		i := f.accessor(a)
		got, err := positions(f.done(), i)
		if err != nil {
			t.Fatal(err)
		}
		want := base
		want[1] = geom.Vec3{9, 8, 7}
		want[3] = geom.Vec3{6, 5, 4}
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("base %v: element %d = %v, want %v", withBase, k, got[k], want[k])
			}
		}
	}
}

// TestIndices decodes each index type and refuses indices that reach past
// the vertices or have the wrong type.
func TestIndices(t *testing.T) {
	for _, ct := range []gltf.ComponentType{gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint} {
		f := newFixture()
		a := f.scalars(ct, 0, 2, 1, 3)
		doc := f.done()
		got, err := indices(doc, a, 4)
		if err != nil {
			t.Fatalf("%s: %v", ct, err)
		}
		if want := []uint32{0, 2, 1, 3}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
			t.Errorf("%s: got %v, want %v", ct, got, want)
		}
		if _, err := indices(doc, a, 3); err == nil || !strings.Contains(err.Error(), "index 3 is not below the vertex count 3") {
			t.Errorf("%s: index past the vertices: got %v", ct, err)
		}
	}
	f := newFixture()
	fl := f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(f32s(0, 1, 2), 0)), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorScalar, Count: 3})
	vec := f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(u16s(0, 1, 2), 0)), ComponentType: gltf.ComponentUshort, Type: gltf.AccessorVec3, Count: 1})
	doc := f.done()
	if _, err := indices(doc, fl, 3); err == nil || !strings.Contains(err.Error(), "indices cannot be FLOAT") {
		t.Errorf("float indices: got %v", err)
	}
	if _, err := indices(doc, vec, 3); err == nil || !strings.Contains(err.Error(), "must be SCALAR") {
		t.Errorf("VEC3 indices: got %v", err)
	}
	if _, err := indices(doc, 7, 3); err == nil || !strings.Contains(err.Error(), "accessor 7 does not exist") {
		t.Errorf("missing accessor: got %v", err)
	}
}

// TestMatrixPadding reads a BYTE MAT3 accessor, whose columns are padded
// to 4 bytes.
func TestMatrixPadding(t *testing.T) {
	f := newFixture()
	v := f.view(u8s(1, 2, 3, 0xee, 4, 5, 6, 0xee, 7, 8, 9, 0xee), 0)
	f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentByte, Type: gltf.AccessorMat3, Count: 1})
	d := newDecoder(f.done())
	vals, _, _, err := d.read(0)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
		if vals[k] != want {
			t.Fatalf("got %v, want 1…9", vals)
		}
	}
}

// positions decodes a POSITION accessor as Primitive does.
func positions(doc *gltf.Document, accessor int) ([]geom.Vec3, error) {
	return newDecoder(doc).vec3s(accessor, "POSITION", MaxUnbackedCount, positionTypes)
}

// indices decodes an index accessor as Primitive does.
func indices(doc *gltf.Document, accessor, vertexCount int) ([]uint32, error) {
	return newDecoder(doc).indices(accessor, vertexCount)
}
