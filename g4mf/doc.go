// Package g4mf reads and writes 3D G4MF files (Good 4D Model Format,
// godot-dimensions/g4mf; specification and schemas under
// shared/specs/G4MF) with their physics: an encoding and a reader, not a
// pipeline of its own.
//
// Contract:
//   - Read and Save handle .g4tf (tab-indented JSON) and .g4b (16-byte
//     header, 16-byte-aligned chunks, JSON first). Compressed chunks,
//     encoded buffers and dimensions other than 3 are refused with a
//     clear error; sizes are checked before allocation; buffers come from
//     data: URIs, BLOB chunks or files beside the file, never outside
//     its folder. Errors carry the JSON path.
//   - Export (glTF → G4MF) reads the physics with physics/codecs (either
//     family, any revision) and writes the default scene under a new
//     root node 0; what G4MF cannot express (render and physics
//     materials, filters, joints, sized planes, tapered shapes, skins,
//     morphs, cameras, animations, other scenes) is dropped with one
//     warning per item. So is what KHR means and G4MF cannot say: mass 0
//     (infinite) becomes a kinematic body, an absent mass (engine
//     computed; G4MF reads 1 kg) stays absent, zero moments (infinite;
//     G4MF reads "compute them") are dropped.
//   - Import (G4MF → glTF) is Export's inverse: nodes and meshes one to
//     one (node 0 the scene's root), shapes, motions, colliders and
//     triggers into the physics model, encoded in the family asked for
//     after convert.Adapt; G4MF's absent mass is written as 1 kg. What
//     glTF cannot hold (other general shapes, materials, ...) is warned
//     about at its G4MF path. Validate checks a file with
//     physics/validate's rules, problems named by their G4MF paths.
//   - Generate gives every child of node 0 whose subtree holds triangles
//     and no physics one dynamic body, with the glTF path's own code:
//     generate.Colliders in the body's rigid frame, generate.BodyMass and
//     Mass.Body for its mass. The subtree moves unchanged under the body
//     node (at the centre of mass: G4MF has no centre-of-mass property)
//     and an offset node undoing it, beside the collider nodes. What it
//     adds is appended and marked in extras; a run first removes it, so
//     a run on its own output gives the same bytes.
//
// Conventions: rotations are rotors [s, xy, xz, yz] and rotational
// quantities bivectors [xy, xz, yz]; package mass maps them (inertia
// [Izz, Iyy, Ixx], rotor [w, z, −y, x]). Shapes follow the specification's
// "Common General Shapes"; hulls and triangle meshes are "convex" and
// "concave" shapes naming a mesh. A node carries one thing, so meshes,
// colliders and triggers get child nodes of their own.
package g4mf
