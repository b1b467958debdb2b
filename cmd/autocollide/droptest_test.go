package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
)

// dropEngines are the engines tools/drop-test runs.
var dropEngines = []string{"rapier", "jolt", "havok"}

// dropEntry is one engine's result for one file in tools/drop-test's JSON
// summary: OK, Failures and Bodies are the alone mode's (each body in a
// world of its own), Whole the whole-asset drop's (every body at once).
type dropEntry struct {
	OK       bool       `json:"ok"`
	Failures []string   `json:"failures"`
	Bodies   []dropBody `json:"bodies"`
	Whole    *struct {
		OK       bool       `json:"ok"`
		Failures []string   `json:"failures"`
		Bodies   []dropBody `json:"bodies"`
		RestTime *float64   `json:"restTime"`
	} `json:"whole"`
}

type dropBody struct {
	Type       string   `json:"type"`
	Shapes     []string `json:"shapes"`
	RestHeight *float64 `json:"restHeight"` // set on dropped bodies
}

// dropResult is one file's entry: engine name → result.
type dropResult map[string]dropEntry

// runDropTest runs tools/drop-test over files (with extra flags first) and
// returns its exit code, its per-file report lines and its JSON summary.
func runDropTest(t *testing.T, files []string, flags ...string) (int, string, map[string]dropResult) {
	t.Helper()
	tools := testassets.NodeModule(t, "@babylonjs/havok")
	summary := filepath.Join(t.TempDir(), "drop-test.json")
	args := append([]string{filepath.Join(tools, "drop-test", "drop-test.mjs"), "--json", summary}, flags...)
	cmd := exec.Command("node", append(args, files...)...)
	cmd.Dir = tools
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("drop test: %v", err)
	}
	if code > 1 {
		t.Fatalf("drop test: exit %d: %s", code, stderr.String())
	}
	js, err := os.ReadFile(summary)
	if err != nil {
		t.Fatalf("drop test wrote no summary (exit %d): %s", code, stderr.String())
	}
	var s struct {
		Files map[string]dropResult `json:"files"`
	}
	if err := json.Unmarshal(js, &s); err != nil {
		t.Fatalf("drop test summary: %v", err)
	}
	return code, stdout.String(), s.Files
}

// knownFailure is a corpus asset whose drop fails today in at least one
// engine and format: every failure line must come from one of engines
// (nil: any) and contain one of wants, and why says what the failure is
// and what is known of its cause.
type knownFailure struct {
	wants   []string
	engines []string
	why     string
}

// knownFailures lists them by mode ("alone", "whole") and corpus file name.
type knownFailures map[string]map[string]knownFailure

// Known failures of the corpus runs (#29), each with what was measured of
// its cause. Off the lists since: NegativeScaleTest whole in Jolt (label
// panels 1:1000 thick, 0.2 mm at the asset's unit size: generate now gives
// flat parts 1% of their diagonal, and the whole drop puts its smallest body
// at unit size), RecursiveSkeletons whole in Rapier and Havok (0.9 m columns
// on 150 m towers were 6 mm wide at the asset's unit size), ToyCar alone in
// Jolt with the default profile (chassis hulls hovering within Jolt's 2 cm
// speculative distance: ghost contacts; the drop test uses 1 cm).

// hullKnown are the known failures of the hull outputs (TestCorpusDropTest).
var hullKnown = knownFailures{
	// ToyCar's Fabric is one 248-point hull of a cloth draped 1.7 cm high;
	// its nearly flat bottom is 47 triangles, 16 of them tilted 0.01-5°.
	// Jolt builds its own hull from the points with a 1 mm tolerance: at
	// 1 m (the Fabric alone) that merges the bottom into one face and it
	// rests; at 1.5 m or more (whole, with the 4.4 cm car at 1 m the Fabric
	// is 2.4 m), or at 1 m with a 0.1 mm hull tolerance, Jolt sinks it 5-6%
	// of its size and spins it at 3-3.5 rad/s, whatever the speculative
	// distance (0.2-4 cm), slop (0.1 mm-2 cm), solver steps (40 velocity, 10
	// position) or convex radius (1-5 cm); Rapier and Havok rest it, and the
	// default profile's 14 Fabric hulls pass in all three. The written mass
	// properties match the hull (Havok's inertia per mass within 0.3%).
	// With the hull's points within 0.1 mm (0.1% of its size) of its bottom
	// plane snapped onto it (an edit of the loaded points, by hand), Jolt
	// rests the whole drop at once (0.05 s, 0.04% deep): the fix belongs in
	// the hull (flattening nearly coplanar faces), not made here.
	"whole": {"ToyCar.gltf": {[]string{"not at rest", "below the ground"}, []string{"jolt"}, "#29: a single hull with a nearly flat bottom of slightly tilted faces rocks and sinks in Jolt at 1.5 m and more"}},
	"alone": {"MetalRoughSpheresNoTextures.glb": rocking},
}

