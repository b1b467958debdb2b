package generate

import (
	"reflect"
	"testing"
)

// TestPartSettingsOver: every field of PartSettings but Rule, Trigger,
// Motion and Mass is a ColliderSettings field of the same type (else a
// rule's setting would be dropped), and over lays exactly the fields
// given.
func TestPartSettingsOver(t *testing.T) {
	pt, ct := reflect.TypeFor[PartSettings](), reflect.TypeFor[ColliderSettings]()
	for i := range pt.NumField() {
		f := pt.Field(i)
		if f.Name == "Rule" || f.Name == "Trigger" || f.Name == "Motion" || f.Name == "Mass" {
			continue
		}
		if cf, ok := ct.FieldByName(f.Name); !ok || cf.Type != f.Type {
			t.Errorf("PartSettings.%s (%v) is no ColliderSettings field of its type", f.Name, f.Type)
		}
	}
	base := ColliderSettings{Method: Hull, MaxHullVertices: 64, Concavity: 0.1, HullFill: 0.5}
	got := PartSettings{Rule: "r", Trigger: true, Method: Decompose, Concavity: 0.02, MaxColliders: 3}.over(base)
	want := ColliderSettings{Method: Decompose, MaxHullVertices: 64, Concavity: 0.02, HullFill: 0.5, MaxColliders: 3}
	if got != want {
		t.Errorf("over: got %+v, want %+v", got, want)
	}
	if got := (PartSettings{}).over(base); got != base {
		t.Errorf("empty settings changed %+v to %+v", base, got)
	}
}
