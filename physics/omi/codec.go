package omi

import (
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// Codec is the OMI family as a physics.Codec: Decode and Encode below,
// OMI_collider and the Stage 1 forms read, the current forms written.
type Codec struct{}

var extensions = []string{physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint, physics.ExtOMICollider}

// Family returns physics.OMI.
func (Codec) Family() physics.Family { return physics.OMI }

// Extensions returns the OMI extensions, OMI_collider included;
// OMI_physics_gravity is not one of them: the model does not describe
// gravity, so it is kept as it is and alone does not count as physics.
func (Codec) Extensions() []string { return append([]string(nil), extensions...) }

// Detect reports whether doc uses any of Extensions.
func (Codec) Detect(doc *gltf.Document) bool { return physics.Uses(doc, extensions...) }

// Decode is Decode.
func (Codec) Decode(doc *gltf.Document) (*physics.Model, []physics.Warning, error) {
	return Decode(doc)
}

// Encode is Encode (OMI has one geometry form: opt is ignored).
func (Codec) Encode(doc *gltf.Document, m *physics.Model, _ physics.EncodeOptions) error {
	return Encode(doc, m)
}

// Strip removes the OMI extensions, but keeps OMI_physics_shape while
// OMI_physics_gravity (kept as it is) may refer to its shapes.
func (Codec) Strip(doc *gltf.Document) {
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

// Layout says where Encode writes.
func (Codec) Layout() physics.Layout {
	return physics.Layout{
		Extensions: []string{physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint},
		Shapes:     physics.DocArray{Extension: physics.ExtOMIShape, Name: "shapes"},
		Materials:  physics.DocArray{Extension: physics.ExtOMIBody, Name: "physicsMaterials"},
		Filters:    physics.DocArray{Extension: physics.ExtOMIBody, Name: "collisionFilters"},
	}
}
