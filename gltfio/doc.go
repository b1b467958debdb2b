// Package gltfio reads and writes glTF 2.0 files (.gltf and .glb) for
// autocollide, and is the only package that touches bytes on disk.
//
// A file is loaded twice over: as an order-preserving JSON tree (Tree),
// which is what gets written back, and as a github.com/qmuntal/gltf
// Document with every buffer's bytes loaded, which the geometry readers
// use. Writing through the tree rather than through the typed Document is
// deliberate: the typed round trip drops explicit default values and
// members it does not know, and autocollide promises that everything it
// did not add survives byte-for-byte in meaning.
//
// Everything autocollide adds is appended at the end of the arrays it
// touches (nodes, meshes, accessors, bufferViews, buffers), and an undo
// record of every value it replaced is stored in the extras of its first
// generated node. Strip uses that record to restore the input exactly,
// which is how a re-run replaces its own output instead of stacking on it.
//
// Untrusted input is checked before anything is allocated from it: GLB
// chunk headers, declared buffer lengths against the data, JSON nesting
// depth, size (elements, members and values) and duplicate keys,
// compressed vertex counts against the declared triangles, and URIs.
// Files are read through package safefile, so a URI whose real path
// (links resolved) leaves the input's folder, or names a pipe or a
// device, is refused. Pretty-printed output indents MaxIndentDepth
// levels at most.
package gltfio
