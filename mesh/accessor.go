package mesh

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/draco"
	"github.com/autocollide/autocollide/geom"
)

// MaxUnbackedCount bounds the count of an accessor that has no bufferView
// (its values are zeros, possibly replaced by sparse values). Such an
// accessor costs nothing in the file, so without a bound a tiny document
// could ask for gigabytes. A sparse morph target may exceed it when its
// count equals the (backed) vertex count it displaces.
const MaxUnbackedCount = 1 << 20

// decoder reads accessors of one document. It validates every offset,
// length and count against the bytes that really exist before it allocates
// anything, and caches decoded EXT_meshopt_compression buffer views.
type decoder struct {
	doc *gltf.Document
	// meshoptDecode decodes a compressed buffer view; meshopt.Decode in
	// production, a fake in tests of the plumbing.
	meshoptDecode func(dst []byte, count, byteStride int, src []byte, mode, filter string) error
	// dracoDecode decodes a KHR_draco_mesh_compression stream;
	// draco.Decode in production, a fake in tests of the plumbing.
	dracoDecode func(data []byte, lim draco.Limits) (*draco.Mesh, error)
	views       map[int][]byte // decoded meshopt views
	positions   map[int][]geom.Vec3
	// Accessors of KHR_draco_mesh_compression primitives read the values
	// decoded from their stream (see draco): values by accessor, the
	// compressed bufferView each accessor came from, and the triangle list
	// of each decoded bufferView.
	dracoValues map[int][]float64
	dracoViews  map[int]int
	dracoFaces  map[int][]uint32
}

// componentSize returns the byte size of a component type, 0 if unknown.
func componentSize(c gltf.ComponentType) int {
	switch c {
	case gltf.ComponentByte, gltf.ComponentUbyte:
		return 1
	case gltf.ComponentShort, gltf.ComponentUshort:
		return 2
	case gltf.ComponentUint, gltf.ComponentFloat:
		return 4
	}
	return 0
}

// typeShape returns the number of columns and rows of an accessor type
// (1 column for scalars and vectors), or 0, 0 if unknown.
func typeShape(t gltf.AccessorType) (cols, rows int) {
	switch t {
	case gltf.AccessorScalar:
		return 1, 1
	case gltf.AccessorVec2:
		return 1, 2
	case gltf.AccessorVec3:
		return 1, 3
	case gltf.AccessorVec4:
		return 1, 4
	case gltf.AccessorMat2:
		return 2, 2
	case gltf.AccessorMat3:
		return 3, 3
	case gltf.AccessorMat4:
		return 4, 4
	}
	return 0, 0
}

// layout is the byte layout of one accessor element.
type layout struct {
	comps    int // components per element
	compSize int // bytes per component
	rows     int // components per matrix column (comps for vectors)
	colBytes int // bytes per column, padded to 4 bytes for matrices
	elemSize int // bytes per element
}

func layoutOf(a *gltf.Accessor) (layout, error) {
	cs := componentSize(a.ComponentType)
	if cs == 0 {
		return layout{}, fmt.Errorf("unknown componentType %d", a.ComponentType)
	}
	cols, rows := typeShape(a.Type)
	if cols == 0 {
		return layout{}, fmt.Errorf("unknown type %d", a.Type)
	}
	colBytes := rows * cs
	if cols > 1 && colBytes%4 != 0 {
		// Matrix columns start on 4-byte boundaries (glTF 2.0 §3.6.2.4).
		colBytes += 4 - colBytes%4
	}
	return layout{comps: cols * rows, compSize: cs, rows: rows, colBytes: colBytes, elemSize: cols * colBytes}, nil
}

// view returns the bytes of buffer view i, validated against its buffer,
// or decoded when the view is EXT_meshopt_compression-compressed.
func (d *decoder) view(i int) ([]byte, *gltf.BufferView, error) {
	if i < 0 || i >= len(d.doc.BufferViews) || d.doc.BufferViews[i] == nil {
		return nil, nil, fmt.Errorf("bufferView %d does not exist", i)
	}
	bv := d.doc.BufferViews[i]
	if b, ok := d.views[i]; ok {
		return b, bv, nil
	}
	ext, err := meshoptExtension(bv)
	if err != nil {
		return nil, nil, fmt.Errorf("bufferView %d: %w", i, err)
	}
	if ext != nil {
		b, err := d.decodeMeshopt(bv, ext)
		if err != nil {
			return nil, nil, fmt.Errorf("bufferView %d: %w", i, err)
		}
		if d.views == nil {
			d.views = make(map[int][]byte)
		}
		d.views[i] = b
		return b, bv, nil
	}
	b, err := d.bufferRange(bv.Buffer, bv.ByteOffset, bv.ByteLength)
	if err != nil {
		return nil, nil, fmt.Errorf("bufferView %d: %w", i, err)
	}
	return b, bv, nil
}

