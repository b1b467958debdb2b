// Package decompose splits a triangle mesh into convex hulls (approximate
// convex decomposition) for physics colliders: vertices and triangles in,
// hulls out; no glTF, no profile.
//
// Decompose(ctx, vertices, triangles, Options) returns a Result: the hulls
// (each a *hull.Hull within Options.MaxHullVertices), their Metrics and
// Notes on what was done to the input. The mesh is used as it comes (open,
// non-manifold, multi-shell): nothing is remeshed, voxelised or closed.
//
// Algorithm: error-driven splitting in the manner of CoACD (Wei, Liu, Ling
// and Su, "Approximate Convex Decomposition for 3D Meshes with
// Collision-Aware Concavity and Tree Search", SIGGRAPH 2022). A part is cut
// by a plane while its concavity, max(Hb, k·Rv) with k = 0.3 (sampled
// boundary Hausdorff distance; volume term on closed input only), exceeds
// max(Options.Concavity·diagonal, Options.AbsConcavity); a greedy pass then
// merges parts while the union stays under that threshold; then on closed
// input parts are split further where that lowers the integral of the hulls'
// distance to the mesh by more than the cube of the threshold per added hull
// (unless Options.SkipTighten), elsewhere cuts between touching parts are
// re-placed (unless Options.SkipRelax); while there are more parts than
// Options.MaxHulls (a hard cap across all pieces), the pair whose union's
// hull adds the least gap to the mesh is merged (a MaxHulls given without
// a GapSlack is a target: the search also runs at half the threshold, is
// cut at MaxHulls, and kept where it leaves less gap to the mesh and no
// more on the outer surface), and
// below it so too while
// the mean distance from the hulls' outer surface (not inside another hull)
// to the mesh stays within 1+Options.GapSlack of the unbudgeted
// decomposition's; hulls over an Options.MaxHullVertices
// below 255 are reduced (the search judged the uncapped hulls, so a cap
// never adds a hull); and hulls inside another hull are dropped. Inputs over twice Options.SearchTriangles triangles are
// searched on a vertex-clustered proxy and the chosen cuts replayed on the
// input.
//
// Guarantees: the union of the hulls contains every vertex of every input
// triangle by construction (a cut splits triangles and each side is hulled
// from its own corners and cut points; no hull is shrunk). On closed input
// the solid between cuts is kept inside the union as well, up to the
// sampling of the repairs. Every kept hull is checked to contain its points
// within hullTol (1e-7 of their diagonal) and rebuilt from a reshuffled
// order when it does not. The result is bit-identical for any
// Options.Workers: jobs write their own slots and sampling uses fixed
// random seeds. Progress is called from the calling goroutine.
//
// Errors: ctx.Err() when cancelled; ErrNoGeometry when no triangle has
// finite corners; an error for out-of-range indices or an input without
// extent.
//
// Measure scores any set of hulls against a mesh (coverage, bloat, surface
// distance, CoACD's concavity); see Metrics. DESIGN.md has the cut search,
// the solid repairs, the concavity estimate and the figures behind them.
package decompose
