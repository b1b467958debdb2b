// Package enginenames writes generated colliders as the names engines
// read instead of physics extensions, and reads such names back.
//
// Unreal Engine reads no physics extension: its importers (FBX, and glTF
// through Interchange with "import collision according to mesh name")
// take a mesh named UCX_<Render>_NN (convex), UBX_ (box), USP_ (sphere)
// or UCP_ (capsule) as simple collision of the render mesh <Render>.
// Godot's scene importer reads suffixes on node names: -colonly and
// -convcolonly make a mesh a static triangle-mesh or convex collider
// only, -rigid makes a node a rigid body. The README's "Engines that read
// names" quotes both engines' rules.
//
// Contract of Encode (format Unreal or GodotNames), called by generate
// once the bodies and their collider nodes exist in the asset:
//   - Unreal: each collider node becomes a node named by Unreal's rules,
//     moved beside its render node (same parent, or a scene root), with
//     its own mesh: a box, sphere or capsule as the exact primitive
//     (vertices on it, axis-aligned and centred in the node, the fitted
//     pose on the node, a capsule along +Y, which is Unreal's Z), a hull
//     as a UCX_ mesh of at most MaxHullVertices vertices (more is an
//     error), a cylinder or tapered capsule as a UCX_ mesh around it.
//     Indices count from 00 per prefix and render name. Triggers and
//     triangle meshes have no Unreal form: left out, with a warning.
//   - GodotNames: collider nodes stay where they are, renamed with
//     -convcolonly (a triangle mesh: -colonly) and given a mesh (a
//     primitive as a convex mesh around it); a dynamic body's node gets
//     -rigid. Kinematic bodies are written static, with a warning.
//   - Both: collision meshes have no material and their nodes carry
//     KHR_node_visibility visible false; a dynamic body's mass
//     properties go into its node's extras.autocollide.body. Every edit
//     is journaled or inside generated elements, so a re-run undoes it.
//   - The render node's name is the one collision names refer to (else
//     its mesh's); a name other mesh nodes share is made unique by
//     renaming the render node "<name>.<index>".
//
// ReadUnreal and ReadGodot read the names of any document back into
// shapes placed in world space (a box from its bounds in the node's
// frame, a sphere from its farthest vertex, a capsule along its longest
// side), for tests and tools; generate reads artists' names with
// ParseUnreal and ParseGodot and fits the shapes itself.
package enginenames
