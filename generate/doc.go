// Package generate is autocollide's per-asset pipeline: it plans which
// nodes become rigid bodies, extracts their geometry, generates a collider
// for every mesh instance, and writes the physics into the asset in the
// requested extension family.
//
// Planning: every root node of the chosen scene whose subtree holds
// triangles becomes one dynamic body, unless something in that subtree
// already carries physics (an artist's work is kept exactly as it is).
//
// Frames: collider geometry is computed in the body's frame F, the root
// node's world transform without its scale, in world units. When the root
// has a scale other than one, a generated group node under it cancels the
// scale, so no collider node ever inherits a (possibly non-uniform) scale,
// which engines do not apply correctly to primitive shapes.
//
// Every generated node, mesh and accessor is appended and marked in its
// extras; see gltfio for how a re-run removes them first.
package generate
