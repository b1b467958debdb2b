// Package mass computes the mass properties of rigid bodies from geometry:
// volume, centre of mass, inertia tensor and its principal axes, so that a
// dynamic body is written with a mass and inertia that match its shape
// instead of an engine's default (1 kg and a unit or collider-derived
// inertia). It is a pure geometry package: slices of geom.Vec3 and
// triangles in, numbers out; no glTF, no profiles.
//
// # Idea
//
// Everything is first computed for density 1 as Properties (volume, centre
// of mass, inertia about the centre of mass, in the input's frame), then
// turned into a Body with a density (FromDensity, or Density(material) for
// a named material) or a total mass (FromMass).
//
//   - Mesh integrates a closed triangle mesh with the divergence theorem as a
//     sum of signed tetrahedra from a local origin (the bounding-box centre,
//     so a mesh 1e6 m from the origin keeps full precision). Inside-out
//     winding, as produced by a mirroring transform, is detected from the sign
//     of the volume and corrected. MeshLinear applies a 3×3 map (node scale,
//     even non-uniform or negative) to the vertices first.
//   - Box, Sphere, Cylinder and Capsule are closed forms (axis along local
//     +Y for the last two; Capsule's height is the distance between the
//     hemisphere centres). Convex hulls go through Mesh.
//   - Transform moves Properties by a rigid pose (R·I·Rᵀ), Linear and Scale
//     apply any linear map exactly, Sum adds disjoint parts with the
//     parallel-axis theorem, Combine adds Bodies of different densities.
//     Union estimates overlapping convex parts (an approximate convex
//     decomposition) without counting overlaps twice: exact per part, minus a
//     lattice estimate of the overlaps only.
//   - IsClosed / IsClosedByPosition tell whether a mesh is a closed,
//     consistently wound surface. Recommended policy: mass from the render
//     mesh when it is closed, otherwise from the generated colliders.
//   - Principal diagonalises the tensor (cyclic Jacobi) into principal moments
//     and a unit quaternion (principal frame → body frame, I = R·diag·Rᵀ,
//     w ≥ 0), chosen canonically: smallest rotation, identity for isotropic
//     tensors and for axis-aligned ones. Body also keeps the full tensor for
//     the older OMI form (InertiaTensor, row-major).
//   - G4MF stores inertia as a bivector and orientation as a rotor; g4mf.go
//     has the tested mappings.
//
// # Policy left to the caller
//
// Only dynamic bodies get mass and inertia. Static bodies (in
// KHR_physics_rigid_bodies and OMI_physics_body, a collider with no `motion`
// on itself or an ancestor) and triggers get none: the writer omits mass
// properties for them, since they do not move. Kinematic bodies do not need
// them either (KHR treats them as infinitely massive); writing them is
// harmless and useful if the body is later switched to dynamic.
//
// All functions are deterministic and allocation-light; there is no global
// mutable state.
package mass
