package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/g4mf"
)

// TestConvertG4MF: convert to .g4tf and .g4b goes through the g4mf
// package without --to, reports G4MF's losses as warnings, writes files
// that read back with the bodies of the input, and --strict refuses a
// lossy export without leaving a file.
func TestConvertG4MF(t *testing.T) {
	dir := t.TempDir()
	glb := filepath.Join(dir, "furniture.physics.glb")
	if code, _, stderr := runCLI("generate", example(t), "-o", glb); code != 0 {
		t.Fatalf("generate: %d %s", code, stderr)
	}
	for _, ext := range []string{".g4tf", ".g4b"} {
		out := filepath.Join(dir, "furniture"+ext)
		code, stdout, stderr := runCLI("convert", glb, "-o", out)
		if code != 0 || !strings.Contains(stdout, "g4mf") {
			t.Fatalf("convert %s: %d %q %q", ext, code, stdout, stderr)
		}
		if !strings.Contains(stderr, "warning: materials[0]") {
			t.Errorf("convert %s: the dropped material is not warned about: %q", ext, stderr)
		}
		f, err := g4mf.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if f.Binary != (ext == ".g4b") {
			t.Errorf("%s: binary %v", ext, f.Binary)
		}
		sc, err := f.Scene()
		if err != nil {
			t.Fatal(err)
		}
		bodies, colliders := 0, 0
		for _, n := range sc.Nodes {
			if n.Physics.Motion != nil {
				bodies++
			}
			if n.Physics.Collider != nil {
				colliders++
			}
		}
		if bodies != 3 || colliders != 7 {
			t.Errorf("%s: %d bodies %d colliders, want 3 and 7", ext, bodies, colliders)
		}
	}
	strict := filepath.Join(dir, "strict.g4tf")
	if code, _, _ := runCLI("convert", glb, "-o", strict, "--strict"); code != exitFailed {
		t.Errorf("--strict with losses: exit %d, want %d", code, exitFailed)
	}
	if _, err := os.Stat(strict); err == nil {
		t.Error("--strict left a file")
	}
}
