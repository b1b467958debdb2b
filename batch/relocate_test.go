package batch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCacheRelocatable: runs of the same inputs into two different
// folders leave byte-identical cache files, and an output folder moved
// elsewhere is served from its cache instead of being redone.
func TestCacheRelocatable(t *testing.T) {
	root := tree(t)
	base := t.TempDir()
	a, b := filepath.Join(base, "a", "build"), filepath.Join(base, "b", "deeper", "build")
	run(t, plan(t, root, a, Shard{}), Options{Workers: 2})
	run(t, plan(t, root, b, Shard{}), Options{Workers: 1})
	caches := 0
	filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Name() != CacheFileName {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		ca, _ := os.ReadFile(p)
		cb, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			t.Errorf("%s: only in the first output folder: %v", rel, err)
		}
		if !bytes.Equal(ca, cb) {
			t.Errorf("%s differs between two output folders:\n%s\n---\n%s", rel, ca, cb)
		}
		for _, dir := range [][]byte{[]byte(root), []byte(a), []byte(b)} {
			if bytes.Contains(ca, dir) {
				t.Errorf("%s records the path %s", rel, dir)
			}
		}
		caches++
		return nil
	})
	if caches < 3 {
		t.Fatalf("%d cache files in %s, want one per output folder (≥ 3)", caches, a)
	}

	moved := filepath.Join(base, "moved", "build")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	if err := os.Rename(a, moved); err != nil {
		t.Fatal(err)
	}
	for _, as := range run(t, plan(t, root, moved, Shard{}), Options{Workers: 2}) {
		if as.Status != Cached && as.Status != Failed {
			t.Errorf("%s after moving the output folder: %s, want cached", as.Input, as.Status)
		}
		if as.Status == Cached && (as.Input == "" || filepath.Dir(as.Output) == "." || !bytes.HasPrefix([]byte(as.Output), []byte(moved))) {
			t.Errorf("a cached asset reports input %q, output %q", as.Input, as.Output)
		}
	}
}
