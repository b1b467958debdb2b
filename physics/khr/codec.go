package khr

import (
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// Codec is the KHR family as a physics.Codec: Decode and Encode below,
// KHR_collision_shapes and the geometry.node form read, the newest forms
// written (geometry.node on request).
type Codec struct{}

var extensions = []string{physics.ExtKHRShapes, physics.ExtKHRBodies, physics.ExtKHRCollisionShapes}

// Family returns physics.KHR.
func (Codec) Family() physics.Family { return physics.KHR }

// Extensions returns the KHR extensions, KHR_collision_shapes included.
func (Codec) Extensions() []string { return append([]string(nil), extensions...) }

// Detect reports whether doc uses any of Extensions.
func (Codec) Detect(doc *gltf.Document) bool { return physics.Uses(doc, extensions...) }

// Decode is Decode.
func (Codec) Decode(doc *gltf.Document) (*physics.Model, []physics.Warning, error) {
	return Decode(doc)
}

// Encode is Encode, in the geometry.node form when opt.GeometryNode.
func (Codec) Encode(doc *gltf.Document, m *physics.Model, opt physics.EncodeOptions) error {
	return Encode(doc, m, Options{GeometryNode: opt.GeometryNode})
}

// Strip removes the KHR extensions.
func (Codec) Strip(doc *gltf.Document) { physics.RemoveExtensions(doc, extensions...) }

// Layout says where Encode writes.
func (Codec) Layout() physics.Layout {
	return physics.Layout{
		Extensions: []string{physics.ExtKHRShapes, physics.ExtKHRBodies},
		Shapes:     physics.DocArray{Extension: physics.ExtKHRShapes, Name: "shapes"},
		Materials:  physics.DocArray{Extension: physics.ExtKHRBodies, Name: "physicsMaterials"},
		Filters:    physics.DocArray{Extension: physics.ExtKHRBodies, Name: "collisionFilters"},
	}
}
