package gltfio

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// minimal is a valid one-triangle document with asset and root members
// to fill in.
const minimal = `{"asset":{%s},%s"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}]}`

func parseDoc(asset, root string) error {
	doc := strings.Replace(strings.Replace(minimal, "%s", asset, 1), "%s", root, 1)
	_, err := parse("x.gltf", []byte(doc), Limits{}, true)
	return err
}

// wantErr checks err against want: "" for none, else a part of its text.
func wantErr(t *testing.T, label string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: refused: %v", label, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: got %v, want an error with %q", label, err, want)
	}
}

// TestAssetVersion: minVersion may not exceed version (the glTF spec),
// nor the 2.0 autocollide implements; a later 2.x version is read.
func TestAssetVersion(t *testing.T) {
	for _, c := range []struct {
		asset, want string // want "": accepted
	}{
		{`"version":"2.0"`, ""},
		{`"version":"2.1"`, ""},
		{`"version":"2.1","minVersion":"2.0"`, ""},
		{`"version":"2.0","minVersion":"2.0"`, ""},
		{`"version":"2.0","minVersion":"2.1"`, `asset.minVersion: "2.1" is later than asset.version "2.0"`},
		{`"version":"2.1","minVersion":"2.1"`, `asset.minVersion: the file requires glTF 2.1; autocollide reads glTF 2.0`},
		{`"version":"2.0","minVersion":"3.0"`, `is later than asset.version`},
		{`"version":"2.0","minVersion":"two"`, `asset.minVersion: "two" is not a version`},
		{`"version":"2.0","minVersion":2`, `asset.minVersion: not a string`},
		{`"version":"2.0.1"`, `asset.version: "2.0.1" is not glTF 2.x`},
		{`"version":"3.0"`, `is not glTF 2.x`},
		{`"version":"1.0"`, `is not glTF 2.x`},
	} {
		wantErr(t, "{"+c.asset+"}", parseDoc(c.asset, ""), c.want)
	}
}

// TestExtensionsRequired: a required extension autocollide does not know
// is refused by name; what it decodes, its physics and rendering-only
// extensions may be required.
func TestExtensionsRequired(t *testing.T) {
	for _, c := range []struct {
		required, want string
	}{
		{`[]`, ""},
		{`["KHR_mesh_quantization","EXT_meshopt_compression","KHR_draco_mesh_compression","KHR_texture_transform","KHR_materials_unlit"]`, ""},
		{`["KHR_texture_transform","EXT_made_up_geometry"]`, `extensionsRequired[1]: the file requires "EXT_made_up_geometry", which autocollide does not support`},
		{`["KHR_gaussian_splatting"]`, `requires "KHR_gaussian_splatting"`},
		{`["a\u001b[31mred"]`, `requires "a\x1b[31mred"`},
		{`[3]`, `extensionsRequired[0]: not a string`},
		{`{}`, `extensionsRequired: not an array`},
	} {
		wantErr(t, c.required, parseDoc(`"version":"2.0"`, `"extensionsRequired":`+c.required+`,`), c.want)
	}
}

// TestRequiredOKHasPhysics: every physics extension autocollide reads may
// be required without the load failing (validate then reports it).
func TestRequiredOKHasPhysics(t *testing.T) {
	for _, name := range append(codecs.Extensions(), physics.ExtOMIGravity) {
		if !slices.Contains(RequiredOK, name) {
			t.Errorf("%s is missing from RequiredOK", name)
		}
	}
}

// TestAssetFixtures: the shipped fixtures fail through Load with the
// file named.
func TestAssetFixtures(t *testing.T) {
	for file, want := range map[string]string{
		"min-version-later.gltf":          `asset.minVersion: "2.1" is later than asset.version "2.0"`,
		"required-unknown-extension.gltf": `extensionsRequired[1]: the file requires "EXT_made_up_geometry"`,
	} {
		p := filepath.Join("..", "testdata", "bad", file)
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p, Limits{})
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", file, err, want)
		}
	}
}
