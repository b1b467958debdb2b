package debugjson_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/debugjson"
	"github.com/qmuntal/gltf"
)

// The model survives Encode, a JSON round trip of the document, and
// Decode.
func TestRoundTrip(t *testing.T) {
	m := physics.NewModel()
	m.AddShape(physics.Shape{Type: physics.Capsule, Radius: 0.25, Height: 1})
	mass := 3.0
	m.Node(1).Motion = &physics.Motion{Type: physics.Dynamic, Mass: &mass}
	m.Node(1).Collider = physics.NewCollider(0)
	doc := &gltf.Document{Nodes: []*gltf.Node{{}, {}}}
	codec := debugjson.Codec{}
	if err := codec.Encode(doc, m, physics.EncodeOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	back := new(gltf.Document)
	if err := json.Unmarshal(raw, back); err != nil {
		t.Fatal(err)
	}
	if !codec.Detect(back) {
		t.Fatal("Detect misses the encoded document")
	}
	got, _, err := codec.Decode(back)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Shapes, m.Shapes) || *got.Nodes[1].Motion.Mass != 3 || got.Nodes[1].Collider.Shape != 0 {
		t.Errorf("round trip: %+v", got)
	}
}
