package physics

import (
	"slices"
	"testing"

	"github.com/qmuntal/gltf"
)

func TestParents(t *testing.T) {
	doc := &gltf.Document{Nodes: []*gltf.Node{
		{Children: []int{1, 2}}, {Children: []int{3, 1, 9}}, nil, {}, {Children: []int{3}},
	}}
	// 3 keeps its first parent (1); 1 does not parent itself; 9 is out of
	// range; 4 is a root.
	if got, want := Parents(doc), []int{-1, 0, 0, 1, -1}; !slices.Equal(got, want) {
		t.Errorf("Parents = %v, want %v", got, want)
	}
}
