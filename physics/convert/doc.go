// Package convert moves a document's physics from one family to another.
//
// Contract of Convert/ConvertWith: the input must pass physics/validate
// (else it is refused unchanged); the source is the first family in
// physics/codecs the document carries other than the target (or the
// target itself, re-encoded in its current form); its model is adapted
// to what the target can express (adapt), with a Warning per item
// changed, encoded by the target's codec, and the source's extensions
// are stripped. What the target prohibits and cannot be rewritten (a
// degenerate shape for KHR) is an error naming its JSON path. With
// Options.Strict a lossy item is an error and doc is left unchanged (but
// for the attachment nodes decoding the Stage 1 OMI joint form appends).
// The result is validated: on an error doc is changed and must not be
// written.
//
// Lossy items and the nearest faithful form chosen:
//
//	OMI → KHR
//	  static motion               dropped; its colliders become independent static colliders
//	  shapeless compound collider dropped (KHR groups descendant colliders by itself)
//	  inertiaDiagonal partly 0    dropped (OMI 0 = engine-computed, KHR 0 = infinite)
//	  unreferenced convex/trimesh dropped (KHR mesh geometry lives on colliders only)
//	  convex/trimesh name, extras dropped (KHR mesh geometry has no shape object)
//	  OMI_physics_gravity         kept with the OMI_physics_shape array it refers to; its triggers dangle
//	  tapered capsule of height 0 a sphere of the larger radius (KHR prohibits degenerate shapes)
//	  zero box size, sphere radius, cylinder height or both radii: refused (no KHR form)
//	KHR → OMI
//	  plane                       a box PlaneThickness thick, PlaneExtent wide where unbounded
//	  absent mass                 left unspecified, which OMI reads as 1 kg
//	  mass 0 (infinite)           kinematic motion without mass
//	  inertiaDiagonal 0 (infinite) dropped (engine-computed)
//	  geometry node with children, skin or weights: the node's own undeformed mesh
//	  joint with no dynamic body on either side: dropped (OMI_physics_joint needs one)
//
// Exact rewrites without a warning: an OMI absent mass becomes 1 kg in
// KHR; OMI inertiaDiagonal [0,0,0] becomes absent; an OMI limit with
// both linear and angular axes is split into two limits; an OMI drive
// target without its gain gets the gain's default 0 (KHR requires the
// pair), and so does a KHR drive re-encoded as KHR (the spec editor's
// RigidBodies_Joint_09 omits stiffness, which fastgltf refuses). Exact
// rewrites with a note (a Warning that is not Lossy): an OMI
// capsule of height 0 becomes a KHR sphere; an OMI drive damping without
// velocityTarget gets target 0, a stiffness without positionTarget (no
// effect) is dropped; a KHR joint is placed where OMI_physics_joint wants
// it (see placeJointsForOMI): moved from a body or collider node to a new
// child node at the same world pose, and a joint or connected node under
// no motion (attached to the world) is attached to a static body: the
// nearest collider at or above it, else its parent, else itself.
package convert
