// Package debugjson is a physics.Codec that writes the model as it is,
// in one extension (AUTOCOLLIDE_physics_debug), for reading what
// generate made without a family's mapping in the way. It walks the
// "Add a format" checklist; no engine reads it.
package debugjson

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// Ext is the extension the codec writes, on the document and on nodes.
const Ext = "AUTOCOLLIDE_physics_debug"

// Codec is the debug family.
type Codec struct{}

// document is the document-level object.
type document struct {
	Shapes    []physics.Shape    `json:"shapes"`
	Materials []physics.Material `json:"physicsMaterials"`
	Filters   []physics.Filter   `json:"collisionFilters"`
	Joints    []physics.JointDef `json:"joints"`
}

// Family returns "debug".
func (Codec) Family() physics.Family { return "debug" }

// Extensions returns Ext.
func (Codec) Extensions() []string { return []string{Ext} }

// Detect reports whether doc uses Ext.
func (Codec) Detect(doc *gltf.Document) bool { return physics.Uses(doc, Ext) }

// Decode reads the model back.
func (Codec) Decode(doc *gltf.Document) (*physics.Model, []physics.Warning, error) {
	m := physics.NewModel()
	var d document
	if v, ok := doc.Extensions[Ext]; ok {
		if err := remarshal(v, &d); err != nil {
			return nil, nil, physics.Errorf("extensions."+Ext, "%v", err)
		}
	}
	m.Shapes, m.Materials, m.Filters, m.Joints = d.Shapes, d.Materials, d.Filters, d.Joints
	for i, n := range doc.Nodes {
		if v, ok := n.Extensions[Ext]; ok {
			var pn physics.Node
			if err := remarshal(v, &pn); err != nil {
				return nil, nil, physics.Errorf(fmt.Sprintf("nodes[%d].extensions.%s", i, Ext), "%v", err)
			}
			m.Nodes[i] = &pn
		}
	}
	return m, nil, nil
}

// Encode writes m as it is, replacing what Ext held.
func (Codec) Encode(doc *gltf.Document, m *physics.Model, _ physics.EncodeOptions) error {
	physics.RemoveExtensions(doc, Ext)
	d := document{Shapes: m.Shapes, Materials: m.Materials, Filters: m.Filters, Joints: m.Joints}
	if d.Shapes == nil {
		d.Shapes = []physics.Shape{}
	}
	if d.Materials == nil {
		d.Materials = []physics.Material{}
	}
	if d.Filters == nil {
		d.Filters = []physics.Filter{}
	}
	if doc.Extensions == nil {
		doc.Extensions = gltf.Extensions{}
	}
	doc.Extensions[Ext] = d
	for _, i := range m.NodeIndices() {
		if i < 0 || i >= len(doc.Nodes) {
			return fmt.Errorf("debug: encode: node %d out of range", i)
		}
		if doc.Nodes[i].Extensions == nil {
			doc.Nodes[i].Extensions = gltf.Extensions{}
		}
		doc.Nodes[i].Extensions[Ext] = m.Nodes[i]
	}
	physics.DeclareUsed(doc, Ext)
	return nil
}

// Strip removes Ext.
func (Codec) Strip(doc *gltf.Document) { physics.RemoveExtensions(doc, Ext) }

// Layout says where Encode writes.
func (Codec) Layout() physics.Layout {
	return physics.Layout{
		Extensions: []string{Ext},
		Shapes:     physics.DocArray{Extension: Ext, Name: "shapes"},
		Materials:  physics.DocArray{Extension: Ext, Name: "physicsMaterials"},
		Filters:    physics.DocArray{Extension: Ext, Name: "collisionFilters"},
	}
}

func remarshal(v any, out any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}
