// Package generate is autocollide's per-asset pipeline: it plans which
// nodes become rigid bodies, extracts their geometry, generates a collider
// for every mesh instance, and writes the physics into the asset in the
// requested extension family.
//
// Planning (plan.go): by default every root node of the chosen scene
// whose subtree holds triangles becomes one dynamic body, unless
// something in that subtree already carries physics (an artist's work is
// kept exactly as it is). Options.Body changes that: a body per node with
// a mesh, one per file (a generated node gathers the scene's roots when
// there are several), or one per node matching a name pattern (geometry
// outside every match keeps its root body); static and kinematic bodies
// carry no mass. Then each mesh instance takes the asset's options, what
// the first matching rule (Options.Rules) sets, and last what the
// artists' naming conventions say (naming.go), since those are the
// artist's own colliders: a body holding any gets no generated ones.
// Trimesh colliders go on static bodies only; elsewhere they become a
// decomposition, with a warning.
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
