package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics/codecs"
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

// TestReadG4MF (issue 21 item 5): a 3D G4MF file is read into the physics
// model: validate checks it (exit 0, or the error at its G4MF path), and
// convert writes it as glTF in either family, .glb or .gltf, which
// validates, passes the Khronos validator and keeps the bodies.
func TestReadG4MF(t *testing.T) {
	dir := t.TempDir()
	glb := filepath.Join(dir, "furniture.physics.glb")
	if code, _, stderr := runCLI("generate", example(t), "-o", glb, "--format", "khr"); code != 0 {
		t.Fatalf("generate: %d %s", code, stderr)
	}
	var outs []string
	for _, ext := range []string{".g4tf", ".g4b"} {
		g := filepath.Join(dir, "furniture"+ext)
		if code, _, stderr := runCLI("convert", glb, "-o", g); code != 0 {
			t.Fatalf("export: %s", stderr)
		}
		if code, stdout, stderr := runCLI("validate", g); code != 0 || !strings.Contains(stdout, "ok") {
			t.Errorf("validate %s: exit %d %q %q", ext, code, stdout, stderr)
		}
		if code, stdout, stderr := runCLI("inspect", g); code != 0 || !strings.Contains(stdout, g+": g4mf (3D), 3 bodies") {
			t.Errorf("inspect %s: exit %d %q %q", ext, code, stdout, stderr)
		}
		for _, to := range []string{"omi", "khr"} {
			for _, oext := range []string{".glb", ".gltf"} {
				out := filepath.Join(dir, "back-"+to+ext[1:]+oext)
				code, stdout, stderr := runCLI("convert", g, "-o", out, "--to", to)
				if code != 0 || !strings.Contains(stdout, to) {
					t.Fatalf("convert %s --to %s: %d %q %q", ext, to, code, stdout, stderr)
				}
				if code, stdout, _ := runCLI("validate", out); code != 0 {
					t.Errorf("%s: validate: %s", out, stdout)
				}
				a, err := gltfio.LoadRaw(out, gltfio.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if fam := codecs.Family(a.Doc); string(fam) != to {
					t.Errorf("%s: family %q", out, fam)
				}
				m, _, _, err := codecs.Decode(a.Doc)
				if err != nil {
					t.Fatal(err)
				}
				bodies := 0
				for _, n := range m.Nodes {
					if n.Motion != nil {
						bodies++
					}
				}
				if bodies != 3 {
					t.Errorf("%s: %d bodies, want 3", out, bodies)
				}
				outs = append(outs, out)
			}
		}
	}
	for f, r := range runValidator(t, outs) {
		if r.Errors != 0 {
			t.Errorf("%s: Khronos validator: %d errors %v", f, r.Errors, r.Codes)
		}
	}
	// G4MF to G4MF is not a conversion: a usage error naming the way.
	if code, _, stderr := runCLI("convert", filepath.Join(dir, "furniture.g4tf"), "-o", filepath.Join(dir, "again.g4b")); code != exitUsage || !strings.Contains(stderr, "--to") {
		t.Errorf("G4MF to G4MF: exit %d %q, want 2", code, stderr)
	}
	// A broken G4MF motion: the error at its G4MF path, exit 1.
	bad := filepath.Join(dir, "bad.g4tf")
	os.WriteFile(bad, []byte(`{"asset":{"dimension":3},"nodes":[{"children":[1]},{"physics":{"motion":{"type":"dynamic","mass":-1}}}]}`), 0o644)
	if code, stdout, _ := runCLI("validate", bad); code != exitFailed || !strings.Contains(stdout, "nodes[1].physics.motion.mass") {
		t.Errorf("validate bad.g4tf: exit %d %q, want 1 naming nodes[1].physics.motion.mass", code, stdout)
	}
	if code, _, stderr := runCLI("convert", bad, "-o", filepath.Join(dir, "bad.glb"), "--to", "omi"); code != exitFailed || !strings.Contains(stderr, "mass") {
		t.Errorf("convert bad.g4tf: exit %d %q", code, stderr)
	}
}
