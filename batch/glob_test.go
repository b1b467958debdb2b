package batch

import (
	"path"
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

// backtrack is the former matcher (exponential in the number of "**"),
// kept as the reference the automaton must agree with.
func backtrack(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if backtrack(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// FuzzMatch: the automaton agrees with backtracking on every well-formed
// pattern (short ones, so that backtracking stays fast).
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"x/**/*.glb", "x/y/z/a.glb"}, {"**/wip/**", "a/wip/b/c.glb"}, {"a/**/b/**/c", "a/x/y/c"}, {"*.glb", "a.gltf"}, {"**/**/a", "a"}, {"?/**", "b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		pat := splitPattern(pattern)
		segs := strings.Split(name, "/")
		if len(pat) > 8 || len(segs) > 12 || CheckPattern(pattern) != nil {
			return
		}
		got, steps, err := matchSegs(pat, segs)
		if err != nil {
			return
		}
		if want := backtrack(pat, segs); got != want {
			t.Errorf("Match(%q, %q) = %v, backtracking says %v", pattern, name, got, want)
		}
		if steps > len(pat)*len(segs) {
			t.Errorf("Match(%q, %q): %d steps", pattern, name, steps)
		}
	})
}
