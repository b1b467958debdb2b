package houserules

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the most lines a product (non-test) Go file may have: past
// it a file is split by concern.
const maxLines = 600

// oneAlgorithm lists the product files allowed past maxLines, relative to
// the module root with slashes: one algorithm each, which splitting would
// scatter.
var oneAlgorithm = map[string]bool{
	"hull/collapse.go": true,
}

// moduleRoot returns the directory holding go.mod, above the working one.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// oversize returns the product Go files under root with more than limit
// lines (as wc -l counts them), relative to root, but those in allowed.
// It skips what the go tool skips (directories named testdata or starting
// with . or _) and node_modules.
func oversize(root string, limit int, allowed map[string]bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if allowed[rel] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte{'\n'}); n > limit {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// TestProductFilesAtMost600Lines: no product Go file but the listed
// one-algorithm files has more than maxLines lines.
func TestProductFilesAtMost600Lines(t *testing.T) {
	root := moduleRoot(t)
	big, err := oversize(root, maxLines, oneAlgorithm)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range big {
		t.Errorf("%s has more than %d lines: split it by concern", f, maxLines)
	}
	for f := range oneAlgorithm {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
			t.Errorf("oneAlgorithm lists %s, which is gone: drop it from the list", f)
		}
	}
}

// TestOversizeFindsLongFiles checks the walk itself on a made-up tree: a
// file one line past the limit is found, one at it is not, nor test files,
// allowed files, or files in testdata and _ directories.
func TestOversizeFindsLongFiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, lines int) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("//\n", lines)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/long.go", 11)
	write("a/ok.go", 10)
	write("a/long_test.go", 50)
	write("b/allowed.go", 50)
	write("a/testdata/x.go", 50)
	write("_tool/x.go", 50)
	write("c/deep/long.go", 12)
	got, err := oversize(root, 10, map[string]bool{"b/allowed.go": true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/long.go", "c/deep/long.go"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("oversize = %v, want %v", got, want)
	}
}
