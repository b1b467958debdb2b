package omi

import (
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// Strip removes the OMI extensions, but keeps OMI_physics_shape while
// OMI_physics_gravity (kept as it is: the model does not describe
// gravity) may refer to its shapes.
func Strip(doc *gltf.Document) {
	drop := []string{physics.ExtOMIBody, physics.ExtOMIJoint, physics.ExtOMICollider}
	if !HasGravity(doc) {
		drop = append(drop, physics.ExtOMIShape)
	}
	physics.RemoveExtensions(doc, drop...)
}

// HasGravity reports whether the document or a node carries
// OMI_physics_gravity.
func HasGravity(doc *gltf.Document) bool {
	if _, ok := doc.Extensions[physics.ExtOMIGravity]; ok {
		return true
	}
	for _, n := range doc.Nodes {
		if n != nil {
			if _, ok := n.Extensions[physics.ExtOMIGravity]; ok {
				return true
			}
		}
	}
	return false
}
