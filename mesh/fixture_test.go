package mesh

import (
	"encoding/binary"
	"math"

	"github.com/qmuntal/gltf"
)

// fixture builds small glTF documents in memory: one buffer, views and
// accessors appended as needed.
type fixture struct {
	doc *gltf.Document
	buf []byte
}

func newFixture() *fixture {
	return &fixture{doc: &gltf.Document{Asset: gltf.Asset{Version: "2.0"}, Buffers: []*gltf.Buffer{{}}}}
}

// done attaches the bytes to the buffer and returns the document.
func (f *fixture) done() *gltf.Document {
	f.doc.Buffers[0].Data = f.buf
	f.doc.Buffers[0].ByteLength = len(f.buf)
	return f.doc
}

// view appends b (4-byte aligned) as a new bufferView.
func (f *fixture) view(b []byte, stride int) int {
	for len(f.buf)%4 != 0 {
		f.buf = append(f.buf, 0)
	}
	f.doc.BufferViews = append(f.doc.BufferViews, &gltf.BufferView{ByteOffset: len(f.buf), ByteLength: len(b), ByteStride: stride})
	f.buf = append(f.buf, b...)
	return len(f.doc.BufferViews) - 1
}

func (f *fixture) accessor(a *gltf.Accessor) int {
	f.doc.Accessors = append(f.doc.Accessors, a)
	return len(f.doc.Accessors) - 1
}

// vec3 adds a FLOAT VEC3 accessor over a new view.
func (f *fixture) vec3(vs ...[3]float32) int {
	var flat []float32
	for _, v := range vs {
		flat = append(flat, v[:]...)
	}
	v := f.view(f32s(flat...), 0)
	return f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: len(vs)})
}

// scalars adds a SCALAR accessor of component type ct over a new view.
func (f *fixture) scalars(ct gltf.ComponentType, vals ...int) int {
	var b []byte
	switch ct {
	case gltf.ComponentUbyte:
		b = u8s(vals...)
	case gltf.ComponentUshort:
		b = u16s(vals...)
	default:
		b = u32s(vals...)
	}
	v := f.view(b, 0)
	return f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: ct, Type: gltf.AccessorScalar, Count: len(vals)})
}

func (f *fixture) mesh(prims ...*gltf.Primitive) int {
	f.doc.Meshes = append(f.doc.Meshes, &gltf.Mesh{Primitives: prims})
	return len(f.doc.Meshes) - 1
}

func (f *fixture) node(n *gltf.Node) int {
	f.doc.Nodes = append(f.doc.Nodes, n)
	return len(f.doc.Nodes) - 1
}

// scene sets a single default scene with the given roots.
func (f *fixture) scene(roots ...int) {
	f.doc.Scenes = append(f.doc.Scenes, &gltf.Scene{Nodes: roots})
}

func f32s(vals ...float32) []byte {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func u8s(vals ...int) []byte {
	b := make([]byte, len(vals))
	for i, v := range vals {
		b[i] = byte(v)
	}
	return b
}

func u16s(vals ...int) []byte {
	b := make([]byte, 2*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}

func u32s(vals ...int) []byte {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return b
}

// cubeCorners and cubeTriangles are a closed unit cube [0,1]³ wound
// outward.
var cubeCorners = [][3]float32{
	{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
	{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1},
}

var cubeTriangles = []int{
	0, 2, 1, 0, 3, 2, // z = 0, normal −z
	4, 5, 6, 4, 6, 7, // z = 1, +z
	0, 1, 5, 0, 5, 4, // y = 0, −y
	3, 7, 6, 3, 6, 2, // y = 1, +y
	0, 4, 7, 0, 7, 3, // x = 0, −x
	1, 2, 6, 1, 6, 5, // x = 1, +x
}

// cubeMesh adds the cube as an indexed mesh.
func (f *fixture) cubeMesh() int {
	pos := f.vec3(cubeCorners...)
	idx := f.scalars(gltf.ComponentUshort, cubeTriangles...)
	return f.mesh(&gltf.Primitive{Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(idx)})
}
