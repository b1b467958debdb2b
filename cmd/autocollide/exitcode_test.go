package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestPanicIsInternalNotUsage: a command that panics exits 3 with a
// one-line message, never 2 (which says the command line was wrong).
func TestPanicIsInternalNotUsage(t *testing.T) {
	root := newRoot(&bytes.Buffer{}, &bytes.Buffer{})
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		var m map[string]int
		m["x"]++ // a nil map write: a real runtime panic
		return nil
	}})
	root.SetArgs([]string{"boom"})
	var stderr bytes.Buffer
	if code := execute(root, &stderr); code != exitInternal {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInternal, stderr.String())
	}
	if !strings.Contains(stderr.String(), "internal error") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr %q: want one line saying internal error", stderr.String())
	}
}
