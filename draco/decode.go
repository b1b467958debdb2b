package draco

import (
	"errors"
	"fmt"
)

// Limits bound what a stream may declare before anything is allocated; zero
// means no bound beyond what the stream's length allows.
type Limits struct{ MaxPoints, MaxFaces int }

// Mesh is a decoded Draco triangle mesh.
type Mesh struct {
	NumPoints  int
	Faces      [][3]uint32 // point indices, in the order the reference decoder returns them
	Attributes []Attribute
}

// AttributeType is Draco's GeometryAttribute::Type.
type AttributeType uint8

// The attribute types of the bitstream.
const (
	Position AttributeType = 0
	Normal   AttributeType = 1
	Color    AttributeType = 2
	TexCoord AttributeType = 3
	Generic  AttributeType = 4
	Tangent  AttributeType = 5
	Material AttributeType = 6
	Joints   AttributeType = 7
	Weights  AttributeType = 8
)

// DataType is Draco's DataType of attribute components.
type DataType uint8

// The data types of the bitstream.
const (
	Int8    DataType = 1
	Uint8   DataType = 2
	Int16   DataType = 3
	Uint16  DataType = 4
	Int32   DataType = 5
	Uint32  DataType = 6
	Int64   DataType = 7
	Uint64  DataType = 8
	Float32 DataType = 9
	Float64 DataType = 10
	Bool    DataType = 11
)

// size is the byte size of one component.
func (t DataType) size() int {
	switch t {
	case Int8, Uint8, Bool:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	case Int64, Uint64, Float64:
		return 8
	}
	return 0
}

// Attribute is one decoded per-point attribute.
type Attribute struct {
	UniqueID      uint32        // the id glTF's extension "attributes" map refers to
	Type          AttributeType // Position=0, Normal=1, Color=2, TexCoord=3, Generic=4, ...
	DataType      DataType      // Int8=1 ... Float64=10, Bool=11
	NumComponents int
	Normalized    bool
	// Values holds NumPoints*NumComponents values, point-major. Integer
	// values are exact (not normalized even when Normalized is set), float32
	// values are widened exactly.
	Values []float64
}

// Attribute returns the attribute with this unique id, or nil.
func (m *Mesh) Attribute(id uint32) *Attribute {
	for i := range m.Attributes {
		if m.Attributes[i].UniqueID == id {
			return &m.Attributes[i]
		}
	}
	return nil
}

const (
	encoderPointCloud   = 0
	encoderTriangleMesh = 1
	methodSequential    = 0
	methodEdgebreaker   = 1
	metadataFlag        = 0x8000

	// maxPerByte bounds how many faces or points one byte of the remaining
	// stream may declare: far above what any encoder reaches (a face costs
	// bits, not a 32nd of one), far below what would let a few bytes
	// allocate gigabytes.
	maxPerByte = 256
)

// decoder holds the state of one Decode call.
type decoder struct {
	lim        Limits
	numPoints  int
	faces      [][3]uint32
	eb         *edgebreaker // nil for sequential connectivity
	attrs      []*attribute // in the order the stream declares them
	decs       []*attrDecoder
	components int // declared by all attributes, per point
	orders     map[orderKey]order
	lutScratch []uint32
}

// Decode decodes one Draco mesh stream (the bytes of a
// KHR_draco_mesh_compression bufferView).
func Decode(data []byte, lim Limits) (mesh *Mesh, err error) {
	defer func() {
		// Every read is bounds-checked; this only turns a decoder bug on
		// hostile input into an error instead of a crash of the batch.
		if p := recover(); p != nil {
			mesh, err = nil, fmt.Errorf("draco: internal error decoding stream: %v", p)
		}
	}()
	d := &decoder{lim: lim}
	r := &reader{buf: data, section: "header"}
	if err := d.decode(r); err != nil {
		return nil, fmt.Errorf("draco: %w", err)
	}
	return d.mesh(), nil
}

