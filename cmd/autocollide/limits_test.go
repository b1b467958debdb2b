package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "512MB": 512e6, "512mib": 512 << 20, "2GiB": 2 << 30, "10 KB": 10e3, "7B": 7} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%q: %d %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-5MB", "1.5GB", "MB", "12XB", "99999999999TB"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("%q: accepted as %d", in, got)
		}
	}
	if got := formatSize(512 << 20); got != "512MiB" {
		t.Errorf("formatSize: %q", got)
	}
}

// TestLimitFlags: each limit refuses the example with one line naming the
// file and the limit, writes nothing, and a batch goes on past the failure.
func TestLimitFlags(t *testing.T) {
	in := example(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-file-size", "1KB"}, "over the limit of 1000"},
		{[]string{"--max-triangles", "10"}, "triangles counting every instance"},
		{[]string{"--timeout", "1ns"}, "not done within the time limit of 1ns (--timeout)"},
	} {
		out := filepath.Join(dir, "out.glb")
		code, _, stderr := runCLI(append([]string{"generate", in, "-o", out}, c.args...)...)
		line := strings.TrimSpace(stderr)
		if code != 1 || strings.Contains(line, "\n") || !strings.HasPrefix(line, in+": ") || !strings.Contains(line, c.want) {
			t.Errorf("%v: want exit 1 and one line naming the file with %q, got %d %q", c.args, c.want, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: output written", c.args)
		}
	}
	for _, args := range [][]string{{"--max-file-size", "lots"}, {"--max-triangles", "0"}, {"--timeout", "-1s"}} {
		if code, _, stderr := runCLI(append([]string{"generate", in, "-o", filepath.Join(dir, "x.glb")}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d %q, want a usage error", args, code, stderr)
		}
	}
	// A batch: the small file passes, the one over the limit fails, and
	// the run goes on past it.
	src := filepath.Join(dir, "in")
	os.MkdirAll(src, 0o755)
	data, _ := os.ReadFile(in)
	os.WriteFile(filepath.Join(src, "big.glb"), data, 0o644)
	tri := `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],` +
		`"buffers":[{"byteLength":48,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/"}],` +
		`"bufferViews":[{"buffer":0,"byteLength":48}],` +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}]}`
	os.WriteFile(filepath.Join(src, "small.gltf"), []byte(tri), 0o644)
	outDir := filepath.Join(dir, "batch")
	code, _, stderr := runCLI("generate", src, "--out-dir", outDir, "--max-file-size", "4KiB", "-q")
	if code != 1 || !strings.Contains(stderr, "big.glb: file is") {
		t.Errorf("batch: exit %d %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(outDir, "small.gltf")); err != nil {
		t.Errorf("batch stopped at the failure: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outDir, "big.glb")); err == nil {
		t.Error("batch wrote the refused file")
	}
}