// bufferRange returns length bytes at offset in buffer i, checked against
// the bytes the buffer really holds.
func (d *decoder) bufferRange(i, offset, length int) ([]byte, error) {
	if i < 0 || i >= len(d.doc.Buffers) || d.doc.Buffers[i] == nil {
		return nil, fmt.Errorf("buffer %d does not exist", i)
	}
	data := d.doc.Buffers[i].Data
	if offset < 0 || length < 0 {
		return nil, fmt.Errorf("negative byteOffset %d or byteLength %d", offset, length)
	}
	if offset > len(data) || length > len(data)-offset {
		return nil, fmt.Errorf("byteOffset %d + byteLength %d exceeds buffer %d length %d", offset, length, i, len(data))
	}
	return data[offset : offset+length : offset+length], nil
}

// read decodes accessor i into count×components float64 values, in
// element order (matrices column-major, padding skipped). Integer
// components are dequantized with the glTF formulas when the accessor is
// normalized and converted exactly otherwise. Sparse substitution is
// applied. Nothing is allocated before the layout is checked against the
// bytes available.
func (d *decoder) read(i int) ([]float64, *gltf.Accessor, layout, error) {
	return d.readLimit(i, MaxUnbackedCount)
}

// readLimit is read with a caller-chosen bound on unbacked counts.
func (d *decoder) readLimit(i, maxUnbacked int) ([]float64, *gltf.Accessor, layout, error) {
	if i < 0 || i >= len(d.doc.Accessors) || d.doc.Accessors[i] == nil {
		return nil, nil, layout{}, fmt.Errorf("accessor %d does not exist", i)
	}
	a := d.doc.Accessors[i]
	if vals, ok := d.dracoValues[i]; ok {
		lay, err := layoutOf(a)
		return vals, a, lay, err
	}
	vals, lay, err := d.readAccessor(a, maxUnbacked)
	if err != nil {
		return nil, nil, layout{}, fmt.Errorf("accessor %d: %w", i, err)
	}
	return vals, a, lay, nil
}

func (d *decoder) readAccessor(a *gltf.Accessor, maxUnbacked int) ([]float64, layout, error) {
	lay, err := layoutOf(a)
	if err != nil {
		return nil, lay, err
	}
	if a.Count < 1 {
		return nil, lay, fmt.Errorf("count %d is not positive", a.Count)
	}
	if a.Normalized && (a.ComponentType == gltf.ComponentFloat || a.ComponentType == gltf.ComponentUint) {
		return nil, lay, fmt.Errorf("normalized is not allowed with componentType %s", a.ComponentType)
	}
	var (
		src    []byte
		stride int
	)
	if a.BufferView != nil {
		view, bv, err := d.view(*a.BufferView)
		if err != nil {
			return nil, lay, err
		}
		stride = lay.elemSize
		if bv.ByteStride != 0 {
			stride = bv.ByteStride
			if stride < lay.elemSize {
				return nil, lay, fmt.Errorf("bufferView %d byteStride %d is smaller than the element size %d", *a.BufferView, stride, lay.elemSize)
			}
		}
		if a.ByteOffset < 0 || a.ByteOffset > len(view) {
			return nil, lay, fmt.Errorf("byteOffset %d is outside bufferView %d length %d", a.ByteOffset, *a.BufferView, len(view))
		}
		// count ≤ len(view) keeps the products below far from overflow.
		avail := len(view) - a.ByteOffset
		if a.Count > avail || (a.Count > 1 && stride > avail) || (a.Count-1)*stride+lay.elemSize > avail {
			return nil, lay, fmt.Errorf("byteOffset %d + %d×%d exceeds bufferView %d length %d", a.ByteOffset, a.Count, stride, *a.BufferView, len(view))
		}
		if err := CheckAlignment(a.ByteOffset, bv, lay.compSize); err != nil {
			return nil, lay, fmt.Errorf("bufferView %d: %w", *a.BufferView, err)
		}
		src = view[a.ByteOffset:]
	} else if a.Count > maxUnbacked {
		return nil, lay, fmt.Errorf("count %d without a bufferView exceeds the limit %d", a.Count, maxUnbacked)
	}
	var sp *sparseData
	if a.Sparse != nil {
		if sp, err = d.sparse(a, lay); err != nil {
			return nil, lay, fmt.Errorf("sparse: %w", err)
		}
	}
	out := make([]float64, a.Count*lay.comps)
	if src != nil {
		for e := 0; e < a.Count; e++ {
			decodeElement(out[e*lay.comps:(e+1)*lay.comps], src[e*stride:], a.ComponentType, a.Normalized, lay)
		}
	}
	if sp != nil {
		for k, idx := range sp.indices {
			decodeElement(out[idx*lay.comps:(idx+1)*lay.comps], sp.values[k*lay.elemSize:], a.ComponentType, a.Normalized, lay)
		}
	}
	return out, lay, nil
}

