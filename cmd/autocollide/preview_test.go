package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreview: generate then preview writes a PNG of the requested size;
// the default output goes next to the input; bad flags are usage errors
// and a missing input a failure naming the file, neither writing a PNG.
func TestPreview(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "furniture.glb")
	if code, _, stderr := runCLI("generate", example(t), "-o", gen); code != 0 {
		t.Fatalf("generate: %d %s", code, stderr)
	}
	out := filepath.Join(dir, "pic.png")
	code, stdout, stderr := runCLI("preview", gen, "-o", out, "--width", "600", "--height", "250")
	if code != 0 || !strings.Contains(stdout, out) {
		t.Fatalf("preview: %d %q %q", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != 600 || cfg.Height != 250 {
		t.Fatalf("PNG %+v %v, want 600×250", cfg, err)
	}
	if code, _, stderr := runCLI("preview", gen); code != 0 {
		t.Fatalf("default output: %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "furniture.preview.png")); err != nil {
		t.Errorf("default output: %v", err)
	}

	bad := filepath.Join(dir, "bad.png")
	for _, args := range [][]string{
		{"preview", gen, "-o", bad, "--width", "10"},
		{"preview", gen, "-o", filepath.Join(dir, "pic.jpg")},
		{"preview"},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d %q, want 2 with a message", args, code, stderr)
		}
	}
	missing := filepath.Join(dir, "nope.glb")
	code, _, stderr = runCLI("preview", missing, "-o", bad)
	if code != exitFailed || !strings.Contains(stderr, missing) {
		t.Errorf("missing input: exit %d %q, want 1 naming the file", code, stderr)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed preview wrote its output")
	}
}
