package meshopt

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Constants of the attribute bitstream (mode 0).
const (
	attrHeader      = 0xa0 // high nibble of the header byte; the low nibble is the version
	attrMaxVersion  = 1    // highest version the specification defines
	attrBlockBytes  = 8192 // an attribute block holds at most this many bytes of elements...
	attrBlockMax    = 256  // ...and at most this many elements
	groupSize       = 16   // elements per group inside a data block
	tailMinV0       = 32   // the tail block is zero-padded to at least this size in version 0
	tailMinV1       = 24   // and to at least this size in version 1
	channelModeMask = 0x0f // low nibble of a channel byte: the channel mode (version 1)
)

// groupWidths returns the bit widths the 2-bit group headers select: in
// version 0 {0, 2, 4, 8}; in version 1 {0, 1, 2, 4} under control mode 0
// and {1, 2, 4, 8} under control mode 1.
func groupWidths(version int, ctrl byte) [4]uint8 {
	switch {
	case version == 0:
		return [4]uint8{0, 2, 4, 8}
	case ctrl == 0:
		return [4]uint8{0, 1, 2, 4}
	default:
		return [4]uint8{1, 2, 4, 8}
	}
}

// decodeAttributes decodes the ATTRIBUTES bitstream (versions 0 and 1).
// The caller has checked stride (a multiple of 4, at most 256) and
// len(dst) == count*stride.
func decodeAttributes(dst []byte, count, stride int, src []byte) error {
	if len(src) < 1 {
		return malformed("empty stream")
	}
	header := src[0]
	if header&0xf0 != attrHeader {
		return malformed("header byte 0x%02x, want 0xa0 or 0xa1", header)
	}
	version := int(header & 0x0f)
	if version > attrMaxVersion {
		return malformed("unsupported version %d (header 0x%02x)", version, header)
	}
	tailSize, tailMin := stride, tailMinV0
	if version == 1 {
		tailSize, tailMin = stride+stride/4, tailMinV1
	}
	tailPadded := max(tailSize, tailMin)
	if len(src)-1 < tailPadded {
		return malformed("%d bytes cannot hold the header and a %d-byte tail", len(src), tailPadded)
	}
	// Every byte of the attribute blocks lies in src[1:limit]; the stream is
	// valid only if the blocks end exactly at limit.
	limit := len(src) - tailPadded

	var last [maxAttributeStride]byte
	copy(last[:stride], src[len(src)-tailSize:])
	var channels []byte
	if version == 1 {
		channels = src[len(src)-tailSize+stride:]
		for c, ch := range channels {
			// Modes 3..15 are reserved, and only mode 2 (XOR) uses the high nibble.
			if m := ch & channelModeMask; m > 2 || (m != 2 && ch>>4 != 0) {
				return malformed("channel %d has reserved mode byte 0x%02x", c, ch)
			}
		}
	}

	blockMax := min((attrBlockBytes/stride)&^(groupSize-1), attrBlockMax)
	pos := 1
	var deltas [4][attrBlockMax]byte
	for base := 0; base < count; base += blockMax {
		n := min(count-base, blockMax)
		groups := (n + groupSize - 1) / groupSize
		var control []byte
		if version == 1 {
			if limit-pos < stride/4 {
				return malformed("block at element %d: truncated control header", base)
			}
			control = src[pos : pos+stride/4]
			pos += stride / 4
		}
		for k := 0; k < stride; k += 4 {
			var ctrlByte byte
			if version == 1 {
				ctrlByte = control[k/4]
			}
			for j := range 4 {
				buf := deltas[j][:groups*groupSize]
				var err error
				switch ctrl := (ctrlByte >> (2 * j)) & 3; {
				case version == 0:
					pos, err = decodeBytes(src, pos, limit, buf, groups, groupWidths(0, 0))
				case ctrl == 3: // literal deltas, no group headers
					if limit-pos < n {
						return malformed("block at element %d, byte %d: truncated literal deltas", base, k+j)
					}
					copy(buf, src[pos:pos+n])
					pos += n
				case ctrl == 2: // all deltas zero, nothing stored
					clear(buf[:n])
				default:
					pos, err = decodeBytes(src, pos, limit, buf, groups, groupWidths(1, ctrl))
				}
				if err != nil {
					return malformed("block at element %d, byte %d: %v", base, k+j, err)
				}
			}
			var ch byte
			if version == 1 {
				ch = channels[k/4]
			}
			applyDeltas(dst, base, n, stride, k, ch, &deltas, last[k:k+4])
		}
	}
	if pos != limit {
		return malformed("%d bytes left between the attribute blocks and the tail", limit-pos)
	}
	return nil
}

