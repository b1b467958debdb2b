package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

// boxOBJ appends an axis-aligned box's 8 vertices and 12 outward
// triangles to b, its vertices numbered from base (0-based).
func boxOBJ(b *strings.Builder, lo, hi geom.Vec3, base int) {
	for i := 0; i < 8; i++ {
		p := lo
		for a := 0; a < 3; a++ {
			if i&(1<<a) != 0 {
				p[a] = hi[a]
			}
		}
		fmt.Fprintf(b, "v %g %g %g\n", p[0], p[1], p[2])
	}
	for _, f := range [][4]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
		fmt.Fprintf(b, "f %d %d %d\nf %d %d %d\n", base+f[0]+1, base+f[1]+1, base+f[2]+1, base+f[0]+1, base+f[2]+1, base+f[3]+1)
	}
}

// TestPileOfPeerHulls runs the whole benchmark on a tiny pile (2 copies, 5
// steps, both engines) of an L-shaped mesh with two "peer" sets from the
// work folder's cache: its exact two boxes, and one box holding half of
// it. The figures must tell them apart, the engines must load the files
// the tool wrote with the colliders the Go reader counted, and the table
// must carry every set.
func TestPileOfPeerHulls(t *testing.T) {
	tools := testassets.NodeModule(t, "jolt-physics")
	testassets.NodeModule(t, "@dimforge/rapier3d-compat")
	dir := t.TempDir()
	// The L: a 2×1×1 bar and a 1×1×1 cube on its left end, as one closed
	// mesh made of two boxes sharing the face y = 1 (meshes need not be
	// manifold for the figures).
	var l strings.Builder
	boxOBJ(&l, geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 1}, 0)
	boxOBJ(&l, geom.Vec3{0, 1, 0}, geom.Vec3{1, 2, 1}, 8)
	input := filepath.Join(dir, "ell.obj")
	if err := os.WriteFile(input, []byte(l.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(work, "ell"), 0o755); err != nil {
		t.Fatal(err)
	}
	// vhacd-h2: the two boxes (an exact decomposition); coacd-c2: the bar only.
	if err := os.WriteFile(filepath.Join(work, "ell", "vhacd-h2.obj"), []byte(l.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var half strings.Builder
	boxOBJ(&half, geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 1}, 0)
	if err := os.WriteFile(filepath.Join(work, "ell", "coacd-c2.obj"), []byte(half.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := config{
		ac: "autocollide-not-used", ks: []int{2}, vhacd: "TestVHACD-not-used", vhacdDefault: 32, coacd: "coacd-not-used", peersCached: true,
		engines: []string{"jolt", "rapier"}, n: 2, steps: 5, maxSteps: 5, repeat: 1, jobs: 2, seed: 1,
		samples: 2000, work: work, ratioTo: "vhacd-h2", sets: []string{"vhacd-h2", "coacd-c2", "vhacd-default"}, tools: tools,
	}
	var log bytes.Buffer
	res, err := benchmark(c, []string{input}, &log)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(res.Assets) != 1 || len(res.Assets[0].Sets) != 3 {
		t.Fatalf("want 1 asset with 3 sets, got %+v", res.Assets)
	}
	a := res.Assets[0]
	if d := a.Diagonal; math.Abs(d-3) > 1e-9 {
		t.Errorf("diagonal %g, want 3", d)
	}
	sets := map[string]setResult{}
	for _, s := range a.Sets {
		sets[s.Name] = s
	}
	if e := sets["vhacd-default"].Error; !strings.Contains(e, "not run") {
		t.Errorf("vhacd-default without its cached hulls: error %q, want \"not run\"", e)
	}
	exact, bar := sets["vhacd-h2"], sets["coacd-c2"]
	if exact.Error != "" || bar.Error != "" {
		t.Fatalf("errors: %q, %q", exact.Error, bar.Error)
	}
	if exact.Colliders != 2 || exact.Shapes["convex"] != 2 || exact.HullVertices != 16 || bar.Colliders != 1 {
		t.Errorf("colliders: exact %d (%v, %d vertices), bar %d; want 2 convex of 16 vertices and 1", exact.Colliders, exact.Shapes, exact.HullVertices, bar.Colliders)
	}
	if exact.Coverage != 1 || exact.Uncovered != 0 || exact.OuterDist > 1e-6 {
		t.Errorf("exact decomposition: coverage %g, uncovered %g, outer dist %g; want 1, 0, 0", exact.Coverage, exact.Uncovered, exact.OuterDist)
	}
	// The cube's 4 top vertices are outside the bar: 12 of 16 inside.
	if bar.Coverage != 0.75 || !(bar.Uncovered > 0.2) {
		t.Errorf("bar only: coverage %g (want 0.75), uncovered %g (want > 0.2)", bar.Coverage, bar.Uncovered)
	}
	for _, s := range []setResult{exact, bar} {
		for _, e := range c.engines {
			er := s.Engines[e]
			if er == nil || len(er.Runs) != 1 || er.Error != "" {
				t.Fatalf("%s %s: %+v", s.Name, e, er)
			}
			r := er.Runs[0]
			if r.Colliders != s.Colliders || r.Steps != 5 || r.Frames != 5 || !(er.ActiveCPU > 0) || !(er.MedianWall > 0) || r.Escaped != 0 {
				t.Errorf("%s %s: %+v (want %d colliders, 5 steps, positive times, none escaped)", s.Name, e, r, s.Colliders)
			}
			if r.HullPoints != s.HullVertices {
				t.Errorf("%s %s: the engine got %d hull points, the Go reader %d", s.Name, e, r.HullPoints, s.HullVertices)
			}
		}
	}
	var md bytes.Buffer
	printMarkdown(&md, c, res)
	for _, want := range []string{"| vhacd-h2 | 2 convex | 16 | ", "| coacd-c2 | 1 convex |", "| vhacd-default | error: ", "(1.00)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, md.String())
		}
	}
}

// TestBrokenInputs: a broken input names its file, and a broken peer OBJ
// is an error of its set, not of the run.
func TestBrokenInputs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.obj")
	os.WriteFile(bad, []byte("v 0 0 0\nf 1 2 3\n"), 0o644)
	if _, err := prepareAsset(bad, dir); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("broken OBJ input: error %v, want one naming %s", err, bad)
	}
	if _, err := prepareAsset(filepath.Join(dir, "x.stl"), dir); err == nil || !strings.Contains(err.Error(), "x.stl") {
		t.Errorf("unknown format: error %v", err)
	}
	if _, err := readHullsOBJ(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("broken peer OBJ: error %v, want one naming %s", err, bad)
	}
	notGLTF := filepath.Join(dir, "n.glb")
	os.WriteFile(notGLTF, []byte("nope"), 0o644)
	if _, err := readColliders(notGLTF); err == nil || !strings.Contains(err.Error(), notGLTF) {
		t.Errorf("broken glTF: error %v, want one naming %s", err, notGLTF)
	}
}

