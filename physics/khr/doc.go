// Package khr encodes and decodes the physics model (physics.Model) as the
// Khronos glTF physics extensions implemented by the Blender exporter and
// the Babylon loader: KHR_implicit_shapes (document shapes: box, sphere,
// capsule, cylinder, plane) and KHR_physics_rigid_bodies (node motion,
// collider, trigger and joint; document physics materials, collision
// filters and joint descriptions).
//
// Revision written: KHR_implicit_shapes of KhronosGroup/glTF PR #2370
// (2025-10-29) and KHR_physics_rigid_bodies of PR #2424 (2025-07-11) with
// the 2026 collider geometry {mesh} that replaced {node} (see
// specs/SOURCES.md). Decode also reads the 2025 geometry {node} form and,
// with a physics.Warning, the 2024 KHR_collision_shapes form
// (eoineoineoin/glTF_Physics 95c8dc1: collider and trigger {shape}, mesh
// shapes with a convexHull flag).
//
// Encode(doc, m, opt) replaces the KHR_implicit_shapes and
// KHR_physics_rigid_bodies content of doc, and any KHR_collision_shapes,
// with m, and declares them in extensionsUsed only. KHR has no mesh
// shapes: convex and trimesh shapes become collider geometry {mesh,
// convexHull} (Options.GeometryNode: the 2025 {node, convexHull}). KHR
// has no motion type: static is written as no motion, kinematic as
// isKinematic. Every shape parameter is written and the output is
// deterministic. Errors name the output's JSON path, and doc is then
// unchanged.
//
// Decode(doc) returns the model and the warnings, or an error naming the
// JSON path of the first bad member or reference; it does not modify doc.
// Implicit shapes keep their indices; each distinct mesh geometry becomes
// one Convex or Trimesh shape after them.
//
// Absent parameters take KHR's defaults, the Default* constants (capsule
// and cylinder height 0.5, radii 0.25), which differ from OMI's. An absent
// mass means engine-computed, 0 infinite.
package khr
