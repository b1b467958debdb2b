package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
)

func example(t *testing.T) string {
	return filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb")
}

func TestUsageErrors(t *testing.T) {
	in := example(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"generate", in}, // no output mode
		{"generate", in, "-o", "a.glb", "--in-place"},       // two output modes
		{"generate", in, in, "-o", filepath.Join(dir, "x")}, // -o with two inputs
		{"generate", in, "-o", filepath.Join(dir, "x.glb"), "--format", "usd"},
		{"generate", in, "-o", filepath.Join(dir, "x.glb"), "--method", "blob"},
		{"generate", in, "-o", filepath.Join(dir, "x.glb"), "--profile", "no-such-preset"},
		{"generate", in, "-o", filepath.Join(dir, "x.glb"), "--max-hull-vertices", "3"},
		{"generate", in, "-o", filepath.Join(dir, "x.glb"), "--no-such-flag"},
		{"generate"},
		{"no-such-command"},
	} {
		code, _, stderr := runCLI(args...)
		if code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d %q, want 2 with a message", args, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("usage errors wrote files: %v", entries)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI("version")
	if code != 0 || !strings.HasPrefix(out, "autocollide ") {
		t.Fatalf("version: %d %q", code, out)
	}
}

// TestInputNeverModified: without --in-place the input's bytes stay as
// they were, writing onto the input is refused, and --in-place works and
// is idempotent.
func TestInputNeverModified(t *testing.T) {
	src, _ := os.ReadFile(example(t))
	dir := t.TempDir()
	in := filepath.Join(dir, "furniture.glb")
	os.WriteFile(in, src, 0o644)
	if code, _, stderr := runCLI("generate", in, "-o", in); code != 1 || !strings.Contains(stderr, "--in-place") {
		t.Fatalf("writing onto the input: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("generate", in, "--out-dir", filepath.Join(dir, "out")); code != 0 {
		t.Fatal(stderr)
	}
	now, _ := os.ReadFile(in)
	if !bytes.Equal(now, src) {
		t.Fatal("input modified without --in-place")
	}
	if code, _, stderr := runCLI("generate", in, "--in-place"); code != 0 {
		t.Fatal(stderr)
	}
	first, _ := os.ReadFile(in)
	out, _ := os.ReadFile(filepath.Join(dir, "out", "furniture.glb"))
	if !bytes.Equal(first, out) {
		t.Fatal("--in-place output differs from --out-dir output")
	}
	runCLI("generate", in, "--in-place")
	second, _ := os.ReadFile(in)
	if !bytes.Equal(first, second) {
		t.Fatal("a second --in-place run changed the file")
	}
}

// TestGLTFToOtherFolder: a .gltf with external buffers and images written
// to another folder still resolves everything (and converting containers
// both ways loads back).
func TestGLTFToOtherFolder(t *testing.T) {
	var in string
	for _, f := range testassets.Corpus(t) {
		if strings.HasSuffix(f, "Box With Spaces.gltf") {
			in = f
		}
	}
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "a", "box.gltf"), filepath.Join(dir, "b", "box.glb")} {
		os.MkdirAll(filepath.Dir(out), 0o755)
		if code, _, stderr := runCLI("generate", in, "-o", out); code != 0 {
			t.Fatal(stderr)
		}
		a, err := gltfio.Load(out, gltfio.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		for _, r := range a.Resources {
			if _, err := os.Stat(filepath.Join(filepath.Dir(out), filepath.FromSlash(r))); err != nil {
				t.Errorf("%s: referenced %q missing: %v", out, r, err)
			}
		}
	}
}

// TestQuantizedDuck: the quantized Duck gives the same collider as the
// float Duck within 1e-4 of its size.
func TestQuantizedDuck(t *testing.T) {
	var float, quant string
	for _, f := range testassets.Corpus(t) {
		switch {
		case strings.HasSuffix(f, "Duck/glTF-Binary/Duck.glb"):
			float = f
		case strings.HasSuffix(f, "Duck_glTF-Quantized/glTF-Quantized/Duck.gltf"):
			quant = f
		}
	}
	dir := t.TempDir()
	boxes := map[string]geom.Box{}
	for name, in := range map[string]string{"float": float, "quant": quant} {
		out := filepath.Join(dir, name+filepath.Ext(in))
		if code, _, stderr := runCLI("generate", in, "-o", out, "--method", "aabb"); code != 0 {
			t.Fatal(stderr)
		}
		a, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		world, err := mesh.WorldTransforms(a.Doc)
		if err != nil {
			t.Fatal(err)
		}
		// The world-space corners of the generated box collider.
		b := geom.EmptyBox()
		for i := range a.Doc.Nodes {
			node := a.Tree.Arr("nodes")[i].(*gltfio.Object)
			if node.Obj("extensions").Obj("OMI_physics_body").Obj("collider") == nil {
				continue
			}
			size := boxSize(t, a, i)
			for c := 0; c < 8; c++ {
				corner := geom.Vec3{float64(c&1) - 0.5, float64(c>>1&1) - 0.5, float64(c>>2&1) - 0.5}.Mul(size)
				b = b.Extend(world[i].Point(corner))
			}
		}
		boxes[name] = b
	}
	f, q := boxes["float"], boxes["quant"]
	tol := 1e-4 * f.Diagonal()
	for c := 0; c < 3; c++ {
		if math.Abs(f.Min[c]-q.Min[c]) > tol || math.Abs(f.Max[c]-q.Max[c]) > tol {
			t.Fatalf("float Duck collider %v, quantized %v: differ by more than %g", f, q, tol)
		}
	}
}

// boxSize reads the OMI box size of the collider on node i from the tree.
func boxSize(t *testing.T, a *gltfio.Asset, i int) geom.Vec3 {
	node := a.Tree.Arr("nodes")[i].(*gltfio.Object)
	shapeIdx, ok := node.Obj("extensions").Obj("OMI_physics_body").Obj("collider").Int("shape")
	if !ok {
		t.Fatal("collider without shape")
	}
	shape := a.Tree.Obj("extensions").Obj("OMI_physics_shape").Arr("shapes")[shapeIdx].(*gltfio.Object)
	var s geom.Vec3
	for c, v := range shape.Obj("box").Arr("size") {
		f, _ := v.(interface{ Float64() (float64, error) }).Float64()
		s[c] = f
	}
	return s
}
