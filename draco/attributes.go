package draco

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Attribute decoding (spec "Attributes decoding"): attribute decoders, each
// with a traversal that orders its values, and per attribute a sequential
// decoder: raw ("generic"), integer, quantized float, or octahedral normal.
// Each decoder first decodes every attribute's integer ("portable") values,
// then every attribute's transform parameters, then converts.

const (
	decoderGeneric      = 0
	decoderInteger      = 1
	decoderQuantization = 2
	decoderNormals      = 3

	meshVertexAttribute = 0
	numAttributeTypes   = 9

	// maxComponents bounds the components of all attributes of a point
	// together (glTF primitives carry a few dozen), so that the values a
	// stream can make us allocate stay proportional to its points.
	maxComponents = 256
)

// attribute is the decoding state of one attribute.
type attribute struct {
	out       Attribute
	kind      uint8   // sequential decoder type
	pointMap  []int32 // point -> value entry; nil for the identity
	portable  []int32 // integer values, portComps per entry
	portComps int
	ready     bool   // portable values decoded: usable as a parent
	raw       []byte // values of the raw ("generic") decoder, per entry
	// transform parameters
	minValues []float32
	rangeV    float32
	bits      uint8
}

type attrDecoder struct {
	attrs  []*attribute
	table  *cornerTable
	enc    *encodingData
	method int
}

func (d *decoder) decodeAttributes(r *reader) {
	r.section = "attribute decoders"
	n := int(r.u8())
	if r.err != nil {
		return
	}
	decs := make([]*attrDecoder, n)
	d.decs = decs
	for i := range decs {
		dec := &attrDecoder{}
		decs[i] = dec
		if d.eb == nil {
			continue
		}
		dataID := int(int8(r.u8()))
		kind := r.u8()
		method := int(r.u8())
		if r.err != nil {
			return
		}
		eb := d.eb
		if dataID >= len(eb.attrData) {
			r.failf("attribute decoder %d uses connectivity %d of %d", i, dataID, len(eb.attrData))
			return
		}
		if dataID >= 0 {
			eb.attrData[dataID].decoder = i
		}
		dec.method = method
		if kind == meshVertexAttribute {
			dec.table, dec.enc = eb.ct, &eb.posEnc
			if dataID >= 0 {
				dec.enc = &eb.attrData[dataID].enc
				eb.attrData[dataID].connUsed = false
			}
			if method != traversalDepthFirst && method != traversalPredictionDegree {
				r.failf("attribute decoder %d: unknown traversal %d", i, method)
				return
			}
		} else {
			if method != traversalDepthFirst {
				r.failf("attribute decoder %d: traversal %d for per-corner attributes", i, method)
				return
			}
			if dataID < 0 {
				r.failf("attribute decoder %d: per-corner attributes without connectivity", i)
				return
			}
			dec.table, dec.enc = eb.attrData[dataID].table, &eb.attrData[dataID].enc
		}
	}
	for i, dec := range decs {
		r.section = "attribute decoder data"
		count := r.uvar32()
		if r.err != nil {
			return
		}
		if count == 0 || uint64(count) > 5*uint64(r.remaining()) {
			r.failf("attribute decoder %d declares %d attributes, %d bytes left", i, count, r.remaining())
			return
		}
		dec.attrs = make([]*attribute, count)
		for j := range dec.attrs {
			a := &attribute{}
			a.out.Type = AttributeType(r.u8())
			a.out.DataType = DataType(r.u8())
			a.out.NumComponents = int(r.u8())
			a.out.Normalized = r.u8() != 0
			a.out.UniqueID = r.uvar32()
			if r.err != nil {
				return
			}
			switch {
			case a.out.Type >= numAttributeTypes:
				r.failf("attribute %d: unknown type %d", len(d.attrs), a.out.Type)
			case a.out.DataType < Int8 || a.out.DataType > Bool:
				r.failf("attribute %d: unknown data type %d", len(d.attrs), a.out.DataType)
			case a.out.NumComponents == 0:
				r.failf("attribute %d: zero components", len(d.attrs))
			}
			if d.components += a.out.NumComponents; d.components > maxComponents {
				r.failf("attributes declare more than %d components per point", maxComponents)
			}
			if r.err != nil {
				return
			}
			dec.attrs[j] = a
			d.attrs = append(d.attrs, a)
		}
		for _, a := range dec.attrs {
			a.kind = r.u8()
			if r.err != nil {
				return
			}
			switch a.kind {
			case decoderGeneric, decoderInteger:
			case decoderQuantization:
				if a.out.DataType != Float32 {
					r.failf("attribute %d: quantized attribute of data type %d", a.out.UniqueID, a.out.DataType)
				}
			case decoderNormals:
				if a.out.DataType != Float32 || a.out.NumComponents != 3 {
					r.failf("attribute %d: octahedral normals need 3 float32 components", a.out.UniqueID)
				}
			default:
				r.failf("attribute %d: unknown attribute decoder %d", a.out.UniqueID, a.kind)
			}
			if r.err != nil {
				return
			}
		}
	}
	for i, dec := range decs {
		r.section = "attribute values"
		if !d.decodeDecoder(r, i, dec) {
			return
		}
	}
}