// rocking: Havok keeps the "Golden Spheres" body of
// MetalRoughSpheresNoTextures (a 9.5 mm plate of 49 sphere hulls, 10 mg)
// spinning flat on the ground at 10 rad/s after 5 s, its contact points
// sliding. Its written inertia per unit mass is its hulls' (Havok's figure,
// within 0.04%), and with Havok's own mass properties (--engine-mass) the
// same plate as "Gray Spheres" spins too (9.8 rad/s); bringing its mass to
// 1 kg (an exact similarity) changes nothing, so no mass floor; the default
// profile's sphere colliders of the same asset rest in Havok, and Rapier
// and Jolt rest the hulls.
var rocking = knownFailure{[]string{"not at rest", "came to rest only"}, []string{"havok"},
	"#29 item 6: a flat compound of 49 sphere hulls keeps spinning in Havok (torsional friction); the written mass properties match the hulls"}

// defaultKnown are the known failures of the default profile's outputs
// (TestCorpusDropTestDefaultProfile): none.
var defaultKnown = knownFailures{}

// checkDrops checks a drop-test run over corpus outputs (output → corpus
// input): every body alone and every asset whole passes in every engine,
// except the known failures, which must still fail, and only as listed.
func checkDrops(t *testing.T, outputs map[string]string, res map[string]dropResult, known knownFailures) {
	t.Helper()
	type failure struct{ line, engine string }
	fails := map[string]map[string][]failure{"alone": {}, "whole": {}} // mode → corpus file name → failures
	names := map[string]bool{}
	for out, in := range outputs {
		name := filepath.Base(in)
		names[name] = true
		entry := res[out]
		for _, engine := range dropEngines {
			r, ok := entry[engine]
			if !ok || r.Whole == nil {
				t.Errorf("%s: no alone and whole result in %s", out, engine)
				continue
			}
			dropped := 0
			for _, b := range r.Bodies {
				if b.RestHeight != nil {
					dropped++
				}
			}
			alone := r.Failures
			if dropped == 0 {
				alone = append(alone, "no body was dropped")
			}
			for mode, lines := range map[string][]string{"alone": alone, "whole": r.Whole.Failures} {
				for _, f := range lines {
					fails[mode][name] = append(fails[mode][name], failure{fmt.Sprintf("%s (%s, %s): %s", out, engine, mode, f), engine})
				}
			}
		}
	}
	for mode, byName := range fails {
		for name := range names {
			k, listed := known[mode][name]
			if listed && len(byName[name]) == 0 {
				t.Errorf("%s passes the %s drop in every engine and format: take it off the known failures (%s)", name, mode, k.why)
			}
			for _, f := range byName[name] {
				if !listed || (k.engines != nil && !slices.Contains(k.engines, f.engine)) || !slices.ContainsFunc(k.wants, func(w string) bool { return strings.Contains(f.line, w) }) {
					t.Errorf("drop test: %s", f.line)
				}
			}
		}
	}
}

// checkExit checks the drop test's exit code: 1 when known failures are
// listed (they must still fail), 0 when none are.
func checkExit(t *testing.T, code int, known knownFailures) {
	t.Helper()
	listed := len(known["alone"]) + len(known["whole"])
	if listed > 0 && code == 0 {
		t.Error("drop test exit 0 with known failures listed")
	}
	if listed == 0 && code != 0 {
		t.Errorf("drop test exit %d with no known failures listed", code)
	}
}

// TestCorpusDropTest drops every corpus output (OMI, KHR and KHR with
// geometry.node) in Rapier, Jolt and Havok, each body alone and the asset
// whole: no NaN, nothing thrown, at rest within 5 s, nothing sunk into
// the ground, every hull accepted (see checkDrops for the known failures).
func TestCorpusDropTest(t *testing.T) {
	corpus := map[string]bool{}
	for _, f := range testassets.Corpus(t) {
		corpus[f] = true
	}
	outputs := map[string]string{}
	var files []string
	for _, r := range generateCorpus(t) {
		if corpus[r.in] {
			files = append(files, r.out)
			outputs[r.out] = r.in
		}
	}
	code, report, res := runDropTest(t, files)
	t.Logf("drop test report:\n%s", report)
	checkExit(t, code, hullKnown)
	checkDrops(t, outputs, res, hullKnown)
}

