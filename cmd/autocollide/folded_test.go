package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// foldedGLTF is a .gltf of one closed mesh whose two pieces are wound
// against each other (a unit cube, and 10 m along X a 0.9 m cube inside
// out): closed, positive volume, a negative moment of inertia.
func foldedGLTF() []byte {
	var b bytes.Buffer
	cube := func(c [3]float32, s float32) {
		for i := range 8 {
			binary.Write(&b, binary.LittleEndian, [3]float32{
				c[0] + s*(float32(i&1)-0.5), c[1] + s*(float32(i>>1&1)-0.5), c[2] + s*(float32(i>>2&1)-0.5)})
		}
	}
	cube([3]float32{}, 1)
	cube([3]float32{10, 0, 0}, 0.9)
	tris := [][3]uint16{
		{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
		{0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
		{0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5},
	}
	for _, t := range tris {
		binary.Write(&b, binary.LittleEndian, t)
	}
	for _, t := range tris { // the second cube, inside out
		binary.Write(&b, binary.LittleEndian, [3]uint16{t[0] + 8, t[2] + 8, t[1] + 8})
	}
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
	return []byte(fmt.Sprintf(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"name":"Folded","mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":16,"type":"VEC3","min":[-0.5,-0.5,-0.5],"max":[10.45,0.5,0.5]},
 {"bufferView":1,"componentType":5123,"count":72,"type":"SCALAR"}],
"bufferViews":[{"buffer":0,"byteLength":192},{"buffer":0,"byteOffset":192,"byteLength":144}],
"buffers":[{"byteLength":336,"uri":%q}]}`, uri))
}

// TestFoldedMeshWeighed (issue 41, defect 11): a closed mesh that
// integrates to a negative moment of inertia gets a valid result, its
// inertia from its colliders (before: exit 1 with "an autocollide bug",
// the generated physics failing validate), in every family.
func TestFoldedMeshWeighed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "folded.gltf")
	if err := os.WriteFile(in, foldedGLTF(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"omi", "khr"} {
		out := filepath.Join(dir, format+".gltf")
		rep := filepath.Join(dir, format+".json")
		code, _, stderr := runCLI("generate", in, "-o", out, "--format", format, "--method", "hull", "--report", rep)
		if code != exitOK {
			t.Fatalf("%s: exit %d %q, want 0", format, code, stderr)
		}
		if code, vout, _ := runCLI("validate", "-q", out); code != exitOK {
			t.Errorf("%s: output does not validate:\n%s", format, vout)
		}
		data, err := os.ReadFile(rep)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"inertiaSource": "colliders"`) {
			t.Errorf("%s: the report does not say the inertia comes from the colliders:\n%s", format, data)
		}
	}
}
