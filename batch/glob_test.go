package batch

import (
	"strings"
	"testing"
)

// TestMatchManyStars is issue 27's pathological include: twelve "**/a/"
// segments against a path forty folders deep. Backtracking tries
// C(40,12) ≈ 5.6e9 splits; the automaton compares each pattern segment
// with each name segment at most once.
func TestMatchManyStars(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{strings.Repeat("**/a/", 12) + "b.glb", strings.Repeat("a/", 40) + "c.glb", false},
		{strings.Repeat("**/a/", 12) + "b.glb", strings.Repeat("a/", 40) + "b.glb", true},
		{strings.Repeat("**/a/", 12) + "**", strings.Repeat("a/", 11) + "c.glb", false},
		{strings.Repeat("**/a/", 12) + "**", strings.Repeat("x/a/", 12) + "c.glb", true},
		{strings.Repeat("**/", 50) + "*.glb", strings.Repeat("a/", 200) + "c.glb", true},
	} {
		pat, name := splitPattern(c.pattern), strings.Split(c.name, "/")
		got, steps, err := matchSegs(pat, name)
		if err != nil || got != c.want {
			t.Errorf("Match(%q, %q) = %v, %v; want %v", c.pattern, c.name, got, err, c.want)
		}
		if bound := len(pat) * len(name); steps > bound {
			t.Errorf("Match(%q, %q): %d segment comparisons, over the bound %d (pattern × name segments)", c.pattern, c.name, steps, bound)
		}
	}
}

// TestMatchError: a malformed segment is an error when it is reached.
func TestMatchError(t *testing.T) {
	if _, err := Match("**/[a-/x.glb", "a/b/x.glb"); err == nil {
		t.Error("a malformed segment was not reported")
	}
}
