// Package mass computes the mass properties of rigid bodies from geometry:
// volume, centre of mass, inertia tensor and its principal axes, so that a
// dynamic body carries a mass and inertia that match its shape rather than
// an engine's default. Slices of geom.Vec3 and triangles in, numbers out;
// it imports no glTF, no profile and no format package.
//
// Everything is first computed for density 1 as Properties (volume, centre
// of mass, inertia about the centre of mass, in the input's frame), then
// made a Body with a density (FromDensity; Density names materials) or a
// total mass (FromMass):
//   - Mesh integrates a closed triangle mesh exactly (divergence theorem:
//     a sum of signed tetrahedra from the bounding-box centre, so far-off
//     meshes keep their precision); inside-out winding is detected from the
//     volume's sign and corrected. MeshLinear applies a 3×3 map first.
//   - Box, Sphere, Cylinder and Capsule are closed forms (axes along local
//     +Y; a capsule's height is between its hemisphere centres);
//     TaperedCylinder and TaperedCapsule integrate the frustum and the
//     hull of two balls of different radii exactly (Gauss–Legendre over
//     the profile), with the centre of mass moved towards the wider end.
//   - Transform, Linear and Scale move Properties exactly; Sum adds
//     disjoint parts (parallel-axis theorem); Combine adds Bodies of
//     different densities; Union estimates overlapping convex parts, exact
//     per part minus a lattice estimate of the overlaps.
//   - IsClosed and IsClosedByPosition tell whether a mesh is a closed,
//     consistently wound surface, so callers can choose the render mesh or
//     the colliders as the mass source.
//   - Principal diagonalises a tensor into principal moments and a unit
//     quaternion (I = R·diag·Rᵀ, w ≥ 0), chosen canonically: the smallest
//     rotation, the identity for isotropic and axis-aligned tensors.
//     Body.InertiaTensor gives the full row-major tensor.
//   - G4MFInertiaDiagonal, G4MFRotor, G4MFAngularVelocity and their
//     inverses map these numbers to G4MF's conventions (bivectors, rotors;
//     g4mf.go derives them). They are plain arithmetic on arrays.
//
// Errors: Mesh fails (wrapping ErrNoVolume) when |volume| is at most
// MinVolumeRatio times the bounding-box diagonal cubed (open, flat or
// inconsistently wound), and names a non-finite vertex or an index out of
// range. Density fails for an unknown material.
//
// Which bodies get mass is the caller's policy: KHR_physics_rigid_bodies
// and OMI_physics_body give static bodies and triggers none. All functions
// are deterministic; there is no global mutable state.
package mass
