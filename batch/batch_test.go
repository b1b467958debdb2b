package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"*.glb", "a.glb", true},
		{"*.glb", "x/y/a.glb", true}, // no slash: any depth
		{"*.glb", "a.gltf", false},
		{"x/*.glb", "x/a.glb", true},
		{"x/*.glb", "x/y/a.glb", false},
		{"x/**/*.glb", "x/a.glb", true}, // ** matches zero segments
		{"x/**/*.glb", "x/y/z/a.glb", true},
		{"x/**", "x/y/z/a.glb", true},
		{"x/**", "y/a.glb", false},
		{"**/wip/**", "a/wip/b/c.glb", true},
		{"**/wip/**", "a/wipe/c.glb", false},
		{"**", "a/b", true},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/y/c", false},
		{"Box*/glTF-Binary/*.glb", "BoxTextured/glTF-Binary/BoxTextured.glb", true},
		{"[a-c]?.glb", "b1.glb", true},
	} {
		got, err := Match(c.pattern, c.name)
		if err != nil || got != c.want {
			t.Errorf("Match(%q, %q) = %v, %v; want %v", c.pattern, c.name, got, err, c.want)
		}
	}
	if err := CheckPattern("x/[a-/*.glb"); err == nil {
		t.Error("a malformed pattern was accepted")
	}
}

func TestShard(t *testing.T) {
	for _, bad := range []string{"", "1", "0/3", "4/3", "a/b", "1/0", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	var rels []string
	for i := range 200 {
		rels = append(rels, fmt.Sprintf("dir%d/asset%d.glb", i%7, i))
	}
	const n = 3
	owner := map[string]int{}
	sizes := make([]int, n)
	for k := 1; k <= n; k++ {
		s, err := ParseShard(fmt.Sprintf("%d/%d", k, n))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rels {
			if s.Keep(r) {
				if prev, ok := owner[r]; ok {
					t.Fatalf("%s in shards %d and %d", r, prev, k)
				}
				owner[r] = k
				sizes[k-1]++
			}
		}
	}
	if len(owner) != len(rels) {
		t.Fatalf("shards cover %d of %d files", len(owner), len(rels))
	}
	for k, sz := range sizes {
		if sz < len(rels)/n/2 {
			t.Errorf("shard %d holds %d of %d files: badly unbalanced", k+1, sz, len(rels))
		}
	}
	// Adding files never moves existing ones: the shard depends on the
	// file's own path only.
	s := Shard{K: 2, N: n}
	for _, r := range rels {
		if s.Keep(r) != (owner[r] == 2) {
			t.Fatalf("%s changed shard", r)
		}
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "JOB_COMPLETION_INDEX" {
				return v
			}
			return ""
		}
	}
	if got, err := ShardFromEnv(3, env("2")); err != nil || got != (Shard{K: 3, N: 3}) {
		t.Errorf("ShardFromEnv(3, 2) = %v, %v", got, err)
	}
	for _, v := range []string{"", "3", "-1", "x"} {
		if _, err := ShardFromEnv(3, env(v)); err == nil {
			t.Errorf("JOB_COMPLETION_INDEX=%q accepted", v)
		}
	}
}

// tree copies a few small corpus assets and one corrupt file into a
// temporary tree with subfolders and returns its root.
func tree(t testing.TB) string {
	t.Helper()
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	root := t.TempDir()
	for dst, src := range map[string]string{
		"props/Box.glb":                   filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb"),
		"props/animals/Duck.glb":          filepath.Join(corpus, "Duck", "glTF-Binary", "Duck.glb"),
		"textured/BoxTextured.glb":        filepath.Join(corpus, "BoxTextured", "glTF-Binary", "BoxTextured.glb"),
		"broken/truncated.glb":            filepath.Join(testassets.Repo(), "testdata", "bad", "truncated.glb"),
		"gltf/Cube.gltf":                  filepath.Join(corpus, "Cube", "glTF", "Cube.gltf"),
		"gltf/Cube.bin":                   filepath.Join(corpus, "Cube", "glTF", "Cube.bin"),
		"gltf/Cube_BaseColor.png":         filepath.Join(corpus, "Cube", "glTF", "Cube_BaseColor.png"),
		"gltf/Cube_MetallicRoughness.png": filepath.Join(corpus, "Cube", "glTF", "Cube_MetallicRoughness.png"),
		"notes.txt":                       filepath.Join(corpus, "Box", "README.md"),
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, filepath.FromSlash(dst))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var aabb = generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB, MaxHullVertices: 255}, Encoding: generate.Encoding{Format: physics.OMI}}

