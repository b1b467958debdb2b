// Package mesh turns the triangle geometry of a glTF 2.0 document into
// world-space triangle soups, one Part per mesh instance, decoding every
// way glTF stores triangles and trusting none of it.
//
// # What Extract does
//
// Scene: doc.Scene when set, else scene 0, else — a document without
// scenes — every root node in index order (Result.Scene is then -1). Scene
// roots must exist, be roots and be listed once.
//
// Nodes: the hierarchy is checked before use: child indices in range, no
// node with two parents, no cycle, depth at most MaxDepth, affine matrices,
// finite world transforms. Errors name the node: `nodes[12] "Wheel": cycle
// in the node hierarchy`. A node's local transform is its matrix or T·R·S;
// its world transform is parent world × local. Parts come in a fixed
// order: by scene root, then depth-first pre-order (children in listed
// order), then instance.
//
// Primitives: TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN are triangulated
// with the winding of glTF 2.0 §3.7.2.1 (strip: (i, i+1, i+2) for even i,
// (i, i+2, i+1) for odd i; fan: (i+1, i+2, 0)); indexed or not. POINTS and
// the LINE modes are skipped with a note ("mesh 2 primitive 1: mode LINES
// skipped"). All triangle primitives of a mesh form one Part
// (a mesh without any yields none); primitives sharing a POSITION accessor
// share its vertices. Indices left over after the last whole triangle are
// ignored with a note.
//
// Accessors are decoded here, not by qmuntal/gltf's modeler: component
// type, type, count, byteOffset and byteStride (interleaved views) are
// checked against the bufferView and the bytes the buffer really holds
// before anything is allocated, so a 4-billion count in a 1 KB file is an
// error. Alignment is enforced as glTF 2.0 §3.6.2.4 requires: accessor
// offsets (into the view and into the buffer) and byteStride are
// multiples of the component size, since a misaligned accessor reads
// components across element boundaries. POSITION may be FLOAT or, with KHR_mesh_quantization, BYTE,
// UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT, normalized (dequantized with the
// spec formulas, e.g. max(c/127, −1)) or not. Sparse accessors are
// supported with and without a base bufferView (indices strictly
// increasing and in range). Indices are UNSIGNED_BYTE, UNSIGNED_SHORT or
// UNSIGNED_INT, each below the vertex count. Buffer views carrying
// EXT_meshopt_compression (or KHR_meshopt_compression) are decoded with
// package meshopt from the extension's own buffer range, once per
// extraction; the fallback buffer is never read.
//
// KHR_draco_mesh_compression primitives (mode TRIANGLES) are decoded with
// package draco, once per compressed bufferView and extraction: each
// semantic of the extension's attributes map (POSITION, JOINTS_n,
// WEIGHTS_n, ...) reads the stream's attribute of that unique id through
// the primitive's accessor (normalized integer accessors dequantized as
// above), and the triangles are the stream's faces. The accessors'
// declared counts bound the decoder before it allocates (and are checked
// against MaxVertices and MaxTriangles); the stream must then match them
// — point count, index count, components per attribute, values that fit
// the accessor's component type — or extraction fails naming the node,
// mesh and primitive. Morph targets stay plain accessors, applied in the
// stream's point order.
//
// Morph targets: POSITION displacements weighted by node.weights, else
// mesh.weights (sparse targets included). Skins: linear-blend skinning at
// rest, each vertex Σ wᵢ·(world(jointᵢ)·inverseBindᵢ)·p over JOINTS_n /
// WEIGHTS_n, weights divided by their sum; the skinned node's own
// transform is ignored as the spec requires, and the Part's World is the
// identity. When the rest pose is the bind pose this gives the raw
// positions; vertices without any weight stay unposed (noted).
// EXT_mesh_gpu_instancing: each instance is a Part whose World is node
// world × instance T·R·S (on a skinned node the extension is ignored with
// a note).
//
// Winding: glTF front faces are counter-clockwise, and a transform with a
// negative determinant mirrors them. Triangles are output in world space
// already re-wound (Part.Mirrored records that the world transform
// mirrors); for skinned parts a triangle is re-wound when the blended
// skin matrix mirrors at two or more of its corners.
//
// Degenerate triangles — a repeated index, or zero area within
// DegenerateTolerance in world space — are dropped and counted per Part
// and in Result.DegenerateDropped. Parts keep only the vertices some kept
// triangle uses, in source order.
//
// Bounds on hostile input, all checked before the memory they guard is
// allocated: MaxDepth, MaxUnbackedCount, MaxMeshoptExpansion, MaxVertices
// and MaxTriangles. Non-finite positions or transforms are errors, and so
// are a non-finite or zero rotation (node or GPU instance), a mesh
// instance whose world transform is degenerate (a zero scale on it or a
// parent flattens it) and one placed more than MaxPrecisionRatio times
// its size from the origin (float64 world coordinates no longer hold its
// shape). Errors name the node.
//
// Weld merges nearby vertices, for closedness checks and smaller hull
// input.
package mesh
