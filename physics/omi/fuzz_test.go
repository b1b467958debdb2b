package omi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/physics/omi"
	"github.com/qmuntal/gltf"
)

// FuzzDecode decodes arbitrary JSON as a glTF document with omi physics:
// Decode may refuse it, never panic. Decode does not validate, so Encode
// may refuse a decoded model (an index out of range, say) with an error;
// when it accepts it, its output decodes, and encoding that model again
// gives the same document: the encoding is a fixed point after one round.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "physics", "*", "*.gltf"))
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
		m, _, err := omi.Decode(doc)
		if err != nil {
			return
		}
		again := fresh(t, data)
		if omi.Encode(again, m) != nil {
			return
		}
		once, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := omi.Decode(fresh(t, once))
		if err != nil {
			t.Fatalf("own encoding does not decode: %v\n%s", err, once)
		}
		twice := fresh(t, once)
		if err := omi.Encode(twice, back); err != nil {
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
