package mesh

import (
	"fmt"
	"math"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/draco"
	"github.com/autocollide/autocollide/geom"
)

// dracoPrimitive is the KHR_draco_mesh_compression object of a primitive.
type dracoPrimitive struct {
	BufferView *int           `json:"bufferView"`
	Attributes map[string]int `json:"attributes"`
}

// draco decodes the KHR_draco_mesh_compression stream of prim (when it has
// one) and makes the accessors the primitive names read the decoded
// values: each semantic of the extension's attributes map takes the Draco
// attribute of that unique id, and the indices accessor the Draco faces.
// It reports whether prim is compressed and, if so, its triangle list.
// The accessors' declared counts bound the decoder before it allocates
// (they are what gltfio checked against the triangle limit), and the
// decoded counts, component counts and value ranges must agree with them.
func (d *decoder) draco(prim *gltf.Primitive) (bool, []uint32, error) {
	var ext dracoPrimitive
	ok, err := decodeExtension(prim.Extensions, extDraco, &ext)
	if !ok || err != nil {
		return ok, nil, err
	}
	if ext.BufferView == nil {
		return true, nil, fmt.Errorf("%s: no bufferView", extDraco)
	}
	if prim.Mode != gltf.PrimitiveTriangles {
		return true, nil, fmt.Errorf("%s: mode %s is not TRIANGLES", extDraco, prim.Mode)
	}
	if len(ext.Attributes) == 0 {
		return true, nil, fmt.Errorf("%s: no attributes", extDraco)
	}
	posAcc, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return true, nil, fmt.Errorf("no POSITION attribute")
	}
	points, err := d.accessorCount(posAcc)
	if err != nil {
		return true, nil, fmt.Errorf("POSITION: %w", err)
	}
	maxFaces := points / 3 // non-indexed: as gltfio counts it
	if prim.Indices != nil {
		n, err := d.accessorCount(*prim.Indices)
		if err != nil {
			return true, nil, fmt.Errorf("indices: %w", err)
		}
		if n%3 != 0 {
			return true, nil, fmt.Errorf("indices accessor %d: count %d is not a multiple of 3", *prim.Indices, n)
		}
		maxFaces = n / 3
	}
	if points > MaxVertices || maxFaces > MaxTriangles {
		return true, nil, fmt.Errorf("%s: %d points and %d faces declared, over the limits %d and %d", extDraco, points, maxFaces, MaxVertices, MaxTriangles)
	}
	if d.dracoViews == nil {
		d.dracoViews, d.dracoFaces, d.dracoValues = map[int]int{}, map[int][]uint32{}, map[int][]float64{}
	}
	// Primitives that share a stream decode it once; an accessor may take
	// values from one stream only.
	semantics := make([]string, 0, len(ext.Attributes))
	for s := range ext.Attributes {
		semantics = append(semantics, s)
	}
	sort.Strings(semantics)
	accs := []int{}
	for _, s := range semantics {
		a, ok := prim.Attributes[s]
		if !ok {
			return true, nil, fmt.Errorf("%s: attribute %s is not among the primitive's attributes", extDraco, s)
		}
		accs = append(accs, a)
	}
	if prim.Indices != nil {
		accs = append(accs, *prim.Indices)
	}
	for _, a := range accs {
		if v, ok := d.dracoViews[a]; ok && v != *ext.BufferView {
			return true, nil, fmt.Errorf("%s: accessor %d is also decoded from bufferView %d", extDraco, a, v)
		}
	}
	if faces, ok := d.dracoFaces[*ext.BufferView]; ok {
		return true, faces, nil
	}
	src, bv, err := d.view(*ext.BufferView)
	if err != nil {
		return true, nil, fmt.Errorf("%s: %w", extDraco, err)
	}
	if bv.ByteStride != 0 {
		return true, nil, fmt.Errorf("%s: bufferView %d has a byteStride", extDraco, *ext.BufferView)
	}
	decode := d.dracoDecode
	if decode == nil {
		decode = draco.Decode
	}
	m, err := decode(src, draco.Limits{MaxPoints: points, MaxFaces: maxFaces})
	if err != nil {
		return true, nil, fmt.Errorf("%s: bufferView %d: %w", extDraco, *ext.BufferView, err)
	}
	if m.NumPoints != points {
		return true, nil, fmt.Errorf("%s: the stream has %d points, accessor %d declares %d", extDraco, m.NumPoints, posAcc, points)
	}
	if prim.Indices != nil && len(m.Faces) != maxFaces {
		return true, nil, fmt.Errorf("%s: the stream has %d indices, accessor %d declares %d", extDraco, 3*len(m.Faces), *prim.Indices, 3*maxFaces)
	}
	faces := make([]uint32, 0, 3*len(m.Faces))
	for _, f := range m.Faces {
		faces = append(faces, f[0], f[1], f[2])
	}
	for k, v := range faces {
		if int(v) >= points {
			return true, nil, fmt.Errorf("%s: index %d is not below the point count %d", extDraco, k, points)
		}
	}
	values := map[int][]float64{}
	for _, s := range semantics {
		acc := prim.Attributes[s]
		v, err := d.dracoAttribute(m, uint32(ext.Attributes[s]), acc)
		if err != nil {
			return true, nil, fmt.Errorf("%s: %s: %w", extDraco, s, err)
		}
		values[acc] = v
	}
	if prim.Indices != nil {
		a := d.doc.Accessors[*prim.Indices]
		if a.Type != gltf.AccessorScalar {
			return true, nil, fmt.Errorf("indices accessor %d must be SCALAR, not %s", *prim.Indices, a.Type)
		}
		idx := make([]float64, len(faces))
		for i, f := range faces {
			idx[i] = float64(f)
		}
		if err := fitsComponent(idx, a.ComponentType); err != nil {
			return true, nil, fmt.Errorf("indices accessor %d: %w", *prim.Indices, err)
		}
		values[*prim.Indices] = idx
	}
	for a, v := range values {
		d.dracoValues[a], d.dracoViews[a] = v, *ext.BufferView
	}
	d.dracoFaces[*ext.BufferView] = faces
	return true, faces, nil
}

