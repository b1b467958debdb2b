package mesh

import (
	"encoding/json"
	"fmt"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/meshopt"
)

// Extension names this package reads.
const (
	extMeshopt    = "EXT_meshopt_compression"
	extMeshoptKHR = "KHR_meshopt_compression" // same bufferView object, ratified name
	extDraco      = "KHR_draco_mesh_compression"
	extInstancing = "EXT_mesh_gpu_instancing"
)

// MaxMeshoptExpansion bounds how many decoded bytes one compressed byte of
// an EXT_meshopt_compression buffer view may produce. The codec's densest
// case (a run of zero bytes) costs a couple of header bits per 16–256
// bytes; 4096 leaves a wide margin while stopping a 1 KB file from
// declaring a 4 GB view.
const MaxMeshoptExpansion = 4096

// The decoded bytes of all EXT_meshopt_compression views of one document
// are bounded by what its buffers hold: MeshoptRatio times their bytes,
// and never less than MeshoptFloor. Real meshopt files decode to 2–8 times
// their size; a crafted one can declare a thousand times more (a block
// of 256 all-zero elements costs 3 bytes), and what is decoded is then
// converted to float64 vertices, five times its size again.
const (
	MeshoptRatio = 8
	MeshoptFloor = 64 << 20
)

// meshoptView is the EXT_meshopt_compression object of a bufferView.
type meshoptView struct {
	Buffer     *int   `json:"buffer"`
	ByteOffset int    `json:"byteOffset"`
	ByteLength *int   `json:"byteLength"`
	ByteStride *int   `json:"byteStride"`
	Count      *int   `json:"count"`
	Mode       string `json:"mode"`
	Filter     string `json:"filter"`
}

// decodeExtension unmarshals extension name of exts into v and reports
// whether it was present. qmuntal/gltf keeps unknown extensions as
// json.RawMessage; documents built in Go may hold any JSON-marshalable value.
func decodeExtension(exts gltf.Extensions, name string, v any) (bool, error) {
	raw, ok := exts[name]
	if !ok {
		return false, nil
	}
	var b []byte
	switch x := raw.(type) {
	case json.RawMessage:
		b = x
	case []byte:
		b = x
	default:
		var err error
		if b, err = json.Marshal(x); err != nil {
			return true, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, fmt.Errorf("%s: %w", name, err)
	}
	return true, nil
}

// meshoptExtension returns the compression object of bv, nil if it has none.
func meshoptExtension(bv *gltf.BufferView) (*meshoptView, error) {
	for _, name := range []string{extMeshopt, extMeshoptKHR} {
		var m meshoptView
		ok, err := decodeExtension(bv.Extensions, name, &m)
		if err != nil {
			return nil, err
		}
		if ok {
			return &m, nil
		}
	}
	return nil, nil
}

// decodeMeshopt validates a compression object against bv and the source
// buffer, then decodes it. The fallback buffer bv.Buffer is never read.
func (d *decoder) decodeMeshopt(bv *gltf.BufferView, m *meshoptView) ([]byte, error) {
	if m.Buffer == nil || m.ByteLength == nil || m.ByteStride == nil || m.Count == nil || m.Mode == "" {
		return nil, fmt.Errorf("%s: buffer, byteLength, byteStride, count and mode are required", extMeshopt)
	}
	switch m.Mode {
	case "ATTRIBUTES", "TRIANGLES", "INDICES":
	default:
		return nil, fmt.Errorf("%s: unknown mode %q", extMeshopt, m.Mode)
	}
	switch m.Filter {
	case "", "NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL":
	default:
		return nil, fmt.Errorf("%s: unknown filter %q", extMeshopt, m.Filter)
	}
	count, stride := *m.Count, *m.ByteStride
	if count < 1 || stride < 1 || stride > 256 {
		return nil, fmt.Errorf("%s: count %d or byteStride %d out of range", extMeshopt, count, stride)
	}
	src, err := d.bufferRange(*m.Buffer, m.ByteOffset, *m.ByteLength)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", extMeshopt, err)
	}
	if bv.ByteLength < 0 || count > bv.ByteLength || count*stride != bv.ByteLength {
		return nil, fmt.Errorf("%s: count %d × byteStride %d does not equal the bufferView byteLength %d", extMeshopt, count, stride, bv.ByteLength)
	}
	if bv.ByteLength/MaxMeshoptExpansion > len(src) {
		return nil, fmt.Errorf("%s: %d compressed bytes cannot expand to %d (limit %d×)", extMeshopt, len(src), bv.ByteLength, MaxMeshoptExpansion)
	}
	if min := meshopt.MinEncodedSize(count, stride, m.Mode); min > len(src) {
		return nil, fmt.Errorf("%s: %s stream of %d bytes cannot hold the %d elements it declares (at least %d bytes)", extMeshopt, m.Mode, len(src), count, min)
	}
	if err := d.meshoptBudget(bv.ByteLength); err != nil {
		return nil, fmt.Errorf("%s: %w", extMeshopt, err)
	}
	dst := make([]byte, bv.ByteLength)
	decode := d.meshoptDecode
	if decode == nil {
		decode = meshopt.Decode
	}
	filter := m.Filter
	if filter == "" {
		filter = "NONE"
	}
	if err := decode(dst, count, stride, src, m.Mode, filter); err != nil {
		return nil, fmt.Errorf("%s: %w", extMeshopt, err)
	}
	return dst, nil
}

// meshoptBudget refuses decoding n more bytes when the document's
// decoded views would pass MeshoptRatio times its buffers' bytes (at
// least MeshoptFloor).
func (d *decoder) meshoptBudget(n int) error {
	var held, decoded int64
	for _, b := range d.doc.Buffers {
		if b != nil {
			held += int64(len(b.Data))
		}
	}
	for _, v := range d.views {
		decoded += int64(len(v))
	}
	budget := max(MeshoptRatio*held, MeshoptFloor)
	if decoded+int64(n) > budget {
		return fmt.Errorf("decoding %d more bytes would make %d, over the budget of %d (%d× the %d bytes of the buffers, at least %d MiB)", n, decoded+int64(n), budget, MeshoptRatio, held, MeshoptFloor>>20)
	}
	return nil
}
