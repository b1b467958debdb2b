package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPreviewDir: --preview-dir writes one PNG per written output at the
// input's relative path (none for the broken file, which still fails
// alone), the same bytes at -j 1 and -j 2; a cached run draws the PNGs
// that are missing and keeps the others; --check and --dry-run refuse it.
func TestPreviewDir(t *testing.T) {
	root := batchTree(t, nil)
	work := t.TempDir()
	out, p1, p2 := filepath.Join(work, "out"), filepath.Join(work, "p1"), filepath.Join(work, "p2")
	code, _, stderr := runCLI("generate", root, "--out-dir", out, "--method", "aabb", "--preview-dir", p1, "-j", "1", "-q", "--report", filepath.Join(work, "r.json"))
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "truncated.glb") {
		t.Fatalf("exit %d, want 1 with one line for the broken file; stderr:\n%s", code, stderr)
	}
	want := []string{"props/Box.png", "props/animals/Duck.png", "textured/BoxTextured.png"}
	rep, _ := readReport(t, filepath.Join(work, "r.json")) // against the schema
	for _, a := range rep.Assets {
		if a.Status == "failed" && a.Preview != "" || a.Status == "ok" && !strings.HasPrefix(a.Preview, p1) {
			t.Errorf("%s (%s): report gives preview %q", a.Input, a.Status, a.Preview)
		}
	}
	got := treeFiles(t, p1)
	if len(got) != len(want) {
		t.Errorf("previews %v, want %v", keys(got), want)
	}
	for _, rel := range want {
		data, ok := got[rel]
		if !ok {
			t.Errorf("no preview %s", rel)
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if b := img.Bounds(); b.Dx() < 480 || b.Dy() < 200 {
			t.Errorf("%s is %v", rel, b)
		}
	}

	// -j 2 and --force: the same pictures, byte for byte.
	if code, _, stderr := runCLI("generate", root, "--out-dir", out, "--method", "aabb", "--preview-dir", p2, "-j", "2", "--force", "-q"); code != 1 {
		t.Fatalf("-j 2: exit %d %s", code, stderr)
	}
	if !sameTree(got, treeFiles(t, p2)) {
		t.Error("previews differ between -j 1 and -j 2")
	}

	// Cached outputs: a missing PNG is drawn again, one newer than its
	// output is left alone (p2's, not p1's: --force rewrote the outputs).
	old := time.Now().Add(-time.Hour)
	duck := filepath.Join(p2, "props", "animals", "Duck.png")
	box := filepath.Join(p2, "props", "Box.png")
	os.Remove(duck)
	boxInfo, _ := os.Stat(box)
	page := filepath.Join(work, "cached.html")
	code, stdout, stderr := runCLI("generate", root, "--out-dir", out, "--method", "aabb", "--preview-dir", p2, "--report", page)
	if code != 1 || !strings.Contains(stdout, "3 cached") {
		t.Fatalf("cached run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Cached assets still get their pictures on the page: the PNGs kept
	// or drawn.
	if pics := pagePictures(t, page); len(pics) != 3 {
		t.Errorf("the page of a cached run shows %d pictures %q, want 3 of %s", len(pics), pics, p2)
	}
	if data, err := os.ReadFile(duck); err != nil || !bytes.Equal(data, got["props/animals/Duck.png"]) {
		t.Errorf("the missing preview of a cached output was not drawn again (%v)", err)
	}
	if st, _ := os.Stat(box); !st.ModTime().Equal(boxInfo.ModTime()) {
		t.Error("an up-to-date preview of a cached output was rewritten")
	}
	// A PNG older than its output is stale: drawn again.
	os.WriteFile(box, []byte("stale"), 0o644)
	os.Chtimes(box, old, old)
	if code, _, _ := runCLI("generate", root, "--out-dir", out, "--method", "aabb", "--preview-dir", p2, "-q"); code != 1 {
		t.Fatalf("third run: exit %d", code)
	}
	if data, _ := os.ReadFile(box); !bytes.Equal(data, got["props/Box.png"]) {
		t.Error("a preview older than its output was kept")
	}

	for _, mode := range []string{"--check", "--dry-run"} {
		if code, _, stderr := runCLI("generate", root, "--out-dir", out, mode, "--preview-dir", p1); code != exitUsage || !strings.Contains(stderr, "--preview-dir") {
			t.Errorf("%s --preview-dir: exit %d %q, want a usage error", mode, code, stderr)
		}
	}
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
