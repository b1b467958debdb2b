package conformance

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCases: names are unique, every broken variant differs from its case
// and names a path that exists in the case, and the matrix holds every
// shape kind of each family on every motion.
func TestCases(t *testing.T) {
	seen := map[string]bool{}
	matrix := map[string]bool{}
	for _, c := range Cases() {
		if seen[c.Name] {
			t.Errorf("duplicate case %s", c.Name)
		}
		seen[c.Name] = true
		if c.Topic == "collider" {
			matrix[string(c.Family)+"/"+c.Shape+"/"+c.Motion] = true
		}
		for _, b := range c.Broken {
			if equalJSON(b.JSON, c.JSON) {
				t.Errorf("%s--%s: same as the case", c.Name, b.Name)
			}
			// The path's object (or, for a member, its parent) exists.
			p := b.Path
			if at(c.JSON, p) == nil {
				p = p[:strings.LastIndexAny(p, ".[")]
			}
			if at(c.JSON, p) == nil && at(b.JSON, p) == nil {
				t.Errorf("%s--%s: path %s is not in the document", c.Name, b.Name, b.Path)
			}
		}
	}
	for _, fam := range []Family{OMI, KHR} {
		for _, s := range matrixShapes(fam) {
			for _, m := range []string{Static, Kinematic, Dynamic} {
				if !matrix[string(fam)+"/"+s+"/"+m] {
					t.Errorf("matrix lacks %s %s %s", fam, s, m)
				}
			}
		}
	}
	if len(seen) < 80 {
		t.Errorf("only %d cases", len(seen))
	}
}

// TestWrite: the .gltf parses with its buffer beside it (or embedded), and
// the .glb is one file whose chunks hold the same JSON and the buffer.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	for _, c := range Cases() {
		f, err := c.Write(dir)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		js, _ := os.ReadFile(f.GLTF)
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatalf("%s: %v", f.GLTF, err)
		}
		uri, _ := obj(arr(doc["buffers"])[0])["uri"].(string)
		if c.Embedded != strings.HasPrefix(uri, "data:") {
			t.Errorf("%s: buffer uri %.30q", c.Name, uri)
		}
		if !c.Embedded {
			if b, err := os.ReadFile(filepath.Join(dir, uri)); err != nil || !bytes.Equal(b, c.bin) {
				t.Errorf("%s: buffer file %s: %v", c.Name, uri, err)
			}
		}
		g, _ := os.ReadFile(f.GLB)
		if len(g) < 28 || string(g[:4]) != "glTF" || int(binary.LittleEndian.Uint32(g[8:])) != len(g) {
			t.Fatalf("%s: bad GLB header", f.GLB)
		}
		n := binary.LittleEndian.Uint32(g[12:])
		var gdoc map[string]any
		if err := json.Unmarshal(g[20:20+n], &gdoc); err != nil {
			t.Fatalf("%s: JSON chunk: %v", f.GLB, err)
		}
		if _, has := obj(arr(gdoc["buffers"])[0])["uri"]; has {
			t.Errorf("%s: GLB buffer has a uri", c.Name)
		}
		binChunk := g[28+n:]
		if !bytes.HasPrefix(binChunk, c.bin) || len(binChunk)%4 != 0 {
			t.Errorf("%s: BIN chunk differs from the buffer", c.Name)
		}
		delete(obj(arr(doc["buffers"])[0]), "uri")
		if !equalJSON(doc, gdoc) {
			t.Errorf("%s: .gltf and .glb JSON differ", c.Name)
		}
	}
}
