// Package preview draws a glTF asset's colliders over its render mesh in
// a PNG, so that a person can check at a glance what a physics engine
// will load.
//
// The picture is read back from the file, not from what the generator
// meant: the physics is decoded from whichever extension family and
// revision the document carries (physics/convert), every primitive shape
// is tessellated from its written parameters (box size; sphere radius;
// capsule radii and the distance between its hemisphere centres along
// local +Y; cylinder radii and full height along +Y; a KHR plane as a
// quad), and convex and trimesh shapes are drawn from the triangles of
// the glTF mesh they reference. Every shape is placed by its node's world
// transform.
//
// The image holds three orthographic views side by side (front, looking
// along −Z; side, looking along −X; three-quarter, from front-right and
// above), Y up, each framed on the bounds of everything drawn, and a
// legend band with one colour per shape type and the counts. The render
// mesh is neutral grey with Lambert shading plus ambient light. Colliders
// are a translucent fill (the nearest collider surface at each pixel,
// fainter where it lies behind the mesh), a full-colour outline where one
// collider's projection meets another's or the background, and their
// crease edges (boxes, cylinder rims, hull ridges; faint where hidden).
// Several convex colliders on one body, as a convex decomposition makes,
// get one hue each so the pieces can be told apart.
// A ragdoll (a skin whose bones carry jointed bodies, as package inspect
// reads it) has each joint drawn on top as a magenta dot with a stick to
// its parent body's origin, the ragdoll's skeleton; the legend counts its
// joints, bones with bodies and merged bones, and Stats lists them.
//
// The rasterizer is this package's own: edge functions with a float32
// z-buffer per pixel, on a supersampled grid averaged down to the output
// size. It runs on one goroutine, so the same input gives the same bytes.
package preview
