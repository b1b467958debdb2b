// Package g4mf reads and writes 3D G4MF files (Good 4D Model Format,
// godot-dimensions/g4mf; the copy of its specification and schemas is
// under shared/specs/G4MF) with their physics: autocollide's third
// container after glTF and GLB.
//
// # Containers
//
// A .g4tf file is the JSON text (written tab-indented, as the
// specification's examples are); a .g4b file is a 16-byte header ("G4MF",
// version 0, u64 file size) followed by 16-byte-aligned chunks, each with
// a 16-byte header (type, compression, u64 size): the JSON chunk first,
// then BLOB chunks that buffers name with "chunk" (the JSON chunk is
// chunk 0, so the first BLOB is chunk 1). Compressed chunks and encoded
// buffers (Zstd) are refused with a clear error. Buffers may also be
// data: URIs or files next to the G4MF file (never outside its folder).
// Only asset.dimension 3 is read; other dimensions are an error that
// says so. Every size is checked against the bytes present before
// anything is allocated from it, and errors carry the JSON path.
//
// # Conventions
//
// G4MF stores rotations as rotors [s, xy, xz, yz] and rotational
// quantities as bivectors [xy, xz, yz]; the mass package's G4MF functions
// map them to autocollide's quaternions and vectors (inertia diagonal
// [Izz, Iyy, Ixx], rotor [w, z, −y, x], angular velocity [ωz, −ωy, ωx]).
// The tests rebuild inertia tensors from the raw JSON with a
// geometric-algebra product written from first principles, for random
// inertia frames under randomly rotated nodes. Shapes use the
// specification's "Common General Shapes": a box is a size, a sphere one
// curve with equal radii, a capsule size [0, h, 0] plus equal radii, a
// cylinder size [0, h, 0] plus radii [r, 0, r]; convex hulls and
// triangle meshes are "convex" and "concave" shapes naming a mesh. A
// capsule of zero mid-height reads back as the sphere it is.
//
// G4MF has no centre-of-mass property: a body's origin is its centre of
// mass. Both writers therefore put the body node at the centre of mass
// and give it one child node ("<name>_CenterOfMassOffset") that undoes
// the move, under which the body's content sits, so the geometry stays
// where it was. G4MF also forbids a node carrying two things, so meshes,
// colliders and triggers of a body get child nodes of their own.
//
// # Export (glTF → G4MF)
//
// Export keeps the default scene's node hierarchy under a new root node
// 0 (which has no transform, as required); transforms become position +
// rotor + scale, or a basis for glTF matrices and negative or zero
// scales. Each glTF mesh becomes one G4MF mesh in its own space, one
// surface per triangle primitive (strips and fans expanded; points and
// lines skipped), float32 vertices and uint32 simplexes. Physics is
// read with physics/convert.Decode, so both families and every revision
// are accepted. What G4MF cannot express is dropped with one warning per
// item: render materials, physics materials, collision filters, joints,
// sized or double-sided planes, tapered capsules and cylinders (written
// with the larger radius), shape names, skins, morph targets, cameras,
// animations, other node extensions, scenes other than the default.
//
// # Generate (colliders for G4MF inputs)
//
// Generate makes every child of node 0 whose subtree holds triangles and
// no physics one dynamic body, like the glTF pipeline: colliders from
// generate.Colliders in the body's rigid frame, mass from the closed
// render meshes or the colliders at the requested density or mass. The
// original subtree is not modified: it moves under the generated body
// node B (at the world centre of mass, world-aligned) and offset node O
// (undoing B's position), next to the generated collider nodes
// (<mesh node>_Collider<k>, or _Collider<k>_Hull<j> for decompositions).
// Names are made file-unique and stripped of the characters node names
// must not contain. Everything generated is appended at the end of its
// array and marked with "extras": {"autocollide": "generated"} (items
// have extras in G4MF); a run first removes every marked item and
// restores the children lists, so a second run on its own output gives
// byte-identical output. Existing physics is kept as it is, and those
// bodies get nothing generated.
package g4mf
