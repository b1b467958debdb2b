// Package validate checks the physics of a glTF document against the OMI
// and KHR specifications: structure and member types, indices, shape
// parameters, joint rules and placement, hull and trimesh meshes (closed,
// convex, vertex and triangle counts) and extension declarations.
//
// Revisions: those physics/omi and physics/khr write (specs/SOURCES.md).
// The rules are written from the READMEs, which win over the published
// schemas where they disagree (specs/SCHEMA-BUGS.md), and from the Khronos
// validator's test expectations. Older forms readers accept (the archived
// OMI_collider, the OMI_physics_body and OMI_physics_joint Stage 1 forms,
// an empty OMI trigger grouping its descendant triggers, an OMI motion
// without type, the 2024 KHR_collision_shapes) are warnings pointing at
// the migration (convert).
//
// Validate(doc, opt) does not modify doc and does not fail: it returns
// every Problem found, each at a JSON path, sorted by path, severity and
// message, so the result is deterministic. Errors are what a
// specification prohibits: values out of range, unresolved references,
// structural mismatches, degenerate KHR shapes ("Degenerate shapes are
// prohibited", where the Khronos validator only notes them), OMI joints
// off a body's subtree. Warnings are what works badly or not at all
// (unknown drive and combine values, unknown members, hulls above the
// vertex limit, a drive whose only target lacks its gain, so it does
// nothing). Notes (Info) are what the specifications allow: a physics
// extension in extensionsRequired, a hull source mesh that is not convex
// or closed (convex shapes and convexHull mean the hull of the mesh), a
// drive target without its gain beside a working pair (a velocity motor
// with positionTarget and no stiffness: that term is zero). Errors(probs)
// turns the errors into one error for a command that refuses such a
// document.
package validate
