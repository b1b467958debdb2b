// Package regexcost bounds the cost of matching a regular expression
// against a string that comes from an input (a node's name).
//
// Go's regexp (RE2) matches in time linear in the input, but the factor
// is the size of the compiled program: its backtracker and its NFA step
// through at most every instruction at every byte, so one match costs at
// most program × length steps. A profile's pattern of a thousand
// instructions against a 1 MB node name is a billion steps, about 15-30
// seconds, and one match cannot be interrupted. A Matcher charges that
// product before it matches and refuses a match over MaxCost, so that a
// caller checking its deadline between matches is never blocked for
// long.
package regexcost

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// MaxCost bounds one match: program instructions × bytes matched. Ten
// million steps take 0.1-0.3 s; a name pattern of tens of instructions
// still matches names of hundreds of kilobytes, and the largest program
// a profile accepts (5,000 instructions) names of 2,000 bytes.
const MaxCost = 10_000_000

// Matcher is a compiled regular expression and the size of its program.
type Matcher struct {
	re   *regexp.Regexp
	prog int
}

// New returns re's Matcher. It compiles re's source again to count the
// instructions of its program (regexp keeps them private): call it once
// per expression, not per match.
func New(re *regexp.Regexp) (*Matcher, error) {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %w", re.String(), err)
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %w", re.String(), err)
	}
	return &Matcher{re: re, prog: len(prog.Inst)}, nil
}

// Program is the number of instructions of the compiled program.
func (m *Matcher) Program() int { return m.prog }

// Regexp is the expression matched.
func (m *Matcher) Regexp() *regexp.Regexp { return m.re }

// CostError is a match refused for its cost.
type CostError struct {
	Program, Length int
}

func (e *CostError) Error() string {
	return fmt.Sprintf("matching a regular expression of %d instructions against %d bytes would take up to %d steps, over the limit of %d (a shorter name or a simpler expression)",
		e.Program, e.Length, int64(e.Program)*int64(e.Length), MaxCost)
}

// MatchString reports whether s contains a match, or a *CostError
// without matching when program × len(s) is over MaxCost.
func (m *Matcher) MatchString(s string) (bool, error) {
	if int64(m.prog)*int64(len(s)) > MaxCost {
		return false, &CostError{Program: m.prog, Length: len(s)}
	}
	return m.re.MatchString(s), nil
}
