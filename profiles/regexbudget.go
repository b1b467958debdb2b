package profiles

import (
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/autocollide/autocollide/regexcost"
)

// Budgets of a profile's regular expressions (nameRegex, bodies.pattern),
// measured in instructions of their compiled programs, estimated from the
// parsed expression before anything is compiled. RE2 matches in time
// linear in the name, but its memory and the time per name byte grow with
// the program: 1,000 rules of a{1000} repeats took 1.5 GB. Every use is
// counted, an expression reached through a YAML alias as often as it is
// reached, and the files a profile extends share its budget.
const (
	// MaxRegexProgram bounds one expression's program: a name pattern
	// needs tens.
	MaxRegexProgram = 5_000
	// MaxRegexPrograms bounds the programs of a profile and the files
	// it extends together.
	MaxRegexPrograms = 100_000
)

// regex compiles a regular expression within the budgets, placing a
// syntax error or a budget's refusal at the value.
func (d doc) regex(e entry) (*regexp.Regexp, string, error) {
	s, err := d.str(e)
	if err != nil {
		return nil, "", err
	}
	parsed, err := syntax.Parse(s, syntax.Perl)
	if err != nil {
		return nil, "", d.errf(e.v, "%s: bad regular expression %s: %v", e.field, Excerpt(s), strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	size := programSize(parsed)
	if size > MaxRegexProgram {
		return nil, "", d.errf(e.v, "%s: regular expression %s compiles to more than %d instructions, over the limit of %d for one expression", e.field, Excerpt(s), MaxRegexProgram, MaxRegexProgram)
	}
	if *d.regexUsed += size; *d.regexUsed > MaxRegexPrograms {
		return nil, "", d.errf(e.v, "%s: the profile's regular expressions (YAML aliases counted at each use, extended files included) compile to over %d instructions in all, the limit", e.field, MaxRegexPrograms)
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, "", d.errf(e.v, "%s: bad regular expression %s: %v", e.field, Excerpt(s), strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, s, nil
}

// matcher is regex's expression with the size of its program, which
// bounds what matching it costs (regexcost).
func (d doc) matcher(e entry) (*regexcost.Matcher, string, error) {
	re, s, err := d.regex(e)
	if err != nil {
		return nil, "", err
	}
	m, err := regexcost.New(re)
	if err != nil {
		return nil, "", d.errf(e.v, "%s: %v", e.field, err)
	}
	return m, s, nil
}

// programSize estimates the instructions of re's compiled program from
// above (repeats multiply their operand), saturating past
// MaxRegexProgram so that nested repeats cannot overflow.
func programSize(re *syntax.Regexp) int {
	const over = MaxRegexProgram + 1
	sum := func(subs []*syntax.Regexp) int {
		n := 0
		for _, s := range subs {
			n = min(over, n+programSize(s))
		}
		return n
	}
	switch re.Op {
	case syntax.OpLiteral:
		return min(over, max(len(re.Rune), 1))
	case syntax.OpCapture:
		return min(over, programSize(re.Sub[0])+2)
	case syntax.OpConcat:
		return sum(re.Sub)
	case syntax.OpAlternate:
		return min(over, sum(re.Sub)+len(re.Sub))
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return min(over, programSize(re.Sub[0])+1)
	case syntax.OpRepeat:
		n := re.Max
		if n < 0 {
			n = re.Min + 1
		}
		return min(over, max(n, 1)*programSize(re.Sub[0]))
	}
	return 1 + sum(re.Sub)
}
