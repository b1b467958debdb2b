package draco

// Sequential connectivity (spec "DecodeConnectivityData" for
// MESH_SEQUENTIAL_ENCODING): the face count, the point count, then the
// indices either entropy-coded as zigzag deltas or stored raw.

const (
	sequentialCompressedIndices = 0
	sequentialRawIndices        = 1
)

func (d *decoder) decodeSequential(r *reader) {
	numFaces, numPoints := r.uvar32(), r.uvar32()
	if r.err != nil {
		return
	}
	if uint64(numFaces) > 0xffffffff/3 || uint64(numFaces) > uint64(r.remaining())/3 {
		r.failf("%d faces declared, more than %d bytes left can hold", numFaces, r.remaining())
		return
	}
	if !d.checkCounts(r, uint64(numFaces), uint64(numPoints)) {
		return
	}
	method := r.u8()
	if r.err != nil {
		return
	}
	faces := make([][3]uint32, numFaces)
	switch method {
	case sequentialCompressedIndices:
		syms := make([]uint32, 3*int(numFaces))
		if !d.decodeSymbols(r, syms, 1) {
			return
		}
		last := int64(0)
		for i, s := range syms {
			diff := int64(s >> 1)
			if s&1 != 0 {
				if diff > last {
					r.failf("index delta %d of corner %d goes below zero", -diff, i)
					return
				}
				diff = -diff
			}
			last += diff
			if last >= int64(numPoints) {
				r.failf("corner %d refers to point %d of %d", i, last, numPoints)
				return
			}
			faces[i/3][i%3] = uint32(last)
		}
	case sequentialRawIndices:
		for f := range faces {
			for c := 0; c < 3; c++ {
				var v uint32
				switch {
				case numPoints < 1<<8:
					v = uint32(r.u8())
				case numPoints < 1<<16:
					v = uint32(r.u16())
				case numPoints < 1<<21:
					v = r.uvar32()
				default:
					v = r.u32()
				}
				if r.err != nil {
					return
				}
				if v >= numPoints {
					r.failf("corner %d refers to point %d of %d", 3*f+c, v, numPoints)
					return
				}
				faces[f][c] = v
			}
		}
	default:
		r.failf("unknown sequential index coding %d", method)
		return
	}
	d.faces = faces
	d.numPoints = int(numPoints)
}
