package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/schema"
)

// namingRun is one naming fixture generated in one family.
type namingRun struct {
	in, out string
	rep     *generate.Report
	file    *gltfio.Asset  // the output as written
	model   *physics.Model // its physics, decoded
}

// generateNaming generates a fixture of testdata/naming with the naming
// conventions on, writes it, and checks what every output must satisfy:
// the validate command finds nothing (--strict), the schemas accept it,
// every vertex of the input (collision meshes included) lies inside the
// generated colliders, and generating again from the output gives the
// same bytes.
func generateNaming(t *testing.T, name, format string, opt generate.Options) namingRun {
	t.Helper()
	in := filepath.Join(testassets.Repo(), "testdata", "naming", name)
	opt.Encoding.Format = physics.Family(format)
	opt.Body.NamingConventions = true
	out := filepath.Join(t.TempDir(), format+"-"+name)
	once := func(path string) ([]byte, *generate.Report) {
		a, err := gltfio.Load(path, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := generate.Asset(context.Background(), a, opt)
		if err != nil {
			t.Fatalf("%s (%s): %v", name, format, err)
		}
		b, err := a.Encode(false)
		if err != nil {
			t.Fatal(err)
		}
		return b, rep
	}
	first, rep := once(in)
	if err := os.WriteFile(out, first, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCLI("validate", "--strict", out); code != 0 {
		t.Errorf("%s (%s): validate: exit %d: %s%s", name, format, code, stdout, stderr)
	}
	if err := schema.CheckDocument(first); err != nil {
		t.Errorf("%s (%s): schema: %v", name, format, err)
	}
	if again, _ := once(out); !bytes.Equal(again, first) {
		t.Errorf("%s (%s): generating again from the output gives other bytes", name, format)
	}
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var m *physics.Model
	if format == "omi" {
		m, _, err = omi.Decode(a.Doc)
	} else {
		m, _, err = khr.Decode(a.Doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := checkContainment(a); err != nil {
		t.Errorf("%s (%s): %v", name, format, err)
	}
	if err := inputContained(in, a, m); err != nil {
		t.Errorf("%s (%s): %v", name, format, err)
	}
	return namingRun{in: in, out: out, rep: rep, file: a, model: m}
}

// inputContained checks that every vertex of every mesh instance of the
// input file, in world space, lies inside one of the output's colliders.
func inputContained(in string, out *gltfio.Asset, m *physics.Model) error {
	src, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		return err
	}
	ex, err := mesh.Extract(src.Doc)
	if err != nil {
		return err
	}
	world, err := mesh.WorldTransforms(out.Doc)
	if err != nil {
		return err
	}
	var cs []worldCollider
	for _, i := range m.NodeIndices() {
		c := m.Nodes[i].Collider
		if c == nil || c.Shape < 0 {
			continue
		}
		inv, _ := world[i].Inverse()
		wc := worldCollider{inv: inv, shape: m.Shapes[c.Shape]}
		if wc.shape.Type == physics.Convex {
			if wc.planes, err = hullPlanes(out, wc.shape.Mesh); err != nil {
				return err
			}
		}
		cs = append(cs, wc)
	}
	for _, p := range ex.Parts {
		tol := containTol * geom.BoundsOf(p.Vertices).Diagonal()
		for vi, v := range p.Vertices {
			if !slices.ContainsFunc(cs, func(c worldCollider) bool { return contains(c.shape, c.planes, c.inv.Point(v), tol) }) {
				return fmt.Errorf("%s: vertex %d %v lies outside every collider", p.Name, vi, v)
			}
		}
	}
	return nil
}

// colliders returns the nodes with a collider, and their shapes' types.
func colliders(m *physics.Model) ([]int, []physics.ShapeType) {
	var nodes []int
	var types []physics.ShapeType
	for _, i := range m.NodeIndices() {
		if c := m.Nodes[i].Collider; c != nil {
			nodes = append(nodes, i)
			types = append(types, m.Shapes[c.Shape].Type)
		}
	}
	return nodes, types
}

// parentOf returns node i's parent in the written file (-1 for a root).
func parentOf(a *gltfio.Asset, i int) int {
	for p, n := range a.Doc.Nodes {
		if slices.Contains(n.Children, i) {
			return p
		}
	}
	return -1
}

func hasMesh(a *gltfio.Asset, i int) bool { return a.Doc.Nodes[i].Mesh != nil }

// motionOf returns the motion type the file gives node i: KHR writes a
// static body as no motion.
func motionOf(m *physics.Model, i int) physics.MotionType {
	if n := m.Nodes[i]; n != nil && n.Motion != nil {
		return n.Motion.Type
	}
	return physics.Static
}

// TestNamingUCX: UCX_Chair_01 becomes the convex collider of the render
// mesh Chair (its hull), no longer renders, and Chair gets no generated
// collider of its own; the body's mass comes from the closed chair.
func TestNamingUCX(t *testing.T) {
	for _, format := range []string{"omi", "khr"} {
		r := generateNaming(t, "ucx_hull.gltf", format, generate.Options{Collider: generate.ColliderSettings{Method: generate.Box}})
		nodes, types := colliders(r.model)
		if len(nodes) != 1 || types[0] != physics.Convex || parentOf(r.file, nodes[0]) != 0 {
			t.Fatalf("%s: colliders %v %v, want one convex hull under Chair (nodes[0])", format, nodes, types)
		}
		if hasMesh(r.file, 1) || !hasMesh(r.file, 0) {
			t.Errorf("%s: UCX_Chair_01 still renders, or Chair does not", format)
		}
		if motionOf(r.model, 0) != physics.Dynamic || r.rep.Bodies != 1 {
			t.Errorf("%s: %d bodies, Chair's motion %s", format, r.rep.Bodies, motionOf(r.model, 0))
		}
		// Seat 0.5×0.45×0.5 plus back 0.48×0.55×0.05.
		if b := r.rep.BodyList[0]; b.MassSource != generate.SourceMesh || math.Abs(b.Volume-0.1257) > 1e-6 {
			t.Errorf("%s: body volume %v from %s, want 0.1257 from the mesh", format, b.Volume, b.MassSource)
		}
		for _, p := range r.rep.Parts {
			want := map[string]generate.Method{"Chair": generate.None, "UCX_Chair_01": generate.Hull}[p.Name]
			if p.Method != want || p.Reason == "" {
				t.Errorf("%s: part %s: method %s (%q), want %s", format, p.Name, p.Method, p.Reason, want)
			}
		}
	}
}

// TestNamingUBX: UBX_Crate becomes the box collider of Crate, the size of
// the artist's box.
func TestNamingUBX(t *testing.T) {
	for _, format := range []string{"omi", "khr"} {
		r := generateNaming(t, "ubx_box.gltf", format, generate.Options{Collider: generate.ColliderSettings{Method: generate.Hull}})
		nodes, types := colliders(r.model)
		if len(nodes) != 1 || types[0] != physics.Box || parentOf(r.file, nodes[0]) != 0 {
			t.Fatalf("%s: colliders %v %v, want one box under Crate", format, nodes, types)
		}
		size := r.model.Shapes[r.model.Nodes[nodes[0]].Collider.Shape].Size
		got := []float64{size[0], size[1], size[2]}
		slices.Sort(got)
		for i, want := range []float64{0.44, 0.64, 0.66} {
			if math.Abs(got[i]-want) > 1e-5 {
				t.Errorf("%s: box size %v, want the artist's 0.64×0.66×0.44", format, size)
				break
			}
		}
		if hasMesh(r.file, 1) {
			t.Errorf("%s: UBX_Crate still renders", format)
		}
	}
}

// TestNamingGodotConvColOnly: RockCollision-convcolonly becomes the
// convex collider of a static body (Godot's StaticBody3D), stops
// rendering, and the render mesh beside it gets no collider.
func TestNamingGodotConvColOnly(t *testing.T) {
	for _, format := range []string{"omi", "khr"} {
		r := generateNaming(t, "godot_convcolonly.gltf", format, generate.Options{Collider: generate.ColliderSettings{Method: generate.Sphere}})
		nodes, types := colliders(r.model)
		if len(nodes) != 1 || types[0] != physics.Convex || parentOf(r.file, nodes[0]) != 0 {
			t.Fatalf("%s: colliders %v %v, want one hull under Rock", format, nodes, types)
		}
		if motionOf(r.model, 0) != physics.Static || r.rep.BodyList[0].Motion != physics.Static {
			t.Errorf("%s: Rock is %s, want static", format, motionOf(r.model, 0))
		}
		if format == "omi" && (r.model.Nodes[0].Motion == nil || r.model.Nodes[0].Motion.Mass != nil) {
			t.Errorf("%s: a static body is written as motion type static, without mass", format)
		}
		if hasMesh(r.file, 2) || !hasMesh(r.file, 1) {
			t.Errorf("%s: the collision mesh still renders, or the render mesh does not", format)
		}
	}
}

// TestNamingGodotRigid: in a level made static by the options,
// Barrel-rigid is a dynamic body of its own with its mass, and the floor
// stays in the static body of the root.
func TestNamingGodotRigid(t *testing.T) {
	for _, format := range []string{"omi", "khr"} {
		r := generateNaming(t, "godot_rigid.gltf", format, generate.Options{Collider: generate.ColliderSettings{Method: generate.Hull}, Body: generate.BodySettings{Motion: physics.Static}})
		if motionOf(r.model, 0) != physics.Static || motionOf(r.model, 2) != physics.Dynamic || r.rep.Bodies != 2 {
			t.Fatalf("%s: %d bodies; Props %s, Barrel-rigid %s", format, r.rep.Bodies, motionOf(r.model, 0), motionOf(r.model, 2))
		}
		// A 16-sided prism of radius 0.3 and height 0.9, at 1000 kg/m³.
		want := 1000 * 0.5 * 16 * 0.09 * math.Sin(2*math.Pi/16) * 0.9
		if mo := r.model.Nodes[2].Motion; mo.Mass == nil || math.Abs(*mo.Mass-want) > 1e-3*want {
			t.Errorf("%s: barrel mass %v, want %.3f", format, mo.Mass, want)
		}
		nodes, _ := colliders(r.model)
		under := map[int]int{}
		for _, n := range nodes {
			under[parentOf(r.file, n)]++
		}
		if under[0] != 1 || under[2] != 1 {
			t.Errorf("%s: colliders by parent %v, want one under Props and one under Barrel-rigid", format, under)
		}
	}
}

// TestNamingValidator: the naming fixtures' outputs pass the Khronos glTF
// validator without errors, in both families.
func TestNamingValidator(t *testing.T) {
	var files []string
	opts := map[string]generate.Options{"godot_rigid.gltf": {Body: generate.BodySettings{Motion: physics.Static}}}
	for _, name := range []string{"ucx_hull.gltf", "ubx_box.gltf", "godot_convcolonly.gltf", "godot_rigid.gltf"} {
		for _, format := range []string{"omi", "khr"} {
			files = append(files, generateNaming(t, name, format, opts[name]).out)
		}
	}
	res := runValidator(t, files)
	for _, f := range files {
		r, ok := res[f]
		if !ok {
			t.Errorf("%s: no validator result", filepath.Base(f))
		} else if r.Errors != 0 {
			t.Errorf("%s: %d validator errors: %v", filepath.Base(f), r.Errors, r.Codes)
		}
	}
}

// TestMethodNone: the command line takes method none, which writes no
// physics at all and is not mistaken for a file without geometry.
func TestMethodNone(t *testing.T) {
	out := filepath.Join(t.TempDir(), "none.glb")
	if code, _, stderr := runCLI("generate", example(t), "-o", out, "--method", "none"); code != 0 {
		t.Fatalf("none: exit %d: %s", code, stderr)
	}
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if codecs.Family(a.Doc) != physics.None || len(a.Doc.ExtensionsUsed) != 0 {
		t.Errorf("none: the output has physics (%v)", a.Doc.ExtensionsUsed)
	}
}
