package generate

import (
	"fmt"

	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// unskinned returns the body of a part planned on node: node's own,
// unless node is or lies under a skinned mesh node. glTF ignores that
// node's transform for its mesh (the joints pose it) and importers
// re-parent skinned meshes (Babylon.js does), so a body or colliders
// there come loose from what they stand for. The body then goes on the
// skeleton root of the part's skin (the mesh follows its joints, so a
// body moving the skeleton carries it), or, when the part is not skinned
// or that root is itself under a skinned mesh node, on a new node beside
// the topmost skinned mesh node (same parent, no transform: the frame the
// skinned vertices are posed in), with a warning that the render mesh
// does not follow it.
func (p *planner) unskinned(ex *mesh.Result, part *mesh.Part, node int, motion physics.MotionType) *bodyPlan {
	s := p.skinnedAt(node)
	if s < 0 {
		return p.uninstanced(ex, node, motion)
	}
	what := fmt.Sprintf("%s: the body node %s", part.Name, mesh.NodeName(p.doc, node))
	if s == node {
		what += " is a skinned mesh node"
	} else {
		what += " lies under the skinned mesh node " + mesh.NodeName(p.doc, s)
	}
	if k, ok := p.skeletonRoot(part.Node); ok && p.skinnedAt(k) < 0 {
		b := p.body(k, motion)
		if !b.noted {
			b.noted = true
			p.plan.notes = append(p.plan.notes, fmt.Sprintf("%s (glTF ignores its transform for the mesh); the body is on the skeleton root %s instead", what, mesh.NodeName(p.doc, k)))
		}
		return b
	}
	holder := p.parent[s]
	if holder < 0 && ex.Scene < 0 {
		p.plan.warnings = append(p.plan.warnings, what+", and no scene holds a node to put it beside; left there")
		return p.body(node, motion)
	}
	b := p.body(-2-s, motion)
	if b.gen == nil {
		b.node = groupNode
		b.gen = &newNode{holder: holder, name: baseName(p.doc, s) + ".body", stand: s}
		p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("%s, and the part has no skeleton root outside skinned mesh nodes; the body is on a new node beside %s, which its render mesh does not follow", what, mesh.NodeName(p.doc, s)))
	}
	return b
}

// skinnedAt returns the topmost skinned mesh node at or above node n, or
// -1 when there is none.
func (p *planner) skinnedAt(n int) int {
	at := -1
	for seen := 0; seen <= len(p.doc.Nodes); seen++ {
		if nd := p.doc.Nodes[n]; nd.Skin != nil && nd.Mesh != nil {
			at = n
		}
		if n = p.parent[n]; n < 0 {
			break
		}
	}
	return at
}

// skeletonRoot returns the root of node n's skin: its skeleton when the
// skin names one, else the nearest common ancestor of its joints.
func (p *planner) skeletonRoot(n int) (int, bool) {
	si := p.doc.Nodes[n].Skin
	if si == nil || *si < 0 || *si >= len(p.doc.Skins) {
		return 0, false
	}
	skin := p.doc.Skins[*si]
	if k := skin.Skeleton; k != nil && *k >= 0 && *k < len(p.doc.Nodes) {
		return *k, true
	}
	if len(skin.Joints) == 0 {
		return 0, false
	}
	// The chain from the first joint up to its root; each other joint
	// cuts it at the first node they share.
	chain := p.chain(skin.Joints[0])
	for _, j := range skin.Joints[1:] {
		up := map[int]bool{}
		for _, a := range p.chain(j) {
			up[a] = true
		}
		for len(chain) > 0 && !up[chain[0]] {
			chain = chain[1:]
		}
		if len(chain) == 0 {
			return 0, false
		}
	}
	return chain[0], true
}

// chain returns node n and its ancestors, n first.
func (p *planner) chain(n int) []int {
	out := []int{n}
	for len(out) <= len(p.doc.Nodes) {
		up := p.parent[n]
		if up < 0 {
			break
		}
		out, n = append(out, up), up
	}
	return out
}
