package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/schema"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/autocollide/autocollide/profiles"
)

// presetSubset is the corpus folders every preset runs on in CI: small
// files that still cover a box, a textured box, several meshes and
// scenes, GPU instancing, strips and fans, negative scale, skinning and
// a single flat triangle. AUTOCOLLIDE_PRESET_MATRIX=1 runs every preset
// on the whole corpus instead.
var presetSubset = []string{"Box", "BoxTextured", "Cube", "SimpleMeshes", "MultipleScenes", "SimpleInstancing",
	"MeshPrimitiveModes", "NegativeScaleTest", "RiggedFigure", "Triangle", "Avocado",
	"Box_glTF-Draco", "CesiumMilkTruck", "MorphPrimitivesTest"}

// corpusFolders returns the corpus's top folders: the subset, or all of
// them for the full matrix.
func corpusFolders(t *testing.T, full bool) (root string, folders []string) {
	root = filepath.Join(testassets.Shared(t), "corpus")
	seen := map[string]bool{}
	for _, f := range testassets.Corpus(t) {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		seen[strings.Split(filepath.ToSlash(rel), "/")[0]] = true
	}
	for top := range seen {
		if full || slices.Contains(presetSubset, top) {
			folders = append(folders, top)
		}
	}
	sort.Strings(folders)
	return root, folders
}

