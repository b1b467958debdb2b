package mesh

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

// MaxDepth bounds the depth of the node hierarchy (a root has depth 1).
// Real assets stay far below it (RecursiveSkeletons, a stress test, has
// depth 30); a deeper chain is treated as hostile input.
const MaxDepth = 1024

// affineTolerance is how far the bottom row of a node matrix may be from
// (0, 0, 0, 1); glTF requires node matrices to be affine.
const affineTolerance = 1e-6

// NodeName formats a node for messages: `nodes[4] "Wheel"`, or `nodes[4]`.
func NodeName(doc *gltf.Document, i int) string {
	if i >= 0 && i < len(doc.Nodes) && doc.Nodes[i] != nil && doc.Nodes[i].Name != "" {
		return fmt.Sprintf("nodes[%d] %q", i, doc.Nodes[i].Name)
	}
	return fmt.Sprintf("nodes[%d]", i)
}

// hierarchy is the validated node forest of a document.
type hierarchy struct {
	parent []int // -1 for a root
	world  []geom.Mat4
}

// localTransform returns the node's local matrix: its matrix, or T·R·S
// (qmuntal/gltf fills the absent form with identities, so the product of
// both is whichever was given).
func localTransform(doc *gltf.Document, i int) (geom.Mat4, error) {
	n := doc.Nodes[i]
	m := n.MatrixOrDefault()
	if math.Abs(m[3]) > affineTolerance || math.Abs(m[7]) > affineTolerance ||
		math.Abs(m[11]) > affineTolerance || math.Abs(m[15]-1) > affineTolerance {
		return geom.Mat4{}, fmt.Errorf("%s: matrix is not affine (bottom row %g %g %g %g)", NodeName(doc, i), m[3], m[7], m[11], m[15])
	}
	q := geom.Quat(n.RotationOrDefault())
	if err := checkRotation(q); err != nil {
		return geom.Mat4{}, fmt.Errorf("%s: %w", NodeName(doc, i), err)
	}
	r := q.Normalize()
	trs := geom.TRS(geom.Vec3(n.TranslationOrDefault()), r, geom.Vec3(n.ScaleOrDefault()))
	return geom.Mat4FromGLTF(m).Mul(trs), nil
}

// buildHierarchy checks the node graph — child indices in range, no node
// with two parents, no cycle, depth at most MaxDepth, finite transforms —
// and computes every node's world matrix.
func buildHierarchy(doc *gltf.Document) (*hierarchy, error) {
	n := len(doc.Nodes)
	h := &hierarchy{parent: make([]int, n), world: make([]geom.Mat4, n)}
	for i := range h.parent {
		h.parent[i] = -1
	}
	for p, node := range doc.Nodes {
		if node == nil {
			return nil, fmt.Errorf("nodes[%d]: null node", p)
		}
		for _, c := range node.Children {
			if c < 0 || c >= n {
				return nil, fmt.Errorf("%s: child %d does not exist", NodeName(doc, p), c)
			}
			if c == p {
				return nil, fmt.Errorf("%s: cycle in the node hierarchy", NodeName(doc, p))
			}
			if h.parent[c] != -1 {
				return nil, fmt.Errorf("%s: child of both %s and %s", NodeName(doc, c), NodeName(doc, h.parent[c]), NodeName(doc, p))
			}
			h.parent[c] = p
		}
	}
	visited := make([]bool, n)
	type item struct{ node, depth int }
	var stack []item
	for r := 0; r < n; r++ {
		if h.parent[r] != -1 {
			continue
		}
		stack = append(stack[:0], item{r, 1})
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if it.depth > MaxDepth {
				return nil, fmt.Errorf("%s: node hierarchy deeper than %d", NodeName(doc, it.node), MaxDepth)
			}
			visited[it.node] = true
			local, err := localTransform(doc, it.node)
			if err != nil {
				return nil, err
			}
			if p := h.parent[it.node]; p >= 0 {
				local = h.world[p].Mul(local)
			}
			if !finiteMat(local) {
				return nil, fmt.Errorf("%s: world transform is not finite", NodeName(doc, it.node))
			}
			h.world[it.node] = local
			for _, c := range doc.Nodes[it.node].Children {
				stack = append(stack, item{c, it.depth + 1})
			}
		}
	}
	for i := 0; i < n; i++ {
		if visited[i] {
			continue
		}
		// Every unvisited node has a parent and no root above it: walking
		// up must come back to a node already seen, which lies on a cycle.
		seen := map[int]bool{}
		j := i
		for !seen[j] {
			seen[j] = true
			j = h.parent[j]
		}
		return nil, fmt.Errorf("%s: cycle in the node hierarchy", NodeName(doc, j))
	}
	return h, nil
}

func finiteMat(m geom.Mat4) bool {
	for _, row := range m {
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

// WorldTransforms returns every node's world matrix (parent world × local,
// TRS or matrix). It fails, naming the node, on a cycle, a node with two
// parents, a hierarchy deeper than MaxDepth, a non-affine matrix or a
// non-finite result.
func WorldTransforms(doc *gltf.Document) ([]geom.Mat4, error) {
	h, err := buildHierarchy(doc)
	if err != nil {
		return nil, err
	}
	return h.world, nil
}

// chooseScene picks the scene to extract: doc.Scene when set, else scene
// 0, else (no scenes) every root node in index order, reported as scene
// -1. Scene roots must exist, be roots and be listed once.
func chooseScene(doc *gltf.Document, h *hierarchy) (int, []int, error) {
	if len(doc.Scenes) == 0 {
		if doc.Scene != nil {
			return 0, nil, fmt.Errorf("scene %d does not exist (no scenes)", *doc.Scene)
		}
		var roots []int
		for i, p := range h.parent {
			if p == -1 {
				roots = append(roots, i)
			}
		}
		return -1, roots, nil
	}
	s := 0
	if doc.Scene != nil {
		s = *doc.Scene
		if s < 0 || s >= len(doc.Scenes) {
			return 0, nil, fmt.Errorf("scene %d does not exist (%d scenes)", s, len(doc.Scenes))
		}
	}
	sc := doc.Scenes[s]
	if sc == nil {
		return 0, nil, fmt.Errorf("scenes[%d]: null scene", s)
	}
	listed := make(map[int]bool, len(sc.Nodes))
	for _, r := range sc.Nodes {
		if r < 0 || r >= len(doc.Nodes) {
			return 0, nil, fmt.Errorf("scenes[%d]: node %d does not exist", s, r)
		}
		if listed[r] {
			return 0, nil, fmt.Errorf("scenes[%d]: %s listed twice", s, NodeName(doc, r))
		}
		if p := h.parent[r]; p != -1 {
			return 0, nil, fmt.Errorf("scenes[%d]: %s is listed as a root but is a child of %s", s, NodeName(doc, r), NodeName(doc, p))
		}
		listed[r] = true
	}
	return s, append([]int(nil), sc.Nodes...), nil
}

// subtree returns root and its descendants in depth-first pre-order,
// children in the order they are listed. The hierarchy must be valid.
func subtree(doc *gltf.Document, root int) []int {
	var order []int
	stack := []int{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, i)
		ch := doc.Nodes[i].Children
		for k := len(ch) - 1; k >= 0; k-- {
			stack = append(stack, ch[k])
		}
	}
	return order
}
