package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/validate"
)

// TestCheckUpToDate: --check answers "would generate --in-place change
// these files?". A raw folder fails, naming every file; after generate
// --in-place it passes; after one input's mesh is edited only that file
// fails; with another profile every file fails. --check writes nothing,
// and re-running generate on its own output stays byte-identical at any
// -j.
func TestCheckUpToDate(t *testing.T) {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	dir := t.TempDir()
	copyFile := func(dst, src string) {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(dst))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("props/Box.glb", filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb"))
	copyFile("props/Duck.glb", filepath.Join(corpus, "Duck", "glTF-Binary", "Duck.glb"))
	copyFile("BoxTextured.glb", filepath.Join(corpus, "BoxTextured", "glTF-Binary", "BoxTextured.glb"))
	for _, f := range []string{"Cube.gltf", "Cube.bin", "Cube_BaseColor.png", "Cube_MetallicRoughness.png"} {
		copyFile("cube/"+f, filepath.Join(corpus, "Cube", "glTF", f))
	}
	files := []string{"BoxTextured.glb", "cube/Cube.gltf", "props/Box.glb", "props/Duck.glb"}
	path := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	snapshot := func() map[string][]byte { return treeFiles(t, dir) }
	// check runs --check and returns the exit code and the files named
	// as not up to date.
	check := func(args ...string) (int, []string, string) {
		t.Helper()
		before := snapshot()
		code, _, stderr := runCLI(append([]string{"generate", dir, "--check", "-q"}, args...)...)
		if !sameTree(before, snapshot()) {
			t.Fatalf("--check %v changed files", args)
		}
		var named []string
		for _, rel := range files {
			if strings.Contains(stderr, path(rel)+": not up to date") {
				named = append(named, rel)
			}
		}
		return code, named, stderr
	}

	if code, named, stderr := check(); code != 1 || len(named) != len(files) || !strings.Contains(stderr, "no physics") {
		t.Fatalf("raw folder: exit %d naming %v, want 1 naming all %d:\n%s", code, named, len(files), stderr)
	}
	if code, _, stderr := runCLI("generate", dir, "--in-place", "-q", "-j", "2"); code != 0 {
		t.Fatalf("generate --in-place: exit %d\n%s", code, stderr)
	}
	generated := snapshot()
	if code, named, stderr := check(); code != 0 || len(named) != 0 {
		t.Fatalf("after generate --in-place: exit %d naming %v\n%s", code, named, stderr)
	}
	// Re-running on its own output changes nothing, at any -j.
	if code, _, stderr := runCLI("generate", dir, "--in-place", "-q", "-j", "1"); code != 0 || !sameTree(generated, snapshot()) {
		t.Fatalf("a re-run of generate --in-place changed its own output (exit %d)\n%s", code, stderr)
	}

	// Move the cube's first vertex a little, in its external buffer.
	editFirstPosition(t, path("cube/Cube.gltf"), path("cube/Cube.bin"))
	if code, named, stderr := check(); code != 1 || len(named) != 1 || named[0] != "cube/Cube.gltf" || !strings.Contains(stderr, "source changed") {
		t.Errorf("after editing one mesh: exit %d naming %v, want 1 naming cube/Cube.gltf:\n%s", code, named, stderr)
	}
	if code, named, stderr := check("--profile", "khr"); code != 1 || len(named) != len(files) || !strings.Contains(stderr, "other settings") {
		t.Errorf("another profile: exit %d naming %v, want 1 naming all %d:\n%s", code, named, len(files), stderr)
	}
	if code, _, stderr := runCLI("generate", path("cube/Cube.gltf"), "--in-place", "-q"); code != 0 {
		t.Fatalf("regenerating the edited file: exit %d\n%s", code, stderr)
	}
	if code, named, stderr := check(); code != 0 {
		t.Errorf("after regenerating the edited file: exit %d naming %v\n%s", code, named, stderr)
	}

	// A file whose authored physics has errors is not up to date either.
	bad := filepath.Join(testassets.Repo(), "testdata", "physics", "bad", "omi_box_negative_size.gltf")
	before, _ := os.ReadFile(bad)
	code, _, stderr := runCLI("generate", bad, "--check")
	if after, _ := os.ReadFile(bad); code != 1 || !strings.Contains(stderr, bad+": ") || !bytes.Equal(before, after) {
		t.Errorf("invalid physics: exit %d\n%s", code, stderr)
	}
}

// editFirstPosition scales the x of the first vertex of the first
// primitive of gltfPath (whose buffer 0 is binPath) by 0.99.
func editFirstPosition(t *testing.T, gltfPath, binPath string) {
	t.Helper()
	var doc struct {
		Meshes []struct {
			Primitives []struct {
				Attributes map[string]int `json:"attributes"`
			} `json:"primitives"`
		} `json:"meshes"`
		Accessors []struct {
			BufferView int `json:"bufferView"`
			ByteOffset int `json:"byteOffset"`
		} `json:"accessors"`
		BufferViews []struct {
			Buffer     int `json:"buffer"`
			ByteOffset int `json:"byteOffset"`
		} `json:"bufferViews"`
	}
	js, _ := os.ReadFile(gltfPath)
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	acc := doc.Accessors[doc.Meshes[0].Primitives[0].Attributes["POSITION"]]
	view := doc.BufferViews[acc.BufferView]
	if view.Buffer != 0 {
		t.Fatalf("%s: positions are not in buffer 0", gltfPath)
	}
	bin, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	off := view.ByteOffset + acc.ByteOffset
	x := math.Float32frombits(binary.LittleEndian.Uint32(bin[off:]))
	binary.LittleEndian.PutUint32(bin[off:], math.Float32bits(x*0.99))
	if err := os.WriteFile(binPath, bin, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckAuthored: files whose physics was authored (corpus-physics,
// and one hand-made file whose OMI joint sits on a body) are up to date
// when a run would add nothing to them: --check names exactly those whose
// physics has errors (as physics/validate says).
func TestCheckAuthored(t *testing.T) {
	files := append(testassets.CorpusPhysics(t), filepath.Join(testassets.Repo(), "testdata", "physics", "bad", "omi_joint_on_body.gltf"))
	want := map[string]bool{}
	for _, f := range files {
		a, err := gltfio.LoadRaw(f, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if validate.HasErrors(validate.Validate(a.Doc, validate.Options{MaxHullVertices: 255})) {
			want[f] = true
		}
	}
	code, _, stderr := runCLI(append([]string{"generate", "--check", "-q"}, files...)...)
	named := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if f, rest, ok := strings.Cut(l, ": "); ok && (strings.HasPrefix(rest, "physics errors: ") || strings.HasPrefix(rest, "existing physics is invalid")) {
			named[f] = true
		} else if !strings.HasPrefix(l, "autocollide: ") {
			t.Errorf("unexpected line: %s", l)
		}
	}
	if len(want) == 0 || code != 1 || len(named) != len(want) {
		t.Fatalf("exit %d naming %d files, want 1 naming the %d with physics errors:\n%s", code, len(named), len(want), stderr)
	}
	for f := range want {
		if !named[f] {
			t.Errorf("%s has physics errors but --check does not name it", f)
		}
	}
}