// TestPresetsOnCorpus: every preset runs on the corpus (the subset, or
// all of it with AUTOCOLLIDE_PRESET_MATRIX=1); every output has
// colliders, no physics errors (validate's rules), no schema problem the
// input lacked, and no Khronos validator error the input lacked; outputs
// of presets that make only conservative colliders contain every vertex.
func TestPresetsOnCorpus(t *testing.T) {
	full := os.Getenv("AUTOCOLLIDE_PRESET_MATRIX") == "1"
	root, folders := corpusFolders(t, full)
	if len(folders) < 8 {
		t.Fatalf("only %d corpus folders: %v", len(folders), folders)
	}
	specs, err := schema.FindSpecs()
	if err != nil {
		t.Fatal(err)
	}
	checker, err := schema.Load(specs)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	type output struct{ preset, in, out string }
	// fail reports a problem of an output.
	fail := func(o output, format string, args ...any) {
		t.Errorf("%s: %s: %s", o.preset, o.in, fmt.Sprintf(format, args...))
	}
	var outputs []output
	for _, preset := range profiles.Presets() {
		args := []string{"generate", root, "--out-dir", filepath.Join(out, preset), "--profile", preset, "-q", "--report", filepath.Join(out, preset+".json")}
		for _, f := range folders {
			args = append(args, "--include", f+"/**")
		}
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Errorf("%s: exit %d: %s", preset, code, stderr)
			continue
		}
		var rep batch.Report
		data, _ := os.ReadFile(filepath.Join(out, preset+".json"))
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Assets) < len(folders) {
			t.Errorf("%s: %d assets for %d folders", preset, len(rep.Assets), len(folders))
		}
		for _, a := range rep.Assets {
			n := 0
			for _, c := range a.Colliders {
				n += c
			}
			if n == 0 {
				t.Errorf("%s: %s: no colliders", preset, a.Input)
			}
			outputs = append(outputs, output{preset, a.Input, a.Output})
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, o := range outputs {
		a, err := gltfio.Load(o.out, gltfio.Limits{})
		if err != nil {
			t.Errorf("%s: %s: %v", o.preset, o.out, err)
			continue
		}
		if probs := validate.Validate(a.Doc, validate.Options{}); validate.HasErrors(probs) {
			fail(o, "physics errors: %v", probs)
		}
		raw, err := gltfio.LoadRaw(o.out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if err := schemaProblems(checker, raw, o.in); err != nil {
			fail(o, "%v", err)
		}
		if o.preset != "static-level" {
			if err := checkContainment(raw); err != nil {
				fail(o, "%v", err)
			}
		}
		files = append(files, o.out)
		if !seen[o.in] {
			files = append(files, o.in)
			seen[o.in] = true
		}
	}
	res := runValidator(t, files)
	for _, o := range outputs {
		had := map[string]bool{}
		for _, c := range res[o.in].Codes {
			had[c] = true
		}
		for _, c := range res[o.out].Codes {
			if !had[c] {
				fail(o, "validator code the input lacked: %s", c)
			}
		}
		if res[o.out].Errors < 0 || res[o.in].Errors == 0 && res[o.out].Errors != 0 {
			fail(o, "%d validator errors", res[o.out].Errors)
		}
	}
	t.Logf("%d presets × %d corpus folders (full matrix: %v)", len(profiles.Presets()), len(folders), full)
}

// schemaProblems returns the schema problems of an output that its input
// did not have.
func schemaProblems(checker *schema.Checker, out *gltfio.Asset, in string) error {
	js, err := out.Tree.MarshalJSON()
	if err != nil {
		return err
	}
	cerr := checker.CheckDocument(js)
	if cerr == nil {
		return nil
	}
	had := map[string]bool{}
	if inA, err := gltfio.LoadRaw(in, gltfio.Limits{}); err == nil {
		inJS, _ := inA.Tree.MarshalJSON()
		if inErr := checker.CheckDocument(inJS); inErr != nil {
			for _, l := range strings.Split(inErr.Error(), "\n") {
				had[l] = true
			}
		}
	}
	var fresh []string
	for _, l := range strings.Split(cerr.Error(), "\n") {
		if !had[l] {
			fresh = append(fresh, l)
		}
	}
	if len(fresh) > 0 {
		return fmt.Errorf("schema problems the input lacked: %s", strings.Join(fresh, "; "))
	}
	return nil
}

// milkTruck is the corpus's milk truck (Draco-compressed).
func milkTruck(t *testing.T) string {
	t.Helper()
	return filepath.Join(testassets.Shared(t), "corpus", "CesiumMilkTruck", "glTF-Draco", "CesiumMilkTruck.gltf")
}

// autoParts runs generate with the default profile (auto) and returns
// the report's parts per input.
func autoParts(t *testing.T, inputs ...string) map[string][]generate.PartReport {
	dir := t.TempDir()
	rep := filepath.Join(dir, "report.json")
	args := append([]string{"generate", "--dry-run", "-q", "--report", rep}, inputs...)
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r batch.Report
	data, _ := os.ReadFile(rep)
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	parts := map[string][]generate.PartReport{}
	for _, a := range r.Assets {
		parts[a.Input] = a.Parts
	}
	return parts
}

// TestAutoChoices: on the corpus, auto takes a primitive where the part
// is one (Box → box, the spheres of MetalRoughSpheresNoTextures →
// spheres, each of the milk truck's wheels → a cylinder or a capsule) and a hull or
// a decomposition for the truck's body.
func TestAutoChoices(t *testing.T) {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	box := filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb")
	spheres := filepath.Join(corpus, "MetalRoughSpheresNoTextures", "glTF-Binary", "MetalRoughSpheresNoTextures.glb")
	truck := milkTruck(t)
	parts := autoParts(t, box, spheres, truck)

	if p := parts[box]; len(p) != 1 || p[0].Method != generate.Box {
		t.Errorf("Box: %+v, want one box", p)
	}
	// The spheres are named after their metalness and roughness
	// ("m33%_r66%", "g_m33%_r66%"); the other parts are flat text labels.
	ball := regexp.MustCompile(`m\d+%_r\d+%$`)
	n := 0
	for _, p := range parts[spheres] {
		if !ball.MatchString(p.Name) {
			continue
		}
		n++
		if p.Method != generate.Sphere {
			t.Errorf("MetalRoughSpheres: %s: %s, want a sphere: %s", p.Name, p.Method, p.Reason)
		}
	}
	if n != 98 {
		t.Errorf("MetalRoughSpheres: %d sphere parts, want 98", n)
	}
	wheels := 0
	for _, p := range parts[truck] {
		switch {
		case strings.HasPrefix(p.Name, "Wheels"):
			wheels++
			// Each wheels mesh is a pair of wheels on one axle: one
			// cylinder would fill the space between them, so auto
			// decomposes it and each wheel becomes a cylinder (or a
			// capsule), no hull among them.
			round := p.Primitives["cylinder"] + p.Primitives["capsule"]
			if p.Method == generate.Cylinder || p.Method == generate.Capsule {
				round = p.Colliders
			}
			if p.Colliders < 2 || round != p.Colliders {
				t.Errorf("milk truck %s: %s with %d colliders (%v), want a cylinder or capsule per wheel: %s", p.Name, p.Method, p.Colliders, p.Primitives, p.Reason)
			}
		case p.Method != generate.Hull && p.Method != generate.Decompose:
			t.Errorf("milk truck %s: %s, want a hull or a decomposition: %s", p.Name, p.Method, p.Reason)
		}
	}
	if wheels != 2 {
		t.Errorf("milk truck: %d wheel parts, want 2", wheels)
	}
}

// TestAutoCorpusReport prints auto's choice per corpus asset (set
// AUTOCOLLIDE_CORPUS_REPORT=1): the methods it chose, how often, and the
// errors it saw, for the closing note.
func TestAutoCorpusReport(t *testing.T) {
	if os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") != "1" {
		t.Skip("set AUTOCOLLIDE_CORPUS_REPORT=1 to print auto's choices on the corpus")
	}
	inputs := testassets.Corpus(t)
	parts := autoParts(t, inputs...)
	root := filepath.Join(testassets.Shared(t), "corpus")
	for _, in := range inputs {
		count := map[generate.Method]int{}
		for _, p := range parts[in] {
			count[p.Method]++
		}
		var sum []string
		for _, m := range generate.Methods() {
			if count[m] > 0 {
				sum = append(sum, fmt.Sprintf("%s ×%d", m, count[m]))
			}
		}
		rel, err := filepath.Rel(root, in)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s: %s\n", rel, strings.Join(sum, ", "))
		for _, p := range parts[in] {
			fmt.Printf("    %s: %s\n", p.Name, p.Reason)
		}
	}
}
