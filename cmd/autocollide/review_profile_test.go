package main

import (
	"strings"
	"testing"

	"github.com/autocollide/autocollide/profiles"
)

// TestWithRule: the rule goes first among the rules, a second change of
// the same asset replaces it, comments and other rules stay, the result
// is a valid profile whose first rule matches the asset; a bad method is
// refused.
func TestWithRule(t *testing.T) {
	src := `# top comment
extends: default
rules:
  # wheels
  - name: wheels
    match: {name: "Wheel*"}
    method: cylinder
`
	one, err := withRule([]byte(src), "p.yaml", "props/duck.glb", reviewChange{Method: "hull", MaxHullVertices: 32})
	if err != nil {
		t.Fatal(err)
	}
	two, err := withRule(one, "p.yaml", "props/duck.glb", reviewChange{Method: "box"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(two)
	t.Logf("\n%s", s)
	for _, want := range []string{"# top comment", "# wheels", "name: wheels", "file: props/duck.glb", "method: box"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q", want)
		}
	}
	if strings.Count(s, "review: props/duck.glb") != 1 || strings.Contains(s, "hull") {
		t.Errorf("the second change did not replace the first")
	}
	if strings.Index(s, "review: props/duck.glb") > strings.Index(s, "name: wheels") {
		t.Error("the kept rule is not first")
	}
	p, err := profiles.Parse("p.yaml", two)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 2 || p.Rules[0].Match.File != "props/duck.glb" || p.Rules[0].Set.Method != "box" {
		t.Errorf("rules %+v", p.Rules)
	}
	if _, err := withRule([]byte(src), "p.yaml", "a.glb", reviewChange{Method: "sphere-ish"}); err == nil {
		t.Error("a bad method was accepted")
	}
	if _, err := withRule(nil, "p.yaml", "a.glb", reviewChange{Method: "box"}); err != nil {
		t.Errorf("an empty profile: %v", err)
	}
}
