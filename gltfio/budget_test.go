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
