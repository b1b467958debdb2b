// Package draco decodes Draco-compressed triangle meshes, the payload of
// glTF's KHR_draco_mesh_compression extension, in pure Go: bytes in, a
// Mesh of faces and per-point attributes out. It imports no glTF.
//
// Decode(data, Limits) follows the Draco bitstream specification
// (https://google.github.io/draco/spec/) for version 2.2, the version the
// extension names, and returns what Google's reference decoder (Draco 1.5,
// as in the npm package draco3dgltf) returns for the same bytes: the same
// point order, the same face order and bit-identical float32 attribute
// values. Where the specification leaves an order of operations open, the
// reference decoder decides (float32 arithmetic step by step in
// dequantization and octahedral normals, integer division toward zero in
// the mesh predictors).
//
// Decoded: sequential connectivity (entropy-coded or raw indices);
// edgebreaker connectivity (Rossignac, "Edgebreaker", 1999) with the
// standard and valence coders, split events and attribute seams; rANS
// (Duda, 2013) bit and symbol coders; raw, integer, quantized and
// octahedral-normal attributes; the difference, parallelogram,
// constrained multi-parallelogram, portable texture coordinate and
// geometric normal prediction schemes with their wrap and normal
// octahedron transforms.
//
// Refused, as by the reference decoder of glTF pipelines (built without
// Draco's backwards compatibility): point clouds, bitstreams before 2.2
// and the predictive edgebreaker coder. The multi-parallelogram and
// deprecated tex-coords schemes decode as differences, as there.
//
// Hostile input is expected: every count a stream declares is checked
// against the bytes left and against Limits (MaxPoints, MaxFaces) before
// anything is allocated, and errors name the stream section and byte
// offset where decoding stopped. Decode recovers a panic into an error.
package draco
