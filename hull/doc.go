// Package hull builds convex hull colliders: closed, convex, outward-wound
// triangle meshes (glTF-ready: indexed triangles, no unused vertex) that
// contain every input point and respect the physics engines' limits
// (PhysX and Unity: 255 vertices and 255 polygons, 64 on the GPU; Jolt:
// 256 points).
//
// # Pipeline
//
// Build(points, Options) goes through these steps:
//
//  1. Non-finite points (NaN, ±Inf) are dropped and counted in
//     Hull.Dropped; no finite point at all is ErrNoPoints and a coordinate
//     beyond ±1e150 is ErrRange, the only errors for bad input.
//  2. The points are recentred on their bounding box and scaled so that its
//     diagonal D is 1. All tolerances below are relative to D, so a mesh
//     1e6 units from the origin or 1e-4 units wide behaves like one at the
//     origin one unit wide.
//  3. Rank detection: the farthest pair among the six axis-extreme points,
//     the point farthest from their line and the point farthest from that
//     plane. If D is at most PointScaleTolerance (1e-8) times the largest
//     absolute coordinate the input is a Point; if the line, plane or
//     volume extent is at most RankTolerance (1e-7·D) it is a Point, Line
//     or Flat (Hull.Degenerate says which). It is then replaced by a slab
//     or box that contains it:
//     Flat: the points' 2D hull in their plane (monotone chain), extruded
//     by ±(off-plane extent + DegenerateHalfThickness·D);
//     Line: a box along the line, half width (off-line extent +
//     DegenerateHalfThickness·D), no extension along the line;
//     Point: a cube of half size D/2 + max(DegenerateHalfThickness·D,
//     1e-9·largest |coordinate|, 1e-100) around the point.
//     DegenerateHalfThickness defaults to 5e-4 (a 2 m plane gets a 2 mm
//     thick slab) and can be set in Options. A flat or line input
//     therefore never yields a broken or zero-volume hull.
//  4. Quickhull (Barber, Dobkin, Huhdanpaa 1996) on the rescaled points:
//     start from the extreme tetrahedron, give every point to the first
//     face it is more than PlaneEpsilon (1e-10·D) above, repeatedly take
//     the farthest point of a face, find the faces it sees by a search
//     over face adjacency (a face is seen when the point is more than
//     PlaneEpsilon above it), and replace them by a cone of new faces from
//     the point to the horizon. Points within PlaneEpsilon of the hull are
//     treated as on it, which is what makes exactly coplanar input (cube
//     faces, grids) harmless. That tolerance lets a new cone face fold
//     outward over the kept face beyond a horizon edge by up to
//     PlaneEpsilon at the new point; when the point is nearly on the
//     edge's line (a near-duplicate vertex, or a point nearly collinear
//     with the edge, common on pieces cut by a plane) the cone face is a
//     sliver and the fold, measured at the kept face's far vertex, grows
//     by the ratio of their heights over the edge (seen at 1e-4·D). So a
//     face beyond the horizon that the point is above at all (distance
//     > 0) is also taken as visible when its far vertex would lie more
//     than the epsilon above the cone face's plane (exactly what exact
//     arithmetic would do), and so is one whose edge the point is within
//     the epsilon of (the cone face would be degenerate). An insertion is also refused (and retried
//     later, like a bad horizon) when one of its cone faces would have the
//     first tetrahedron's centroid, a point inside the hull, above it: a
//     point nearly in a visible face's plane and beyond one of its edges
//     made such an inward face, and the hull then folded over itself
//     while staying convex across every edge. Before any change the
//     horizon is checked to be one simple loop (no vertex starting two
//     horizon edges, one cycle); numerical noise can make the seen region pinched or holed,
//     and then the point is set aside and retried once the hull has grown
//     (most are then inside). If points still cannot be inserted, the
//     whole construction is redone with a 10× larger epsilon, at most
//     three times (up to 1e-7·D, still 10× below the containment
//     tolerance). The vertices of the result are the input points
//     themselves, not rescaled copies.
//  5. Limits. MaxVertices (0: DefaultMaxVertices = 255, negative: no limit),
//     MaxFaces (polygons after merging coplanar triangles, 0: no limit;
//     no default, see Options) and MaxTriangles (0: no limit; a closed
//     triangulated sphere has 2V-4 triangles, so it is the vertex cap
//     (MaxTriangles+4)/2). A hull over a limit is replaced (Hull.Reduced)
//     by a bounding polytope. Inner simplifications (keeping a subset of points,
//     collapsing edges to midpoints) are never used: they would leave parts
//     of the mesh outside. Two conservative methods exist.
//     Edge collapses (collapse.go), tried first when the exact hull has
//     at most collapseMaxVertices (2048) vertices: a conservative
//     progressive hull after Sander et al., "Silhouette clipping" (2000).
//     The two ends of an edge of the exact hull's triangle mesh are
//     replaced by one new vertex c, the solution of a linear program in
//     three unknowns (lp3.go, simplex on the dual): c on or above the
//     plane of every face around the edge (so the new polytope contains
//     the old one), on or below (within collapseSlack, 1e-9·D) the planes
//     of the faces just beyond and of every three consecutive vertices of
//     the ring around it (so it stays convex), and the added volume, linear
//     in c, as small as possible. c is the intersection of three planes,
//     computed once; vertices never move afterwards. Collapses are made
//     smallest added volume first until the limits are met. While the mesh
//     has more than min(2×, +64) the vertices it must reach, costs around
//     a collapse are recomputed when they reach the top of the queue and
//     the edges it creates are queued unevaluated at 8 times its cost
//     (most are gone before they reach the top); below that, costs are
//     recomputed at once (which also finds the collapses that became
//     possible; fully lazy evaluation misses them and once gave +230% at
//     32 vertices). Every collapse is evaluated again just before it is
//     made (the planes beyond its ring may have moved). When the queue runs dry every edge is evaluated again
//     (a collapse refused earlier may have become possible). New faces
//     that are slivers (the new vertex within sliverTolerance, 1e-7·D, of
//     another vertex of the face or of the line through them) are
//     refused: their normals are rounding noise. So is a vertex that
//     leaves any vertex of the neighbouring faces more than 1e-8·D above
//     a new face (the constraints bound the new vertex against the
//     neighbours' planes, which through a small new face can still let a
//     neighbour's far vertex stand well above it). Then, and once already
//     when the costs start to be recomputed at once,
//     every vertex in turn is relocated (up to four passes, until a pass
//     gains less than 1e-4 of the volume): moved to the solution of a
//     linear program of least volume under the same convexity constraints
//     plus, for each face around it and each exact-hull vertex p in the
//     cone from an inner point over those faces (outside it the polytope
//     does not change; found through a cube map of directions), p on or
//     below the face (for a face (x, a, b), "p below" is linear in x),
//     solved by cutting planes (start without the point constraints, add
//     the most violated per face, solve again; at most 32 rounds, else x
//     stays). A move that would break MaxFaces (moved vertices bend
//     coplanar triangles apart) is undone. A triangulated polytope
//     has 2V-4 faces, so for a given vertex budget it hugs curved surfaces
//     far better than plane cuts (a sphere at 64 vertices: +5% instead
//     of +11%).
//     Plane cuts (reduce.go), used for larger hulls (collapses cost
//     about 0.2 s of CPU on a 5,000-vertex sphere, 4 to 6 times the plane
//     cuts), when the collapses run out or their result fails
//     verification, and also tried when the collapses grow
//     the volume by more than planeRetryGrowth (5%: box-like hulls at few
//     vertices, whose corners the convexity constraints keep from being
//     cut: BoomBox at 32 vertices, +64% by collapses, +12% by planes) or
//     when MaxFaces is set (they make about V/2+2 faces for V vertices, so
//     under a face limit they can be the tighter); the smaller valid
//     result is kept. In the manner
//     of PhysX's cooking: start from the smaller of
//     the axis-aligned and the principal-axes box of the hull, then cut it
//     with planes of the hull's polygons (coplanar triangles merged within
//     CoplanarTolerance; beyond 4096 of them, the largest in each cell of
//     a cube map of directions). The cut taken each time is the one that
//     removes the most volume among those that keep the polytope within the
//     limits, found by lazy greedy evaluation (a cut can only remove less
//     volume once the polytope has shrunk, so stale scores are upper
//     bounds); a cut's removed volume is computed from cones to the cutting
//     plane without building the cut polytope. The chosen planes are then
//     pushed out to the farthest hull vertex plus the construction
//     epsilon, and the polytope is rebuilt by clipping: its vertices are
//     exact plane intersections, so every input point stays inside.
//     Clipping keeps polytope vertices within 1e-9·D of a plane on it,
//     merges new vertices closer than 1e-8·D to an existing one, builds
//     the cap face from the edges left without a twin (so the result is
//     closed by construction) and drops vertices that end up in fewer than
//     three faces. The vertices of the plane-cut polytope are then
//     relocated as above (its faces fan-triangulated; kept as polygons
//     when relocation would break MaxFaces): a 5,000-point sphere at 64
//     vertices, +10.8% by the cuts, +7.6% after.
//  6. Verification. Every result is checked by the same code as Validate
//     (closed 2-manifold of sphere topology, consistent outward winding,
//     positive volume, convex across every edge within
//     ConvexityTolerance); reduced hulls are also checked to contain every
//     vertex of the exact hull within ContainmentTolerance (the collapses
//     keep them inside up to rounding, about 1e-12·D per collapse; the
//     points are within the construction epsilon of the exact hull). Exact hulls also get the all-vertices-
//     against-all-planes check when vertices × triangles ≤ 4e6 (a hull
//     can be convex across every edge and still fold over itself).
//     Panics are recovered into errors.
//  7. Fallbacks. When construction, reduction or verification fails (8 of
//     the 800 decomposition-like pieces with near-duplicate points of
//     TestStressDecompositionPieces, none of the corpus; 7 of the 8 are
//     reductions whose polytope is convex against its own planes within
//     1e-9 but has edges shorter than about 1e-7·D, which welded vertices
//     up to 2e-9 off their face plane turn into triangles tilted enough to
//     fail the convexity check), Build does
//     not return a broken hull nor an error: it retries steps 4–6 on the
//     points rounded to a grid of SnapGrid·D (2^-23·D: near-duplicates
//     merge, near-coplanar points become coplanar; the vertices are then
//     grid points, at most 1.04e-7·D from input points) and, if that fails
//     too, returns the smaller of the axis-aligned and principal-axes
//     bounding box. Both are checked by Validate against every input
//     point, and Hull.Fallback says which was used ("snapped", "box").
//
// # Guarantees and tolerances
//
// With D the bounding-box diagonal of the finite points: every finite input
// point lies at most ContainmentTolerance·D (1e-6·D) outside the hull (by
// construction at most about PlaneEpsilon·D); the hull is convex within
// ConvexityTolerance times its own diagonal; output is deterministic (no
// map iteration order or goroutine leaks into it: same input, same bytes).
// Volume() is positive.
//
// # Failure modes
//
//   - Objects far smaller than their distance from the origin: output
//     vertices are rounded to float64 in the input's coordinates, so below
//     D = 1e-8·(largest coordinate) the points are treated as one point
//     and get a cube of half size 1e-9·(largest coordinate) or more.
//   - Coordinates beyond ±1e150 (MaxCoordinate) are refused (ErrRange):
//     products of coordinates would overflow.
//   - MaxVertices below 8 or MaxFaces below 6 cannot be met by a reduced
//     hull (the starting box) and are an error when a reduction is needed.
//   - Near-spherical shapes reduce worst: a 64-vertex bounding polytope of
//     a sphere is about 5% larger than the sphere by collapses (about 1.3%
//     at 255, 10% at 32), 7.6% (2%, 17%) for hulls over 2048 vertices,
//     which get plane cuts.
//   - Cost: Validate's containment check is points × triangles; Build
//     itself scales like quickhull (O(n log n) expected, O(n·h) worst) plus,
//     when reducing, about 40 linear programs of ~30 constraints per edge
//     collapse near the limit (fewer above twice the limit) and, for plane
//     cuts, hull vertices × kept planes.
//
// # Why not quickhull-go
//
// The package started as a wrapper of github.com/markus-wa/quickhull-go/v2
// v2.2.0. Run unguarded on the test clouds (TestAgainstQuickhullGo,
// AUTOCOLLIDE_HULL_EVIDENCE=1) it failed 49 of 76 cases: open or
// repeated-vertex meshes for 1–3 points, collinear and coplanar input,
// inward or non-convex output when a NaN is mixed in, a panic when the
// first point is NaN, and points up to 0.03 outside when the cloud sits
// 1e6 from the origin. Guard rails fix most of these, but points on a
// sphere are its slow path (BenchmarkQuickhullGo: about 2.5× this
// package's time for 1e5 points; it is faster on uniform clouds) and it
// exposes no face adjacency or tolerance control, so the package now
// carries its own quickhull. tools/bench-hull compares Build with qhull.
package hull
