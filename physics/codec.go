package physics

import "github.com/qmuntal/gltf"

// Codec is one family's encoding of the Model in glTF extensions. The
// list of codecs lives in physics/codecs; every command that reads or
// writes physics goes through it, so a new family is one new Codec and
// one entry in that list.
//
// The contract:
//   - Family is the codec's name as users type it (--to, --format,
//     profiles), unique in the list.
//   - Detect reports whether doc carries the family's physics in any
//     revision the codec reads; it looks at extensionsUsed and at the
//     document's and nodes' extensions, and never fails.
//   - Decode reads the family (any revision) into a new Model, with a
//     Warning per item it migrated or could not keep exactly, and an
//     error naming the JSON path of what it cannot read. It does not
//     change doc, except for what its doc comment says.
//   - Encode writes m in the family's newest form, replacing the
//     family's extensions in doc (document level and on every node) and
//     declaring them in extensionsUsed, never in extensionsRequired. It
//     writes only the extensions Layout names.
//   - Strip removes the family's extensions from doc, all revisions,
//     except those that data no codec rewrites still refers to (OMI's
//     shapes while OMI_physics_gravity uses them).
type Codec interface {
	Family() Family
	// Extensions lists every extension the family uses, in any revision
	// it reads: what a whole-file rewrite replaces and what marks a node
	// as carrying authored physics.
	Extensions() []string
	Detect(doc *gltf.Document) bool
	Decode(doc *gltf.Document) (*Model, []Warning, error)
	Encode(doc *gltf.Document, m *Model, opt EncodeOptions) error
	Strip(doc *gltf.Document)
	// Layout says where Encode writes.
	Layout() Layout
}

// EncodeOptions tunes a Codec's Encode.
type EncodeOptions struct {
	// GeometryNode asks a family with several forms of collider geometry
	// for the older node-referencing one (KHR's geometry.node); families
	// with one form ignore it.
	GeometryNode bool
}

// Layout is where a Codec's Encode writes: callers that graft encoded
// physics into a document they keep (generate) copy exactly these.
type Layout struct {
	// Extensions are the extensions Encode writes on the document and on
	// nodes, in order.
	Extensions []string
	// Shapes, Materials, Filters and Joints are the document-level arrays
	// holding the model's shapes, physics materials, collision filters
	// and joint descriptions, which Model indices refer to.
	Shapes, Materials, Filters, Joints DocArray
}

// DocArray names a document-level array: extensions[Extension][Name].
type DocArray struct{ Extension, Name string }

// Arrays returns l's document-level arrays: shapes, physics materials,
// collision filters, joint descriptions.
func (l Layout) Arrays() [4]DocArray { return [4]DocArray{l.Shapes, l.Materials, l.Filters, l.Joints} }
