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
func Match(pattern, name string) (bool, error) {
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, name []string) (bool, error) {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true, nil
			}
			for i := 0; i <= len(name); i++ {
				if ok, err := matchSegs(pat[1:], name[i:]); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if len(name) == 0 {
			return false, nil
		}
		ok, err := path.Match(pat[0], name[0])
		if err != nil {
			return false, fmt.Errorf("pattern segment %q: %w", pat[0], err)
		}
		if !ok {
			return false, nil
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0, nil
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
