package profiles

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a profile document, at a position.
type Error struct {
	File         string
	Line, Column int // 1-based; 0 when unknown
	Msg          string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// doc walks one profile document's YAML nodes. Every read checks the
// node's kind and type, so each error names the exact key or value.
type doc struct {
	file      string
	regexUsed *int // the profile's regular expression budget spent (regexbudget.go)
}

func (d doc) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: d.file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// where names a node's position, for errors found after decoding.
func (d doc) where(n *yaml.Node) string {
	return fmt.Sprintf("%s:%d:%d", d.file, n.Line, n.Column)
}

// entry is one key of a mapping and its value.
type entry struct {
	key   string
	k, v  *yaml.Node
	field string // the dotted path of the key, for messages
}

// mapping returns n's keys in document order, refusing duplicates and
// keys outside known (with the closest known key as a suggestion).
func (d doc) mapping(n *yaml.Node, section string, known []string) ([]entry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, "%s: want a mapping of keys (%s), got %s", orTop(section), strings.Join(known, ", "), kindName(n))
	}
	var out []entry
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errf(k, "%s: a key must be a plain word", orTop(section))
		}
		field := k.Value
		if section != "" {
			field = section + "." + k.Value
		}
		if !contains(known, k.Value) {
			return nil, d.errf(k, "unknown key %s%s%s", Excerpt(field), inSection(section), suggest(k.Value, known))
		}
		if seen[k.Value] {
			return nil, d.errf(k, "%s: key given twice", field)
		}
		seen[k.Value] = true
		out = append(out, entry{k.Value, k, v, field})
	}
	return out, nil
}

func orTop(section string) string {
	if section == "" {
		return "profile"
	}
	return section
}

func inSection(section string) string {
	if section == "" {
		return ""
	}
	return " in " + section
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return Excerpt(n.Value)
}

// excerptRunes bounds the text of a value an error quotes.
const excerptRunes = 40

// Excerpt quotes s for an error message, escaped and cut to a few dozen
// characters: an error shows where a value is wrong and a hint of it,
// never a long run of a file's contents.
func Excerpt(s string) string {
	if r := []rune(s); len(r) > excerptRunes {
		return strconv.Quote(string(r[:excerptRunes])) + "…"
	}
	return strconv.Quote(s)
}

func (d doc) scalar(e entry, what string) (*yaml.Node, error) {
	v := e.v
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return nil, d.errf(e.v, "%s: want %s, got %s", e.field, what, kindName(e.v))
	}
	return v, nil
}

func (d doc) str(e entry) (string, error) {
	v, err := d.scalar(e, "a string")
	if err != nil {
		return "", err
	}
	return v.Value, nil
}

// enum reads a string that must be one of allowed.
func (d doc) enum(e entry, allowed ...string) (string, error) {
	s, err := d.str(e)
	if err != nil {
		return "", err
	}
	if !contains(allowed, s) {
		return "", d.errf(e.v, "%s: %s is not one of %s%s", e.field, Excerpt(s), strings.Join(allowed, ", "), typo(s, allowed))
	}
	return s, nil
}

func (d doc) boolean(e entry) (bool, error) {
	v, err := d.scalar(e, "true or false")
	if err != nil {
		return false, err
	}
	if v.Tag != "!!bool" {
		return false, d.errf(v, "%s: want true or false, got %s", e.field, Excerpt(v.Value))
	}
	return v.Value == "true" || v.Value == "True" || v.Value == "TRUE", nil
}

// integer reads a whole number of at least min.
func (d doc) integer(e entry, min int) (int, error) {
	v, err := d.scalar(e, "a whole number")
	if err != nil {
		return 0, err
	}
	n, perr := strconv.Atoi(v.Value)
	if v.Tag != "!!int" || perr != nil {
		return 0, d.errf(v, "%s: want a whole number, got %s", e.field, Excerpt(v.Value))
	}
	if n < min {
		return 0, d.errf(v, "%s: %d is below %d", e.field, n, min)
	}
	return n, nil
}

// number reads a finite number in [min, max].
func (d doc) number(e entry, min, max float64) (float64, error) {
	v, err := d.scalar(e, "a number")
	if err != nil {
		return 0, err
	}
	f, perr := strconv.ParseFloat(v.Value, 64)
	if (v.Tag != "!!int" && v.Tag != "!!float") || perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, d.errf(v, "%s: want a number, got %s", e.field, Excerpt(v.Value))
	}
	if f < min || f > max {
		return 0, d.errf(v, "%s: %v is outside [%v, %v]", e.field, f, min, fmtBound(max))
	}
	return f, nil
}

func fmtBound(f float64) string {
	if math.IsInf(f, 1) {
		return "∞"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// strs reads a non-empty list of non-empty strings (a single string is
// taken as a list of one).
func (d doc) strs(e entry) ([]string, error) {
	if e.v.Kind == yaml.ScalarNode && e.v.Tag == "!!str" && e.v.Value != "" {
		return []string{e.v.Value}, nil
	}
	if e.v.Kind != yaml.SequenceNode || len(e.v.Content) == 0 {
		return nil, d.errf(e.v, "%s: want a list of names, got %s", e.field, kindName(e.v))
	}
	var out []string
	for _, c := range e.v.Content {
		if c.Kind != yaml.ScalarNode || c.Tag != "!!str" || c.Value == "" {
			return nil, d.errf(c, "%s: want a name, got %s", e.field, kindName(c))
		}
		out = append(out, c.Value)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Suggest returns " (did you mean X?)" for the known word closest to s
// when one is close enough to be a likely typo, else " (known: ...)".
func Suggest(s string, known []string) string { return suggest(s, known) }

func suggest(s string, known []string) string {
	if t := typo(s, known); t != "" {
		return t
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return fmt.Sprintf(" (known: %s)", strings.Join(sorted, ", "))
}

// typo returns " (did you mean X?)" for the known word closest to s when
// one is close enough to be a likely typo, else "": for messages that list
// the allowed words already.
func typo(s string, known []string) string {
	best, bestD := "", math.MaxInt
	for _, k := range known {
		d := distance(strings.ToLower(s), strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" && bestD <= max(2, len(s)/3) {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}

// distance is the Levenshtein edit distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
