package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/batch"
)

// uShapes writes a .gltf with two scene roots, Left and Right, each an
// instance of one closed U-shaped prism: 3 × 2 × 1 m with a 1 × 1 m notch,
// so its concavity (about 1 m) is far above 5% of its diagonal (0.19 m)
// and far below 5 m.
func uShapes(t *testing.T, path string) string {
	t.Helper()
	// The U's outline, counter-clockwise, and its ear-clipped caps.
	outline := [][2]float32{{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	caps := [][3]uint16{{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {0, 4, 5}, {0, 5, 7}, {5, 6, 7}}
	n := uint16(len(outline))
	var pos, idx bytes.Buffer
	for _, z := range []float32{0, 1} { // back ring 0..n-1, front ring n..2n-1
		for _, p := range outline {
			binary.Write(&pos, binary.LittleEndian, [3]float32{p[0], p[1], z})
		}
	}
	for _, c := range caps {
		binary.Write(&idx, binary.LittleEndian, [3]uint16{c[0] + n, c[1] + n, c[2] + n}) // front, facing +z
		binary.Write(&idx, binary.LittleEndian, [3]uint16{c[0], c[2], c[1]})             // back, facing -z
	}
	for a := range n { // sides, facing out of the outline
		b := (a + 1) % n
		binary.Write(&idx, binary.LittleEndian, [6]uint16{a, b, b + n, a, b + n, a + n})
	}
	bin := append(pos.Bytes(), idx.Bytes()...)
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1]}],
"nodes":[{"name":"Left","mesh":0},{"name":"Right","mesh":0,"translation":[5,0,0]}],
"meshes":[{"name":"U","primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[{"buffer":0,"byteLength":%d},{"buffer":0,"byteOffset":%d,"byteLength":%d}],
"accessors":[{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3","min":[0,0,0],"max":[3,2,1]},
{"bufferView":1,"componentType":5123,"count":%d,"type":"SCALAR"}]}`,
		len(bin), base64.StdEncoding.EncodeToString(bin), pos.Len(), pos.Len(), idx.Len(), 2*n, idx.Len()/2)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// hullsPerPart runs generate --dry-run on in and returns the colliders of
// each part by name, the exit code and stderr.
func hullsPerPart(t *testing.T, in string, args ...string) (map[string]int, int, string) {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "report.json")
	code, _, stderr := runCLI(append([]string{"generate", in, "--dry-run", "-q", "--report", rep}, args...)...)
	if code != 0 {
		return nil, code, stderr
	}
	var r batch.Report
	data, err := os.ReadFile(rep)
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err != nil || len(r.Assets) != 1 {
		t.Fatalf("report: %v (%d assets)", err, len(r.Assets))
	}
	got := map[string]int{}
	for _, p := range r.Assets[0].Parts {
		got[p.Name] = p.Colliders
	}
	return got, code, stderr
}

// TestAbsConcavity: an absolute concavity above the U's notch keeps each
// U one hull, where the relative threshold alone splits it; it comes from
// the profile's colliders section, a rule (for the instances it matches
// only), AUTOCOLLIDE_ABS_CONCAVITY or --abs-concavity, the flag first; a
// bad value is one line naming its layer.
func TestAbsConcavity(t *testing.T) {
	dir := t.TempDir()
	in := uShapes(t, filepath.Join(dir, "u.gltf"))
	profile := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	plain := profile("plain.yaml", "colliders: {method: decompose}\n")
	coarse := profile("coarse.yaml", "colliders: {method: decompose, absConcavity: 5}\n")
	rule := profile("rule.yaml", "colliders: {method: decompose}\nrules:\n  - {name: coarse-left, match: {name: Left}, absConcavity: 5}\n")

	got, code, stderr := hullsPerPart(t, in, "--profile", plain)
	if code != 0 || got["Left"] < 2 || got["Right"] < 2 {
		t.Fatalf("relative threshold alone: %v hulls (exit %d %s); want each U split (the test's premise)", got, code, stderr)
	}
	split := got["Left"]
	t.Logf("relative threshold alone: %v hulls", got)
	for _, c := range []struct {
		what        string
		env         string // AUTOCOLLIDE_ABS_CONCAVITY, if set
		args        []string
		left, right int // 1: one hull; 0: split as without an absolute threshold
	}{
		{"profile", "", []string{"--profile", coarse}, 1, 1},
		{"rule", "", []string{"--profile", rule}, 1, 0},
		{"flag", "", []string{"--profile", plain, "--abs-concavity", "5"}, 1, 1},
		{"flag over profile", "", []string{"--profile", coarse, "--abs-concavity", "0.01"}, 0, 0},
		{"environment over profile", "0.01", []string{"--profile", coarse}, 0, 0},
		{"flag over environment", "0.01", []string{"--profile", plain, "--abs-concavity", "5"}, 1, 1},
	} {
		t.Run(c.what, func(t *testing.T) {
			if c.env != "" {
				t.Setenv("AUTOCOLLIDE_ABS_CONCAVITY", c.env)
			}
			got, code, stderr := hullsPerPart(t, in, c.args...)
			want := map[string]int{"Left": c.left, "Right": c.right}
			for name, n := range want {
				if n == 0 {
					want[name] = split
				}
			}
			if code != 0 || got["Left"] != want["Left"] || got["Right"] != want["Right"] {
				t.Errorf("%v: hulls %v (exit %d %s), want %v", c.args, got, code, stderr, want)
			}
		})
	}

	project := filepath.Join(dir, ProjectFile)
	for _, c := range []struct {
		env, project string
		args         []string
		want         string
	}{
		{"", "", []string{"--abs-concavity", "-1"}, `command line: abs-concavity "-1": want a length in metres from 1e-06 to 1e+07`},
		{"", "", []string{"--abs-concavity", "0"}, `command line: abs-concavity "0": want a length in metres from 1e-06 to 1e+07`},
		{"", "", []string{"--abs-concavity", "2cm"}, `invalid argument "2cm" for "--abs-concavity"`},
		{"2cm", "", nil, "AUTOCOLLIDE_ABS_CONCAVITY=2cm: want a number"},
		{"-0.5", "", nil, `environment: abs-concavity "-0.5": want a length in metres`},
		{"", "abs-concavity: 2cm\n", nil, project + `:1:16: abs-concavity: "2cm": want a number`},
		{"", "abs-concavity: 20000000\n", nil, project + `: abs-concavity "20000000": want a length in metres`},
	} {
		t.Run("bad "+strings.Join(append(c.args, c.env, c.project), " "), func(t *testing.T) {
			if c.env != "" {
				t.Setenv("AUTOCOLLIDE_ABS_CONCAVITY", c.env)
			}
			if c.project != "" {
				if err := os.WriteFile(project, []byte(c.project), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(project)
			}
			_, code, stderr := hullsPerPart(t, in, append([]string{"--profile", plain}, c.args...)...)
			if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("exit %d, %q; want exit %d and one line with %q", code, stderr, exitUsage, c.want)
			}
		})
	}
}
