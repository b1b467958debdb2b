package draco

import (
	"encoding/binary"
	"fmt"
	"math"
)

// reader walks a Draco stream. The first failure is sticky: every later read
// returns zero values, so a section can read on and check r.err once, and
// the error names the section and the byte offset where the stream went wrong.
type reader struct {
	buf     []byte
	pos     int
	err     error
	section string
}

func (r *reader) failf(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s, byte %d: %s", r.section, r.pos, fmt.Sprintf(format, a...))
	}
}

func (r *reader) remaining() int { return len(r.buf) - r.pos }

// need reports whether n more bytes are available, failing the reader if not.
func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || r.remaining() < n {
		r.failf("stream truncated: %d bytes needed, %d left", n, r.remaining())
		return false
	}
	return true
}

func (r *reader) u8() uint8 {
	if !r.need(1) {
		return 0
	}
	v := r.buf[r.pos]
	r.pos++
	return v
}

func (r *reader) u16() uint16 {
	if !r.need(2) {
		return 0
	}
	v := binary.LittleEndian.Uint16(r.buf[r.pos:])
	r.pos += 2
	return v
}

func (r *reader) u32() uint32 {
	if !r.need(4) {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.buf[r.pos:])
	r.pos += 4
	return v
}

func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }

// bytes returns the next n bytes (aliasing the stream) and skips them.
func (r *reader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	b := r.buf[r.pos : r.pos+n : r.pos+n]
	r.pos += n
	return b
}

// varint reads an unsigned LEB128 value of at most maxBytes bytes; bits
// beyond 64 are dropped as the reference's fixed-width shifts drop them.
func (r *reader) varint(maxBytes int) uint64 {
	var v uint64
	for i := 0; ; i++ {
		if i >= maxBytes {
			r.failf("varint longer than %d bytes", maxBytes)
			return 0
		}
		b := r.u8()
		if r.err != nil {
			return 0
		}
		if i < 10 {
			v |= uint64(b&0x7f) << (7 * uint(i))
		}
		if b&0x80 == 0 {
			return v
		}
	}
}

// uvar32 reads a 32-bit count, stored as a varint.
func (r *reader) uvar32() uint32 { return uint32(r.varint(5)) }

// uvar64 reads a 64-bit size, stored as a varint.
func (r *reader) uvar64() uint64 { return r.varint(10) }

// bitReader reads raw bits, least significant first, from a byte run. Like
// the reference decoder it yields zeros past the end of its bytes and does
// not count them as consumed.
type bitReader struct {
	buf []byte
	bit uint64
}

func (b *bitReader) bits(n uint32) uint32 {
	var v uint32
	for i := uint32(0); i < n; i++ {
		byteOff := b.bit >> 3
		if byteOff >= uint64(len(b.buf)) {
			break
		}
		v |= uint32(b.buf[byteOff]>>(b.bit&7)&1) << i
		b.bit++
	}
	return v
}

// startBits begins raw bit decoding at the reader's position. With sized, a
// byte length (a varint) precedes the bits and is returned.
func (r *reader) startBits(sized bool) (*bitReader, uint64) {
	var size uint64
	if sized {
		size = r.uvar64()
	}
	if r.err != nil {
		return &bitReader{}, 0
	}
	return &bitReader{buf: r.buf[r.pos:]}, size
}

// sizedBits returns a bit reader over a run of bits that starts with its
// byte length, and skips the run; nil if the stream is too short.
func (r *reader) sizedBits(what string) *bitReader {
	br, size := r.startBits(true)
	if r.err != nil {
		return nil
	}
	if size > uint64(r.remaining()) {
		r.failf("%s of %d bytes, %d left", what, size, r.remaining())
		return nil
	}
	br.buf = br.buf[:size]
	r.pos += int(size)
	return br
}

// endBits skips the whole bytes the bit reader consumed.
func (r *reader) endBits(b *bitReader) {
	if r.err != nil {
		return
	}
	r.pos += int((b.bit + 7) / 8)
}