func plan(t *testing.T, root, out string, shard Shard) []Job {
	t.Helper()
	jobs, err := Plan([]string{root}, PlanOptions{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	return shard.Filter(jobs)
}

func run(t *testing.T, jobs []Job, opt Options) []Asset {
	t.Helper()
	if opt.Generate.Encoding.Format == "" {
		opt.Generate = aabb
	}
	if opt.ToolVersion == "" {
		opt.ToolVersion = "test"
	}
	opt.Cache = true
	assets, _, err := Run(context.Background(), jobs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return assets
}

// outputs reads every file under dir except the cache records.
func outputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == CacheFileName {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)], _ = os.ReadFile(p)
		return nil
	})
	return files
}

func reportJSON(t *testing.T, assets []Asset, outDir string) []byte {
	t.Helper()
	r := &Report{Tool: Tool{Name: "autocollide", Version: "test"}, Profile: Profile{Name: "default", Format: "omi", KHRGeometry: "mesh", Method: "aabb", MaxHullVertices: 255},
		Mode: "write", Summary: Summarize(assets), Assets: assets}
	r.StripTimings()
	data, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	// Outputs live in different temporary folders per run; compare the
	// reports with the folder replaced.
	return bytes.ReplaceAll(data, []byte(outDir), []byte("OUT"))
}

func validateSchema(t *testing.T, doc []byte) {
	t.Helper()
	var schemaDoc any
	if err := json.Unmarshal(Schema, &schemaDoc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("report does not follow the schema: %v\n%s", err, doc)
	}
}

