package batch

import (
	"fmt"
	"path"
	"strings"
)

// Match reports whether the slash-separated relative path name matches
// pattern. A pattern is split at "/" and each segment is matched with
// path.Match, except the segment "**", which matches zero or more whole
// segments. A pattern without "/" matches the base name at any depth
// ("*.glb" is the same as "**/*.glb").
//
// Matching runs the pattern as a nondeterministic automaton over the
// name's segments: the set of pattern positions reachable so far is
// advanced one name segment at a time, so a pattern of p segments costs
// at most p path.Match calls per name segment, however many "**" it
// holds (backtracking would be exponential in their number).
func Match(pattern, name string) (bool, error) {
	ok, _, err := matchSegs(splitPattern(pattern), strings.Split(name, "/"))
	return ok, err
}

func splitPattern(pattern string) []string {
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	return strings.Split(pattern, "/")
}

// matchSegs matches name's segments against pat's and also returns how
// many segment comparisons (path.Match calls) it made, which the tests
// bound.
func matchSegs(pat, name []string) (ok bool, steps int, err error) {
	// at[i]: pattern position i is reachable after the segments seen.
	at := make([]bool, len(pat)+1)
	next := make([]bool, len(pat)+1)
	at[0] = true
	closeStars(pat, at)
	for _, seg := range name {
		clear(next)
		alive := false
		for i, on := range at[:len(pat)] {
			if !on {
				continue
			}
			if pat[i] == "**" {
				next[i] = true // "**" takes this segment and stays
				alive = true
				continue
			}
			steps++
			m, err := path.Match(pat[i], seg)
			if err != nil {
				return false, steps, fmt.Errorf("pattern segment %q: %w", pat[i], err)
			}
			if m {
				next[i+1] = true
				alive = true
			}
		}
		if !alive {
			return false, steps, nil
		}
		closeStars(pat, next)
		at, next = next, at
	}
	return at[len(pat)], steps, nil
}

// closeStars adds the positions reachable without taking a segment: past
// each reachable "**" (which may match none).
func closeStars(pat []string, at []bool) {
	for i, p := range pat {
		if at[i] && p == "**" {
			at[i+1] = true
		}
	}
}

// CheckPattern reports a malformed pattern.
func CheckPattern(pattern string) error {
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("pattern %q: %w", pattern, err)
		}
	}
	return nil
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := Match(p, name); ok {
			return true
		}
	}
	return false
}
