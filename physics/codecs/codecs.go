// Package codecs is the list of physics codecs: the one place that knows
// which families exist. Generate, convert, validate, inspect, preview and
// batch find a family's codec here instead of switching on families; a
// new family is a physics.Codec plus one entry in All.
package codecs

import (
	"fmt"
	"strings"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/qmuntal/gltf"
)

// All returns every codec, in order of preference: a document carrying
// several families is read in the first of them. OMI reads OMI_collider
// and the Stage 1 forms, KHR reads KHR_collision_shapes and the
// geometry.node form; OMI_physics_gravity is not OMI physics (the model
// does not describe gravity: it is kept as it is, and alone does not
// count as physics).
func All() []physics.Codec {
	return []physics.Codec{
		wire.Codec{
			Name:    physics.OMI,
			Read:    []string{physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint, physics.ExtOMICollider},
			Written: []string{physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint},
			Shapes:  physics.ExtOMIShape, Bodies: physics.ExtOMIBody, Joints: physics.ExtOMIJoint,
			DecodeFunc: omi.Decode,
			// OMI has one geometry form: the options do not apply.
			EncodeFunc: func(doc *gltf.Document, m *physics.Model, _ physics.EncodeOptions) error { return omi.Encode(doc, m) },
			StripFunc:  omi.Strip,
		},
		wire.Codec{
			Name:    physics.KHR,
			Read:    []string{physics.ExtKHRShapes, physics.ExtKHRBodies, physics.ExtKHRCollisionShapes},
			Written: []string{physics.ExtKHRShapes, physics.ExtKHRBodies},
			Shapes:  physics.ExtKHRShapes, Bodies: physics.ExtKHRBodies, Joints: physics.ExtKHRBodies,
			DecodeFunc: khr.Decode,
			EncodeFunc: func(doc *gltf.Document, m *physics.Model, opt physics.EncodeOptions) error {
				return khr.Encode(doc, m, khr.Options{GeometryNode: opt.GeometryNode})
			},
		},
	}
}

// For returns the codec of family f, or an error listing the families.
func For(f physics.Family) (physics.Codec, error) {
	for _, c := range All() {
		if c.Family() == f {
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown physics family %q (want %s)", f, Names())
}

// Parse returns the codec named s ("omi", "khr"), or an error listing the
// families.
func Parse(s string) (physics.Codec, error) { return For(physics.Family(s)) }

// Families returns the family names of All, in its order: the values
// --format, --to and a profile's format accept.
func Families() []string {
	var names []string
	for _, c := range All() {
		names = append(names, string(c.Family()))
	}
	return names
}

// Names lists the families for messages and flag help: "omi or khr".
func Names() string {
	names := Families()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Detect returns the codecs whose family doc carries, in the order of All.
func Detect(doc *gltf.Document) []physics.Codec {
	var out []physics.Codec
	for _, c := range All() {
		if c.Detect(doc) {
			out = append(out, c)
		}
	}
	return out
}

// Family names the families doc carries: physics.None, one family, or
// several joined by "+" (physics.Both for OMI and KHR).
func Family(doc *gltf.Document) physics.Family {
	var names []string
	for _, c := range Detect(doc) {
		names = append(names, string(c.Family()))
	}
	return physics.Family(strings.Join(names, "+"))
}

// Extensions returns the extensions of every family, in any revision:
// the set a whole-file rewrite replaces and whose presence on a node
// marks authored physics.
func Extensions() []string {
	var out []string
	for _, c := range All() {
		out = append(out, c.Extensions()...)
	}
	return out
}

// Decode reads the physics of doc in the first family it carries (a
// warning says so when it carries several); a document without physics
// gives an empty model and physics.None.
func Decode(doc *gltf.Document) (*physics.Model, physics.Family, []physics.Warning, error) {
	found := Detect(doc)
	if len(found) == 0 {
		return physics.NewModel(), physics.None, nil, nil
	}
	c := found[0]
	m, w, err := c.Decode(doc)
	if len(found) > 1 {
		w = append(w, physics.Warning{Path: "extensionsUsed", Message: fmt.Sprintf("document carries %s; the %s physics was read", several(found), strings.ToUpper(string(c.Family()))), Lossy: true})
	}
	return m, c.Family(), w, err
}

// several names the families of cs as "both families" or "N families".
func several(cs []physics.Codec) string {
	if len(cs) == 2 {
		return "both families"
	}
	return fmt.Sprintf("%d families", len(cs))
}
