package wire

import (
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// Codec is a physics.Codec made of a family's description and its
// functions: the codec list describes each family with one.
type Codec struct {
	Name physics.Family
	// Read are every extension the family reads, in every revision;
	// Written those Encode writes, in order.
	Read, Written []string
	// Shapes is the extension whose "shapes" array holds the shapes;
	// Bodies the one whose "physicsMaterials" and "collisionFilters"
	// arrays hold the materials and filters; Joints the one whose
	// "physicsJoints" array holds the joint descriptions.
	Shapes, Bodies, Joints string
	DecodeFunc             func(*gltf.Document) (*physics.Model, []physics.Warning, error)
	EncodeFunc             func(*gltf.Document, *physics.Model, physics.EncodeOptions) error
	// StripFunc, when set, replaces the default Strip (removing Read).
	StripFunc func(*gltf.Document)
}

// Family returns the family's name.
func (c Codec) Family() physics.Family { return c.Name }

// Extensions returns every extension the family reads.
func (c Codec) Extensions() []string { return append([]string(nil), c.Read...) }

// Detect reports whether doc uses any of Extensions.
func (c Codec) Detect(doc *gltf.Document) bool { return physics.Uses(doc, c.Read...) }

// Decode reads the family's physics from doc.
func (c Codec) Decode(doc *gltf.Document) (*physics.Model, []physics.Warning, error) {
	return c.DecodeFunc(doc)
}

// Encode replaces the family's physics in doc with m.
func (c Codec) Encode(doc *gltf.Document, m *physics.Model, opt physics.EncodeOptions) error {
	return c.EncodeFunc(doc, m, opt)
}

// Strip removes the family's extensions from doc.
func (c Codec) Strip(doc *gltf.Document) {
	if c.StripFunc != nil {
		c.StripFunc(doc)
		return
	}
	physics.RemoveExtensions(doc, c.Read...)
}

// Layout says where Encode writes.
func (c Codec) Layout() physics.Layout {
	return physics.Layout{
		Extensions: append([]string(nil), c.Written...),
		Shapes:     physics.DocArray{Extension: c.Shapes, Name: "shapes"},
		Materials:  physics.DocArray{Extension: c.Bodies, Name: "physicsMaterials"},
		Filters:    physics.DocArray{Extension: c.Bodies, Name: "collisionFilters"},
		Joints:     physics.DocArray{Extension: c.Joints, Name: "physicsJoints"},
	}
}
