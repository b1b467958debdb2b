// Package omi encodes and decodes the physics model as the OMI extensions
// implemented by Godot: OMI_physics_shape (document shapes, always written
// with their sub-object and every parameter), OMI_physics_body (node
// motion, collider and trigger; document physics materials and collision
// filters) and OMI_physics_joint (document physicsJoints, node joint and
// connectedNode).
//
// Encode replaces the document's OMI rigid-body content with the model and
// leaves OMI_physics_gravity and every other extension alone. Shapes are
// written in model order, so a model decoded from a document keeps the
// shape indices OMI_physics_gravity refers to. Decode reads the current
// form and the older ones still in the wild (OMI_collider, the seed's body
// type enum and inertia tensor, the seed's constraints/nodeA/nodeB joints,
// the early capsule "radius"), each with a physics.Warning.
//
// Defaults differ from KHR's (capsule 1.0/0.5, cylinder 2.0/0.5, mass 1
// kg); the Default* constants name them.
package omi
