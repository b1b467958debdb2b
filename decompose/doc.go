// Package decompose splits a triangle mesh into convex hulls (approximate
// convex decomposition) for physics colliders: triangles in, hulls out, no
// glTF and no profile.
//
// # Idea
//
// The mesh is used as it comes: open, non-manifold, self-intersecting and
// multi-shell meshes are the common case in real assets, so nothing is
// remeshed, voxelised or closed. A part is a soup of triangles; its hull is
// the convex hull of its own corners. Cutting a part by a plane splits every
// crossing triangle at the plane (the intersection points are computed from
// each edge in a canonical order, so neighbouring triangles stay welded) and
// each side is hulled from its own corners, cut points included. The union
// of the hulls therefore contains every piece of every input triangle, and
// so every input vertex, by construction; no hull is shrunk or inflated.
//
// Cuts are not capped, so a part's surface can leave out solid of its cell
// (the region its cuts bound): the top and bottom faces of a plate's middle
// are two connected pieces, and a wall and a strip of the top meeting at an
// edge hull as a wedge. For closed input (every edge has its twin), two
// repairs keep the solid inside the union, both judged on the whole input
// (a BVH kept for the run: a point is in the solid by the median winding
// number of three rays), and both probing
// innerOffset off the cut planes so that a face lying in a plane (a cut
// through a floor) is not ambiguous:
//
//   - When a side is split into its connected pieces, an in-plane ray from
//     the pieces' edges on each of the part's cut planes, perpendicular to
//     the edge, that meets another piece across solid joins the two pieces
//     into one part, unless the hull of one of them already holds the gap
//     (the outer wall of a tube ring holds its inner wall: keeping them
//     apart keeps the parts simple). Pieces across empty space (a U's arms)
//     stay apart.
//   - Before the merge pass, rays from each part's edges on its cut planes
//     run into the solid (behind the edge's face) up to the first input
//     face or out of the part's cell, and on along the cell's edges there;
//     the far ends the part's hull misses are added to it.
//
// Open input has no well-defined solid: the winding number there is a
// guess, and on the open corpus props (a truck body with its glass, a
// water bottle) the repairs joined pieces across empty space, which then
// had to be cut again (17 to 25 hulls on the truck body, surface distance
// 2.35 to 4.54 %); they are skipped there, so an open mesh's union covers
// its surface, not necessarily the solid it suggests.
//
// Limitation: both repairs sample (at most raysPerPlane edges per piece
// and plane, maxMisses empty gaps per pair of pieces) and follow rays, not
// the exact cross-section, so a pocket in a corner of a cell that no ray
// reaches can remain; none is left on the V-HACD benchmark meshes or the
// test shapes (sampled, see TestNoPockets and TestBenchMeshes).
//
// Splitting is error-driven, in the manner of CoACD: a part is split while
// its concavity exceeds the threshold (Options.Concavity times the bounding
// box diagonal, or Options.AbsConcavity); MaxHulls only caps the count.
// Convex input is one hull. Each round, every part above the threshold tries
// a few axis-aligned planes per axis (evenly spaced, plus planes through the
// deepest concave point and through the hull point farthest from the
// surface), refined around the best by halving the step. Each side is split
// into its connected pieces (corners welded by exact position; pieces
// around one region of the solid joined, see above), so a U cut under its
// arms gives three parts. Candidates are ranked by the worst
// concavity they leave, scaled by the share of the hull's excess volume they
// remove (sampled concavities are noisy and tie; volumes are exact).
//
// A part whose best cut leaves a child with most of its concavity (a ring,
// a window frame, a cup: no one plane opens it) is stuck, and ranking by
// one cut would peel slices off its edge round after round. For a stuck
// part well above the threshold, the best few cuts are scored instead by
// the concavity left after one more cut of each of their children (a
// two-level search, where CoACD searches a tree of cuts), and the chosen
// plane is not refined. A square frame is cut into its four bars this way
// where peeling left 8 to 10 bloated slices.
//
// Last, the chosen plane (refined or looked ahead) is tried moved to the
// nearest corner coordinate on either side of it: modelled objects have
// their features on the corners (a window's sill, a notch's edge), and a
// cut beside one leaves a sliver of it under a hull. It is kept if its
// one-cut score is lower.
//
// After splitting, a greedy merge pass joins the pair of touching parts whose
// union has the lowest concavity, as long as it stays under the threshold,
// then, if MaxHulls is exceeded, the lowest pairs regardless.
//
// Then the cuts between touching parts are re-placed (relaxed). The search
// cuts a part where one cut helps most, not where the pieces end up even:
// a torus came out as arcs of 23° to 95°, and the long arcs bloat. For each
// pair of touching parts on either side of a cut, both under the threshold,
// their union is cut again by evenly spaced planes across the three axes
// and its principal axes (a torus's arcs need planes that are not axis
// planes), three positions each, refined twice around the best. The cut
// of least total hull volume whose two pieces are under the threshold
// replaces the pair if it saves more than 0.2 % of the pair's hull volume,
// pockets filled, also when the faces on a wider cut are charged as
// volume (a cut through the Duck's body next to its tail's neck saves
// volume but doubles the surface distance). Pairs go best saving first,
// each part once a round, for at most 3 rounds; pairs of more than 10000
// triangles are left alone. On the V-HACD torus this took the surface
// distance from 0.67 % to 0.62 % of the diagonal.
//
// Last, a hull lying inside another hull is dropped: it adds nothing to the
// union.
//
// # Large inputs
//
// Every candidate cut cuts, hulls and samples its whole part, tens of times
// a round, so the search costs (candidates × rounds) × triangles, and holds
// tens of copies of a part at once: the 89k-triangle ToyCar body took 70 s
// and 2.5 GB. An input with more than 5/4 of Options.SearchTriangles
// (default 8000) is therefore searched on a proxy of about that many
// triangles: its corners snapped to a grid of cubic cells (each cell's
// corners replaced by the one nearest to their mean, a point of the
// surface, where the mean of a thin wall's two sides is not; mean
// 2.02 % surface distance on the four large corpus and real meshes at
// 3000 triangles, nearest corner 1.59 %), the triangles that collapse
// dropped (which keeps a closed input closed). Each part of the search records how
// it was made (a side of a cut of its parent, and which of that side's
// pieces; or a merged pair), and the same cuts, merges and re-cuts are
// replayed once on the input's own triangles; a piece of a split side at
// full resolution goes to the proxy part nearest to it. The hulls are built
// from the input's corners and cut points (and the points pocket filling
// added), so the union contains the input by construction, as without a
// proxy; only the choice of cuts is made on the proxy. Time and memory are
// then a bounded search plus a few linear passes (ToyCar body: about 5 s of
// CPU and 180 MB).
//
// Triangles repeating another's corners in the same cyclic order are
// dropped first: copies add nothing to the hulls, and a cube's 12 triangles
// repeated 3,000 times made the winding classification quadratic.
//
// Candidate cuts and merge pairs are hulled without the vertex cap (the
// tighter hull, and far cheaper: the hull package's vertex reduction was
// most of the time on large meshes) and without the checks that the hull
// is convex and holds every point; only the parts kept get checked,
// capped hulls and a full estimate. A merge pair measures distances with
// its two parts' BVHs.
//
// # Concavity estimate
//
// A part's concavity is estimated as CoACD defines it, max(Hb, k·Rv), with
// sampling and the following approximations:
//
//   - Hb, the boundary Hausdorff distance, is the larger of two one-sided
//     distances. Hull → part: area-uniform samples on the hull (plus its
//     face centroids and edge midpoints: a hull edge spanning a notch is
//     where the hull is farthest from the part, and random samples rarely
//     land on it) to the nearest part triangle through a BVH. Part →
//     hull: the part's corners and area-uniform samples, by their depth
//     inside the hull (which is how the inside of a cup or the hole of a
//     half torus shows).
//   - The cut faces are never built. On closed input, a hull sample
//     lying on one of the part's cut planes is measured against the
//     outline of the cross-section there instead (zero inside by non-zero
//     winding or odd crossings, else the distance to the outline). On
//     open input, a hull sample is also measured to the part's own cut
//     faces (ownCaps: the region its open edges lying in a cut plane
//     bound, not the parent's whole cross-section, which can hold sibling
//     pieces' cut faces, and never the input's own hole rims), off the
//     plane too, by the hypotenuse of the distance to the plane and the
//     in-plane distance to the face. A part with a hole wider than the
//     threshold is a thin shell (CoACD's remesh seals holes narrower than
//     its voxels and makes a thin shell of a mesh with a wide opening):
//     its cut faces are strips along their edges, as is a cut face whose
//     edges do not close.
//   - Faces buried in another shell (interpenetrating shells, common in
//     real assets) are found once, by the winding number just in front of
//     each triangle (median of three ray casts), and do not count as part
//     concavity; they are still hulled.
//   - On closed input, a hull sample looking into a hole (the first
//     triangle seen inward is seen from behind) counts as zero: a part's
//     only openings are its cuts, and the ray through one stands in for
//     the cap CoACD's part has there. On open input it is measured like
//     any other: CoACD's part is the surface as it is (its remesh seals
//     only holes narrower than its voxels), so a hull face over one of
//     the mesh's openings is as concave as the opening is wide. The
//     reference in reference_test.go showed the rule hiding concavities
//     of 1.2 to 6.5 times the threshold on open meshes (an open box, a
//     sphere or a bowl open at the top, a cup with holes); on closed
//     input it misses by less (the V-HACD torus 1.08 times the threshold,
//     a thin bowl 1.15), and dropping it there too cost hulls and surface
//     distance on the acd meshes (cup, cylinder), so it stays there.
//   - Rv = ∛(V_hull − V_part), k = 0.3, is used only when the input is
//     closed (every edge has its twin); a part's volume closes its cuts by
//     fanning its open edges on each cut plane.
//
// # Robustness
//
// Every hull from the hull package is verified against its points;
// quickhull-go occasionally returns non-convex hulls for point sets with
// many coplanar points (a cut face), and those are rebuilt from reshuffled
// input, with the bounding box as the last resort. Flat or line-like parts
// are thickened by a tiny amount (flatThickness) so they have a hull.
//
// # Determinism and concurrency
//
// Work runs on at most Options.Workers goroutines; every job writes its
// own slot and choices are made in a fixed order afterwards, and all
// sampling uses fixed seeds, so the output is bit-identical for any worker
// count. The context is checked between jobs and in the winding
// classification; Progress is called from the calling goroutine after each
// round.
//
// # Metrics
//
// Measure scores any set of hulls (ours or another tool's) against a mesh:
// hull and vertex counts, the share of the surface outside every hull,
// the largest vertex distance outside, one-sided bloat from the hulls'
// union surface to the mesh (BloatMean), the mean distance from every
// hull's whole surface to the mesh (SurfaceDistMean, the definition of the
// reference figures for V-HACD and CoACD, which also charges the faces
// where hulls meet inside the object), the same leaving out the faces
// inside another hull (OuterDistMean, the definition of the reference
// figures for CoACD's real meshes), and CoACD's concavity figure. See Metrics for
// the definitions and approximations.
package decompose
