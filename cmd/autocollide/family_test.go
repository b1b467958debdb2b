package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// withAuthored writes the example with an artist's sphere collider on
// "Ball" (nodes[6]) in the given form and returns the file's path.
func withAuthored(t *testing.T, dir, form string) string {
	t.Helper()
	a, err := gltfio.Load(example(t), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var docExt, nodeExt, doc, node string
	switch form {
	case "omi":
		docExt, doc = "OMI_physics_shape", `{"shapes":[{"type":"sphere","sphere":{"radius":0.25}}]}`
		nodeExt, node = "OMI_physics_body", `{"motion":{"type":"dynamic","mass":3},"collider":{"shape":0}}`
	case "khr":
		docExt, doc = "KHR_implicit_shapes", `{"shapes":[{"type":"sphere","sphere":{"radius":0.25}}]}`
		nodeExt, node = "KHR_physics_rigid_bodies", `{"motion":{"mass":3},"collider":{"geometry":{"shape":0}}}`
	case "khr-node", "khr-mesh":
		// A hull of the ball's own mesh, named the 2025 or the 2026 way.
		mesh, _ := a.Tree.Arr("nodes")[6].(*gltfio.Object).Int("mesh")
		ref := fmt.Sprintf(`"mesh":%d`, mesh)
		if form == "khr-node" {
			ref = `"node":6`
		}
		docExt, doc = "KHR_physics_rigid_bodies", `{}`
		nodeExt, node = "KHR_physics_rigid_bodies", `{"motion":{"mass":3},"collider":{"geometry":{`+ref+`,"convexHull":true}}}`
	case "legacy":
		docExt, doc = "OMI_collider", `{"colliders":[{"type":"sphere","radius":0.25}]}`
		nodeExt, node = "OMI_collider", `{"collider":0}`
	default:
		t.Fatalf("no form %q", form)
	}
	dv, _ := gltfio.FromJSON([]byte(doc))
	nv, _ := gltfio.FromJSON([]byte(node))
	a.Tree.Set("extensions", gltfio.NewObject())
	a.Tree.Obj("extensions").Set(docExt, dv)
	ball := a.Tree.Arr("nodes")[6].(*gltfio.Object)
	ball.Set("extensions", gltfio.NewObject())
	ball.Obj("extensions").Set(nodeExt, nv)
	used := []any{docExt}
	if nodeExt != docExt {
		used = append(used, nodeExt)
	}
	a.Tree.Set("extensionsUsed", used)
	data, err := a.Encode(true)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, form+".glb")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestGenerateFollowsFamily (issue 21 item 4): generated physics is
// written in the family the file already carries, whatever the profile's
// format; an explicit --format naming another family is refused with an
// error that says what to do, and nothing is written. Never two families
// in one output.
func TestGenerateFollowsFamily(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		form       string
		family     physics.Family
		other      string
		extensions []string // bodies carry one of these
		bodies     int      // the two other roots' and the artist's if it has a motion
	}{
		{"omi", physics.OMI, "khr", []string{physics.ExtOMIBody}, 3},
		{"khr", physics.KHR, "omi", []string{physics.ExtKHRBodies}, 3},
		{"legacy", physics.OMI, "khr", []string{physics.ExtOMIBody}, 2},
	} {
		in := withAuthored(t, dir, c.form)
		// Defaults (profile default: omi) and the khr preset: follow.
		for _, flags := range [][]string{nil, {"--profile", "khr"}, {"--profile", "default"}, {"--format", string(c.family)}} {
			out := filepath.Join(dir, c.form+"-out.glb")
			args := append([]string{"generate", in, "-o", out, "--method", "aabb"}, flags...)
			code, _, stderr := runCLI(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			got, err := gltfio.LoadRaw(out, gltfio.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if fam := codecs.Family(got.Doc); fam != c.family {
				t.Errorf("%v: output carries %q, want only %q", args, fam, c.family)
			}
			// Generated physics is there: the two other roots are bodies.
			n := 0
			for _, node := range got.Doc.Nodes {
				for _, e := range c.extensions {
					if v, ok := node.Extensions[e]; ok && strings.Contains(string(mustJSON(t, v)), "motion") {
						n++
					}
				}
			}
			if n != c.bodies {
				t.Errorf("%v: %d bodies, want %d", args, n, c.bodies)
			}
			if code, out, stderr := runCLI("validate", out); code != 0 || strings.Contains(out, "carries") {
				t.Errorf("%v: validate exit %d: %s%s", args, code, out, stderr)
			}
			os.Remove(out)
		}
		// An explicit other family: refused, nothing written.
		out := filepath.Join(dir, c.form+"-refused.glb")
		code, _, stderr := runCLI("generate", in, "-o", out, "--method", "aabb", "--format", c.other)
		if code != exitFailed || !strings.Contains(stderr, "convert") || !strings.Contains(stderr, "--format "+c.other) {
			t.Errorf("%s --format %s: exit %d, %q; want 1 naming --format and convert", c.form, c.other, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s --format %s: an output was written", c.form, c.other)
		}
		// The same demand from the environment is as explicit.
		t.Setenv("AUTOCOLLIDE_FORMAT", c.other)
		if code, _, _ := runCLI("generate", in, "-o", out, "--method", "aabb"); code != exitFailed {
			t.Errorf("%s AUTOCOLLIDE_FORMAT=%s: exit %d, want 1", c.form, c.other, code)
		}
		os.Unsetenv("AUTOCOLLIDE_FORMAT")
	}
}

// TestExplicitFormatNothingGenerated: a file whose every body is
// authored gets nothing generated, so an explicit other --format adds no
// second family and the file is written as it was (no refusal).
func TestExplicitFormatNothingGenerated(t *testing.T) {
	in := filepath.Join(testassets.Shared(t), "corpus-physics", "OMI_physics_body-examples", "basic", "dynamic_box.gltf")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.gltf")
	if code, _, stderr := runCLI("generate", in, "-o", out, "--format", "khr"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if fam := codecs.Family(got.Doc); fam != physics.OMI {
		t.Errorf("family %q, want omi alone", fam)
	}
}

// TestGenerateG4MFFormat: a G4MF input gets G4MF physics; an explicit
// --format, which could only be ignored, is refused.
func TestGenerateG4MFFormat(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "furniture.g4tf")
	if code, _, stderr := runCLI("convert", example(t), "-o", in); code != 0 {
		t.Fatal(stderr)
	}
	out := filepath.Join(dir, "out.g4tf")
	if code, _, stderr := runCLI("generate", in, "-o", out, "--method", "aabb"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := g4mf.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := f.Scene()
	if err != nil {
		t.Fatal(err)
	}
	bodies := 0
	for _, n := range sc.Nodes {
		if n.Physics.Motion != nil {
			bodies++
		}
	}
	if bodies == 0 {
		t.Error("no G4MF bodies generated")
	}
	out2 := filepath.Join(dir, "refused.g4tf")
	code, _, stderr := runCLI("generate", in, "-o", out2, "--format", "khr")
	if code != exitFailed || !strings.Contains(stderr, "G4MF") || !strings.Contains(stderr, "--format khr") {
		t.Errorf("--format khr on G4MF: exit %d %q, want 1 with a clear error", code, stderr)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Error("an output was written")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGenerateFollowsGeometryForm: in a file whose KHR hulls use one
// geometry form, generated hulls use the same one, whatever the setting
// says (a reader of one form drops the other's colliders), with a note.
func TestGenerateFollowsGeometryForm(t *testing.T) {
	dir := t.TempDir()
	for form, c := range map[string]struct {
		flag, want string
	}{
		"khr-node": {"mesh", "geometry.node (2025)"},
		"khr-mesh": {"node", "geometry.mesh (2026)"},
	} {
		in := withAuthored(t, dir, form)
		out := filepath.Join(dir, form+"-out.glb")
		code, stdout, stderr := runCLI("generate", in, "-o", out, "--method", "hull", "--khr-geometry", c.flag, "-v")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", form, code, stderr)
		}
		if !strings.Contains(stdout+stderr, "the form the file's colliders use") {
			t.Errorf("%s: no note: %s%s", form, stdout, stderr)
		}
		code, vout, _ := runCLI("validate", out)
		if code != 0 || !strings.Contains(vout, "info: revision: KHR collider "+c.want) {
			t.Errorf("%s --khr-geometry %s: %q, want only %s", form, c.flag, vout, c.want)
		}
	}
}

// TestValidateRevision (issue 21 item 9): validate prints one info line
// naming the KHR geometry form a file uses (not counted as a warning,
// left out with -q), for each form generate writes.
func TestValidateRevision(t *testing.T) {
	dir := t.TempDir()
	for form, want := range map[string]string{"mesh": "geometry.mesh (2026)", "node": "geometry.node (2025)"} {
		out := filepath.Join(dir, form+".glb")
		if code, _, stderr := runCLI("generate", example(t), "-o", out, "--format", "khr", "--method", "hull", "--khr-geometry", form); code != 0 {
			t.Fatal(stderr)
		}
		code, stdout, _ := runCLI("validate", out)
		if code != 0 || strings.Count(stdout, "info: revision: KHR collider "+want) != 1 || !strings.Contains(stdout, "ok (0 warnings)") {
			t.Errorf("%s: exit %d %q, want one info line naming %s", form, code, stdout, want)
		}
		if _, stdout, _ := runCLI("validate", "-q", out); strings.Contains(stdout, "info:") {
			t.Errorf("%s: -q printed %q", form, stdout)
		}
	}
}
