package generate

import (
	"fmt"

	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// extInstancing names GPU instancing, whose node draws its mesh once per
// instance.
const extInstancing = "EXT_mesh_gpu_instancing"

// uninstanced returns the body planned on node: node's own, unless node
// carries EXT_mesh_gpu_instancing. That extension speaks of the mesh's
// instances, not of what else hangs on the node, and readers differ:
// Babylon.js makes a physics body per instance, each with all the node's
// colliders (SimpleInstancing's 125 boxes became 125 × 125, and Havok ran
// out of memory on the first step). The body then goes on a new node in
// node's place (same parent, no transform), node its child and the
// colliders beside it, which says the same without the ambiguity.
func (p *planner) uninstanced(ex *mesh.Result, node int, motion physics.MotionType) *bodyPlan {
	if _, inst := p.doc.Nodes[node].Extensions[extInstancing]; !inst {
		return p.body(node, motion)
	}
	holder := p.parent[node]
	if holder < 0 && ex.Scene < 0 {
		p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("the body node %s carries %s, and no scene holds a node to put the body on instead; left there", mesh.NodeName(p.doc, node), extInstancing))
		return p.body(node, motion)
	}
	// Keys below -1-len(nodes) are free: skinned.go's new nodes use
	// -2-node.
	b := p.body(-2-len(p.doc.Nodes)-node, motion)
	if b.gen == nil {
		b.node = groupNode
		b.gen = &newNode{holder: holder, children: []int{node}, name: baseName(p.doc, node) + ".body", stand: node}
		p.plan.notes = append(p.plan.notes, fmt.Sprintf("the body node %s carries %s: the body is on a new node %s holding it, its colliders beside it (readers differ on what hangs on an instanced node)", mesh.NodeName(p.doc, node), extInstancing, b.gen.name))
	}
	return b
}

// aboveInstanced reports whether body b is one uninstanced made: on a new
// node holding one instanced node. Overlap checks include it (under that
// node's name), but it is never merged.
func aboveInstanced(doc *gltf.Document, b *bodyPlan) bool {
	if b.gen == nil || len(b.gen.children) != 1 {
		return false
	}
	_, inst := doc.Nodes[b.gen.children[0]].Extensions[extInstancing]
	return inst
}

// standFor is the node that names body b: its own, or the one its new
// node stands for.
func standFor(b *bodyPlan) int {
	if b.gen != nil {
		return b.gen.stand
	}
	return b.node
}
