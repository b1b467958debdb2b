package convert_test

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/qmuntal/gltf"
)

// A static OMI body has no KHR form: converting drops the motion, keeps
// the collider as a static KHR collider, and says so.
func ExampleConvert() {
	doc := &gltf.Document{Nodes: []*gltf.Node{{Children: []int{1}}, {}}}
	m := physics.NewModel()
	box := m.AddShape(physics.Shape{Type: physics.Box, Size: [3]float64{2, 1, 2}})
	m.Node(0).Motion = &physics.Motion{Type: physics.Static}
	m.Node(1).Collider = physics.NewCollider(box)
	if err := omi.Encode(doc, m); err != nil {
		fmt.Println(err)
		return
	}
	warns, err := convert.Convert(doc, physics.KHR, false)
	fmt.Println(codecs.Family(doc), err)
	for _, w := range warns {
		fmt.Println(w.Lossy, w)
	}
	fmt.Println(string(doc.Nodes[1].Extensions[physics.ExtKHRBodies].(json.RawMessage)))
	_, err = convert.Convert(doc, physics.OMI, true)
	fmt.Println(err)
	// Output:
	// khr <nil>
	// true nodes[0].extensions.OMI_physics_body.motion: static body: KHR has no static motion; dropped, its colliders become independent static colliders
	// {"collider":{"geometry":{"shape":0}}}
	// <nil>
}
