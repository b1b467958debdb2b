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

// TestWithRuleBody: a change's density, material and motion become the
// rule's mass and motion, read back as such by the profile; a density
// out of the profile's range, both a density and a material, or an
// unknown motion are refused with the profile's message.
func TestWithRuleBody(t *testing.T) {
	text, err := withRule(nil, "p.yaml", "props/crate.glb", reviewChange{Method: "box", Density: 500, Motion: "kinematic"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", text)
	if !strings.Contains(string(text), "mass: {density: 500}") {
		t.Errorf("the density is not written as the profile writes it:\n%s", text)
	}
	p, err := profiles.Parse("p.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Rules[0]; r.Motion != "kinematic" || r.Mass == nil || r.Mass.Density != 500 {
		t.Errorf("rule %+v, want motion kinematic and density 500", r)
	}
	text, err = withRule(text, "p.yaml", "props/crate.glb", reviewChange{Method: "box", Density: 0.25, Material: ""})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = profiles.Parse("p.yaml", text); err != nil || p.Rules[0].Mass.Density != 0.25 || p.Rules[0].Motion != "" {
		t.Errorf("a fractional density replacing the rule: %+v, %v", p.Rules[0], err)
	}
	text, err = withRule(nil, "p.yaml", "props/crate.glb", reviewChange{Method: "box", Material: "steel", Motion: "static"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = profiles.Parse("p.yaml", text); err != nil || p.Rules[0].Mass.Material != "steel" || p.Rules[0].Motion != "static" {
		t.Errorf("material steel, motion static: %+v, %v", p.Rules[0], err)
	}
	for _, c := range []struct {
		ch   reviewChange
		want string
	}{
		{reviewChange{Method: "box", Density: -3}, "rules[0].mass.density: -3 is outside"},
		{reviewChange{Method: "box", Density: 5, Material: "oak"}, "not both"},
		{reviewChange{Method: "box", Material: "stel"}, `unknown material "stel"`},
		{reviewChange{Method: "box", Motion: "flying"}, `rules[0].motion: "flying" is not one of`},
	} {
		if _, err := withRule(nil, "p.yaml", "a.glb", c.ch); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.ch, err, c.want)
		}
	}
}

// TestWithRuleBudget: Keep writes the budget under its current key,
// maxColliders, not the older maxHulls, and the profile reads it back.
func TestWithRuleBudget(t *testing.T) {
	text, err := withRule(nil, "p.yaml", "props/chair.glb", reviewChange{Method: "decompose", MaxColliders: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(text); !strings.Contains(s, "maxColliders: 4") || strings.Contains(s, "maxHulls") {
		t.Errorf("rule:\n%s", s)
	}
	p, err := profiles.Parse("p.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 1 || p.Rules[0].Set.MaxColliders != 4 {
		t.Errorf("rules %+v", p.Rules)
	}
}