func TestPlan(t *testing.T) {
	root := tree(t)
	out := filepath.Join(root, "build") // inside the input tree
	os.MkdirAll(filepath.Join(out, "old"), 0o755)
	os.WriteFile(filepath.Join(out, "old", "stale.glb"), []byte("x"), 0o644)
	outside := filepath.Join(t.TempDir(), "outside.glb")
	os.WriteFile(outside, []byte("x"), 0o644)
	linkOut := filepath.Join(root, "props", "link-out.glb")
	linkIn := filepath.Join(root, "props", "link-in.glb")
	if os.Symlink(outside, linkOut) != nil || os.Symlink(filepath.Join(root, "props", "Box.glb"), linkIn) != nil {
		t.Skip("no symbolic links here")
	}
	jobs, err := Plan([]string{root}, PlanOptions{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, j := range jobs {
		rels = append(rels, j.Rel)
		if want := filepath.Join(out, filepath.FromSlash(j.Rel)); j.Output != want {
			t.Errorf("%s: output %s, want %s", j.Rel, j.Output, want)
		}
		if (j.Skip != "") != (j.Rel == "props/link-out.glb") {
			t.Errorf("%s: skip %q", j.Rel, j.Skip)
		}
	}
	want := []string{"broken/truncated.glb", "gltf/Cube.gltf", "props/Box.glb", "props/animals/Duck.glb", "props/link-in.glb", "props/link-out.glb", "textured/BoxTextured.glb"}
	if !slices.Equal(rels, want) {
		t.Errorf("planned %v, want %v", rels, want)
	}

	jobs, err = Plan([]string{root}, PlanOptions{OutDir: out, Include: []string{"props/**"}, Exclude: []string{"animals", "link-*"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].Rel != "props/Box.glb" {
		t.Errorf("include/exclude planned %v", jobs)
	}

	// Two files writing the same output are refused.
	if _, err := Plan([]string{filepath.Join(root, "props", "Box.glb"), filepath.Join(root, "props", "Box.glb")}, PlanOptions{OutDir: out}); err == nil {
		t.Error("two jobs writing one output were accepted")
	}
	if _, err := Plan([]string{root}, PlanOptions{Output: "x.glb"}); err == nil {
		t.Error("-o with a folder of several files was accepted")
	}
	if _, err := Plan([]string{root}, PlanOptions{OutDir: out, Exclude: []string{"[a-"}}); err == nil {
		t.Error("a malformed pattern was accepted")
	}
}

// TestCorruptAmongGood: the corrupt file fails with its error, every
// other file is written and loads, the .gltf gets its resources, and the
// report follows the schema.
func TestCorruptAmongGood(t *testing.T) {
	root := tree(t)
	out := t.TempDir()
	assets := run(t, plan(t, root, out, Shard{}), Options{Workers: 2})
	if len(assets) != 5 {
		t.Fatalf("%d assets, want 5", len(assets))
	}
	for _, a := range assets {
		rel, _ := filepath.Rel(out, a.Output)
		if strings.Contains(a.Input, "truncated") {
			if a.Status != Failed || !strings.HasPrefix(a.Error, a.Input) {
				t.Errorf("corrupt file: %+v", a)
			}
			if _, err := os.Stat(a.Output); err == nil {
				t.Errorf("corrupt file has an output")
			}
			continue
		}
		if a.Status != OK || a.Bodies < 1 || a.Colliders["box"] < 1 || len(a.BodyList) != a.Bodies || a.BodyList[0].Mass <= 0 {
			t.Errorf("%s: %+v", rel, a)
		}
		if _, err := gltfio.LoadRaw(a.Output, gltfio.Limits{}); err != nil {
			t.Errorf("%s: output does not load: %v", rel, err)
		}
	}
	for _, res := range []string{"gltf/Cube.bin", "gltf/Cube_BaseColor.png"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(res))); err != nil {
			t.Errorf("resource not copied beside the output: %v", err)
		}
	}
	r := &Report{Tool: Tool{Name: "autocollide", Version: "test"}, Profile: Profile{Name: "default", Format: "omi", KHRGeometry: "mesh", Method: "aabb", MaxHullVertices: 255},
		Mode: "write", Summary: Summarize(assets), Assets: assets, WallMS: 12.5}
	data, _ := r.JSON()
	validateSchema(t, data)
	if s := r.Summary; s.OK != 4 || s.Failed != 1 {
		t.Errorf("summary %+v", s)
	}
	md := string(r.Markdown())
	if !strings.Contains(md, "truncated.glb") || !strings.Contains(md, "| failed |") {
		t.Errorf("markdown report lacks the failure:\n%s", md)
	}
	// The schema is not a rubber stamp: a failed asset without its error
	// and an unknown status are refused.
	bad := bytes.Replace(data, []byte(`"status": "ok"`), []byte(`"status": "fine"`), 1)
	if err := schemaErr(bad); err == nil {
		t.Error("schema accepted an unknown status")
	}
}

func schemaErr(doc []byte) error {
	var schemaDoc any
	json.Unmarshal(Schema, &schemaDoc)
	c := jsonschema.NewCompiler()
	c.AddResource("s.json", schemaDoc)
	sch, err := c.Compile("s.json")
	if err != nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// TestDeterministicAndSharded: -j 1, 2 and 4 and the union of three
// shards give the same bytes and the same report.
func TestDeterministicAndSharded(t *testing.T) {
	root := tree(t)
	var refFiles map[string][]byte
	var refReport []byte
	for _, w := range []int{1, 2, 4} {
		out := t.TempDir()
		assets := run(t, plan(t, root, out, Shard{}), Options{Workers: w, Force: true})
		files, rep := outputs(t, out), reportJSON(t, assets, out)
		if refFiles == nil {
			refFiles, refReport = files, rep
			continue
		}
		if !equalFiles(files, refFiles) {
			t.Errorf("-j %d: outputs differ from -j 1", w)
		}
		if !bytes.Equal(rep, refReport) {
			t.Errorf("-j %d: report differs from -j 1:\n%s\n---\n%s", w, rep, refReport)
		}
	}
	out := t.TempDir()
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		for _, a := range run(t, plan(t, root, out, Shard{K: k, N: 3}), Options{Workers: 2}) {
			seen[a.Input]++
		}
	}
	all := plan(t, root, out, Shard{})
	if len(seen) != len(all) {
		t.Errorf("shards processed %d of %d files", len(seen), len(all))
	}
	for in, n := range seen {
		if n != 1 {
			t.Errorf("%s processed %d times", in, n)
		}
	}
	if !equalFiles(outputs(t, out), refFiles) {
		t.Error("the union of the shards differs from a single run")
	}
}

func equalFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// TestCache: a second run reuses every output; a changed or missing
// output, a changed input or changed options redo it; Force redoes all.
func TestCache(t *testing.T) {
	root := tree(t)
	out := t.TempDir()
	jobs := plan(t, root, out, Shard{})
	first := run(t, jobs, Options{Workers: 2})
	firstFiles := outputs(t, out)
	status := func(assets []Asset) map[string]Status {
		m := map[string]Status{}
		for _, a := range assets {
			rel, _ := filepath.Rel(root, a.Input)
			m[filepath.ToSlash(rel)] = a.Status
		}
		return m
	}
	second := run(t, jobs, Options{Workers: 2})
	for in, s := range status(second) {
		want := Cached
		if strings.Contains(in, "truncated") {
			want = Failed
		}
		if s != want {
			t.Errorf("second run: %s is %s, want %s", in, s, want)
		}
	}
	for i := range first {
		a, b := first[i], second[i]
		a.Status, b.Status, a.TimeMS, b.TimeMS = "", "", 0, 0
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("cached result differs:\n%+v\n%+v", a, b)
		}
	}
	if !equalFiles(outputs(t, out), firstFiles) {
		t.Error("a cached run changed outputs")
	}

	boxOut := filepath.Join(out, "props", "Box.glb")
	duckOut := filepath.Join(out, "props", "animals", "Duck.glb")
	os.WriteFile(boxOut, append(firstFiles["props/Box.glb"], ' '), 0o644) // edited
	os.Remove(duckOut)                                                    // deleted
	os.Remove(filepath.Join(out, "gltf", "Cube.bin"))                     // a resource copy deleted
	data, _ := os.ReadFile(filepath.Join(root, "textured", "BoxTextured.glb"))
	os.WriteFile(filepath.Join(root, "textured", "BoxTextured.glb"), data, 0o644) // same bytes: still current
	third := status(run(t, jobs, Options{Workers: 2}))
	want := map[string]Status{"props/Box.glb": OK, "props/animals/Duck.glb": OK, "gltf/Cube.gltf": OK, "textured/BoxTextured.glb": Cached, "broken/truncated.glb": Failed}
	if fmt.Sprint(third) != fmt.Sprint(want) {
		t.Errorf("after edits: %v, want %v", third, want)
	}
	if !equalFiles(outputs(t, out), firstFiles) {
		t.Error("redone outputs differ from the first run's")
	}
	// Other options or another tool version redo everything.
	khr := aabb
	khr.Encoding.Format = physics.KHR
	for name, opt := range map[string]Options{"options": {Generate: khr}, "tool": {ToolVersion: "other"}, "force": {Force: true}} {
		for in, s := range status(run(t, jobs, opt)) {
			if s == Cached {
				t.Errorf("%s changed: %s still cached", name, in)
			}
		}
		run(t, jobs, Options{}) // back to the reference state
	}
}

// TestInterrupt cancels the run after the first finished asset: nothing
// partial remains, every output present loads, the rest is reported as
// skipped, and a re-run completes the set.
func TestInterrupt(t *testing.T) {
	root := tree(t)
	out := t.TempDir()
	jobs := plan(t, root, out, Shard{})
	// Costliest first, as Run dispatches them: then the first job reported
	// is the first one finished, and the cancel comes while others wait.
	order := dispatchOrder(jobs, generate.AABB, gltfio.Limits{})
	sorted := make([]Job, len(jobs))
	for k, i := range order {
		sorted[k] = jobs[i]
	}
	jobs = sorted
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prog := &cancelAfter{n: 1, cancel: cancel}
	assets, interrupted, err := Run(ctx, jobs, Options{Generate: aabb, Workers: 1, ToolVersion: "test", Cache: true, Progress: prog})
	if err != nil {
		t.Fatal(err)
	}
	if !interrupted {
		t.Fatal("run not reported as interrupted")
	}
	skipped := 0
	for _, a := range assets {
		if a.Status == Skipped {
			skipped++
			if _, err := os.Stat(a.Output); err == nil {
				t.Errorf("%s: skipped but written", a.Input)
			}
		}
	}
	if skipped == 0 {
		t.Error("nothing was skipped after the cancel")
	}
	checkNoPartial(t, out)
	again := run(t, jobs, Options{Workers: 2})
	for _, a := range again {
		if a.Status == Skipped || a.Status == Failed && !strings.Contains(a.Input, "truncated") {
			t.Errorf("re-run: %s %s %s", a.Input, a.Status, a.Error)
		}
	}
	checkNoPartial(t, out)
}

type cancelAfter struct {
	n      int
	cancel func()
}

func (c *cancelAfter) Start(int) {}
func (c *cancelAfter) Finish()   {}
func (c *cancelAfter) Done(int, Asset) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
}

