// Package gltfio loads, edits and saves glTF 2.0 files (.gltf and .glb)
// for autocollide, and writes every output file atomically.
//
// Load (and LoadRaw, Parse) returns an Asset: an order-preserving JSON
// tree, which is what gets written back, and a github.com/qmuntal/gltf
// Document with every buffer's bytes loaded, which the geometry readers
// use. Writing through the tree rather than the typed Document keeps
// everything autocollide did not add (explicit defaults, unknown members)
// as it was.
//
// Everything autocollide adds is appended at the end of the arrays it
// touches (nodes, meshes, accessors, bufferViews, buffers), and an undo
// record of every value it replaced is kept in the extras of its first
// generated node. Load uses that record to restore the input before a
// re-run, so a re-run replaces its own output instead of stacking on it.
//
// Untrusted input is checked before anything is allocated from it: GLB
// chunk headers, declared buffer lengths against the data, JSON nesting
// depth, size and duplicate keys, compressed vertex counts against the
// declared triangles, and URIs (Limits bounds each; Summarize reads only the
// JSON). Errors name the file and the JSON path.
//
// Saving: a GLB output holds everything, every buffer with bytes merged
// into its BIN chunk and every image moved into a bufferView (pack.go),
// so it loads from any folder; a .gltf output's external files are
// copied beside it, and its in-memory data (a GLB's BIN chunk, generated
// data) goes to a .bin named after it and a hash of its bytes, written
// before the .gltf and the earlier one removed after, so a kill leaves
// the old pair or the new one. An image, or a buffer no geometry reads,
// missing on disk is a warning (Asset.Warnings) and keeps its reference;
// missing geometry data is an error. Each external file is read once per
// Asset (ResourceData): copies, packing and hashes use those bytes.
//
// Disk: files are read through package safefile (regular files only,
// size-capped, a URI confined to the asset's folder); package batch,
// g4mf, profiles and the command read their own files through safefile
// too. WriteFileAtomic (through FS, so tests can inject faults) writes a
// temporary file and renames it, so a reader never sees a partial output,
// and writes a special file (a device, a pipe, /dev/stdout) as a stream,
// never replacing it (write.go); batch's reports and cache and g4mf's
// files are written with it.
package gltfio
