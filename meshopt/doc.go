// Package meshopt decodes the EXT_meshopt_compression bitstream (also used
// by KHR_meshopt_compression) in pure Go: the format of Arseny
// Kapoulkine's meshoptimizer library, as the extensions specify it.
//
// A compressed bufferView names a byte range, an element count and size
// (byteStride), a mode and a filter. Decode(dst, count, byteStride, src,
// mode, filter) turns the range back into count×byteStride bytes in dst:
//   - ATTRIBUTES (mode 0): per-byte deltas packed in groups of 16;
//     version 0 (header 0xa0, EXT) and version 1 (0xa1, KHR; the npm
//     meshoptimizer encoder's default), with its per-block control modes
//     and per-channel delta kinds.
//   - TRIANGLES (mode 1, header 0xe1): edge and vertex FIFO coding.
//   - INDICES (mode 2, header 0xd1): zigzag varint deltas.
//   - Filters after ATTRIBUTES: OCTAHEDRAL, QUATERNION, EXPONENTIAL and
//     COLOR.
//
// Exactness: the codecs are lossless. The filters are specified to one
// unit in the last place; they are computed here in float32 in the same
// operation order and rounding as meshoptimizer's WebAssembly SIMD decoder
// (the npm package's), so the output is byte-identical to it (the tests
// compare on a corpus asset and thousands of npm-encoded streams).
//
// Safety: every read is bounds-checked against its part of the stream and
// the stream must end where the specification says. Decode allocates
// nothing: the caller sizes dst, after MinEncodedSize has told it whether
// src can hold what it declares; Decode checks count and byteStride
// against the extension's rules first.
// Malformed input gives an error wrapping ErrMalformed, a bad call one
// wrapping ErrInvalidArgument; Decode never panics (FuzzDecode).
//
// Where the reference decoder is more lenient than the specification,
// this package follows the specification and rejects: reads of FIFO
// entries never written, varints over 5 bytes, reserved channel modes,
// malformed codeaux tables, and the pre-glTF index headers 0xe0 and 0xd0.
// No encoder emits these.
package meshopt
