package gltfio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var png1x1 = []byte("\x89PNG\r\n\x1a\n-first-version-of-the-texture")

// texturedDoc is triangleDoc with an image file.
func texturedDoc() map[string]any {
	doc := triangleDoc("geo.bin")
	doc["images"] = []any{map[string]any{"uri": "tex.png"}}
	return doc
}

// Each resource is read once per asset (issue #41, defect 5): a buffer
// or an image that changes on disk after the asset was loaded does not
// reach the output, whose .gltf copies and .glb packing use the bytes
// loaded. On main at 7919010 the copies were read again from disk, so
// the output paired the colliders of the old geometry with the new
// buffer.
func TestResourcesReadOnce(t *testing.T) {
	in := writeAsset(t, texturedDoc(), map[string][]byte{"geo.bin": triangle, "tex.png": png1x1})
	a, err := Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	addHull(t, a, false)
	for _, f := range []string{"geo.bin", "tex.png"} { // changed behind the run's back
		p := filepath.Join(filepath.Dir(in), f)
		old, _ := os.ReadFile(p)
		if err := os.WriteFile(p, append(bytes.Repeat([]byte{0xEE}, len(old)), "grown"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if err := a.Save(filepath.Join(out, "x.gltf")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "geo.bin")); !bytes.Equal(got, triangle) {
		t.Errorf("geo.bin copied as %x, want the bytes loaded %x", got, triangle)
	}

	// An image read once (the content hash packs it) is the same in
	// every later use.
	in = writeAsset(t, texturedDoc(), map[string][]byte{"geo.bin": triangle, "tex.png": png1x1})
	a, err = Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ContentHash(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(filepath.Dir(in), "tex.png"), []byte("\x89PNG\r\n\x1a\nSECOND"), 0o644)
	out = t.TempDir()
	if err := a.Save(filepath.Join(out, "x.gltf")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "tex.png")); string(got) != string(png1x1) {
		t.Errorf("tex.png copied as %q, want the bytes hashed %q", got, png1x1)
	}
}

// SaveFiles lists every file of the output with the hash of its bytes
// (the cache records them all: issue #41, defect 3).
func TestSaveFilesListsEveryFile(t *testing.T) {
	in := writeAsset(t, texturedDoc(), map[string][]byte{"geo.bin": triangle, "tex.png": png1x1})
	a, err := Load(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	addHull(t, a, false)
	files, err := a.SaveFiles(OSFS{}, filepath.Join(t.TempDir(), "x.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil || sha256Hex(data) != f.SHA256 {
			t.Errorf("%s: listed with %s, holds other bytes (%v)", f.Path, f.SHA256, err)
		}
	}
	if len(files) != 4 || filepath.Base(files[0].Path) != "x.gltf" || !IsGeneratedBin("x", filepath.Base(files[1].Path)) {
		t.Errorf("files %v: want the .gltf, its .bin and the two copies", files)
	}
}

// The .bin of a .gltf output is named after its content and replaced
// only after the .gltf (issue #41, defect 4): rerunning in place with
// other colliders leaves exactly one .bin, the new one, and the old
// pair's .bin is gone; a file of the new .bin's name with other bytes
// (not ours) is never replaced.
func TestInPlacePairReplacement(t *testing.T) {
	in := writeAsset(t, triangleDoc("geo.bin"), map[string][]byte{"geo.bin": triangle})
	dir := filepath.Dir(in)
	bins := func() []string {
		var out []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if IsGeneratedBin("in", e.Name()) {
				out = append(out, e.Name())
			}
		}
		return out
	}
	save := func(extra int) error {
		a, err := Load(in, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for range extra {
			addHull(t, a, false)
		}
		return a.Save(in)
	}
	if err := save(1); err != nil {
		t.Fatal(err)
	}
	first := bins()
	if len(first) != 1 {
		t.Fatalf("after the first run: %v", first)
	}
	if err := save(1); err != nil { // same content: same name, nothing else
		t.Fatal(err)
	}
	if got := bins(); !slices.Equal(got, first) {
		t.Fatalf("a rerun with the same output left %v, want %v", got, first)
	}
	if err := save(2); err != nil {
		t.Fatal(err)
	}
	second := bins()
	if len(second) != 1 || second[0] == first[0] {
		t.Fatalf("after a run with other colliders: %v (first %v)", second, first)
	}
	if b, err := LoadRaw(in, Limits{}); err != nil || !slices.Contains(b.Resources, second[0]) {
		t.Fatalf("the output does not load with its new .bin: %v", err)
	}
	// A legacy name (x.colliders.bin of an older version) is the
	// stripped buffer's file: removed once replaced.
	a, _ := LoadRaw(in, Limits{})
	bufs := a.Tree.Arr("buffers")
	bufs[len(bufs)-1].(*Object).Set("uri", "in.colliders.bin")
	os.Rename(filepath.Join(dir, second[0]), filepath.Join(dir, "in.colliders.bin"))
	data, _ := a.Encode(false)
	os.WriteFile(in, data, 0o644)
	if err := save(1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "in.colliders.bin")); err == nil {
		t.Error("the earlier run's in.colliders.bin was left behind")
	}
	if got := bins(); len(got) != 1 {
		t.Errorf("bins %v", got)
	}
	// Not ours: a file of the name with other bytes.
	a, _ = Load(in, Limits{})
	addHull(t, a, false)
	addHull(t, a, false)
	addHull(t, a, false)
	probe := t.TempDir()
	if err := a.Save(filepath.Join(probe, "in.gltf")); err != nil {
		t.Fatal(err)
	}
	var name string
	entries, _ := os.ReadDir(probe)
	for _, e := range entries {
		if IsGeneratedBin("in", e.Name()) {
			name = e.Name()
		}
	}
	planted := filepath.Join(dir, name)
	os.WriteFile(planted, []byte("someone else's"), 0o644)
	before, _ := os.ReadFile(in)
	if err := a.Save(in); err == nil || !strings.Contains(err.Error(), "refusing to replace it") {
		t.Fatalf("a foreign file of the .bin's name: %v", err)
	}
	if got, _ := os.ReadFile(planted); string(got) != "someone else's" {
		t.Error("the foreign file was replaced")
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Error("the .gltf changed although its .bin could not be written")
	}
}

// CleanOutputFolder removes the temporaries of a dead process only
// (issue #41, defect 4: a killed run's temporaries were never removed).
func TestCleanOutputFolderTemps(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	names := map[string]bool{
		fmt.Sprintf(".x.glb.tmp-%d-123456", dead):        true,  // a killed run's
		fmt.Sprintf(".x.glb.tmp-%d-123456", os.Getpid()): false, // ours, being written
		".x.glb.tmp-123456":                              false, // not our pattern
		"x.glb":                                          false,
		fmt.Sprintf(".x.glb.tmp-%d-12ab", dead):          false,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	removed, err := CleanOutputFolder(OSFS{}, dir, []string{"x.glb"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for n, gone := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if gone != (err != nil) {
			t.Errorf("%s: removed %v, want %v", n, err != nil, gone)
		}
	}
	if len(removed) != 1 {
		t.Errorf("removed %v", removed)
	}
}

// deadPID returns the number of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Skip("cannot start a process:", err)
	}
	p.Wait()
	return p.Pid
}

// CleanOutputFolder removes the .bin files of a .gltf output that the
// .gltf there does not reference (a killed run's), and nothing of a file
// that is not among the outputs (issue #41, defect 4).
func TestCleanOutputFolderBins(t *testing.T) {
	dir := t.TempDir()
	const used, orphan, other = "x.colliders.0123456789abcdef.bin", "x.colliders.fedcba9876543210.bin", "y.colliders.fedcba9876543210.bin"
	doc := triangleDoc(used)
	js, _ := json.Marshal(doc)
	os.WriteFile(filepath.Join(dir, "x.gltf"), js, 0o644)
	for _, n := range []string{used, orphan, other, "x.colliders.bin"} {
		os.WriteFile(filepath.Join(dir, n), triangle, 0o644)
	}
	removed, err := CleanOutputFolder(OSFS{}, dir, []string{"x.gltf"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{orphan}) {
		t.Errorf("removed %v, want only %s", removed, orphan)
	}
	for _, n := range []string{used, other, "x.colliders.bin"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed", n)
		}
	}
}
