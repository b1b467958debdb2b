package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// TestConvertRoundTrip: every real asset with OMI physics converts to KHR
// and back; each step validates without errors, keeps every non-physics
// member, and the final OMI carries as many bodies and colliders.
func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for i, in := range testassets.CorpusPhysics(t) {
		khrOut := filepath.Join(dir, fmt.Sprintf("%02d.khr%s", i, filepath.Ext(in)))
		omiOut := filepath.Join(dir, fmt.Sprintf("%02d.omi%s", i, filepath.Ext(in)))
		code, _, stderr := runCLI("convert", in, "-o", khrOut, "--to", "khr")
		if invalidPhysics(t, in) {
			wantRefusedPhysics(t, in, code, stderr)
			continue
		}
		if code != 0 {
			t.Errorf("%s → khr: %s", in, stderr)
			continue
		}
		if code, out, _ := runCLI("validate", "-q", khrOut); code != 0 {
			t.Errorf("%s → khr: validate: %s", in, out)
		}
		if code, _, stderr := runCLI("convert", khrOut, "-o", omiOut, "--to", "omi"); code != 0 {
			t.Errorf("%s → khr → omi: %s", in, stderr)
			continue
		}
		if code, out, _ := runCLI("validate", "-q", omiOut); code != 0 {
			t.Errorf("%s → khr → omi: validate: %s", in, out)
		}
		orig, _ := gltfio.LoadRaw(in, gltfio.Limits{})
		back, err := gltfio.LoadRaw(omiOut, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if codecs.Family(back.Doc) != physics.OMI {
			t.Errorf("%s: round trip carries %q", in, codecs.Family(back.Doc))
		}
		for _, k := range orig.Tree.Keys() {
			if k == "extensions" || k == "extensionsUsed" || k == "extensionsRequired" || k == "nodes" {
				continue
			}
			v, _ := orig.Tree.Get(k)
			w, _ := back.Tree.Get(k)
			if !gltfio.Equal(v, w) {
				t.Errorf("%s: %s changed by conversion", in, k)
			}
		}
	}
}

// TestConvertLegacy: legacy forms migrate to current ones that validate.
func TestConvertLegacy(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", "legacy", "*.gltf"))
	for _, f := range testassets.CorpusPhysics(t) {
		if strings.Contains(f, "OMI_collider") {
			files = append(files, f)
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %d legacy files", len(files))
	}
	dir := t.TempDir()
	for i, in := range files {
		for _, to := range []string{"omi", "khr"} {
			out := filepath.Join(dir, fmt.Sprintf("%02d.%s.gltf", i, to))
			if code, _, stderr := runCLI("convert", in, "-o", out, "--to", to); code != 0 {
				t.Errorf("%s → %s: %s", in, to, stderr)
				continue
			}
			if code, res, _ := runCLI("validate", "-q", out); code != 0 {
				t.Errorf("%s → %s: %s", filepath.Base(in), to, res)
			}
			a, _ := gltfio.LoadRaw(out, gltfio.Limits{})
			for _, u := range a.Doc.ExtensionsUsed {
				if u == "OMI_collider" || u == "KHR_collision_shapes" {
					t.Errorf("%s → %s: still declares %s", in, to, u)
				}
			}
		}
	}
}

// TestValidateCLI: every hand-made broken physics file fails validate
// --strict with exit 1 and a JSON path; the good and accepted ones (older
// forms, notes such as a required extension or a hull source mesh that is
// not convex) pass, and those with notes only pass --strict too.
func TestValidateCLI(t *testing.T) {
	bad, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", "bad", "*.gltf"))
	if len(bad) < 25 {
		t.Fatalf("only %d broken physics files", len(bad))
	}
	for _, f := range bad {
		code, out, _ := runCLI("validate", "-q", "--strict", f)
		if code != 1 || !strings.Contains(out, f+": ") {
			t.Errorf("%s: exit %d %q", filepath.Base(f), code, out)
		}
	}
	good, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", "good", "*.gltf"))
	accepted, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", "accepted", "*.gltf"))
	for _, f := range append(append(good, accepted...), example(t)) {
		if code, out, _ := runCLI("validate", "-q", f); code != 0 {
			t.Errorf("%s: %s", filepath.Base(f), out)
		}
	}
	for _, name := range []string{"khr_required_shapes", "omi_required", "khr_hull_not_convex", "omi_hull_not_closed"} {
		f := filepath.Join(testassets.Repo(), "testdata", "physics", "accepted", name+".gltf")
		if code, out, _ := runCLI("validate", "--strict", f); code != 0 || !strings.Contains(out, "ok (0 warnings, 1 notes)") {
			t.Errorf("%s --strict: exit %d %q", name, code, out)
		}
	}
}