func (d *decoder) decode(r *reader) error {
	magic := r.bytes(5)
	if r.err != nil {
		return r.err
	}
	if string(magic) != "DRACO" {
		return errors.New("header, byte 0: not a Draco stream (no DRACO magic)")
	}
	major, minor := r.u8(), r.u8()
	encoderType, method := r.u8(), r.u8()
	flags := r.u16()
	if r.err != nil {
		return r.err
	}
	if encoderType != encoderTriangleMesh {
		if encoderType == encoderPointCloud {
			return errors.New("header, byte 7: point clouds are not supported, only triangle meshes")
		}
		return fmt.Errorf("header, byte 7: unknown encoder type %d", encoderType)
	}
	if major != 2 || minor != 2 {
		// The reference decoder of glTF pipelines (draco3dgltf 1.5) reads
		// bitstream 2.2 only, the version KHR_draco_mesh_compression names.
		return fmt.Errorf("header, byte 5: bitstream version %d.%d not supported, only 2.2", major, minor)
	}
	if flags&metadataFlag != 0 {
		r.section = "metadata"
		skipGeometryMetadata(r)
		if r.err != nil {
			return r.err
		}
	}
	switch method {
	case methodSequential:
		r.section = "sequential connectivity"
		d.decodeSequential(r)
	case methodEdgebreaker:
		r.section = "edgebreaker connectivity"
		d.decodeEdgebreaker(r)
	default:
		return fmt.Errorf("header, byte 8: unknown mesh encoding method %d", method)
	}
	if r.err != nil {
		return r.err
	}
	d.decodeAttributes(r)
	return r.err
}

// skipGeometryMetadata reads past the attribute and file metadata, which
// the mesh does not carry.
func skipGeometryMetadata(r *reader) {
	n := r.uvar32()
	if uint64(n) > uint64(r.remaining()) {
		r.failf("%d attribute metadata declared, %d bytes left", n, r.remaining())
		return
	}
	for i := uint32(0); i < n && r.err == nil; i++ {
		r.uvar32() // attribute unique id
		skipMetadata(r, 0)
	}
	skipMetadata(r, 0)
}

func skipMetadata(r *reader, depth int) {
	if depth > 32 {
		r.failf("metadata nested deeper than 32 levels")
		return
	}
	n := r.uvar32()
	if uint64(n) > uint64(r.remaining()) {
		r.failf("%d metadata entries declared, %d bytes left", n, r.remaining())
		return
	}
	for i := uint32(0); i < n && r.err == nil; i++ {
		r.bytes(int(r.u8())) // key
		size := r.uvar32()
		if r.err == nil && (size == 0 || uint64(size) > uint64(r.remaining())) {
			r.failf("metadata value of %d bytes, %d left", size, r.remaining())
			return
		}
		r.bytes(int(size))
	}
	subs := r.uvar32()
	if uint64(subs) > uint64(r.remaining()) {
		r.failf("%d sub-metadata declared, %d bytes left", subs, r.remaining())
		return
	}
	for i := uint32(0); i < subs && r.err == nil; i++ {
		r.bytes(int(r.u8())) // name
		skipMetadata(r, depth+1)
	}
}

// checkCounts refuses face and point counts beyond the limits or beyond what
// the rest of the stream could describe, before anything is allocated.
func (d *decoder) checkCounts(r *reader, faces, points uint64) bool {
	if d.lim.MaxFaces > 0 && faces > uint64(d.lim.MaxFaces) {
		r.failf("%d faces declared, the limit is %d", faces, d.lim.MaxFaces)
		return false
	}
	if d.lim.MaxPoints > 0 && points > uint64(d.lim.MaxPoints) {
		r.failf("%d points declared, the limit is %d", points, d.lim.MaxPoints)
		return false
	}
	room := uint64(r.remaining())*maxPerByte + 64
	if faces > room {
		r.failf("%d faces declared, more than %d bytes left can hold", faces, r.remaining())
		return false
	}
	if points > 3*faces+room {
		r.failf("%d points declared, more than %d faces and %d bytes left can hold", points, faces, r.remaining())
		return false
	}
	return true
}

// mesh assembles the result.
func (d *decoder) mesh() *Mesh {
	m := &Mesh{NumPoints: d.numPoints, Faces: d.faces}
	m.Attributes = make([]Attribute, len(d.attrs))
	for i, a := range d.attrs {
		m.Attributes[i] = a.out
	}
	return m
}
