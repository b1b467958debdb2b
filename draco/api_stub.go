package draco

import "errors"

// Temporary stand-in for the decoder's API (branch i22-core), so the
// harness compiles before the decoder lands; deleted when it is merged.

// Limits bounds what Decode may allocate; zero: only the stream-length bound.
type Limits struct{ MaxPoints, MaxFaces int }

// Mesh is a decoded Draco mesh.
type Mesh struct {
	NumPoints  int
	Faces      [][3]uint32
	Attributes []Attribute
}

// Attribute is one decoded attribute.
type Attribute struct {
	UniqueID      uint32
	Type          AttributeType
	DataType      DataType
	NumComponents int
	Normalized    bool
	Values        []float64
}

// AttributeType is Draco's attribute semantic.
type AttributeType int

// Attribute semantics.
const (
	Position AttributeType = 0
	Normal   AttributeType = 1
	Color    AttributeType = 2
	TexCoord AttributeType = 3
	Generic  AttributeType = 4
)

// DataType is Draco's component type.
type DataType int

// Component types.
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

// Decode is not implemented in the stub.
func Decode(data []byte, lim Limits) (*Mesh, error) { return nil, errors.New("not implemented") }

// Attribute returns the attribute with unique id id, nil if none.
func (m *Mesh) Attribute(id uint32) *Attribute {
	for i := range m.Attributes {
		if m.Attributes[i].UniqueID == id {
			return &m.Attributes[i]
		}
	}
	return nil
}
