package profiles

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/autocollide/autocollide/generate"
)

// TestRegexBudget (issue 41, defect 7): a profile's regular expressions
// are refused, naming the rule's key, when one compiles to a large
// program or all of them together do, YAML aliases counted at each use,
// before anything large is allocated (before: 1,000 rules of a{1000}
// repeats took 1.5 GB; 60 KB of aliases did the same).
func TestRegexBudget(t *testing.T) {
	big := strings.Repeat("a{1000}", 8) // 8,000 instructions
	var many strings.Builder
	many.WriteString("rules:\n")
	for i := range 120 {
		fmt.Fprintf(&many, "  - match: {nameRegex: %q}\n    method: box\n", fmt.Sprintf("x%d{1000}", i))
	}
	// One 4,000-instruction expression under an anchor, used by 40 rules
	// through aliases: 60 KB of programs from a 1 kB file.
	var aliased strings.Builder
	aliased.WriteString("rules:\n  - match: {nameRegex: &r \"b{1000}c{1000}d{1000}e{999}\"}\n    method: box\n")
	for range 39 {
		aliased.WriteString("  - match: {nameRegex: *r}\n    method: hull\n")
	}
	cases := []struct{ name, yaml, want string }{
		{"one large expression", "rules:\n  - match: {nameRegex: \"" + big + "\"}\n    method: box\n",
			"rules[0].match.nameRegex: regular expression \"a{1000}"},
		{"120 expressions of 1,000", many.String(), "over 100000 instructions in all"},
		{"one expression through 40 aliases", aliased.String(), "over 100000 instructions in all"},
		{"a large body pattern", "bodies: {per: pattern, pattern: \"" + big + "\"}\n", "bodies.pattern: regular expression"},
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse("p.yaml", []byte(c.yaml))
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
			t.Errorf("%s: %d MB allocated before the refusal", c.name, a>>20)
		}
	}
	// Within the budgets: accepted, and it matches.
	p, err := Parse("p.yaml", []byte("rules:\n  - match: {nameRegex: \"^Wheel[0-9]{1,3}$\"}\n    method: cylinder\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := p.Rules[0].Match.nameRe.MatchString("Wheel12"); !ok || err != nil {
		t.Error("a small expression within the budget does not match")
	}
}

// TestRuleMatchCost (issue 41, defect 7): rules are matched under the
// deadline (checked before each rule) and a nameRegex whose match would
// cost over regexcost.MaxCost fails with the rule's name and the node,
// without matching (before: 32 s for [ab]{1000}c against a 1 MB name).
func TestRuleMatchCost(t *testing.T) {
	p, err := Parse("p.yaml", []byte("rules:\n  - name: small\n    match: {name: \"Wheel*\"}\n    method: cylinder\n  - match: {nameRegex: \"[ab]{1000}c\"}\n    method: box\n"))
	if err != nil {
		t.Fatal(err)
	}
	opt, err := p.Options()
	if err != nil {
		t.Fatal(err)
	}
	long := generate.NodeInfo{Node: 7, Name: strings.Repeat("ab", 1<<19)}
	start := time.Now()
	_, ok, err := opt.Rules(context.Background(), long)
	if took := time.Since(start); ok || err == nil || took > 2*time.Second ||
		!strings.Contains(err.Error(), `rule "p.yaml rule 2": nameRegex "[ab]{1000}c": nodes[7] (a name of 1048576 bytes)`) {
		t.Errorf("long name: %v, %v after %v", ok, err, took)
	}
	// The first rule matches first: the costly one is never asked.
	if s, ok, err := opt.Rules(context.Background(), generate.NodeInfo{Name: "Wheel" + long.Name}); !ok || err != nil || s.Rule != "small" {
		t.Errorf("an earlier rule: %+v, %v, %v", s, ok, err)
	}
	// Within the cost it matches.
	if s, ok, err := opt.Rules(context.Background(), generate.NodeInfo{Name: strings.Repeat("a", 1000) + "c"}); !ok || err != nil || s.Method != generate.Box {
		t.Errorf("within the cost: %+v, %v, %v", s, ok, err)
	}
	// Past the deadline, no rule is matched.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok, err := opt.Rules(ctx, generate.NodeInfo{Name: "Wheel1"}); ok || !errors.Is(err, context.Canceled) {
		t.Errorf("past the deadline: %v, %v", ok, err)
	}
}
