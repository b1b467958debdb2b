package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBalancedShards: the balanced shards 1/3, 2/3 and 3/3 partition the
// files and together write what one run writes; an unknown mode is a
// usage error.
func TestBalancedShards(t *testing.T) {
	root := batchTree(t, nil)
	single := t.TempDir()
	runCLI("generate", root, "--out-dir", single, "--method", "aabb", "-q")
	out := t.TempDir()
	seen := map[string]int{}
	for _, k := range []string{"1/3", "2/3", "3/3"} {
		rj := filepath.Join(t.TempDir(), "r.json")
		runCLI("generate", root, "--out-dir", out, "--method", "aabb", "-q", "--shard", k, "--shard-mode", "balanced", "--report", rj)
		r, _ := readReport(t, rj)
		for _, a := range r.Assets {
			seen[a.Input]++
		}
	}
	if len(seen) != 4 {
		t.Errorf("balanced shards covered %d of 4 files: %v", len(seen), seen)
	}
	for in, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d balanced shards", in, n)
		}
	}
	if !sameTree(treeFiles(t, out), treeFiles(t, single)) {
		t.Error("the union of the balanced shards differs from a single run")
	}
	if code, _, stderr := runCLI("generate", root, "--out-dir", out, "--shard", "1/2", "--shard-mode", "size"); code != 2 || !strings.Contains(stderr, "hash or balanced") {
		t.Errorf("--shard-mode size: exit %d %q", code, stderr)
	}
}
