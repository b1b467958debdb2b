// Package fit fits primitive colliders — oriented and axis-aligned boxes,
// spheres, capsules and cylinders — around point sets. It is pure geometry:
// points in, shape and pose out; no glTF, no profiles.
//
// # Pipeline
//
// Prepare validates the points (an empty set, a NaN or an infinite
// coordinate, or a set whose points all coincide is an error) and builds
// the convex hull once (hull.Build, uncapped). Every fit of the same Input
// reuses it: Prepare once, then call (*Input).Fit per kind. A caller that
// already has a hull passes it to PrepareWithHull.
//
// The searches run on the hull's vertices (the support set). Every shape is
// then re-measured on every input point and inflated by Options.Tolerance
// times the bounding-box diagonal (default 1e-6), so containment holds
// strictly whatever the hull's accuracy: Contains(s, p, 0) is true for every
// input point. A capped or approximate hull only costs optimality.
//
// Flat inputs are accepted. When the hull package reports the set flat,
// line-like or a point (its thin slab is then ignored), or the hull has no
// volume (below 1e-15 of the diagonal cubed), the support set is the
// 2-D convex hull of the points projected on their principal plane, or the
// two ends of a collinear set. The shapes are then thin — a box of thickness
// 2·tolerance, a capsule of radius tolerance — and Overshoot is +Inf. A set
// thicker than 1e-9 of its diagonal whose hull still cannot be built is
// searched on every point instead (slower; Overshoot +Inf).
//
// # Box (KindBox)
//
// Minimum-volume oriented box. By O'Rourke's theorem (1985) an optimal
// box has two adjacent faces each containing a hull edge; in particular one
// face contains an edge e, so that face's normal lies on e's arc of the
// Gauss sphere (the great-circle arc between the normals of e's two faces).
// For a fixed normal n the best box with n as an axis is exact: the extent
// along n times the minimum-area rectangle of the projection (rotating
// calipers on the 2-D hull; one side of that rectangle is flush with a hull
// edge, Freeman–Shapira). Each such evaluation sorts only the hull's
// silhouette along n (vertices whose incident faces turn both ways).
//
// On hulls of at most Options.ExactMaxVertices vertices (default 256) the
// box therefore sweeps every edge arc: both ends (every face normal,
// evaluated once) and samples at most 0.2 rad apart, then a golden-section
// search around the best sample of the best 8 arcs. Sampling makes this
// near-exact rather than exact (a minimum narrower than the sampling step
// on an arc that is not among the best 8 can be missed); on random small
// hulls it matches a 400-samples-per-arc sweep within 1e-4
// (TestBoxAgainstArcSweep). The best two candidates and the PCA frame are
// then refined by a pattern search on SO(3): rotations about the box axes
// and their six diagonals, moving to the first that shrinks the box, steps
// from 0.05 rad down to 1e-5 rad. Finally the refined frames, the PCA frame
// and the identity are judged on every hull vertex, so the box is never
// larger than the PCA box or the AABB.
//
// Bigger hulls are first reduced to a core set, DiTO-style: the extreme
// hull vertices along Options.CoreDirections (default 128) Fibonacci
// directions, found by hill-climbing the hull graph. Candidates are the
// face normals of the core's hull (no arc sweep: it cost a third more time
// at 100k points for under 0.25% of volume), refined as above on the core;
// the best refined frame is polished on a core four times denser, and the
// final choice and extents use every point. On the corpus meshes with big
// hulls the box is within 0.25% of the best of 300 random-start refinements
// on the full hull; on hulls of at most 256 vertices it matches or beats it
// (TestCorpusBoxMultistart).
//
// Cost: per candidate normal O(V) plus a sort of the silhouette; a few
// hundred box evaluations of the search set per refinement; O(n) for the
// final extents. About 18 ms of CPU for a 214-vertex hull, 15 ms for a
// 100k-point mesh with a 4900-vertex hull.
//
// # AABB (KindAABB)
//
// The bounding box in the input frame: exact, O(n).
//
// # Sphere (KindSphere)
//
// Exact minimum enclosing sphere: Welzl's algorithm with move-to-front on
// the hull vertices, shuffled with a fixed seed (deterministic, expected
// linear time). Boundary spheres through 2, 3 or 4 points are solved in
// closed form; affinely dependent boundary sets (three collinear, four
// coplanar points) fall back to the smallest enclosing sphere of their
// pairs and triples. Containment tests inside the recursion use a relative
// slack of 1e-12 so round-off does not recurse on boundary points; the final
// radius is the largest distance from the centre to any input point.
// Cost: expected O(V) on the hull, then O(n).
//
// # Capsule (KindCapsule) and cylinder (KindCylinder)
//
// Both are along local +Y (Rotation·(0,1,0) in the input frame), as OMI and
// KHR define them. Capsule Height is the distance between the hemisphere
// centres, cylinder Height the full height; radii are equal (RadiusTop =
// RadiusBottom = Radius; tapered shapes are not fitted).
//
// For a fixed axis u the fit is exact for the cylinder: the minimum
// enclosing circle (Welzl, 2-D) of the points projected along u, and the
// extent along u. For the capsule the axis line passes through the centre
// of that circle; for a radius r the shortest segment is exact (a point at
// distance d from the line and height t forces the segment to reach
// t ∓ √(r²−d²)), and r is chosen by a coarse scan plus golden-section search
// of the volume between the circle's radius and the radius at which the
// capsule becomes a sphere.
//
// The axis is searched: seeds are the three principal axes, the three axes
// of the best box and 16 directions spread over a hemisphere. The best six
// are refined by a coarse pattern search on the sphere (tilts in six
// directions, 0.05 rad down to 0.004 rad), the best two of those by a fine
// one (four directions, down to 1e-5 rad). The volumes are not smooth in
// the axis (the circle's and the segment's support points switch), so
// fewer seeds or tilt directions stall on ridges: on small random clouds
// this search matches or beats the best of 12000 axes spread over the
// hemisphere (TestAxialAgainstDenseAxes). When the search set has more
// than 64 points the seeds and the coarse phase run on a core half as
// dense as the box's (64 directions), the fine phase on the search set;
// the final radius and extent are measured on every point.
// On the corpus meshes with big hulls the capsule and cylinder are within
// 1.5% of those searched on the full hull. Cost per axis: one Welzl pass
// over the search set (its move-to-front order is kept from one axis to
// the next, so the boundary points come first) plus, for the capsule,
// about twenty passes of the radius search; a search evaluates a few
// hundred axes.
//
// # Fit error
//
// Volume is the shape's volume. Overshoot is Volume divided by the hull's
// volume (+Inf for flat hulls). MaxGap estimates the largest distance from
// the shape's surface to the hull: about Options.GapSamples (default 128)
// points are spread over the surface — a square grid on each box face,
// corners and edges included; a Fibonacci spiral on spheres and hemispheres; rings on capsule and
// cylinder sides; polar grids on cylinder caps — and the distance of each to
// the hull is computed exactly with Gilbert's algorithm (GJK against a
// point, support queries by hill-climbing the hull graph). Being sampled,
// MaxGap can under-estimate the true maximum by up to about the sample
// spacing times the surface's slope relative to the hull.
//
// # Determinism
//
// Results depend only on the input points and options: shuffles use a fixed
// seed, sorts break ties by index, and no map order reaches the output.
// An Input memoises its search set and best box frame per search options;
// it is safe for concurrent use.
package fit