// TestPrimitiveHulls: each primitive collider read back as a hull contains
// the primitive (every point of its surface within the hull) and has at
// most 2.5% more volume.
func TestPrimitiveHulls(t *testing.T) {
	shapes := []physics.Shape{
		{Type: physics.Box, Size: [3]float64{1, 2, 3}},
		{Type: physics.Sphere, Radius: 0.5},
		{Type: physics.Capsule, Height: 1, RadiusTop: 0.25, RadiusBottom: 0.25},
		{Type: physics.Cylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.5},
	}
	volumes := []float64{6, 4.0 / 3 * math.Pi / 8, math.Pi*0.25*0.25*1 + 4.0/3*math.Pi*0.25*0.25*0.25, math.Pi * 0.25 * 2}
	doc := gltf.NewDocument()
	doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	doc.Scene = gltf.Index(0)
	doc.Nodes = []*gltf.Node{{Name: "body", Translation: [3]float64{5, 0, 0}}}
	model := physics.NewModel()
	model.Node(0).Motion = &physics.Motion{Type: physics.Dynamic}
	for _, s := range shapes {
		ni := len(doc.Nodes)
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: string(s.Type)})
		doc.Nodes[0].Children = append(doc.Nodes[0].Children, ni)
		model.Node(ni).Collider = &physics.Collider{Shape: model.AddShape(s), Material: -1, Filter: -1}
	}
	codec, _ := codecs.For(physics.OMI)
	if err := codec.Encode(doc, model, physics.EncodeOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "prims.glb")
	if err := gltf.SaveBinary(doc, path); err != nil {
		t.Fatal(err)
	}
	cs, err := readColliders(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.hulls) != len(shapes) || cs.count() != len(shapes) || cs.convexVertices != 0 {
		t.Fatalf("%d hulls, %d colliders, %d convex vertices; want %d, %d, 0", len(cs.hulls), cs.count(), cs.convexVertices, len(shapes), len(shapes))
	}
	for i, h := range cs.hulls {
		if v := h.Volume(); v < volumes[i] || v > 1.025*volumes[i] {
			t.Errorf("%s: hull volume %g, primitive %g", shapes[i].Type, v, volumes[i])
		}
		// Points on the primitive's surface (moved by the body's translation).
		var surface []geom.Vec3
		for k := 0; k < 500; k++ {
			u := geom.Vec3{math.Sin(float64(k) * 1.3), math.Cos(float64(k) * 0.7), math.Sin(float64(k)*2.9 + 1)}
			surface = append(surface, onSurface(shapes[i], u).Add(geom.Vec3{5, 0, 0}))
		}
		if got := coverage(surface, cs.hulls[i:i+1], 1e-9); got != 1 {
			t.Errorf("%s: %.3f of its surface points inside its hull, want all", shapes[i].Type, got)
		}
	}
}