// decodeBytes decodes one data block (group headers, then groups of 16
// deltas) into buf, reading src[pos:limit]. It returns the new position.
func decodeBytes(src []byte, pos, limit int, buf []byte, groups int, widths [4]uint8) (int, error) {
	headerSize := (groups + 3) / 4
	if limit-pos < headerSize {
		return pos, fmt.Errorf("truncated group headers")
	}
	header := src[pos : pos+headerSize]
	pos += headerSize
	for g := range groups {
		out := (*[groupSize]byte)(buf[g*groupSize : g*groupSize+groupSize])
		width := widths[(header[g>>2]>>((g&3)*2))&3]
		switch width {
		case 0:
			*out = [groupSize]byte{}
		case 8:
			if limit-pos < groupSize {
				return pos, fmt.Errorf("group %d: truncated literal group", g)
			}
			copy(out[:], src[pos:pos+groupSize])
			pos += groupSize
		default:
			fixed := 2 * int(width) // 16 values of width bits
			if limit-pos < fixed {
				return pos, fmt.Errorf("group %d: truncated %d-bit group", g, width)
			}
			packed := src[pos : pos+fixed]
			next := pos + fixed
			var ok bool
			switch width {
			case 1:
				next, ok = unpack1(out, packed, src[:limit], next)
			case 2:
				next, ok = unpack2(out, packed, src[:limit], next)
			case 4:
				next, ok = unpack4(out, packed, src[:limit], next)
			}
			if !ok {
				return pos, fmt.Errorf("group %d: truncated escaped deltas", g)
			}
			pos = next
		}
	}
	return pos, nil
}

// unpack1 expands 16 one-bit deltas (least significant bit first); a set
// bit (the sentinel) takes its value from the next escape byte at src[next].
func unpack1(out *[groupSize]byte, packed, src []byte, next int) (int, bool) {
	for i := range groupSize {
		v := (packed[i>>3] >> (i & 7)) & 1
		if v == 1 {
			if next >= len(src) {
				return next, false
			}
			v = src[next]
			next++
		}
		out[i] = v
	}
	return next, true
}

// unpack2 expands 16 two-bit deltas (most significant bits first); the
// sentinel 3 takes its value from the next escape byte.
func unpack2(out *[groupSize]byte, packed, src []byte, next int) (int, bool) {
	w := binary.BigEndian.Uint32(packed)
	if w&(w>>1)&0x55555555 == 0 { // no sentinel: plain unpack
		for i := range groupSize {
			out[i] = byte(w>>(30-2*i)) & 3
		}
		return next, true
	}
	for i := range groupSize {
		v := byte(w>>(30-2*i)) & 3
		if v == 3 {
			if next >= len(src) {
				return next, false
			}
			v = src[next]
			next++
		}
		out[i] = v
	}
	return next, true
}

// unpack4 expands 16 four-bit deltas (high nibble first); the sentinel 15
// takes its value from the next escape byte.
func unpack4(out *[groupSize]byte, packed, src []byte, next int) (int, bool) {
	w := binary.BigEndian.Uint64(packed)
	if w&(w>>1)&(w>>2)&(w>>3)&0x1111111111111111 == 0 { // no sentinel
		for i := range groupSize {
			out[i] = byte(w>>(60-4*i)) & 15
		}
		return next, true
	}
	for i := range groupSize {
		v := byte(w>>(60-4*i)) & 15
		if v == 15 {
			if next >= len(src) {
				return next, false
			}
			v = src[next]
			next++
		}
		out[i] = v
	}
	return next, true
}

// applyDeltas reconstructs bytes k..k+3 of elements base..base+n-1 from
// the four delta rows, using the channel mode byte ch (0 in version 0), and
// leaves the last element's bytes in last.
func applyDeltas(dst []byte, base, n, stride, k int, ch byte, deltas *[4][attrBlockMax]byte, last []byte) {
	out := dst[base*stride+k:]
	switch ch & 3 {
	case 0: // byte deltas, zigzag
		for j := range 4 {
			p := last[j]
			row := deltas[j][:n]
			o := j
			for _, d := range row {
				p += (d >> 1) ^ -(d & 1)
				out[o] = p
				o += stride
			}
			last[j] = p
		}
	case 1: // 16-bit deltas, zigzag
		for h := 0; h < 4; h += 2 {
			p := uint16(last[h]) | uint16(last[h+1])<<8
			lo, hi := deltas[h][:n], deltas[h+1][:n]
			o := h
			for i := range lo {
				d := uint16(lo[i]) | uint16(hi[i])<<8
				p += (d >> 1) ^ -(d & 1)
				out[o] = byte(p)
				out[o+1] = byte(p >> 8)
				o += stride
			}
			last[h], last[h+1] = byte(p), byte(p>>8)
		}
	case 2: // 32-bit XOR deltas, rotated left by the encoder
		rot := int(ch >> 4)
		p := binary.LittleEndian.Uint32(last)
		r0, r1, r2, r3 := deltas[0][:n], deltas[1][:n], deltas[2][:n], deltas[3][:n]
		o := 0
		for i := range r0 {
			d := uint32(r0[i]) | uint32(r1[i])<<8 | uint32(r2[i])<<16 | uint32(r3[i])<<24
			p ^= bits.RotateLeft32(d, -rot)
			binary.LittleEndian.PutUint32(out[o:o+4], p)
			o += stride
		}
		binary.LittleEndian.PutUint32(last, p)
	}
}