// decodeDecoder decodes the values of one attribute decoder's attributes.
func (d *decoder) decodeDecoder(r *reader, index int, dec *attrDecoder) bool {
	var points []int32
	var pointMap []int32
	numEntries := d.numPoints
	if d.eb != nil {
		key := orderKey{dec.table, dec.method}
		if o, ok := d.orders[key]; ok && len(dec.enc.dataToCorner) == 0 && len(dec.enc.vertexToData) == len(o.enc.vertexToData) {
			// Same table, same traversal: the same order (typically the
			// positions and other per-vertex attributes).
			copy(dec.enc.vertexToData, o.enc.vertexToData)
			dec.enc.dataToCorner = append(dec.enc.dataToCorner, o.enc.dataToCorner...)
			return d.decodeAttrs(r, dec, o.points, o.pointMap, len(o.points))
		}
		points = d.sequence(r, dec.table, dec.enc, dec.method)
		if r.err != nil {
			return false
		}
		numEntries = len(points)
		pointMap = make([]int32, d.numPoints)
		for i := range pointMap {
			pointMap[i] = -1
		}
		for f, face := range d.faces {
			for k := 0; k < 3; k++ {
				v := dec.table.c2v[3*f+k]
				if v < 0 {
					r.failf("attribute decoder %d: face %d has an unset corner", index, f)
					return false
				}
				e := dec.enc.vertexToData[v]
				if e < 0 || int(e) >= d.numPoints || int(face[k]) >= d.numPoints {
					r.failf("attribute decoder %d: corner %d maps to no value", index, 3*f+k)
					return false
				}
				pointMap[face[k]] = e
			}
		}
		if d.orders == nil {
			d.orders = map[orderKey]order{}
		}
		d.orders[key] = order{dec.enc, points, pointMap}
	} else {
		points = make([]int32, d.numPoints)
		for i := range points {
			points[i] = int32(i)
		}
	}
	return d.decodeAttrs(r, dec, points, pointMap, numEntries)
}

// orderKey and order remember the value order of a traversal.
type orderKey struct {
	t      *cornerTable
	method int
}

type order struct {
	enc      *encodingData
	points   []int32
	pointMap []int32
}

// decodeAttrs decodes one decoder's attributes in the given value order.
func (d *decoder) decodeAttrs(r *reader, dec *attrDecoder, points, pointMap []int32, numEntries int) bool {
	for _, a := range dec.attrs {
		a.pointMap = pointMap
		r.section = "attribute " + itoa(a.out.UniqueID) + " values"
		if !d.decodeValues(r, a, points, numEntries) {
			return false
		}
	}
	for _, a := range dec.attrs {
		r.section = "attribute " + itoa(a.out.UniqueID) + " transform"
		if !a.decodeTransform(r) {
			return false
		}
	}
	for _, a := range dec.attrs {
		r.section = "attribute " + itoa(a.out.UniqueID) + " values"
		if !d.finish(r, a, numEntries) {
			return false
		}
	}
	return true
}