// TestCorpusDropTestDefaultProfile: the same drops on the default
// profile's outputs (auto colliders, decompositions included) of every
// corpus file, in OMI and KHR.
func TestCorpusDropTestDefaultProfile(t *testing.T) {
	testassets.NodeModule(t, "@babylonjs/havok")
	root := filepath.Join(testassets.Shared(t), "corpus")
	outputs := map[string]string{}
	var files []string
	for _, format := range []string{"omi", "khr"} {
		dir := filepath.Join(t.TempDir(), format)
		if code, _, stderr := runCLI("generate", root, "--out-dir", dir, "--format", format, "-q", "-j", "2"); code != 0 {
			t.Fatalf("generate %s (%s): exit %d: %s", root, format, code, stderr)
		}
		for _, in := range testassets.Corpus(t) {
			rel, err := filepath.Rel(root, in)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, rel)
			if _, err := os.Stat(out); err != nil {
				t.Errorf("%s (%s): no output: %v", in, format, err)
				continue
			}
			files = append(files, out)
			outputs[out] = in
		}
	}
	code, report, res := runDropTest(t, files)
	t.Logf("drop test report:\n%s", report)
	checkExit(t, code, defaultKnown)
	checkDrops(t, outputs, res, defaultKnown)
}

// TestDropTestPrimitives: outputs made of boxes, spheres, capsules and
// cylinders (OMI and KHR) load in both engines as those shapes and pass
// the drop test, so primitive parameters and axes mean what the specs say.
func TestDropTestPrimitives(t *testing.T) {
	assets := []string{"WaterBottle.gltf", "Avocado.gltf", "Duck.glb", "BoomBox.gltf"}
	methods := []string{"box", "sphere", "capsule", "cylinder"}
	var files []string
	shape := map[string]string{}
	for _, m := range methods {
		for _, a := range assets {
			for _, format := range []string{"omi", "khr"} {
				f := generateOne(t, a, "--format", format, "--method", m)
				files = append(files, f)
				shape[f] = m
			}
		}
	}
	code, report, res := runDropTest(t, files, "--modes", "alone")
	t.Logf("drop test report:\n%s", report)
	if code != 0 {
		t.Errorf("drop test exit %d", code)
	}
	for _, f := range files {
		for _, engine := range dropEngines {
			r := res[f][engine]
			if !r.OK {
				t.Errorf("%s %s (%s): %s", shape[f], f, engine, strings.Join(r.Failures, "; "))
			}
			if len(r.Bodies) == 0 || strings.Join(r.Bodies[0].Shapes, ",") != shape[f] {
				t.Errorf("%s (%s): want %s colliders, got %+v", f, engine, shape[f], r.Bodies)
			}
		}
	}
}

// TestDropTestAuthoredPhysics: static bodies, static trimeshes and
// compounds authored in the current OMI form (shared/corpus-physics) load
// into both engines, and their dynamic bodies rest.
func TestDropTestAuthoredPhysics(t *testing.T) {
	want := []string{
		"OMI_physics_shape-examples/trimesh/concave_trimesh.gltf",
		"OMI_physics_body-examples/complex/static_compound_collider.gltf",
		"OMI_physics_body-examples/complex/ball_pit.gltf",
		"OMI_physics_joint-simple_joint/simple_joint.gltf",
		"omi-godot-truck_town/town_model.gltf",
	}
	var files []string
	for _, f := range testassets.CorpusPhysics(t) {
		for _, w := range want {
			if strings.HasSuffix(filepath.ToSlash(f), "/"+w) {
				files = append(files, f)
			}
		}
	}
	if len(files) != len(want) {
		t.Fatalf("found %d of %d authored files: %v", len(files), len(want), files)
	}
	code, report, res := runDropTest(t, files, "--modes", "alone")
	t.Logf("drop test report:\n%s", report)
	if code != 0 {
		t.Errorf("drop test exit %d", code)
	}
	staticTrimesh := false
	for _, f := range files {
		for _, engine := range dropEngines {
			r := res[f][engine]
			if !r.OK {
				t.Errorf("%s (%s): %s", f, engine, strings.Join(r.Failures, "; "))
			}
			for _, b := range r.Bodies {
				if b.Type == "static" && strings.Contains(strings.Join(b.Shapes, ","), "trimesh") {
					staticTrimesh = true
				}
			}
		}
	}
	if !staticTrimesh {
		t.Error("no static trimesh was loaded")
	}
}

