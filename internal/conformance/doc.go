// Package conformance generates small glTF documents that exercise the
// physics extensions as their specifications describe them: OMI
// (OMI_physics_shape, OMI_physics_body, OMI_physics_joint, the archived
// OMI_collider) and KHR (KHR_implicit_shapes, KHR_physics_rigid_bodies).
// The documents are written from the specifications' text, not copied from
// anyone's files, so that the commands can be checked against what the
// specs say rather than against what another tool wrote.
//
// Cases returns every document: a collider-type matrix (each shape type of
// each family, mesh shapes as hulls and as triangle meshes, on static,
// kinematic and dynamic bodies), every joint type with limits and drives,
// collision filters, physics materials with each combine mode, motions
// with zero or absent mass and inertia, extensionsRequired variants,
// simple and compound triggers, a legacy OMI_collider file and a file
// whose image is missing. Each Case may carry Broken variants: the same
// document with one thing the specifications prohibit, and the JSON path
// (as autocollide validate prints it) of the error it must give.
//
// Case.Write puts a case in a folder as NAME.gltf (with NAME.bin beside
// it, or the buffer as a data: URI when Embedded) and NAME.glb (one
// self-contained file). The package imports nothing of autocollide: the
// documents are plain JSON and bytes, independent of the code they test.
package conformance
