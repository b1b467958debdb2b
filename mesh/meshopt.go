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
