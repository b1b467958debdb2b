package physics

import (
	"fmt"
	"slices"

	"github.com/qmuntal/gltf"
)

// Extension names of both families, current and legacy.
const (
	ExtOMIShape   = "OMI_physics_shape"
	ExtOMIBody    = "OMI_physics_body"
	ExtOMIJoint   = "OMI_physics_joint"
	ExtOMIGravity = "OMI_physics_gravity"
	// ExtOMICollider is the archived predecessor of OMI_physics_shape and
	// OMI_physics_body; it is read, never written.
	ExtOMICollider = "OMI_collider"

	ExtKHRShapes = "KHR_implicit_shapes"
	ExtKHRBodies = "KHR_physics_rigid_bodies"
	// ExtKHRCollisionShapes is the 2024 predecessor of KHR_implicit_shapes;
	// it is read, never written.
	ExtKHRCollisionShapes = "KHR_collision_shapes"
)

// Family names an encoding of the model.
type Family string

// The families of the codecs in physics/codecs. Both is what
// codecs.Family reports for a document carrying the two.
const (
	None Family = ""
	OMI  Family = "omi"
	KHR  Family = "khr"
	Both Family = "omi+khr"
)

// Uses reports whether doc uses any of the named extensions, at document
// or node level or in extensionsUsed or extensionsRequired: how codecs
// detect their family.
func Uses(doc *gltf.Document, names ...string) bool {
	for _, n := range names {
		if slices.Contains(doc.ExtensionsUsed, n) || slices.Contains(doc.ExtensionsRequired, n) {
			return true
		}
		if _, ok := doc.Extensions[n]; ok {
			return true
		}
		for _, node := range doc.Nodes {
			if node == nil {
				continue
			}
			if _, ok := node.Extensions[n]; ok {
				return true
			}
		}
	}
	return false
}

// RemoveExtensions deletes the named extensions from the document, from
// every node, and from extensionsUsed and extensionsRequired.
func RemoveExtensions(doc *gltf.Document, names ...string) {
	for _, n := range names {
		delete(doc.Extensions, n)
		for _, node := range doc.Nodes {
			if node != nil {
				delete(node.Extensions, n)
				if len(node.Extensions) == 0 {
					node.Extensions = nil
				}
			}
		}
	}
	if len(doc.Extensions) == 0 {
		doc.Extensions = nil
	}
	drop := func(list []string) []string {
		out := list[:0:0]
		for _, s := range list {
			if !slices.Contains(names, s) {
				out = append(out, s)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	doc.ExtensionsUsed = drop(doc.ExtensionsUsed)
	doc.ExtensionsRequired = drop(doc.ExtensionsRequired)
}

// DeclareUsed appends name to extensionsUsed unless present and removes
// it from extensionsRequired: physics extensions are optional.
func DeclareUsed(doc *gltf.Document, name string) {
	if !slices.Contains(doc.ExtensionsUsed, name) {
		doc.ExtensionsUsed = append(doc.ExtensionsUsed, name)
	}
	if i := slices.Index(doc.ExtensionsRequired, name); i >= 0 {
		doc.ExtensionsRequired = slices.Delete(doc.ExtensionsRequired, i, i+1)
		if len(doc.ExtensionsRequired) == 0 {
			doc.ExtensionsRequired = nil
		}
	}
}

// Warning is a lossy or questionable item met while decoding or
// converting. Path is a JSON path into the document such as
// nodes[3].extensions.OMI_physics_body.motion.
type Warning struct {
	Path    string
	Message string
	// Lossy marks an item whose meaning could not be kept exactly (the
	// nearest faithful form was used); Convert's strict mode turns these
	// into errors. Other warnings report migrations of older forms.
	Lossy bool
}

func (w Warning) String() string { return w.Path + ": " + w.Message }

// PathError is an error located at a JSON path of the document.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Errorf returns a *PathError at path.
func Errorf(path, format string, args ...any) error {
	return &PathError{Path: path, Err: fmt.Errorf(format, args...)}
}
