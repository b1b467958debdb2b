package inspect

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
)

// Budget is a mesh instance's collider budget as autocollide recorded it
// (methods auto and decompose: the first of the instance's colliders
// carries extras.autocollide.budget), and what was kept of it.
type Budget struct {
	// Node and Name are the mesh instance's node.
	Node int    `json:"node"`
	Name string `json:"name"`
	// Max is the budget K; Colliders the colliders kept (at most Max),
	// of which Hulls are convex hulls and Primitives counts the others by
	// shape type.
	Max        int            `json:"max"`
	Colliders  int            `json:"colliders"`
	Hulls      int            `json:"hulls"`
	Primitives map[string]int `json:"primitives"`
	// First is the node of the first of the instance's colliders.
	First int `json:"firstCollider"`
}

// budgets reads the recorded budgets of an asset loaded with LoadRaw
// from its generated collider nodes, in node order. A record that does
// not match the colliders after it is a warning, not a budget.
func budgets(a *gltfio.Asset, m *physics.Model) ([]Budget, []string) {
	out := []Budget{}
	var warns []string
	nodes := a.Tree.Arr("nodes")
	for i, n := range nodes {
		o, _ := n.(*gltfio.Object)
		rec := o.Obj("extras").Obj(gltfio.MarkKey).Obj(gltfio.BudgetKey)
		if rec == nil {
			continue
		}
		path := fmt.Sprintf("nodes[%d].extras.%s.%s", i, gltfio.MarkKey, gltfio.BudgetKey)
		node, ok1 := rec.Int("node")
		max, ok2 := rec.Int("max")
		count, ok3 := rec.Int("colliders")
		if !ok1 || !ok2 || !ok3 || max < 1 || count < 1 || count > max || i+count > len(nodes) || node < 0 || node >= len(nodes) {
			warns = append(warns, path+": not a budget record of this file (node, max ≥ colliders ≥ 1 within the nodes)")
			continue
		}
		b := Budget{Node: node, Max: max, Colliders: count, Primitives: map[string]int{}, First: i}
		if a.Doc != nil && node < len(a.Doc.Nodes) && a.Doc.Nodes[node] != nil {
			b.Name = a.Doc.Nodes[node].Name
		}
		valid := true
		for k := i; k < i+count; k++ {
			var c *physics.Collider
			if n := m.Nodes[k]; n != nil {
				c = n.Collider
			}
			if c == nil || c.Shape < 0 || c.Shape >= len(m.Shapes) {
				valid = false
				break
			}
			if t := m.Shapes[c.Shape].Type; t == physics.Convex {
				b.Hulls++
			} else {
				b.Primitives[string(t)]++
			}
		}
		if !valid {
			warns = append(warns, fmt.Sprintf("%s: records %d colliders but nodes[%d..%d] are not all colliders", path, count, i, i+count-1))
			continue
		}
		out = append(out, b)
	}
	return out, warns
}

// String is the budget for people: "8 of 8: 7 hulls, 1 box".
func (b Budget) String() string {
	parts := []string{}
	if b.Hulls > 0 {
		parts = append(parts, plural(b.Hulls, "hull"))
	}
	types := make([]string, 0, len(b.Primitives))
	for t := range b.Primitives {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		parts = append(parts, plural(b.Primitives[t], t))
	}
	return fmt.Sprintf("%d of %d: %s", b.Colliders, b.Max, strings.Join(parts, ", "))
}

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	if strings.HasSuffix(s, "x") {
		return fmt.Sprintf("%d %ses", n, s)
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// writeBudgets prints one line per mesh instance with a recorded budget.
func writeBudgets(w io.Writer, bs []Budget) {
	for _, b := range bs {
		fmt.Fprintf(w, "  budget of mesh %s: %s\n", nodeName(b.Node, b.Name), b)
	}
}
