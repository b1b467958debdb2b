package physics

import "github.com/qmuntal/gltf"

// Parents returns each node's parent index in doc, -1 for a root. A node
// listed as a child twice keeps its first parent; children out of range
// and self-references are ignored (validate reports them).
func Parents(doc *gltf.Document) []int {
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		if n == nil {
			continue
		}
		for _, c := range n.Children {
			if c >= 0 && c < len(parent) && parent[c] < 0 && c != i {
				parent[c] = i
			}
		}
	}
	return parent
}
