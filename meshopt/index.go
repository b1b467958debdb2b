package meshopt

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Constants of the index bitstreams (modes 1 and 2).
const (
	triangleHeader = 0xe1 // header byte of the TRIANGLES bitstream
	sequenceHeader = 0xd1 // header byte of the INDICES bitstream
	codeauxSize    = 16   // the TRIANGLES tail: the codeaux lookup table
	sequenceTail   = 4    // the INDICES tail: reserved bytes
	fifoSize       = 16   // entries of the edge and vertex FIFOs
	maxVarintBytes = 5    // a varint-7 (LEB128) value takes 1 to 5 bytes
)

// readVarint reads a varint-7 (unsigned LEB128) value of 1 to 5 bytes
// from src[pos:end]. Bits beyond 32 are dropped, as the specification says.
func readVarint(src []byte, pos, end int) (uint32, int, error) {
	var v uint32
	for i := range maxVarintBytes {
		if pos >= end {
			return 0, pos, fmt.Errorf("truncated varint at byte %d", pos)
		}
		b := src[pos]
		pos++
		v |= uint32(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, pos, nil
		}
	}
	return 0, pos, fmt.Errorf("varint longer than %d bytes ending at byte %d", maxVarintBytes, pos)
}

// unzigzag32 decodes a zigzag-encoded 32-bit delta.
func unzigzag32(v uint32) uint32 { return (v >> 1) ^ -(v & 1) }

// putIndex stores index i of the output as a 16-bit (truncated) or 32-bit
// little-endian value.
func putIndex(dst []byte, stride, i int, v uint32) {
	if stride == 2 {
		binary.LittleEndian.PutUint16(dst[2*i:], uint16(v))
	} else {
		binary.LittleEndian.PutUint32(dst[4*i:], v)
	}
}

// triangleState is the decoder state of the TRIANGLES bitstream. The FIFOs
// count their writes so that reading an entry that was never written is
// reported as a malformed stream, as the specification requires.
type triangleState struct {
	edges         [fifoSize][2]uint32
	verts         [fifoSize]uint32
	edgeOff       int // slot of the next edge push
	vertOff       int // slot of the next vertex push
	edgeCount     int // number of edge pushes, capped at fifoSize
	vertCount     int // number of vertex pushes, capped at fifoSize
	next, last    uint32
	data, dataEnd int // read position and end of the extra data section
	src           []byte
}

func (s *triangleState) pushEdge(a, b uint32) {
	s.edges[s.edgeOff] = [2]uint32{a, b}
	s.edgeOff = (s.edgeOff + 1) & (fifoSize - 1)
	s.edgeCount = min(s.edgeCount+1, fifoSize)
}

func (s *triangleState) pushVertex(v uint32) {
	s.verts[s.vertOff] = v
	s.vertOff = (s.vertOff + 1) & (fifoSize - 1)
	s.vertCount = min(s.vertCount+1, fifoSize)
}

// edge returns the edge n places back (0 is the most recent).
func (s *triangleState) edge(n int) (uint32, uint32, error) {
	if n >= s.edgeCount {
		return 0, 0, fmt.Errorf("edge FIFO entry %d read before it was written", n)
	}
	e := s.edges[(s.edgeOff-1-n)&(fifoSize-1)]
	return e[0], e[1], nil
}

// vertex returns the vertex n places back (0 is the most recent).
func (s *triangleState) vertex(n int) (uint32, error) {
	if n >= s.vertCount {
		return 0, fmt.Errorf("vertex FIFO entry %d read before it was written", n)
	}
	return s.verts[(s.vertOff-1-n)&(fifoSize-1)], nil
}

// explicit reads a varint-coded index delta from the data section and
// applies it to last.
func (s *triangleState) explicit() (uint32, error) {
	v, pos, err := readVarint(s.src, s.data, s.dataEnd)
	if err != nil {
		return 0, err
	}
	s.data = pos
	s.last += unzigzag32(v)
	return s.last, nil
}