// onSurface returns the point of the primitive's surface in direction u
// from its centre (for a box, the cylinder and the capsule: the support
// point along u, on the surface).
func onSurface(s physics.Shape, u geom.Vec3) geom.Vec3 {
	u = u.Scale(1 / u.Len())
	switch s.Type {
	case physics.Box:
		return geom.Vec3{math.Copysign(s.Size[0]/2, u[0]), math.Copysign(s.Size[1]/2, u[1]), math.Copysign(s.Size[2]/2, u[2])}
	case physics.Sphere:
		return u.Scale(s.Radius)
	case physics.Capsule:
		return u.Scale(s.RadiusTop).Add(geom.Vec3{0, math.Copysign(s.Height/2, u[1]), 0})
	default:
		r := math.Hypot(u[0], u[2])
		return geom.Vec3{s.RadiusTop * u[0] / r, math.Copysign(s.Height/2, u[1]), s.RadiusTop * u[2] / r}
	}
}

// TestMeshoptInput: a corpus asset stored with EXT_meshopt_compression is
// decoded (all its triangles, as autocollide reads them), and every set is
// made from a plain GLB of the decoded mesh, which the piles' loader reads;
// a plain asset is handed to autocollide as it is.
func TestMeshoptInput(t *testing.T) {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	work := t.TempDir()
	a, err := prepareAsset(filepath.Join(corpus, "Pirate", "pirate.glb"), work)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.mesh.Triangles) != 5010 || a.input != filepath.Join(work, "pirate", "input.glb") {
		t.Fatalf("pirate: %d triangles, input %s; want 5010 and the decoded GLB", len(a.mesh.Triangles), a.input)
	}
	doc, err := gltf.Open(a.input)
	if err != nil {
		t.Fatalf("the decoded GLB does not open without meshopt: %v", err)
	}
	if len(doc.ExtensionsUsed) != 0 || len(doc.Meshes) != 1 {
		t.Errorf("decoded GLB: extensions %v, %d meshes; want none and 1", doc.ExtensionsUsed, len(doc.Meshes))
	}
	duck := filepath.Join(corpus, "Duck", "glTF-Binary", "Duck.glb")
	if a, err := prepareAsset(duck, work); err != nil || a.input != duck || len(a.mesh.Triangles) != 4212 {
		t.Errorf("Duck: %v, input %v; want the original file, 4212 triangles", err, a)
	}
}