func itoa(v uint32) string {
	var b [10]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

func (d *decoder) decodeValues(r *reader, a *attribute, points []int32, numEntries int) bool {
	nc := a.out.NumComponents
	if a.kind == decoderGeneric {
		size := a.out.DataType.size()
		if !r.need(numEntries * nc * size) {
			return false
		}
		a.raw = r.bytes(numEntries * nc * size)
		return true
	}
	a.portComps = nc
	if a.kind == decoderNormals {
		a.portComps = 2
	}
	numValues := uint64(numEntries) * uint64(a.portComps)
	method := int8(r.u8())
	if r.err != nil {
		return false
	}
	if method < predictionNone || method >= numPredictionMethods {
		r.failf("unknown prediction scheme %d", method)
		return false
	}
	var pred predictor
	if method != predictionNone {
		tt := int8(r.u8())
		if r.err != nil {
			return false
		}
		if tt < transformNone || tt > transformNormalOctahedronCanonic {
			r.failf("unknown prediction transform %d", tt)
			return false
		}
		var ok bool
		if pred, ok = d.newPredictor(r, a, int(method), int(tt)); !ok {
			return false
		}
	}
	values := make([]int32, numValues)
	compressed := r.u8()
	if r.err != nil {
		return false
	}
	if compressed > 0 {
		if len(values) > 0 && !d.decodeSymbols(r, unsafe.Slice((*uint32)(unsafe.Pointer(&values[0])), len(values)), a.portComps) {
			return false
		}
	} else {
		size := int(r.u8())
		if r.err != nil {
			return false
		}
		if size > 4 {
			r.failf("raw values of %d bytes", size)
			return false
		}
		if !r.need(len(values) * size) {
			return false
		}
		b := r.buf[r.pos:]
		for i := range values {
			var v uint32
			for k := 0; k < size; k++ {
				v |= uint32(b[i*size+k]) << (8 * k)
			}
			values[i] = int32(v)
		}
		r.pos += len(values) * size
	}
	if len(values) > 0 && (pred == nil || !pred.positive()) {
		for i, v := range values {
			u := uint32(v)
			values[i] = int32(u>>1) ^ -int32(u&1)
		}
	}
	if pred != nil {
		if !pred.decodeData(r) {
			return false
		}
		if len(values) > 0 && !pred.compute(r, values, a.portComps, points) {
			return false
		}
	}
	a.portable = values
	a.ready = true
	return true
}

func rawValue(b []byte, t DataType) float64 {
	switch t {
	case Int8:
		return float64(int8(b[0]))
	case Uint8, Bool:
		return float64(b[0])
	case Int16:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case Uint16:
		return float64(binary.LittleEndian.Uint16(b))
	case Int32:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case Uint32:
		return float64(binary.LittleEndian.Uint32(b))
	case Int64:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case Uint64:
		return float64(binary.LittleEndian.Uint64(b))
	case Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	default:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
}

// newPredictor creates the prediction scheme the way the reference's
// factories do: a transform the decoder type does not support means no
// prediction at all, and a mesh scheme that cannot apply falls back to
// differences.
func (d *decoder) newPredictor(r *reader, a *attribute, method, tt int) (predictor, bool) {
	var tr transform
	var oct *octTransform
	if a.kind == decoderNormals {
		if tt != transformNormalOctahedron && tt != transformNormalOctahedronCanonic {
			return nil, true
		}
		oct = &octTransform{canonical: tt == transformNormalOctahedronCanonic}
		tr = oct
	} else {
		if tt != transformWrap {
			return nil, true
		}
		tr = &wrapTransform{}
	}
	if d.eb == nil || method < predictionParallelogram {
		return &deltaPredictor{tr: tr}, true
	}
	md := d.meshDataFor(a)
	if oct != nil {
		if method != predictionGeometricNormal {
			return &deltaPredictor{tr: tr}, true
		}
		pos, ok := d.parentPositions(r)
		if !ok {
			return nil, false
		}
		return &geometricNormalPredictor{tr: oct, md: md, pos: pos}, true
	}
	// The multi-parallelogram (2) and deprecated tex-coords (3) schemes are
	// not built into the reference decoder of glTF pipelines, whose factory
	// then falls back to differences: so do we.
	switch method {
	case predictionParallelogram:
		return &parallelogramPredictor{tr: tr, md: md}, true
	case predictionConstrainedMulti:
		return &constrainedMultiPredictor{tr: tr, md: md}, true
	case predictionTexCoordsPortable:
		pos, ok := d.parentPositions(r)
		if !ok {
			return nil, false
		}
		return &texCoordsPredictor{tr: tr, md: md, pos: pos}, true
	case predictionGeometricNormal:
		// The reference builds this scheme with a wrap transform too, and
		// then fails to decode; refuse it up front.
		r.failf("geometric normal prediction of a non-normal attribute")
		return nil, false
	}
	return &deltaPredictor{tr: tr}, true
}

// meshDataFor finds the connectivity and value order of an attribute.
func (d *decoder) meshDataFor(a *attribute) meshData {
	eb := d.eb
	for i := range eb.attrData {
		c := &eb.attrData[i]
		if c.decoder < 0 {
			continue
		}
		// The decoder of this connectivity holds the attribute?
		if d.decoderHolds(c.decoder, a) {
			t := eb.ct
			if c.connUsed {
				t = c.table
			}
			return meshData{t: t, enc: &c.enc}
		}
	}
	return meshData{t: eb.ct, enc: &eb.posEnc}
}

func (d *decoder) decoderHolds(dec int, a *attribute) bool {
	for _, x := range d.decs[dec].attrs {
		if x == a {
			return true
		}
	}
	return false
}

// parentPositions returns the integer positions a scheme predicts from: the
// first position attribute, which must already be decoded.
func (d *decoder) parentPositions(r *reader) (positions, bool) {
	for _, a := range d.attrs {
		if a.out.Type != Position {
			continue
		}
		if !a.ready || a.portComps != 3 {
			r.failf("prediction needs the positions, which are not decoded before it")
			return positions{}, false
		}
		return positions{values: a.portable, pointMap: a.pointMap}, true
	}
	r.failf("prediction needs positions, the mesh has none")
	return positions{}, false
}

func (a *attribute) decodeTransform(r *reader) bool {
	switch a.kind {
	case decoderQuantization:
		a.minValues = make([]float32, a.out.NumComponents)
		for i := range a.minValues {
			a.minValues[i] = r.f32()
		}
		a.rangeV = r.f32()
		a.bits = r.u8()
		if r.err != nil {
			return false
		}
		if a.bits < 1 || a.bits > 30 {
			r.failf("quantization of %d bits", a.bits)
			return false
		}
	case decoderNormals:
		a.bits = r.u8()
		if r.err != nil {
			return false
		}
		if a.bits < 2 || a.bits > 30 {
			r.failf("octahedral quantization of %d bits", a.bits)
			return false
		}
	}
	return true
}

// finish converts the values of every point to float64, through the
// point's entry: raw values as stored, integers exact, quantized floats as
// min + q*delta in float32, normals from octahedral coordinates.
func (d *decoder) finish(r *reader, a *attribute, numEntries int) bool {
	nc := a.out.NumComponents
	dt := a.out.DataType
	if a.kind == decoderInteger && (dt.size() > 4 || dt == Float32) {
		r.failf("integer values cannot be stored as data type %d", dt)
		return false
	}
	var delta float32
	var oc octahedron
	switch a.kind {
	case decoderQuantization:
		delta = a.rangeV / float32(int32(uint32(1)<<a.bits-1))
	case decoderNormals:
		oc, _ = newOctahedron(int32(a.bits))
	}
	size := dt.size()
	out := make([]float64, d.numPoints*nc)
	for p := 0; p < d.numPoints; p++ {
		e := p
		if a.pointMap != nil {
			e = int(a.pointMap[p])
		}
		if e < 0 || e >= numEntries {
			r.failf("point %d has no value", p)
			return false
		}
		dst := out[p*nc : (p+1)*nc]
		switch a.kind {
		case decoderGeneric:
			for c := range dst {
				dst[c] = rawValue(a.raw[(e*nc+c)*size:], dt)
			}
		case decoderInteger:
			for c := range dst {
				dst[c] = intValue(a.portable[e*nc+c], dt)
			}
		case decoderQuantization:
			for c := range dst {
				dst[c] = float64(float32(float32(a.portable[e*nc+c])*delta) + a.minValues[c])
			}
		case decoderNormals:
			v := oc.unitVector(a.portable[2*e], a.portable[2*e+1])
			dst[0], dst[1], dst[2] = float64(v[0]), float64(v[1]), float64(v[2])
		}
	}
	a.out.Values = out
	return true
}

// intValue is an integer value stored in the attribute's data type, as the
// reference's cast from its int32 portable form does.
func intValue(v int32, dt DataType) float64 {
	switch dt {
	case Int8:
		return float64(int8(v))
	case Uint8, Bool:
		return float64(uint8(v))
	case Int16:
		return float64(int16(v))
	case Uint16:
		return float64(uint16(v))
	case Uint32:
		return float64(uint32(v))
	}
	return float64(v)
}
