package main

import (
	"strings"
	"testing"
)

// TestValidateHullVerticesChecked (issue 41, defect 12): validate reads
// --max-hull-vertices through the check generate applies, so a cap no
// hull can meet is a usage error (exit 2) naming the flag in both
// commands, and the smallest valid cap is accepted by both.
func TestValidateHullVerticesChecked(t *testing.T) {
	in := example(t)
	for _, n := range []string{"-1", "0", "3"} {
		code, _, stderr := runCLI("validate", "--max-hull-vertices", n, in)
		if code != exitUsage || !strings.Contains(stderr, "max-hull-vertices "+n) || !strings.Contains(stderr, "at least 4") {
			t.Errorf("validate --max-hull-vertices %s: exit %d %q, want %d naming the flag and the minimum", n, code, stderr, exitUsage)
		}
		code, _, stderr = runCLI("generate", in, "--dry-run", "--max-hull-vertices", n)
		if code != exitUsage || !strings.Contains(stderr, "at least 4") {
			t.Errorf("generate --max-hull-vertices %s: exit %d %q, want %d", n, code, stderr, exitUsage)
		}
	}
	if code, _, stderr := runCLI("validate", "--max-hull-vertices", "4", in); code != exitOK {
		t.Errorf("validate --max-hull-vertices 4: exit %d %q, want 0", code, stderr)
	}
}
