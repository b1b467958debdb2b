package gltfio

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// addFileSeeds adds every .gltf and .glb file of testdata/bad,
// testdata/physics and testdata/examples to the fuzz corpus.
func addFileSeeds(f *testing.F, add func(name string, data []byte)) {
	root := filepath.Join(testassets.Repo(), "testdata")
	for _, dir := range []string{"bad", "physics/good", "physics/bad", "physics/legacy", "examples"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.gl*"))
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			add(p, data)
		}
	}
}

// FuzzLoad parses arbitrary bytes as a .glb (binary set) or .gltf file
// in an empty folder. Loading may fail, never panic or change its input;
// a loaded asset encodes to a file that loads again and encodes to the
// same bytes (in both containers).
func FuzzLoad(f *testing.F) {
	addFileSeeds(f, func(name string, data []byte) { f.Add(data, IsBinaryName(name)) })
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, binary bool) {
		name := filepath.Join(dir, "fuzz.gltf")
		if binary {
			name = filepath.Join(dir, "fuzz.glb")
		}
		orig := bytes.Clone(data)
		a, err := parse(name, data, Limits{}, true)
		if !bytes.Equal(data, orig) {
			t.Fatal("parse changed its input")
		}
		if err != nil {
			return
		}
		for _, glb := range []bool{true, false} {
			out, err := a.Encode(glb)
			if err != nil {
				t.Fatalf("encode (glb %v) of a loaded asset: %v", glb, err)
			}
			outName := filepath.Join(dir, "again.gltf")
			if glb {
				outName = filepath.Join(dir, "again.glb")
			}
			b, err := parse(outName, out, Limits{}, true)
			if err != nil {
				t.Fatalf("own output (glb %v) does not load: %v\n%.500q", glb, err, out)
			}
			again, err := b.Encode(glb)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, again) {
				t.Fatalf("encode is not a fixed point (glb %v):\n%.500q\n%.500q", glb, out, again)
			}
		}
	})
}

// FuzzParseJSON: ParseJSON may refuse a document, never panic; an accepted
// document encodes (compact or indented) to JSON that parses to an equal
// tree and encodes to the same bytes.
func FuzzParseJSON(f *testing.F) {
	addFileSeeds(f, func(name string, data []byte) {
		if !IsBinaryName(name) {
			f.Add(data)
		}
	})
	f.Add([]byte(`{"a":{"b":[1,2.5e300,-0,"\u00e9\ud83d\ude00",true,null,{}]},"c":"x\"y"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tree, err := ParseJSON(data)
		if err != nil {
			return
		}
		for _, indent := range []string{"", "  "} {
			out, err := Encode(tree, indent)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			back, err := ParseJSON(out)
			if err != nil {
				t.Fatalf("own output does not parse: %v\n%.500q", err, out)
			}
			if !Equal(tree, back) {
				t.Fatalf("round trip changed the tree:\n%.500q\n%.500q", data, out)
			}
			again, err := Encode(back, indent)
			if err != nil || !bytes.Equal(out, again) {
				t.Fatalf("encode is not a fixed point: %v\n%.500q\n%.500q", err, out, again)
			}
		}
	})
}
