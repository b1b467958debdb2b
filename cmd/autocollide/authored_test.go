package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/omi"
)

// TestAuthoredBodyKept: in a file where one root already has an artist's
// OMI body, that body's JSON is kept exactly, the other roots get
// generated bodies in either family, and stripping gives the input back.
func TestAuthoredBodyKept(t *testing.T) {
	a, err := gltfio.Load(example(t), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Give "Ball" (nodes[6]) a hand-written OMI sphere body.
	shapes, _ := gltfio.FromJSON([]byte(`{"shapes":[{"type":"sphere","sphere":{"radius":0.25},"extras":{"artist":"kept"}}]}`))
	a.Tree.Set("extensions", gltfio.NewObject())
	a.Tree.Obj("extensions").Set("OMI_physics_shape", shapes)
	body, _ := gltfio.FromJSON([]byte(`{"motion":{"type":"dynamic","mass":3},"collider":{"shape":0}}`))
	ball := a.Tree.Arr("nodes")[6].(*gltfio.Object)
	ball.Set("extensions", gltfio.NewObject())
	ball.Obj("extensions").Set("OMI_physics_body", body)
	a.Tree.Set("extensionsUsed", []any{"OMI_physics_shape", "OMI_physics_body"})
	dir := t.TempDir()
	in := filepath.Join(dir, "in.gltf")
	data, err := a.Encode(false)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(in, data, 0o644)
	orig, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// --format omi, and the khr profile (whose format is a default that
	// the file's OMI family overrides): both write OMI beside the OMI body.
	for format, flags := range map[string][]string{"omi": {"--format", "omi"}, "khr-profile": {"--profile", "khr"}} {
		out := filepath.Join(dir, format+".gltf")
		if code, _, stderr := runCLI(append([]string{"generate", in, "-o", out, "--method", "aabb"}, flags...)...); code != 0 {
			t.Fatal(stderr)
		}
		got, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		// The artist's shape and body are untouched.
		gotShapes := got.Tree.Obj("extensions").Obj("OMI_physics_shape").Arr("shapes")
		if len(gotShapes) == 0 || !gltfio.Equal(gotShapes[0], shapes.(*gltfio.Object).Arr("shapes")[0]) {
			t.Errorf("%s: the artist's shape changed: %v", format, gotShapes)
		}
		gotBall := got.Tree.Arr("nodes")[6].(*gltfio.Object)
		if !gltfio.Equal(gotBall.Obj("extensions"), ball.Obj("extensions")) {
			t.Errorf("%s: the artist's body changed", format)
		}
		if len(gotBall.Arr("children")) != 0 {
			t.Errorf("%s: colliders generated under the authored body", format)
		}
		// The other two roots became bodies in the file's family.
		if fam := codecs.Family(got.Doc); fam != physics.OMI {
			t.Errorf("%s: family %q", format, fam)
		}
		model, _, err := omi.Decode(got.Doc)
		if err != nil {
			t.Fatal(err)
		}
		bodies := 0
		for _, i := range model.NodeIndices() {
			if model.Nodes[i].Motion != nil {
				bodies++
			}
		}
		if bodies != 3 {
			t.Errorf("%s: %d bodies, want 3", format, bodies)
		}
		if err := checkContainment(got); err != nil {
			t.Errorf("%s: %v", format, err)
		}
		stripped, err := gltfio.Load(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !gltfio.Equal(stripped.Tree, orig.Tree) {
			t.Errorf("%s: stripping the output does not give the input back", format)
		}
	}
}
