// Package viewer provides the interactive 3D viewer of the HTML report and
// of `autocollide review`: one classic script (no modules, no network)
// that defines the global AutocollideViewer, built from src/ and the
// pinned npm packages three (three.js with its GLTFLoader, DRACOLoader,
// OrbitControls and meshopt decoder) by build.sh with esbuild.
//
// AutocollideViewer.open(host, {url | buffer, palette, figures}) loads a
// glTF or GLB with three's GLTFLoader (Draco and meshopt decoders built
// in), reads the physics it carries from the parser's JSON
// (OMI_physics_shape + OMI_physics_body + OMI_physics_joint, or
// KHR_implicit_shapes + KHR_physics_rigid_bodies: every shape type,
// triggers, joints and their limits) and draws each collider on its node
// in the colour the PNG previews use (Palette, from the kinds table and
// package preview). It offers orbit, pan and zoom, a toggle per shape
// type and per body, wireframe, and the opacity of the render mesh and of
// the colliders; rects() tells where each type's colliders project.
//
// The script is committed (viewer.min.js) so the product stays one Go
// binary that needs no Node; the test checks it equals what build.sh
// makes from tools/node_modules. Licences: LICENSES.md, LICENSE-three.
package viewer
