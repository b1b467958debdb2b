package testkit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// FuzzCodec fuzzes one family's Decode and Encode with arbitrary JSON
// read as a glTF document, seeded with testdata/physics (root is the
// repository root). Decode may refuse the input, never panic. Decode does
// not validate, so Encode may refuse a decoded model (an index out of
// range, say) with an error; when it accepts it, its output decodes, and
// encoding that model again gives the same document: the encoding is a
// fixed point after one round.
func FuzzCodec(f *testing.F, root string,
	decode func(*gltf.Document) (*physics.Model, []physics.Warning, error),
	encode func(*gltf.Document, *physics.Model) error) {
	files, _ := filepath.Glob(filepath.Join(root, "testdata", "physics", "*", "*.gltf"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	fresh := func(t *testing.T, data []byte) *gltf.Document {
		doc := new(gltf.Document)
		if err := json.Unmarshal(data, doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := new(gltf.Document)
		if json.Unmarshal(data, doc) != nil {
			return
		}
		m, _, err := decode(doc)
		if err != nil {
			return
		}
		again := fresh(t, data)
		if encode(again, m) != nil {
			return
		}
		once, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := decode(fresh(t, once))
		if err != nil {
			t.Fatalf("own encoding does not decode: %v\n%s", err, once)
		}
		twice := fresh(t, once)
		if err := encode(twice, back); err != nil {
			t.Fatalf("own encoding's model does not encode: %v\n%s", err, once)
		}
		out, err := json.Marshal(twice)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once, out) {
			t.Fatalf("encode → decode → encode is not a fixed point:\n%s\n%s", once, out)
		}
	})
}
