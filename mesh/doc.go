// Package mesh turns the triangle geometry of a glTF 2.0 document into
// world-space triangle soups, one Part per mesh instance, decoding every
// way glTF stores triangles and trusting none of it.
//
// Extract(doc) returns a Result: the Parts of doc.Scene (else scene 0,
// else every root node), in scene-root then depth-first pre-order, each
// with its node, mesh, world transform, vertices in world space and
// triangles wound counter-clockwise seen from outside (re-wound when the
// transform mirrors: Part.Mirrored), plus Notes on what was skipped.
// WorldTransforms and NodeName serve callers that need the
// hierarchy; Primitive decodes one primitive; Weld merges nearby vertices.
//
// What is decoded (glTF 2.0 §3.6–3.7): TRIANGLES, TRIANGLE_STRIP and
// TRIANGLE_FAN, indexed or not (POINTS and LINES skipped with a note);
// FLOAT and KHR_mesh_quantization POSITION, normalized or not; sparse
// accessors; morph targets weighted by node or mesh weights; skins at rest
// (linear-blend skinning, the skinned node's own transform ignored as the
// spec requires); EXT_mesh_gpu_instancing; KHR_draco_mesh_compression
// (package draco) and EXT_/KHR_meshopt_compression (package meshopt).
//
// Checks, each before the memory it guards is allocated: node indices,
// one parent per node, no cycle, depth at most MaxDepth; accessor counts,
// offsets, strides and alignment (§3.6.2.4) against the bytes the buffer
// holds (MaxUnbackedCount for accessors without a buffer view); compressed
// sizes (MaxMeshoptExpansion, and Draco streams against their accessors);
// MaxVertices and MaxTriangles overall. Non-finite positions or
// transforms, a zero rotation, a degenerate world transform and an
// instance farther from the origin than MaxPrecisionRatio times its size
// are errors. Errors name the node (`nodes[12] "Wheel": cycle in the node
// hierarchy`) and, below it, the mesh and primitive.
//
// Degenerate triangles (a repeated index, or zero area within
// DegenerateTolerance) are dropped and counted; a Part keeps only the
// vertices its triangles use, in source order. The output depends only on
// the document. DESIGN.md lists every rule in detail.
package mesh