// checkNoPartial fails on temporary files and on outputs that do not load.
func checkNoPartial(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		if isGLTFName(p) {
			if _, err := gltfio.LoadRaw(p, gltfio.Limits{}); err != nil {
				t.Errorf("output does not load: %v", err)
			}
		}
		return nil
	})
}

// TestCheckAndDryRun: neither mode writes. Before any run, check fails
// every file (its output is missing) and dry run generates in memory,
// failing only the corrupt file and listing the outputs; after a run,
// check passes every file but the corrupt one.
func TestCheckAndDryRun(t *testing.T) {
	root := tree(t)
	out := t.TempDir()
	jobs := plan(t, root, out, Shard{})
	for _, mode := range []Mode{Check, DryRun} {
		for _, a := range run(t, jobs, Options{Mode: mode, Workers: 2}) {
			bad := strings.Contains(a.Input, "truncated")
			switch {
			case bad && a.Status != Failed:
				t.Errorf("%s: corrupt file is %s", mode, a.Status)
			case !bad && mode == Check && (a.Status != Failed || !strings.Contains(a.Error, "not generated yet")):
				t.Errorf("%s: %s is %s (%s), want not up to date", mode, a.Input, a.Status, a.Error)
			case !bad && mode == DryRun && (a.Status != Skipped || a.Bodies == 0 || !strings.Contains(strings.Join(a.Notes, " "), a.Output)):
				t.Errorf("%s: %s is %s %v", mode, a.Input, a.Status, a.Notes)
			}
		}
		if files := outputs(t, out); len(files) != 0 {
			t.Errorf("%s wrote %d files", mode, len(files))
		}
		if _, err := os.Stat(filepath.Join(out, CacheFileName)); err == nil {
			t.Errorf("%s wrote a cache file", mode)
		}
	}
	run(t, jobs, Options{Workers: 2})
	written := outputs(t, out)
	for _, a := range run(t, jobs, Options{Mode: Check, Workers: 2}) {
		if bad := strings.Contains(a.Input, "truncated"); bad != (a.Status == Failed) {
			t.Errorf("check after a run: %s is %s (%s)", a.Input, a.Status, a.Error)
		}
	}
	if !equalFiles(written, outputs(t, out)) {
		t.Error("check changed the outputs")
	}
}

