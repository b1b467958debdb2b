// Package validate checks the physics of a glTF document against the OMI
// and KHR specifications: structure and member types, indices, shape
// parameters, joint rules, hull and trimesh meshes (closed, convex, vertex
// and triangle counts) and extension declarations.
//
// Revisions: those physics/omi and physics/khr write (specs/SOURCES.md).
// The rules are written from the READMEs, which win over the published
// schemas where they disagree (specs/SCHEMA-BUGS.md), and from the Khronos
// validator's test expectations. Older forms (the archived OMI_collider,
// the OMI_physics_body and OMI_physics_joint Stage 1 forms, the 2024
// KHR_collision_shapes) are reported as warnings pointing at the migration
// (convert).
//
// Validate(doc, opt) does not modify doc and does not fail: it returns
// every Problem found, each at a JSON path, sorted by path, severity and
// message, so the result is deterministic. Severity follows the Khronos
// validator where it has a test: degenerate (zero-size) KHR shapes,
// unknown drive and combine values and unknown members are warnings;
// values out of range, unresolved references and structural mismatches
// are errors. Errors(probs) turns the errors into one error for a command
// that refuses such a document.
package validate