type sparseData struct {
	indices []int
	values  []byte
}

// sparse validates and reads the sparse part of accessor a: count in
// [1, a.Count], indices strictly increasing and below a.Count, values
// tightly packed.
func (d *decoder) sparse(a *gltf.Accessor, lay layout) (*sparseData, error) {
	s := a.Sparse
	if s.Count < 1 || s.Count > a.Count {
		return nil, fmt.Errorf("count %d is outside [1, %d]", s.Count, a.Count)
	}
	is := componentSize(s.Indices.ComponentType)
	switch s.Indices.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, fmt.Errorf("indices componentType %s is not an unsigned integer", s.Indices.ComponentType)
	}
	iv, ibv, err := d.view(s.Indices.BufferView)
	if err != nil {
		return nil, fmt.Errorf("indices: %w", err)
	}
	if err := CheckAlignment(s.Indices.ByteOffset, ibv, is); err != nil {
		return nil, fmt.Errorf("indices: bufferView %d: %w", s.Indices.BufferView, err)
	}
	if err := fits(s.Indices.ByteOffset, s.Count, is, len(iv)); err != nil {
		return nil, fmt.Errorf("indices: %w (bufferView %d)", err, s.Indices.BufferView)
	}
	vv, vbv, err := d.view(s.Values.BufferView)
	if err != nil {
		return nil, fmt.Errorf("values: %w", err)
	}
	if err := CheckAlignment(s.Values.ByteOffset, vbv, lay.compSize); err != nil {
		return nil, fmt.Errorf("values: bufferView %d: %w", s.Values.BufferView, err)
	}
	if err := fits(s.Values.ByteOffset, s.Count, lay.elemSize, len(vv)); err != nil {
		return nil, fmt.Errorf("values: %w (bufferView %d)", err, s.Values.BufferView)
	}
	ib := iv[s.Indices.ByteOffset:]
	sp := &sparseData{indices: make([]int, s.Count), values: vv[s.Values.ByteOffset:]}
	prev := -1
	for k := range sp.indices {
		var idx int
		switch is {
		case 1:
			idx = int(ib[k])
		case 2:
			idx = int(binary.LittleEndian.Uint16(ib[2*k:]))
		default:
			idx = int(binary.LittleEndian.Uint32(ib[4*k:]))
		}
		if idx <= prev {
			return nil, fmt.Errorf("indices are not strictly increasing (at index %d)", k)
		}
		if idx >= a.Count {
			return nil, fmt.Errorf("index %d is not below the accessor count %d", k, a.Count)
		}
		sp.indices[k] = idx
		prev = idx
	}
	return sp, nil
}

// CheckAlignment enforces glTF 2.0 §3.6.2.4: an accessor's offset into
// its buffer view and into the buffer (the view's byteOffset plus its
// own) and the view's byteStride are multiples of the component size. A
// misaligned accessor reads components across element boundaries, which
// turns a cube into 1e-41 m of garbage, so it is refused.
func CheckAlignment(offset int, bv *gltf.BufferView, compSize int) error {
	switch {
	case offset%compSize != 0:
		return fmt.Errorf("accessor byteOffset %d is not a multiple of the component size %d", offset, compSize)
	case (bv.ByteOffset+offset)%compSize != 0:
		return fmt.Errorf("byteOffset %d + accessor byteOffset %d is not a multiple of the component size %d", bv.ByteOffset, offset, compSize)
	case bv.ByteStride%compSize != 0:
		return fmt.Errorf("byteStride %d is not a multiple of the component size %d", bv.ByteStride, compSize)
	}
	return nil
}

// fits checks that count tightly packed elements of size bytes starting at
// offset lie within n bytes.
func fits(offset, count, size, n int) error {
	if offset < 0 || offset > n || count > n || count*size > n-offset {
		return fmt.Errorf("byteOffset %d + %d×%d exceeds length %d", offset, count, size, n)
	}
	return nil
}