// accessorCount returns the declared count of accessor i.
func (d *decoder) accessorCount(i int) (int, error) {
	if i < 0 || i >= len(d.doc.Accessors) || d.doc.Accessors[i] == nil {
		return 0, fmt.Errorf("accessor %d does not exist", i)
	}
	if n := d.doc.Accessors[i].Count; n >= 1 {
		return n, nil
	}
	return 0, fmt.Errorf("accessor %d: count %d is not positive", i, d.doc.Accessors[i].Count)
}

// dracoAttribute returns the values of Draco attribute id as accessor acc
// reads them: same number of components, integers normalized with the
// glTF formulas when the accessor says so.
func (d *decoder) dracoAttribute(m *draco.Mesh, id uint32, acc int) ([]float64, error) {
	a := d.doc.Accessors[acc]
	att := m.Attribute(id)
	if att == nil {
		return nil, fmt.Errorf("the stream has no attribute with unique id %d", id)
	}
	lay, err := layoutOf(a)
	if err != nil {
		return nil, fmt.Errorf("accessor %d: %w", acc, err)
	}
	if a.Count != m.NumPoints {
		return nil, fmt.Errorf("accessor %d declares %d elements, the stream has %d points", acc, a.Count, m.NumPoints)
	}
	if lay.comps != att.NumComponents {
		return nil, fmt.Errorf("accessor %d is %s, the stream's attribute %d has %d components", acc, a.Type, id, att.NumComponents)
	}
	if a.Normalized && (a.ComponentType == gltf.ComponentFloat || a.ComponentType == gltf.ComponentUint) {
		return nil, fmt.Errorf("accessor %d: normalized is not allowed with componentType %s", acc, a.ComponentType)
	}
	if len(att.Values) != m.NumPoints*att.NumComponents {
		return nil, fmt.Errorf("attribute %d has %d values for %d points", id, len(att.Values), m.NumPoints)
	}
	if err := fitsComponent(att.Values, a.ComponentType); err != nil {
		return nil, fmt.Errorf("accessor %d: %w", acc, err)
	}
	if !a.Normalized {
		return att.Values, nil
	}
	out := make([]float64, len(att.Values))
	for i, v := range att.Values {
		out[i] = normalize(v, a.ComponentType)
	}
	return out, nil
}

// fitsComponent checks that every value can be stored in the component
// type: whole numbers within range for the integer types, finite or not
// for FLOAT (finiteness is the readers' check).
func fitsComponent(vals []float64, ct gltf.ComponentType) error {
	lo, hi := 0.0, 0.0
	switch ct {
	case gltf.ComponentFloat:
		return nil
	case gltf.ComponentByte:
		lo, hi = math.MinInt8, math.MaxInt8
	case gltf.ComponentUbyte:
		hi = math.MaxUint8
	case gltf.ComponentShort:
		lo, hi = math.MinInt16, math.MaxInt16
	case gltf.ComponentUshort:
		hi = math.MaxUint16
	case gltf.ComponentUint:
		hi = math.MaxUint32
	default:
		return fmt.Errorf("unknown componentType %d", ct)
	}
	for i, v := range vals {
		if v != math.Trunc(v) || v < lo || v > hi {
			return fmt.Errorf("decoded value %d does not fit componentType %s", i, ct)
		}
	}
	return nil
}

// Primitive decodes the positions and the index list of a primitive as
// stored, without transforms, morph targets or skins: plain and sparse
// accessors, EXT_meshopt_compression views and KHR_draco_mesh_compression
// streams alike; a non-indexed primitive's index list is 0…n−1. It is for
// readers of single meshes (collision meshes, exports); Extract reads
// scenes.
func Primitive(doc *gltf.Document, prim *gltf.Primitive) (pos []geom.Vec3, idx []uint32, err error) {
	d := newDecoder(doc)
	posAcc, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return nil, nil, fmt.Errorf("no POSITION attribute")
	}
	compressed, faces, err := d.draco(prim)
	if err != nil {
		return nil, nil, err
	}
	if pos, err = d.vec3s(posAcc, "POSITION", MaxUnbackedCount, positionTypes); err != nil {
		return nil, nil, err
	}
	switch {
	case compressed:
		return pos, faces, nil
	case prim.Indices != nil:
		idx, err = d.indices(*prim.Indices, len(pos))
		return pos, idx, err
	}
	idx = make([]uint32, len(pos))
	for i := range idx {
		idx[i] = uint32(i)
	}
	return pos, idx, nil
}