// decodeTriangles decodes the TRIANGLES bitstream. The caller has checked
// count%3 == 0, stride 2 or 4 and len(dst) == count*stride.
func decodeTriangles(dst []byte, count, stride int, src []byte) error {
	tris := count / 3
	if len(src) < 1+codeauxSize || len(src)-1-codeauxSize < tris {
		return malformed("%d bytes cannot hold %d triangle codes and the %d-byte table", len(src), tris, codeauxSize)
	}
	if src[0] != triangleHeader {
		return malformed("header byte 0x%02x, want 0x%02x", src[0], triangleHeader)
	}
	codeaux := src[len(src)-codeauxSize:]
	if codeaux[14] != 0 || codeaux[15] != 0 {
		return malformed("codeaux table's last two bytes are not zero")
	}
	for i, e := range codeaux {
		if e>>4 == 0xf || e&0xf == 0xf {
			return malformed("codeaux table entry %d is 0x%02x (nibble 0xf is reserved)", i, e)
		}
	}
	codes := src[1 : 1+tris]
	s := triangleState{src: src, data: 1 + tris, dataEnd: len(src) - codeauxSize}
	for t, code := range codes {
		a, b, c, err := s.triangle(code, codeaux)
		if err != nil {
			return malformed("triangle %d (code 0x%02x): %v", t, code, err)
		}
		putIndex(dst, stride, 3*t, a)
		putIndex(dst, stride, 3*t+1, b)
		putIndex(dst, stride, 3*t+2, c)
	}
	if s.data != s.dataEnd {
		return malformed("%d bytes of extra data left before the codeaux table", s.dataEnd-s.data)
	}
	return nil
}

// triangle decodes one triangle from its code byte.
func (s *triangleState) triangle(code byte, codeaux []byte) (a, b, c uint32, err error) {
	hi, lo := int(code>>4), int(code&0xf)
	if hi < 0xf {
		// A recent edge plus a third vertex.
		if a, b, err = s.edge(hi); err != nil {
			return
		}
		switch {
		case lo == 0: // the next new vertex
			c = s.next
			s.next++
			s.pushVertex(c)
		case lo < 0xd: // a recent vertex
			if c, err = s.vertex(lo); err != nil {
				return
			}
		case lo == 0xd || lo == 0xe: // last-1 or last+1
			if lo == 0xd {
				s.last--
			} else {
				s.last++
			}
			c = s.last
			s.pushVertex(c)
		default: // an explicit index
			if c, err = s.explicit(); err != nil {
				return
			}
			s.pushVertex(c)
		}
		s.pushEdge(c, b)
		s.pushEdge(a, c)
		return
	}
	var zw byte
	explicitA := false
	if lo < 0xe {
		zw = codeaux[lo]
	} else {
		if s.data >= s.dataEnd {
			err = errors.New("truncated extra data")
			return
		}
		zw = s.src[s.data]
		s.data++
		if zw == 0 {
			s.next = 0 // restart of the next-vertex sequence
		}
		explicitA = lo == 0xf
	}
	z, w := int(zw>>4), int(zw&0xf)
	// Indices coming from next or the FIFO are taken before explicit ones
	// are read; the two never interact, so the order matches the spec.
	if explicitA {
		if a, err = s.explicit(); err != nil {
			return
		}
	} else {
		a = s.next
		s.next++
	}
	if b, err = s.free(z); err != nil {
		return
	}
	if c, err = s.free(w); err != nil {
		return
	}
	s.pushVertex(a)
	if z == 0 || z == 0xf {
		s.pushVertex(b)
	}
	if w == 0 || w == 0xf {
		s.pushVertex(c)
	}
	s.pushEdge(b, a)
	s.pushEdge(c, b)
	s.pushEdge(a, c)
	return
}

// free decodes the second or third index of a 0xfY/0xfe/0xff triangle from
// its nibble: 0 is the next new vertex, 1..14 a FIFO entry, 15 explicit.
// Nibble 15 cannot come from the codeaux table, which was validated.
func (s *triangleState) free(n int) (uint32, error) {
	switch {
	case n == 0:
		v := s.next
		s.next++
		return v, nil
	case n < 0xf:
		return s.vertex(n - 1)
	default:
		return s.explicit()
	}
}

// decodeIndices decodes the INDICES bitstream. The caller has checked
// stride 2 or 4 and len(dst) == count*stride.
func decodeIndices(dst []byte, count, stride int, src []byte) error {
	if len(src) < 1+sequenceTail || len(src)-1-sequenceTail < count {
		return malformed("%d bytes cannot hold %d indices and the %d-byte tail", len(src), count, sequenceTail)
	}
	if src[0] != sequenceHeader {
		return malformed("header byte 0x%02x, want 0x%02x", src[0], sequenceHeader)
	}
	end := len(src) - sequenceTail
	pos := 1
	var last [2]uint32
	for i := range count {
		v, next, err := readVarint(src, pos, end)
		if err != nil {
			return malformed("index %d: %v", i, err)
		}
		pos = next
		baseline := v & 1
		last[baseline] += unzigzag32(v >> 1)
		putIndex(dst, stride, i, last[baseline])
	}
	if pos != end {
		return malformed("%d bytes left before the tail", end-pos)
	}
	return nil
}
