package main

import (
	"bytes"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pagePictures returns the files an HTML report's pictures name, by their
// relative URLs resolved against the page's folder; it fails the test for
// a picture that is not a relative file URL or whose file is missing.
func pagePictures(t *testing.T, page string) []string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, m := range regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(string(data), -1) {
		src := html.UnescapeString(m[1])
		rel, err := url.PathUnescape(strings.TrimPrefix(src, "./"))
		if err != nil || !strings.HasPrefix(src, "./") {
			t.Errorf("picture %q: want a relative file URL", src)
			continue
		}
		f := filepath.Join(filepath.Dir(page), filepath.FromSlash(rel))
		if _, err := os.Stat(f); err != nil {
			t.Errorf("picture %q: %v", src, err)
		}
		files = append(files, f)
	}
	return files
}

// TestHTMLReportPicturesBeside: without --preview-dir, an HTML report's
// pictures are the previews written beside it (REPORT-previews/, at the
// inputs' relative paths), each named by the page relative to itself, the
// same PNG --preview-dir writes; none is embedded. A dry run writes no
// pictures; and the folder beside the report is checked as any preview
// folder: a run whose picture would replace an input's texture is refused
// before anything is written.
func TestHTMLReportPicturesBeside(t *testing.T) {
	root := batchTree(t, nil)
	work := t.TempDir()
	out, page := filepath.Join(work, "out"), filepath.Join(work, "site", "report.html")
	if code, _, stderr := runCLI("generate", root, "--out-dir", out, "--method", "aabb", "--report", page, "-q"); code != 1 {
		t.Fatalf("exit %d (want 1: one broken file)\n%s", code, stderr)
	}
	pics := pagePictures(t, page)
	want := []string{"props/Box.png", "props/animals/Duck.png", "textured/BoxTextured.png"}
	if len(pics) != len(want) {
		t.Fatalf("pictures %q, want %d", pics, len(want))
	}
	if data, _ := os.ReadFile(page); bytes.Contains(data, []byte("data:image/png")) {
		t.Error("a picture is embedded in the page")
	}
	p := filepath.Join(work, "p")
	if code, _, stderr := runCLI("generate", root, "--out-dir", filepath.Join(work, "out2"), "--method", "aabb", "--preview-dir", p, "-q"); code != 1 {
		t.Fatalf("--preview-dir run: exit %d\n%s", code, stderr)
	}
	for i, w := range want {
		if pics[i] != filepath.Join(work, "site", "report-previews", filepath.FromSlash(w)) {
			t.Errorf("picture %d is %s, want report-previews/%s", i, pics[i], w)
			continue
		}
		a, err1 := os.ReadFile(pics[i])
		b, err2 := os.ReadFile(filepath.Join(p, filepath.FromSlash(w)))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from --preview-dir's %s (%v, %v)", pics[i], w, err1, err2)
		}
	}

	dry := filepath.Join(work, "dry", "report.html")
	if code, _, stderr := runCLI("generate", root, "--out-dir", out, "--dry-run", "--report", dry, "-q"); code > 1 {
		t.Fatalf("dry run: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "dry", "report-previews")); !os.IsNotExist(err) {
		t.Errorf("a dry run made the pictures' folder (%v)", err)
	}

	// An input whose texture sits where Box's picture would go.
	gltf := `{"asset":{"version":"2.0"},"images":[{"uri":"report-previews/Box.png"}]}`
	tree := t.TempDir()
	os.WriteFile(filepath.Join(tree, "Box.gltf"), []byte(gltf), 0o644)
	os.MkdirAll(filepath.Join(tree, "report-previews"), 0o755)
	texture := filepath.Join(tree, "report-previews", "Box.png")
	os.WriteFile(texture, []byte("texture"), 0o644)
	code, _, stderr := runCLI("generate", tree, "--out-dir", filepath.Join(work, "out3"), "--report", filepath.Join(tree, "report.html"))
	if code != exitUsage || !strings.Contains(stderr, texture) {
		t.Errorf("picture over an input's texture: exit %d %q, want %d naming %s", code, stderr, exitUsage, texture)
	}
	if data, _ := os.ReadFile(texture); string(data) != "texture" {
		t.Error("the texture was overwritten")
	}
}
