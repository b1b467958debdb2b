package gltfio

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/hostile"
)

// TestIndentationBounded: arrays nested 250 deep in extras do not make
// the pretty-printed output grow with the square of the depth, and the
// output reads back as the same document, byte-identical when encoded
// again.
func TestIndentationBounded(t *testing.T) {
	in := hostile.NestedExtras(250, 200_000)
	p := filepath.Join(t.TempDir(), "nested.gltf")
	if err := os.WriteFile(p, in, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Load(p, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Encode(false)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 4*len(in) { // unbounded, it is about 120 times
		t.Errorf("output %d bytes for a %d-byte input", len(out), len(in))
	}
	back, err := ParseJSON(out)
	if err != nil || !Equal(back, a.Tree) {
		t.Fatalf("output does not read back as the document: %v", err)
	}
	p2 := filepath.Join(t.TempDir(), "again.gltf")
	os.WriteFile(p2, out, 0o644)
	a2, err := Load(p2, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if out2, _ := a2.Encode(false); !bytes.Equal(out, out2) {
		t.Error("second encoding differs")
	}
}

// TestJSONBudget: an object of a million keys is refused like an array
// of a million elements, and a document of more values than the budget
// is refused wherever they are, naming the JSON path where it ran out.
func TestJSONBudget(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.gltf")
	os.WriteFile(wide, hostile.WideExtras(1_000_000), 0o644)
	if _, err := Load(wide, Limits{}); err == nil || !strings.Contains(err.Error(), "asset.extras: more than 100000 members") {
		t.Errorf("1M keys: %v", err)
	}
	many := filepath.Join(dir, "many.gltf")
	os.WriteFile(many, hostile.WideExtras(60_000), 0o644)
	if _, err := Load(many, Limits{MaxValues: 100_000}); err == nil || !strings.Contains(err.Error(), "more than 100000 JSON values") {
		t.Errorf("120k values under a 100k budget: %v", err)
	}
	if _, err := Load(many, Limits{}); err != nil {
		t.Errorf("120k values under the default budget: %v", err)
	}
}

// TestExtensionValuesWeighed (issue 41, defect 8): values inside an
// "extensions" member count ExtensionValueWeight times against the
// value budget, since the physics readers decode them again: a file of
// 99,990 OMI colliders (2.1 million values, 13 MB) is refused at load
// (it peaked at 933 MB, over the bound of 620 MB), while the same number
// of values in extras, and 40,000 colliders, still load.
func TestExtensionValuesWeighed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		return p
	}
	bomb := write("colliders.gltf", hostile.Colliders(99_990))
	if _, err := Load(bomb, Limits{}); err == nil || !strings.Contains(err.Error(), "more than 2500000 JSON values in the document (the limit on its parsed size; values in extensions count 3 times)") {
		t.Errorf("99,990 colliders: %v", err)
	}
	if _, err := Load(write("fewer.gltf", hostile.Colliders(40_000)), Limits{}); err != nil {
		t.Errorf("40,000 colliders: %v", err)
	}
	if _, err := Load(write("values.gltf", hostile.ManyValues(2_400_000)), Limits{}); err != nil {
		t.Errorf("2.4 million values in extras: %v", err)
	}
}

// TestPhysicsOnlyMeshesCounted (issue 41, defect 8): meshes no scene node
// draws (physics hull meshes) count once each against the triangle
// limit, from their declared counts, before any stream is decoded: 40
// Draco hull meshes declaring 9.9 million faces each are refused at load,
// naming the mesh that crosses the limit; one of them alone loads.
func TestPhysicsOnlyMeshesCounted(t *testing.T) {
	dir := t.TempDir()
	many := filepath.Join(dir, "many.glb")
	os.WriteFile(many, hostile.PhysicsOnlyDraco(40, 9_900_000, 37_000), 0o644)
	if _, err := Load(many, Limits{}); err == nil || !strings.Contains(err.Error(), "meshes[1]: the document has more than 10000000 triangles, the limit, counting the scene's per instance and those of the meshes outside it") {
		t.Errorf("40 meshes of 9.9M faces: %v", err)
	}
	one := filepath.Join(dir, "one.glb")
	os.WriteFile(one, hostile.PhysicsOnlyDraco(1, 9_900_000, 37_000), 0o644)
	if _, err := Load(one, Limits{}); err != nil {
		t.Errorf("one mesh of 9.9M faces: %v", err)
	}
	if _, err := Load(one, Limits{MaxTriangles: 9_000_000}); err == nil || !strings.Contains(err.Error(), "meshes[0]: the document has more than 9000000 triangles") {
		t.Errorf("one mesh of 9.9M faces under a 9M limit: %v", err)
	}
}
