package generate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/enginenames"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

// outputFamily returns the family generated physics is written in: the
// family of the physics doc already carries, else enc.Format. An output
// then never holds two families (each engine reads only one, and would
// see half the bodies). When enc.ExplicitFormat asks for a family other
// than the file's, the error refuses the file (Asset returns it only when
// it would generate a body): rewriting an artist's physics into another
// family is convert's job, with its warnings per lossy item. The note
// says when the file's family overrode a profile's. Engine name formats
// (unreal, godot-names) write no extension and are kept as asked.
func outputFamily(doc *gltf.Document, enc Encoding) (physics.Family, string, error) {
	var have []physics.Family
	for _, c := range codecs.Detect(doc) {
		have = append(have, c.Family())
	}
	switch {
	case enginenames.Handles(enc.Format):
		// Names are no physics family: engines that read them read no
		// extension, so the file's authored physics stays beside them.
		return enc.Format, "", nil
	case len(have) == 0, slices.Contains(have, enc.Format):
		return enc.Format, "", nil
	case enc.ExplicitFormat:
		return enc.Format, "", fmt.Errorf("the file carries %s physics and --format %s would put a second family beside it (each engine reads one): "+
			"convert the file first (autocollide convert IN -o OUT --to %s), or leave --format out to follow the file's family",
			upper(have), enc.Format, enc.Format)
	}
	return have[0], fmt.Sprintf("physics written as %s, the family the file already carries (the profile's format %s would put two families in one file)",
		strings.ToUpper(string(have[0])), enc.Format), nil
}

// geometryForm returns enc with KHR's geometry form set to the one the
// file's KHR hull and mesh colliders already use, when they use one
// (readers of one revision drop the other's colliders), and a note when
// that overrides the setting.
func geometryForm(doc *gltf.Document, enc Encoding) (Encoding, string) {
	if enc.Format != physics.KHR {
		return enc, ""
	}
	c, err := codecs.For(physics.KHR)
	if err != nil || !c.Detect(doc) {
		return enc, ""
	}
	m, _, err := c.Decode(doc)
	if err != nil {
		return enc, ""
	}
	node, mesh := false, false
	for _, s := range m.Shapes {
		if s.Type == physics.Convex || s.Type == physics.Trimesh {
			node = node || s.GeometryNode != nil
			mesh = mesh || s.GeometryNode == nil
		}
	}
	if node == mesh || node == enc.KHRGeometryNode {
		return enc, ""
	}
	enc.KHRGeometryNode = node
	form := map[bool]string{true: "geometry.node (2025)", false: "geometry.mesh (2026)"}
	return enc, fmt.Sprintf("KHR collider geometry written as %s, the form the file's colliders use (a reader of one form drops the other's)", form[node])
}

func upper(fs []physics.Family) string {
	var s []string
	for _, f := range fs {
		s = append(s, strings.ToUpper(string(f)))
	}
	return strings.Join(s, " and ")
}
