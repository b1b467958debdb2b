package batch

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/kinds"
)

// TestSchemaEnumsAreTheKindsTable checks that the report schema names
// exactly the methods and shape types of the kinds table, in its order:
// a kind added to the table must be added to the schema too.
func TestSchemaEnumsAreTheKindsTable(t *testing.T) {
	var doc any
	if err := json.Unmarshal(Schema, &doc); err != nil {
		t.Fatal(err)
	}
	var shapes []string
	for _, s := range kinds.Shapes() {
		shapes = append(shapes, string(s.Type))
	}
	for _, c := range []struct {
		path []string
		want []string
	}{
		{[]string{"properties", "profile", "properties", "method"}, kinds.Methods()},
		{[]string{"$defs", "part", "properties", "method"}, kinds.MadeMethods()},
		{[]string{"$defs", "asset", "properties", "colliders", "propertyNames"}, shapes},
	} {
		v := doc
		for _, k := range c.path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		m, _ := v.(map[string]any)
		raw, _ := m["enum"].([]any)
		var got []string
		for _, e := range raw {
			s, _ := e.(string)
			got = append(got, s)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("schema %v enum = %v, the kinds table has %v", c.path, got, c.want)
		}
	}
}
