// Package physics is autocollide's one model of rigid-body physics in a
// glTF document, and the interface its encodings implement.
//
// The Model is node-centric, like the extension families: document-level
// resources (shapes, physics materials, collision filters, joint
// definitions) and, per glTF node index, what that node carries (motion,
// collider, trigger, joint). Indices into the resources are -1 for "the
// default"; Clone is deep.
//
// A Codec (codec.go) is one family's encoding of the Model: OMI
// (OMI_physics_shape, OMI_physics_body, OMI_physics_joint; package omi)
// and KHR (KHR_implicit_shapes, KHR_physics_rigid_bodies; package khr).
// Package physics/codecs holds the list of codecs; no other package
// switches on families. Decoding reads every revision a family has had
// and reports what it migrated or could not keep as a Warning with the
// JSON path of the item; errors are PathErrors at that path.
//
// Shapes live in their own local space (capsules and cylinders along
// +Y); units are metres and kilograms. The package knows nothing of
// files, profiles or geometry algorithms.
package physics
