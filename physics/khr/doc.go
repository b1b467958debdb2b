// Package khr encodes and decodes the physics model as the Khronos
// extensions implemented by the Blender exporter and the Babylon loader:
// KHR_implicit_shapes (document shapes: box, sphere, capsule, cylinder,
// plane) and KHR_physics_rigid_bodies (node motion, collider, trigger and
// joint; document physics materials, collision filters and joints).
//
// KHR has no mesh shapes: convex and trimesh model shapes become collider
// geometry {mesh, convexHull} (newest revision; Options.GeometryNode
// writes the 2025 {node, convexHull} form instead). KHR has no motion
// type: a static motion is written as no motion, a kinematic one as
// isKinematic. An absent mass means engine-computed and 0 means infinite.
// Decode reads the current form with mesh or node geometry and the 2024
// KHR_collision_shapes form.
//
// Defaults differ from OMI's (capsule and cylinder 0.5/0.25); the Default*
// constants name them.
package khr
