package preview

import (
	"fmt"

	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/safetext"
)

// maxBudgetLines is how many mesh instances the legend names one by one;
// the others are summed on one line.
const maxBudgetLines = 6

// budgetLegend is a legend line per mesh instance with a recorded budget
// ("budget "Wheels": 2 of 8: 2 cylinders"), the instances past
// maxBudgetLines summed on one more.
func budgetLegend(bs []inspect.Budget) []legendItem {
	var items []legendItem
	for i, b := range bs {
		if i == maxBudgetLines {
			kept, budget := 0, 0
			for _, r := range bs[i:] {
				kept, budget = kept+r.Colliders, budget+r.Max
			}
			items = append(items, legendItem{text: fmt.Sprintf("budget of %d more meshes: %d of %d colliders", len(bs)-i, kept, budget)})
			break
		}
		name := b.Name
		if name == "" {
			name = fmt.Sprintf("nodes[%d]", b.Node)
		}
		text := fmt.Sprintf("budget %q: %s", safetext.Term(name), b)
		if i < len(bs)-1 {
			text += " |"
		}
		items = append(items, legendItem{text: text})
	}
	return items
}
