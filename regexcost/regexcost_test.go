package regexcost

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestProgram: the counted program is the one regexp compiles (parsed
// with Perl flags, simplified), so the charge is the real bound.
func TestProgram(t *testing.T) {
	for _, expr := range []string{`a`, `^Wheel[0-9]{1,3}$`, `[ab]{1000}c`, `(?i)wheel|tire|rim`, `x{2,5}y*`} {
		m, err := New(regexp.MustCompile(expr))
		if err != nil {
			t.Fatal(err)
		}
		parsed, _ := syntax.Parse(expr, syntax.Perl)
		prog, _ := syntax.Compile(parsed.Simplify())
		if m.Program() != len(prog.Inst) || m.Program() < len(expr)/4 {
			t.Errorf("%s: program %d, want %d", expr, m.Program(), len(prog.Inst))
		}
	}
}

// TestMatchCost: a match within MaxCost answers as regexp does; one over
// it is refused with a *CostError carrying the sizes, without matching.
func TestMatchCost(t *testing.T) {
	re := regexp.MustCompile(`[ab]{1000}c`)
	m, err := New(re)
	if err != nil {
		t.Fatal(err)
	}
	limit := MaxCost / m.Program() // the longest name within the cost
	for _, s := range []string{"", strings.Repeat("a", 1000) + "c", strings.Repeat("ab", limit/2), strings.Repeat("b", limit-1) + "c"} {
		got, err := m.MatchString(s)
		if err != nil || got != re.MatchString(s) {
			t.Errorf("%d bytes: %v, %v; want %v", len(s), got, err, re.MatchString(s))
		}
	}
	_, err = m.MatchString(strings.Repeat("a", limit+1))
	var ce *CostError
	if !errors.As(err, &ce) || ce.Program != m.Program() || ce.Length != limit+1 || !strings.Contains(err.Error(), "over the limit of 10000000") {
		t.Errorf("over the cost: %v", err)
	}
}