// BenchmarkRun processes the small test tree (four good files, one
// corrupt) with 1 and 2 workers, ignoring the cache.
func BenchmarkRun(b *testing.B) {
	root := tree(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("j%d", w), func(b *testing.B) {
			out := b.TempDir()
			jobs, err := Plan([]string{root}, PlanOptions{OutDir: out})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, _, err := Run(context.Background(), jobs, Options{Generate: aabb, Workers: w, Force: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBudgetReport: a part decomposed within its budget shows in the
// Markdown report with what it kept, the share of primitive parts is
// summed, and the JSON with budget and primitives passes the schema (a
// primitive count of a hull type does not).
func TestBudgetReport(t *testing.T) {
	parts := []generate.PartReport{
		{Name: "Table", Method: generate.Decompose, Colliders: 5, Budget: 8, Primitives: map[string]int{"box": 1, "cylinder": 4}},
		{Name: "Vase", Method: generate.Decompose, Colliders: 3, Budget: 8},
		{Name: "Ball", Method: generate.Sphere, Colliders: 1},
	}
	a := Asset{Input: "in.glb", Output: "out.glb", Status: OK, Bodies: 1, Colliders: map[string]int{"box": 1, "cylinder": 4, "convex": 3, "sphere": 1},
		BodyList: []Body{}, Parts: parts, Notes: []string{}, Warnings: []string{}}
	r := &Report{Tool: Tool{Name: "autocollide", Version: "test"}, Profile: Profile{Name: "default", Format: "omi", KHRGeometry: "mesh", Method: "auto", MaxHullVertices: 255, MaxColliders: 8},
		Mode: "write", Summary: Summarize([]Asset{a}), Assets: []Asset{a}}
	data, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	validateSchema(t, data)
	md := string(r.Markdown())
	for _, want := range []string{"| in.glb | Table | 5 of 8: 1 box, 4 cylinders |", "| in.glb | Vase | 3 of 8: 3 hulls |", "5 of the 8 parts of decompositions became primitives (62%)"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| Ball |") {
		t.Errorf("a part without a budget is listed:\n%s", md)
	}
	i := strings.LastIndex(string(data), `"cylinder": 4`) // the part's, after the asset's counts
	if i < 0 || !strings.Contains(string(data[:i]), `"primitives"`) {
		t.Fatal("no primitives in the JSON")
	}
	bad := string(data[:i]) + `"convex": 4` + string(data[i+len(`"cylinder": 4`):])
	if err := schemaErr([]byte(bad)); err == nil {
		t.Error("the schema takes a hull count among the primitives")
	}
}
