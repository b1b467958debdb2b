// Package fit fits primitive colliders around point sets: the
// minimum-volume oriented box (KindBox), the axis-aligned box (KindAABB),
// the minimum enclosing sphere (KindSphere) and minimum-volume capsule and
// cylinder (KindCapsule, KindCylinder). Points in, Shape (centre,
// rotation, dimensions, volume and fit error) out; no glTF, no profiles.
//
// Prepare validates the points and builds their convex hull once
// (hull.Build, uncapped; PrepareWithHull takes one the caller has); then
// (*Input).Fit fits each kind on the hull's vertices. Fit does both for
// one kind. Capsules and cylinders lie along local +Y (Rotation·(0,1,0)),
// as OMI and KHR define them, with equal radii; a capsule's Height is the
// distance between its hemisphere centres, a cylinder's the full height.
// KDOP26 gives the vertices of the 26-DOP (a convex collider between the
// box and the hull); (*Input).CapsuleAlong fits a capsule along a given axis.
//
// Algorithms: the box after O'Rourke ("Finding minimal enclosing boxes",
// 1985: one face holds a hull edge), each candidate normal solved exactly
// by rotating calipers (Freeman and Shapira, 1975), then refined by a
// pattern search on SO(3); large hulls are first reduced to a core set of
// extreme vertices along Options.CoreDirections directions (after DiTO,
// Larsson and Källberg, 2011). The sphere is Welzl's algorithm (1991),
// exact. Capsule and cylinder search the axis; for a fixed axis the
// cylinder is exact (a 2-D Welzl circle) and the capsule's segment exact
// for each radius, the radius found by golden-section search.
//
// Guarantees: every input point is inside the shape (Contains(s, p, 0)),
// which is re-measured on all points and inflated by Options.Tolerance
// (DefaultTolerance, 1e-6 of the bounding-box diagonal), whatever the
// hull's accuracy. The box is never larger than the principal-axes box or
// the AABB. Flat, line-like and point-like sets are accepted: the shape is
// then thin and Overshoot is +Inf. Results depend only on points and
// options (fixed shuffle seed, ties broken by index); an Input is safe for
// concurrent use.
//
// Fit error: Overshoot is Volume over the hull's volume; MaxGap estimates
// the largest distance from the shape's surface to the hull from
// Options.GapSamples surface points, each measured exactly by GJK.
//
// Errors: ErrNoPoints, ErrNotFinite (wrapped, naming the point),
// ErrCoincident and ErrUnknownKind. DESIGN.md has each search in detail
// with its measured accuracy and cost.
package fit
