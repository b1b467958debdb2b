package gltfio

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

func corpusFiles(t testing.TB) []string { return testassets.Corpus(t) }

func reparse(t *testing.T, data []byte) *Object {
	t.Helper()
	js := data
	if string(data[:4]) == "glTF" {
		var err error
		js, _, err = splitGLB(data)
		if err != nil {
			t.Fatal(err)
		}
	}
	o, err := ParseJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestCorpusRoundTrip: loading and saving every corpus file without edits
// gives the same JSON, and the same container bytes for buffer 0.
func TestCorpusRoundTrip(t *testing.T) {
	for _, f := range corpusFiles(t) {
		a, err := Load(f, Limits{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		orig := a.Tree
		out, err := a.Encode(a.Binary)
		if err != nil {
			t.Fatal(err)
		}
		o2 := reparse(t, out)
		if !Equal(orig, o2) {
			t.Errorf("%s: JSON changed by a plain round trip", f)
		}
	}
}

// TestAppendAndStrip: appending a mesh and a node, saving, then loading the
// output strips exactly what was added, in both containers.
func TestAppendAndStrip(t *testing.T) {
	for _, f := range corpusFiles(t) {
		for _, glb := range []bool{false, true} {
			a, err := Load(f, Limits{})
			if err != nil {
				continue
			}
			if len(a.Tree.Arr("nodes")) == 0 {
				continue
			}
			orig, _ := a.Tree.MarshalJSON()
			origTree, _ := ParseJSON(orig)
			addHull(t, a, glb)
			if err := a.Set("x", "extensions", "TEST_ext", "deep"); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			ext := ".gltf"
			if glb {
				ext = ".glb"
			}
			out := filepath.Join(dir, "out"+ext)
			if err := a.Save(out); err != nil {
				t.Fatal(err)
			}
			b, err := Load(out, Limits{})
			if err != nil {
				t.Fatalf("%s → %s: %v", f, ext, err)
			}
			if !b.Stripped {
				t.Fatalf("%s → %s: no undo record found", f, ext)
			}
			if glb != a.Binary {
				continue // container conversion changes buffer 0's uri by design
			}
			if !Equal(origTree, b.Tree) {
				got, _ := Encode(b.Tree, " ")
				t.Fatalf("%s → %s: strip did not restore the input:\n%.2000s", f, ext, got)
			}
			if a.bin != nil && len(b.bin) != len(a.Doc.Buffers[0].Data) {
				t.Fatalf("%s: BIN length %d after strip, want %d", f, len(b.bin), len(a.Doc.Buffers[0].Data))
			}
		}
	}
}

func TestLocalURI(t *testing.T) {
	for _, ok := range []string{"a.bin", "sub/a.bin", "Box%20With%20Spaces.bin", "./x.bin", "a/../b.bin"} {
		if _, err := LocalURI(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"../a.bin", "/etc/passwd", "file:///etc/passwd", "http://x/a.bin", "a/../../b.bin", "%2e%2e/a.bin", "C:\\x.bin", "//host/a.bin", "a.bin?x=1"} {
		if _, err := LocalURI(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseJSONRefuses(t *testing.T) {
	for name, doc := range map[string]string{
		"duplicate": `{"asset":{"version":"2.0"},"asset":{}}`,
		"deep":      `{"a":` + strings.Repeat("[", MaxJSONDepth+5) + strings.Repeat("]", MaxJSONDepth+5) + `}`,
		"trailing":  `{"asset":{}} x`,
		"array":     `[1]`,
	} {
		if _, err := ParseJSON([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