// generateOne writes one corpus file's output as .gltf (JSON with its
// buffer embedded, so a test can edit both) with the given extra flags.
func generateOne(t *testing.T, name string, args ...string) string {
	t.Helper()
	var in string
	for _, f := range testassets.Corpus(t) {
		if strings.HasSuffix(f, "/"+name) {
			in = f
		}
	}
	if in == "" {
		t.Fatalf("corpus has no %s", name)
	}
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(name, filepath.Ext(name))+".gltf")
	if code, _, stderr := runCLI(append([]string{"generate", in, "-o", out}, args...)...); code != 0 {
		t.Fatalf("generate %s: %s", name, stderr)
	}
	return out
}

// editJSON rewrites a .gltf file's JSON through f.
func editJSON(t *testing.T, path string, f func(doc map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// JSON tree helpers for the fixture edits: a missing or mistyped value
// reads as empty, and the edit's own checks then fail the test.
func arr(v any) []any          { a, _ := v.([]any); return a }
func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func num(v any) int            { f, _ := v.(float64); return int(f) }
func jget(v any, keys ...string) any {
	for _, k := range keys {
		v = obj(v)[k]
	}
	return v
}

// colliderNodes returns the nodes carrying an OMI collider, with the shape
// each references.
func colliderNodes(doc map[string]any) (nodes []map[string]any, shapes []map[string]any) {
	all := arr(jget(doc, "extensions", "OMI_physics_shape", "shapes"))
	for _, n := range arr(doc["nodes"]) {
		c := obj(jget(n, "extensions", "OMI_physics_body", "collider"))
		if s, ok := c["shape"]; ok {
			nodes = append(nodes, obj(n))
			shapes = append(shapes, obj(all[num(s)]))
		}
	}
	return nodes, shapes
}

// TestDropTestCatchesBrokenFiles: deliberately wrong outputs fail the drop
// test with the expected reason, proving it can fail.
func TestDropTestCatchesBrokenFiles(t *testing.T) {
	type fixture struct {
		name, want string
		make       func(t *testing.T) string
	}
	fixtures := []fixture{
		{"inverted hull", "inward winding", func(t *testing.T) string {
			// Box's hull with every triangle's winding reversed in the
			// binary buffer: the hull is turned inside out.
			out := generateOne(t, "BoxInterleaved.glb", "--format", "omi", "--method", "hull")
			editJSON(t, out, func(doc map[string]any) {
				_, shapes := colliderNodes(doc)
				if len(shapes) != 1 || shapes[0]["type"] != "convex" {
					t.Fatalf("want one hull, got %v", shapes)
				}
				mesh := arr(doc["meshes"])[num(jget(shapes[0], "convex", "mesh"))]
				acc := obj(arr(doc["accessors"])[num(obj(arr(obj(mesh)["primitives"])[0])["indices"])])
				bv := obj(arr(doc["bufferViews"])[num(acc["bufferView"])])
				buf := obj(arr(doc["buffers"])[num(bv["buffer"])])
				uri, _ := buf["uri"].(string)
				const prefix = "data:application/octet-stream;base64,"
				file := filepath.Join(filepath.Dir(out), uri) // a .bin beside the output
				data, err := os.ReadFile(file)
				if strings.HasPrefix(uri, prefix) {
					data, err = base64.StdEncoding.DecodeString(uri[len(prefix):])
				}
				if err != nil {
					t.Fatal(err)
				}
				size := map[int]int{5121: 1, 5123: 2, 5125: 4}[num(acc["componentType"])]
				if size == 0 || bv["byteStride"] != nil {
					t.Fatalf("unexpected index accessor %v", acc)
				}
				base := num(bv["byteOffset"]) + num(acc["byteOffset"])
				for tri := 0; tri < num(acc["count"])/3; tri++ {
					i1 := base + (3*tri+1)*size
					i2 := base + (3*tri+2)*size
					a := append([]byte(nil), data[i1:i1+size]...)
					copy(data[i1:i1+size], data[i2:i2+size])
					copy(data[i2:i2+size], a)
				}
				if strings.HasPrefix(uri, prefix) {
					buf["uri"] = prefix + base64.StdEncoding.EncodeToString(data)
				} else if err := os.WriteFile(file, data, 0o644); err != nil {
					t.Fatal(err)
				}
			})
			return out
		}},
		{"capsule on the wrong axis", "render mesh", func(t *testing.T) string {
			// The water bottle is tall; its capsule turned 90° about z
			// lies flat, so at rest the bottle pokes through the ground.
			out := generateOne(t, "WaterBottle.gltf", "--format", "omi", "--method", "capsule")
			editJSON(t, out, func(doc map[string]any) {
				nodes, shapes := colliderNodes(doc)
				if len(shapes) != 1 || shapes[0]["type"] != "capsule" {
					t.Fatalf("want one capsule, got %v", shapes)
				}
				q := [4]float64{0, 0, 0, 1}
				if r := arr(nodes[0]["rotation"]); len(r) == 4 {
					for i := range q {
						q[i], _ = r[i].(float64)
					}
				}
				if nodes[0]["matrix"] != nil {
					t.Fatal("collider node has a matrix")
				}
				s := math.Sqrt(0.5) // (0, 0, s, s) ⊗ q: q, then a quarter turn about the body's z
				x, y, z, w := q[0], q[1], q[2], q[3]
				nodes[0]["rotation"] = []float64{s*x - s*y, s*y + s*x, s*w + s*z, s*w - s*z}
			})
			return out
		}},
		{"impossible inertia", "triangle inequality", func(t *testing.T) string {
			out := generateOne(t, "Box.glb", "--format", "khr")
			editJSON(t, out, func(doc map[string]any) {
				m := obj(jget(arr(doc["nodes"])[0], "extensions", "KHR_physics_rigid_bodies", "motion"))
				if m == nil {
					t.Fatal("Box has no motion on nodes[0]")
				}
				m["inertiaDiagonal"] = []float64{1, 1, 10}
			})
			return out
		}},
		{"negative mass", "not a finite non-negative number", func(t *testing.T) string {
			out := generateOne(t, "Box.glb", "--format", "omi")
			editJSON(t, out, func(doc map[string]any) {
				obj(jget(arr(doc["nodes"])[0], "extensions", "OMI_physics_body", "motion"))["mass"] = -1
			})
			return out
		}},
	}
	var files []string
	for _, f := range fixtures {
		files = append(files, f.make(t))
	}
	code, report, res := runDropTest(t, files, "--modes", "alone")
	t.Logf("drop test report on the broken files:\n%s", report)
	if code != 1 {
		t.Errorf("drop test exit %d on broken files, want 1:\n%s", code, report)
	}
	for i, f := range fixtures {
		for _, engine := range dropEngines {
			r := res[files[i]][engine]
			if r.OK || !strings.Contains(strings.Join(r.Failures, "\n"), f.want) {
				t.Errorf("%s (%s): want a failure naming %q, got ok=%v %q", f.name, engine, f.want, r.OK, r.Failures)
			}
		}
	}
	// The same files unbroken pass: the failures above come from the edits.
	good := []string{generateOne(t, "BoxInterleaved.glb", "--format", "omi", "--method", "hull"), generateOne(t, "WaterBottle.gltf", "--format", "omi", "--method", "capsule")}
	if code, report, _ := runDropTest(t, good, "--modes", "alone"); code != 0 {
		t.Errorf("unbroken fixtures fail the drop test:\n%s", report)
	}
}

// TestKHRDocumentObject: every KHR output of the corpus whose nodes carry
// KHR_physics_rigid_bodies carries the document-level object too, which
// Babylon.js's loader reads unguarded (#29 item 1).
func TestKHRDocumentObject(t *testing.T) {
	checked := 0
	for _, r := range generateCorpus(t) {
		if r.format == "omi" {
			continue
		}
		a, err := gltfio.LoadRaw(r.out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		nodeLevel := false
		for _, n := range a.Doc.Nodes {
			if _, ok := n.Extensions[physics.ExtKHRBodies]; ok {
				nodeLevel = true
			}
		}
		if !nodeLevel {
			continue
		}
		checked++
		if _, ok := a.Doc.Extensions[physics.ExtKHRBodies]; !ok {
			t.Errorf("%s (%s): nodes carry %s, the document does not", r.out, r.format, physics.ExtKHRBodies)
		}
	}
	if checked < 50 {
		t.Errorf("only %d KHR outputs with node-level physics checked", checked)
	}
}
