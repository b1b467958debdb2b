// Package draco decodes Draco-compressed triangle meshes, the payload of
// glTF's KHR_draco_mesh_compression extension, in pure Go: bytes in,
// faces and per-point attributes out. It imports no glTF.
//
// The decoder follows the Draco bitstream specification
// (https://google.github.io/draco/spec/) for bitstream version 2.2 (the
// version KHR_draco_mesh_compression names, and the only one the reference
// decoder of glTF pipelines reads) and reproduces what Google's reference
// decoder (Draco 1.5, as shipped in the npm package draco3dgltf) returns for
// the same bytes: the same point order, the same face order and
// bit-identical float32 attribute values.
// Where the specification leaves an order of operations open, the
// reference decoder's behaviour decides (float32 arithmetic step by step in
// dequantization and octahedral normal decoding, integer division rounding
// toward zero in the mesh predictors).
//
// What is decoded:
//   - header and metadata (metadata is skipped);
//   - sequential connectivity, with entropy-coded or raw indices;
//   - edgebreaker connectivity with the standard and valence traversal
//     coders, topology split events, start faces, attribute seams and the
//     resulting per-corner attribute connectivity;
//   - the entropy coders: rANS bits, rANS symbols (tagged and raw schemes)
//     and raw bit runs;
//   - attribute decoders: raw values, integers, quantized floats and
//     octahedral normals, in depth-first or prediction-degree traversal
//     order;
//   - prediction schemes: difference, parallelogram, constrained
//     multi-parallelogram, portable texture coordinates and geometric
//     normals, with the wrap and (canonicalized) normal octahedron
//     transforms.
//
// The reference decoder of glTF pipelines is built without Draco's
// backwards compatibility, and so is this one: it refuses point clouds,
// bitstreams before 2.2 and the predictive edgebreaker coder, and decodes
// values of the multi-parallelogram and deprecated tex-coords schemes as
// differences, as the reference does.
//
// Hostile input is expected: every count a stream declares is checked
// against the bytes left and against Limits before anything is allocated,
// and errors name the stream section and byte offset where decoding
// stopped.
package draco
