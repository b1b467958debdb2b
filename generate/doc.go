// Package generate adds generated colliders to a loaded glTF asset: it
// plans which nodes become rigid bodies, makes each mesh instance's
// colliders, weighs the bodies, and writes the physics into the asset
// with the codec of the requested family (physics/codecs), or of the
// family the asset already carries: an output never holds two families,
// and an explicitly requested other family is an error (family.go).
//
// Contract of Asset:
//   - Input: an asset loaded by gltfio and Options. Options.Collider is
//     the asset-wide method and its parameters, Options.Rules may
//     override them per mesh instance, Options.Body forms the bodies and
//     gives their mass, Options.Encoding says how the result is written,
//     and Options.Run (workers, progress) changes no output.
//   - A scene root whose subtree already carries physics is kept as it
//     is; invalid authored physics is refused with its JSON path.
//   - Each part's settings are resolved once (plan.go resolve): the
//     options, then the first matching rule, then the artists' naming
//     conventions (naming.go), then what its body allows (a triangle
//     mesh needs a static body and no trigger).
//   - A body planned on (or under) a skinned mesh node goes on its
//     skin's skeleton root (skinned.go): glTF ignores a skinned mesh
//     node's transform, and the mesh follows its joints.
//   - A body planned on a node carrying EXT_mesh_gpu_instancing goes on
//     a new node in its place, the instanced node its child and the
//     colliders beside it (instanced.go): Babylon.js makes a body per
//     instance with all the node's colliders.
//   - Dynamic bodies whose colliders overlap at rest by more than
//     OverlapTolerance of the smaller one (hull.Penetration) are merged
//     into one body, or warned about, as Body.Overlap says (merge.go).
//   - Colliders are computed in the body frame F (the body node's world
//     transform without its scale); a generated node cancels any scale,
//     so no collider inherits one. Instances with the same geometry and
//     equal ColliderSettings are made once (instances.go).
//   - Output: every generated node, mesh and accessor is appended and
//     marked (gltfio journals the edits, so a re-run undoes them first);
//     the result passes physics/validate, or nothing is returned. It is
//     byte-identical for any Run.Workers.
//   - The Report counts bodies, colliders by shape, hull vertices (kept
//     physics included) and says per part what was made and why, and
//     per body where its mass comes from, with warnings for colliders
//     enclosing far more than the mass's volume and implausible sizes
//     and masses.
//
// Inside, Asset plans the asset once (plan.go), then writes the plan as
// one job (job.go): the asset, its plan, its settings, its report and its
// edits travel together as the job, whose methods are the steps, so that
// no function of the package takes more than 6 parameters (a test parses
// the package to keep it so).
//
// Colliders, BodyMass and Mass.Body know nothing of files: the G4MF
// path (package g4mf) calls them too.
package generate