// decodeElement decodes one element from b into dst (len(dst) = comps).
// b holds at least lay.elemSize bytes.
func decodeElement(dst []float64, b []byte, ct gltf.ComponentType, normalized bool, lay layout) {
	for c := range dst {
		col, row := c/lay.rows, c%lay.rows
		o := col*lay.colBytes + row*lay.compSize
		dst[c] = component(b[o:], ct, normalized)
	}
}

// component decodes one component; normalized integers are mapped by
// normalize.
func component(b []byte, ct gltf.ComponentType, normalized bool) float64 {
	var v float64
	switch ct {
	case gltf.ComponentFloat:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case gltf.ComponentByte:
		v = float64(int8(b[0]))
	case gltf.ComponentUbyte:
		v = float64(b[0])
	case gltf.ComponentShort:
		v = float64(int16(binary.LittleEndian.Uint16(b)))
	case gltf.ComponentUshort:
		v = float64(binary.LittleEndian.Uint16(b))
	default: // ComponentUint; never normalized (checked by readAccessor)
		return float64(binary.LittleEndian.Uint32(b))
	}
	if normalized {
		return normalize(v, ct)
	}
	return v
}

// normalize maps a normalized integer component to its value by the glTF
// 2.0 formulas (§3.11): max(c/127, −1) for BYTE, c/255 for UNSIGNED_BYTE,
// max(c/32767, −1) for SHORT, c/65535 for UNSIGNED_SHORT.
func normalize(v float64, ct gltf.ComponentType) float64 {
	switch ct {
	case gltf.ComponentByte:
		return math.Max(v/127, -1)
	case gltf.ComponentUbyte:
		return v / 255
	case gltf.ComponentShort:
		return math.Max(v/32767, -1)
	default: // ComponentUshort
		return v / 65535
	}
}

// vec3s reads accessor i as finite VEC3 values. allowed says which
// component types the caller accepts.
func (d *decoder) vec3s(i int, what string, maxUnbacked int, allowed func(gltf.ComponentType, bool) bool) ([]geom.Vec3, error) {
	vals, a, _, err := d.readLimit(i, maxUnbacked)
	if err != nil {
		return nil, err
	}
	if a.Type != gltf.AccessorVec3 {
		return nil, fmt.Errorf("accessor %d: %s must be VEC3, not %s", i, what, a.Type)
	}
	if !allowed(a.ComponentType, a.Normalized) {
		return nil, fmt.Errorf("accessor %d: %s cannot be %s", i, what, describe(a.ComponentType, a.Normalized))
	}
	out := make([]geom.Vec3, a.Count)
	for e := range out {
		v := geom.Vec3{vals[3*e], vals[3*e+1], vals[3*e+2]}
		if !v.IsFinite() {
			return nil, fmt.Errorf("accessor %d: %s %d is not finite", i, what, e)
		}
		out[e] = v
	}
	return out, nil
}

func describe(ct gltf.ComponentType, normalized bool) string {
	if normalized {
		return "normalized " + ct.String()
	}
	return ct.String()
}

// positionTypes are the component types of POSITION: FLOAT, and with
// KHR_mesh_quantization BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT,
// normalized or not.
func positionTypes(ct gltf.ComponentType, _ bool) bool {
	return ct != gltf.ComponentUint
}

// targetTypes are the component types of a morph target's POSITION: FLOAT,
// and with KHR_mesh_quantization BYTE and SHORT, normalized or not.
func targetTypes(ct gltf.ComponentType, _ bool) bool {
	return ct == gltf.ComponentFloat || ct == gltf.ComponentByte || ct == gltf.ComponentShort
}

func (d *decoder) indices(i int, vertexCount int) ([]uint32, error) {
	if i < 0 || i >= len(d.doc.Accessors) || d.doc.Accessors[i] == nil {
		return nil, fmt.Errorf("accessor %d does not exist", i)
	}
	a := d.doc.Accessors[i]
	if a.Type != gltf.AccessorScalar {
		return nil, fmt.Errorf("accessor %d: indices must be SCALAR, not %s", i, a.Type)
	}
	switch a.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, fmt.Errorf("accessor %d: indices cannot be %s", i, a.ComponentType)
	}
	if a.Normalized {
		return nil, fmt.Errorf("accessor %d: indices cannot be normalized", i)
	}
	vals, _, _, err := d.read(i)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, len(vals))
	for k, v := range vals {
		if v >= float64(vertexCount) {
			return nil, fmt.Errorf("accessor %d: index %d is not below the vertex count %d", i, k, vertexCount)
		}
		out[k] = uint32(v)
	}
	return out, nil
}
