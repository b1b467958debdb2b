package validate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"testing/fstest"

	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

// FuzzValidate validates arbitrary JSON as a glTF document (data: URI
// buffers decoded, no other file readable): Validate must not panic,
// every problem has a path, a message and a known severity, the list is
// sorted as documented, and a second run gives the same list.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "physics", "*", "*.gltf"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, skipMesh bool) {
		if len(data) > 1<<16 {
			return
		}
		load := func() *gltf.Document {
			doc := new(gltf.Document)
			if gltf.NewDecoderFS(bytes.NewReader(data), fstest.MapFS{}).Decode(doc) != nil {
				return nil
			}
			return doc
		}
		doc := load()
		if doc == nil {
			return
		}
		opt := validate.Options{SkipMeshData: skipMesh}
		probs := validate.Validate(doc, opt)
		for _, p := range probs {
			if p.Path == "" || p.Message == "" || p.Severity < validate.Error || p.Severity > validate.Info {
				t.Fatalf("incomplete problem %+v", p)
			}
		}
		if !sort.SliceIsSorted(probs, func(i, j int) bool {
			a, b := probs[i], probs[j]
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			if a.Severity != b.Severity {
				return a.Severity < b.Severity
			}
			return a.Message < b.Message
		}) {
			t.Fatalf("problems not sorted: %v", probs)
		}
		if again := validate.Validate(load(), opt); !reflect.DeepEqual(probs, again) {
			t.Fatalf("not deterministic:\n%v\n%v", probs, again)
		}
	})
}
