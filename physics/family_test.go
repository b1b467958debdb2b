package physics_test

import (
	"slices"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

func TestDeclareUsed(t *testing.T) {
	doc := &gltf.Document{ExtensionsRequired: []string{physics.ExtKHRBodies, "X"}}
	physics.DeclareUsed(doc, physics.ExtKHRBodies)
	physics.DeclareUsed(doc, physics.ExtKHRBodies)
	if !slices.Equal(doc.ExtensionsUsed, []string{physics.ExtKHRBodies}) || !slices.Equal(doc.ExtensionsRequired, []string{"X"}) {
		t.Errorf("used %v required %v", doc.ExtensionsUsed, doc.ExtensionsRequired)
	}
}

func TestCloneIsDeep(t *testing.T) {
	m := physics.NewModel()
	mass := 2.0
	m.AddShape(physics.Shape{Type: physics.Box, Extensions: map[string][]byte{"X": []byte(`{}`)}})
	m.Node(3).Motion = &physics.Motion{Type: physics.Dynamic, Mass: &mass}
	m.Node(3).Trigger = &physics.Trigger{Shape: -1, Nodes: []int{4}, Filter: -1}
	c := m.Clone()
	*c.Nodes[3].Motion.Mass = 5
	c.Nodes[3].Trigger.Nodes[0] = 9
	c.Shapes[0].Extensions["X"][0] = 'x'
	if mass != 2 || m.Nodes[3].Trigger.Nodes[0] != 4 || m.Shapes[0].Extensions["X"][0] != '{' {
		t.Error("Clone shares memory with the original")
	}
}

func TestConstructorsUseDefaults(t *testing.T) {
	c, tr, ct := physics.NewCollider(2), physics.NewTrigger(1), physics.NewCompoundTrigger(4, 5)
	if c.Shape != 2 || c.Material != -1 || c.Filter != -1 || tr.Shape != 1 || tr.Filter != -1 ||
		ct.Shape != -1 || ct.Filter != -1 || !slices.Equal(ct.Nodes, []int{4, 5}) {
		t.Errorf("%+v %+v %+v", c, tr, ct)
	}
}
