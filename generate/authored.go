package generate

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

// checkAuthored refuses an asset whose existing physics validate calls an
// error (a shape index out of range, a negative mass, a joint connected
// to itself, ...). Generate keeps authored physics exactly as it is, so
// going on would write an output that validate rejects; dropping or
// repairing the artist's physics silently would be worse. The error names
// the first problem's JSON path, so the file can be fixed.
func checkAuthored(doc *gltf.Document) error {
	if codecs.Family(doc) == physics.None {
		return nil
	}
	if err := validate.Errors(validate.Validate(doc, validate.Options{})); err != nil {
		return fmt.Errorf("existing physics is invalid (fix or remove it): %w", err)
	}
	return nil
}

// ErrInternal marks an error that is autocollide's fault, not the
// input's (what it generated fails its own validate): the command exits
// 3 on it, as on a recovered panic.
var ErrInternal = errors.New("an autocollide bug; please report it")

// checkResult runs validate on the document as it will be written: what
// generate writes must pass its own validate, whatever the input; when it
// does not, the error wraps ErrInternal.
func checkResult(a *gltfio.Asset) error {
	doc, err := a.TypedCopy()
	if err != nil {
		return err
	}
	if err := validate.Errors(validate.Validate(doc, validate.Options{})); err != nil {
		return fmt.Errorf("the generated physics does not validate (nothing written): %w: %w", err, ErrInternal)
	}
	return nil
}

// keptHullVertices counts the vertices of the convex hull meshes of the
// physics doc carries (each shape once), which generate keeps as it is.
func keptHullVertices(doc *gltf.Document) (int, error) {
	m, _, _, err := codecs.Decode(doc)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range m.Shapes {
		if s.Type != physics.Convex || s.Mesh < 0 || s.Mesh >= len(doc.Meshes) {
			continue
		}
		for _, p := range doc.Meshes[s.Mesh].Primitives {
			if acc, ok := p.Attributes[gltf.POSITION]; ok && int(acc) < len(doc.Accessors) {
				n += int(doc.Accessors[acc].Count)
			}
		}
	}
	return n, nil
}
