package convert

import (
	"fmt"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// newNode is a node adapt needs that the document does not have yet: a
// child of Parent with the identity transform (so the parent's world
// pose), appended to doc.Nodes at the index the adapted model uses.
type newNode struct {
	Parent int
	Name   string
}

// placeJointsForOMI gives every joint of a KHR model the place
// OMI_physics_joint requires. KHR puts a joint on any node, attached to
// the first motion at or above it, or to the world where there is none;
// OMI wants the joint "on its own glTF node" (no body, no collider), "a
// descendant of one physics body", its connected node under "some kind of
// physics body node", and a dynamic body on one side at least. So, per
// joint node J connected to C:
//   - neither side under a dynamic body (a KHR motion with isKinematic or
//     an infinite mass, or no motion): no OMI form; dropped (lossy);
//   - J or C under no motion (the world): the nearest node at or above it
//     with a collider (a static collider in KHR), else its parent, else
//     the node itself becomes a static body, fixed where it is (exact; an
//     OMI static body that went through KHR usually comes back);
//   - J carrying a motion, collider or trigger (or just made a static
//     body): the joint moves to a new child of J, whose world pose is J's
//     (exact), so the attachment frame and its body do not change.
//
// next is the index the first new node gets (len(doc.Nodes)).
func (a *adapter) placeJointsForOMI(next int) []newNode {
	m := a.m
	parent := physics.Parents(a.doc)
	bodyOf := func(k int) int {
		for i, steps := k, 0; i >= 0 && steps <= len(parent); i, steps = parent[i], steps+1 {
			if n := m.Nodes[i]; n != nil && n.Motion != nil {
				return i
			}
		}
		return -1
	}
	dynamic := func(b int) bool { return b >= 0 && m.Nodes[b].Motion.Type == physics.Dynamic }
	var joints []int
	for _, ni := range m.NodeIndices() {
		if m.Nodes[ni].Joint != nil {
			joints = append(joints, ni)
		}
	}
	for _, ni := range joints {
		n := m.Nodes[ni]
		c := n.Joint.ConnectedNode
		p := khrBody(ni) + ".joint"
		bj, bc := bodyOf(ni), bodyOf(c)
		if !dynamic(bj) && !dynamic(bc) {
			a.lossy(p, "neither node %d nor its connected node %d is under a dynamic body: OMI_physics_joint needs one (in KHR the joint has no effect either); dropped", ni, c)
			n.Joint = nil
			if *n == (physics.Node{}) {
				delete(m.Nodes, ni)
			}
			continue
		}
		for _, k := range []int{ni, c} {
			if bodyOf(k) >= 0 {
				continue
			}
			// The static collider the node hangs from, else its parent,
			// else the node.
			s := parent[k]
			if s < 0 {
				s = k
			}
			for i, steps := k, 0; i >= 0 && steps <= len(parent); i, steps = parent[i], steps+1 {
				if n := m.Nodes[i]; n != nil && n.Collider != nil {
					s = i
					break
				}
			}
			m.Node(s).Motion = &physics.Motion{Type: physics.Static}
			a.note(p, "node %d is under no motion (attached to the world): node %d made a static body, fixed where it is, as OMI_physics_joint attaches joints to bodies", k, s)
		}
	}
	var added []newNode
	for _, ni := range joints {
		n := m.Nodes[ni]
		if n == nil || n.Joint == nil || (n.Motion == nil && n.Collider == nil && n.Trigger == nil) {
			continue
		}
		k := next + len(added)
		name := fmt.Sprintf("joint %d", ni)
		if nd := a.doc.Nodes[ni]; nd != nil && nd.Name != "" {
			name = nd.Name + " joint"
		}
		added = append(added, newNode{Parent: ni, Name: name})
		m.Node(k).Joint = n.Joint
		n.Joint = nil
		a.note(khrBody(ni)+".joint", "moved to a new child node %d at the same world pose: an OMI joint is on its own node, not on a body or collider", k)
	}
	return added
}

// addNodes appends the nodes adapt planned, each a child of its parent
// with the identity transform.
func addNodes(doc *gltf.Document, nodes []newNode) {
	for _, nn := range nodes {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: nn.Name, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
		doc.Nodes[nn.Parent].Children = append(doc.Nodes[nn.Parent].Children, len(doc.Nodes)-1)
	}
}
