// Package meshopt decodes the EXT_meshopt_compression bitstream (also used
// by KHR_meshopt_compression) in pure Go.
//
// A glTF bufferView compressed with the extension names a byte range of
// compressed data, an element count and size (byteStride), a mode and a
// filter. [Decode] turns that range back into count×byteStride bytes:
//
//   - ATTRIBUTES (mode 0) stores elements as per-byte deltas from the
//     previous element, deinterleaved and packed in groups of 16 with 0, 1,
//     2, 4 or 8 bits per delta plus escape bytes. Version 0 (header 0xa0)
//     is the EXT extension's format; version 1 (0xa1), which the npm meshoptimizer
//     1.3 encoder's encodeVertexBuffer writes by default and
//     KHR_meshopt_compression allows, adds a per-block control mode for each byte (bit-width set,
//     all-zero, literal) and a per-channel delta kind (bytes, 16-bit
//     zigzag deltas, rotated 32-bit XOR).
//   - TRIANGLES (mode 1, header 0xe1) codes each triangle list triangle in
//     one byte against a 16-entry edge FIFO and vertex FIFO, with varint
//     escapes for indices that are neither recent nor the next new one.
//   - INDICES (mode 2, header 0xd1) codes any index sequence as zigzag
//     varint deltas against one of two baselines.
//
// After ATTRIBUTES decoding a filter may reconstruct the real values:
// OCTAHEDRAL (unit vectors from octahedral coordinates), QUATERNION
// (unit quaternions from three components and the largest one's index),
// EXPONENTIAL (float32 from exponent and mantissa) and COLOR (RGBA from
// YCoCg).
//
// # Exactness
//
// The codecs are lossless and exact. The filters are specified to one unit
// in the last place; this package computes them in float32 in the same
// operation order and rounding as meshoptimizer's WebAssembly SIMD decoder
// (the npm package's), so its output is byte-identical to that decoder —
// the tests check it on a corpus asset and on thousands of streams made by
// the npm encoder.
//
// # Safety
//
// Every read is bounds-checked against the part of the stream it belongs
// to, and the stream must end exactly where the specification says (no
// bytes left before the tail). Decode allocates nothing: the caller sizes
// dst from count and byteStride, which Decode checks against the
// extension's rules first. Malformed input gives an error wrapping
// [ErrMalformed], a bad call one wrapping [ErrInvalidArgument]; Decode
// never panics (see FuzzDecode).
//
// The decoder follows the specification where the reference decoder is
// more lenient, and rejects: reads of FIFO entries that were never written
// (the reference returns ~0), varints of more than 5 bytes, reserved
// channel mode bytes, codeaux tables with a 0xf nibble or non-zero last two
// bytes, and the pre-glTF index headers 0xe0 and 0xd0. No encoder emits
// these; the tests list each disagreement with the reference by reason.
package meshopt
