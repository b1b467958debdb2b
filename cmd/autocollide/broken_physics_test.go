package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/validate"
)

// TestBrokenPhysicsNotPassedThrough: files that already carry physics
// validate calls an error (shape 99 of 1, mass −5, box size −1, motion
// type "flying", a joint connected to itself, limit axes [3, −1], ...)
// are refused by generate and convert with one line naming the file and
// the JSON path, and nothing is written; whatever either command does
// write from any broken fixture (those with warnings only) passes
// validate.
func TestBrokenPhysicsNotPassedThrough(t *testing.T) {
	bad, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", "bad", "*.gltf"))
	if len(bad) < 25 {
		t.Fatalf("only %d broken physics files", len(bad))
	}
	named := map[string]bool{ // the examples must be among the refused
		"omi_collider_shape_out_of_range.gltf": false, "omi_motion_negative_mass.gltf": false,
		"omi_box_negative_size.gltf": false, "omi_motion_bad_type.gltf": false,
		"omi_joint_self.gltf": false, "omi_limit_bad_axis.gltf": false,
		// issue 21 item 7
		"khr_box_zero_size.gltf": false, "khr_cylinder_zero_radii.gltf": false, "omi_joint_on_body.gltf": false,
		"khr_filter_both_lists.gltf": false, "khr_limit_axis_3.gltf": false, "khr_limit_min_gt_max.gltf": false,
		"khr_compound_trigger_not_descendant.gltf": false,
	}
	dir := t.TempDir()
	for _, f := range bad {
		base := filepath.Base(f)
		code, _, _ := runCLI("validate", "-q", f)
		invalid := code != 0
		if _, ok := named[base]; ok {
			named[base] = invalid
		}
		runs := [][]string{
			{"generate", f, "--format", "omi", "-o", filepath.Join(dir, "gen-omi-"+base)},
			{"generate", f, "--format", "khr", "-o", filepath.Join(dir, "gen-khr-"+base)},
			{"convert", f, "--to", "omi", "-o", filepath.Join(dir, "conv-omi-"+base)},
			{"convert", f, "--to", "khr", "-o", filepath.Join(dir, "conv-khr-"+base)},
			{"convert", f, "-o", filepath.Join(dir, "conv-"+strings.TrimSuffix(base, ".gltf")+".g4tf")},
		}
		for _, args := range runs {
			out := args[len(args)-1]
			code, _, stderr := runCLI(args...)
			_, statErr := os.Stat(out)
			written := statErr == nil
			line := strings.TrimSpace(stderr)
			switch {
			case invalid && (code != 1 || written):
				t.Errorf("%s %s: broken physics went through: exit %d, output written %v", args[0], base, code, written)
			case invalid && (!strings.HasPrefix(line, f+": ") || !strings.Contains(line, "[") && !strings.Contains(line, "extensions")):
				t.Errorf("%s %s: want one line naming the file and the JSON path, got %q", args[0], base, stderr)
			case written && strings.HasSuffix(out, ".gltf"): // validate reads glTF
				if code, vout, _ := runCLI("validate", "-q", out); code != 0 {
					t.Errorf("%s %s: wrote an output validate rejects:\n%s", args[0], base, vout)
				}
			}
		}
	}
	for name, refused := range named {
		if !refused {
			t.Errorf("%s: validate accepts it (or it is missing)", name)
		}
	}
}

// invalidPhysics reports whether validate finds errors in a file's
// physics: generate and convert refuse such a file.
func invalidPhysics(t *testing.T, path string) bool {
	t.Helper()
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return validate.HasErrors(validate.Validate(a.Doc, validate.Options{}))
}

// wantRefusedPhysics checks a refused run on a file with invalid physics:
// exit 1 and one line naming the file and saying why.
func wantRefusedPhysics(t *testing.T, in string, code int, stderr string) {
	t.Helper()
	line := strings.TrimSpace(stderr)
	if code != 1 || strings.Contains(line, "\n") || !strings.HasPrefix(line, in+": ") || !strings.Contains(line, "physics is invalid") {
		t.Errorf("%s: invalid physics: want exit 1 and one line saying so, got %d %q", in, code, stderr)
	}
}
