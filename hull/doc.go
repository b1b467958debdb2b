// Package hull builds convex hull colliders: closed, convex, outward-wound
// (counter-clockwise, as glTF) indexed triangle meshes with no unused
// vertex, that contain every finite input point and meet the engines'
// vertex and polygon limits (PhysX and Unity: 255, 64 on the GPU).
//
// Build(points, Options) returns a *Hull. Its steps:
//   - Points are recentred and scaled so that their bounding-box diagonal
//     D is 1; every tolerance is relative to D.
//   - Flat, line-like and single-point inputs (RankTolerance,
//     PointScaleTolerance) become a slab or box of half thickness
//     DegenerateHalfThickness·D around them; Hull.Degenerate says which.
//   - The exact hull is quickhull (Barber, Dobkin and Huhdanpaa, "The
//     Quickhull algorithm for convex hulls", 1996) with PlaneEpsilon; its
//     vertices are input points.
//   - Over Options.MaxVertices, MaxFaces or MaxTriangles, the hull is
//     replaced (Hull.Reduced) by a bounding polytope: conservative edge
//     collapses (Sander et al., "Silhouette clipping", 2000), each new
//     vertex the solution of a small linear program; or, for large hulls,
//     cuts by the hull's own face planes in the manner of PhysX's cooking;
//     then vertex relocation. Never by dropping vertices.
//   - Every result is checked by the code of Validate. When construction,
//     reduction or the check fails, Build retries on points snapped to
//     SnapGrid·D and then returns a bounding box (Hull.Fallback says which:
//     FallbackSnapped, FallbackBox).
//
// Guarantees: every finite point lies at most ContainmentTolerance·D
// outside the hull; the hull is convex across every edge within
// ConvexityTolerance; Volume() > 0; the output depends only on the input
// (same points and options, same bytes). Build recovers panics into errors.
//
// Errors: ErrNoPoints (no finite point; NaN and ±Inf points are dropped and
// counted in Hull.Dropped), ErrRange (a coordinate beyond MaxCoordinate),
// and a limit too small to reduce to (MaxVertices below 8, MaxFaces below
// 6, MaxTriangles below 12). Validate reports a *ValidationError.
//
// Cost: quickhull is O(n log n) expected; a reduction adds about 40 small
// linear programs per collapse. DESIGN.md has each step in detail, the
// tolerances' reasons and the measured reduction losses.
package hull
