// Package omi encodes and decodes the physics model (physics.Model) as the
// OMI glTF physics extensions implemented by Godot: OMI_physics_shape
// (document shapes), OMI_physics_body (node motion, collider and trigger;
// document physics materials and collision filters) and OMI_physics_joint
// (document joint descriptions; node joint and connectedNode).
//
// Revision written: omigroup/gltf-extensions at 89d328b (2026; see
// specs/SOURCES.md). Decode also reads these older forms, each with a
// physics.Warning: the archived OMI_collider; the OMI_physics_body Stage 1
// form replaced in 2023 (body "type" enum, inertiaTensor, node-level
// OMI_physics_shape {shape}); the OMI_physics_joint Stage 1 form
// (constraints, nodeA/nodeB; see MigrateJoints); the early
// OMI_physics_shape capsule and cylinder "radius".
//
// Encode(doc, m) replaces the OMI_physics_shape, OMI_physics_body and
// OMI_physics_joint content of doc, and any OMI_collider, with m; it
// declares them in extensionsUsed only and leaves OMI_physics_gravity and
// every other extension as they are. Shapes are written in model order,
// each with its sub-object and every parameter, so a decoded model keeps
// the shape indices OMI_physics_gravity refers to; -1 indices are not
// written; the output is deterministic. A model OMI cannot express (a
// plane, an empty trigger) or an index out of range is an error naming
// the output's JSON path, and doc is then unchanged.
//
// Decode(doc) returns the model and the warnings, or an error naming the
// JSON path of the first bad member or reference. It does not modify doc,
// except that migrating Stage 1 joints appends attachment nodes.
//
// Absent parameters take OMI's defaults, the Default* constants (capsule
// height 1, cylinder height 2, radii 0.5, mass 1 kg), which differ from
// KHR's.
package omi
