package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// batchTree copies small corpus assets (in subfolders) and one corrupt
// file into a temporary folder.
func batchTree(t *testing.T, extra map[string]string) string {
	t.Helper()
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	files := map[string]string{
		"props/Box.glb":            filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb"),
		"props/animals/Duck.glb":   filepath.Join(corpus, "Duck", "glTF-Binary", "Duck.glb"),
		"textured/BoxTextured.glb": filepath.Join(corpus, "BoxTextured", "glTF-Binary", "BoxTextured.glb"),
		"broken/truncated.glb":     filepath.Join(testassets.Repo(), "testdata", "bad", "truncated.glb"),
	}
	for k, v := range extra {
		files[k] = v
	}
	root := t.TempDir()
	for dst, src := range files {
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

type batchReport struct {
	Summary batch.Summary `json:"summary"`
	Assets  []batch.Asset `json:"assets"`
}

func readReport(t *testing.T, path string) (batchReport, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var schemaDoc any
	json.Unmarshal(batch.Schema, &schemaDoc)
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("%s does not follow the schema: %v", path, err)
	}
	var r batchReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r, data
}

// TestBatchFolder: a folder with a corrupt file: the others are written
// under the mirrored tree, exit 1, one stderr line for the failure, and
// both report forms list it.
func TestBatchFolder(t *testing.T) {
	root := batchTree(t, nil)
	out := t.TempDir()
	rj, rm := filepath.Join(out, "r.json"), filepath.Join(t.TempDir(), "r.md")
	code, stdout, stderr := runCLI("generate", root, "--out-dir", out, "--method", "aabb", "-j", "2", "--report", rj)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	bad := filepath.Join(root, "broken", "truncated.glb")
	if line := strings.TrimSpace(stderr); strings.Contains(line, "\n") || !strings.HasPrefix(line, bad+": ") {
		t.Errorf("stderr %q: want one line naming %s", stderr, bad)
	}
	for _, rel := range []string{"props/Box.glb", "props/animals/Duck.glb", "textured/BoxTextured.glb"} {
		if _, err := gltfio.LoadRaw(filepath.Join(out, filepath.FromSlash(rel)), gltfio.Limits{}); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		if !strings.Contains(stdout, filepath.Join(root, filepath.FromSlash(rel))+" → ") {
			t.Errorf("stdout does not mention %s:\n%s", rel, stdout)
		}
	}
	if !strings.Contains(stdout, "4 assets: 3 ok, 0 cached, 0 skipped, 1 failed") {
		t.Errorf("no summary line:\n%s", stdout)
	}
	r, _ := readReport(t, rj)
	if r.Summary.Total != 4 || r.Summary.Failed != 1 || r.Assets[0].Input != bad || r.Assets[0].Error == "" {
		t.Errorf("report: %+v", r)
	}
	// The report file beside the outputs is not taken as an input, and a
	// second run reuses every output.
	code, stdout, _ = runCLI("generate", root, "--out-dir", out, "--method", "aabb", "--report", rm)
	md, _ := os.ReadFile(rm)
	if code != 1 || !strings.Contains(stdout, "3 cached") || !strings.Contains(string(md), "truncated.glb") {
		t.Errorf("second run: exit %d\n%s\n%s", code, stdout, md)
	}
	// --check and --dry-run write nothing; --check fails the raw files
	// (no physics: see check_test.go), --dry-run passes without the
	// corrupt file.
	fresh := t.TempDir()
	if code, _, stderr := runCLI("generate", root, "--check", "--method", "aabb"); code != 1 || !strings.Contains(stderr, "truncated.glb") || !strings.Contains(stderr, "Box.glb: not up to date: no physics") {
		t.Errorf("--check: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("generate", root, "--dry-run", "--method", "aabb", "--exclude", "broken/**"); code != 0 {
		t.Errorf("--dry-run without the corrupt file: exit %d %q", code, stderr)
	}
	if code, stdout, _ := runCLI("generate", root, "--dry-run", "--out-dir", fresh, "--method", "aabb", "--exclude", "broken"); code != 0 || !strings.Contains(stdout, filepath.Join(fresh, "props", "Box.glb")) {
		t.Errorf("--dry-run: exit %d\n%s", code, stdout)
	}
	if entries, _ := os.ReadDir(fresh); len(entries) != 0 {
		t.Errorf("--dry-run wrote %v", entries)
	}
	for _, args := range [][]string{
		{"generate", root, "--out-dir", fresh, "--shard", "4/3"},
		{"generate", root, "--out-dir", fresh, "--shard", "1/3", "--shard-from-env", "3"},
		{"generate", root, "--out-dir", fresh, "-j", "0"},
		{"generate", root, "--out-dir", fresh, "--include", "[a-"},
		{"generate", root, "-o", filepath.Join(fresh, "x.glb")},
		{"generate", root, "--check", "--dry-run"},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d %q, want 2", args[2:], code, stderr)
		}
	}
}

// TestBatchShardsAndJobs: -j 1, 2, 4 and the union of shards 1/3, 2/3
// and 3/3 (the last from JOB_COMPLETION_INDEX) write the same bytes, and
// the reports without timings are identical.
func TestBatchShardsAndJobs(t *testing.T) {
	root := batchTree(t, nil)
	var ref map[string][]byte
	var refReport []byte
	for _, j := range []string{"1", "2", "4"} {
		out := t.TempDir()
		rj := filepath.Join(t.TempDir(), "r.json")
		runCLI("generate", root, "--out-dir", out, "--method", "aabb", "-j", j, "--no-timings", "--report", rj)
		_, rep := readReport(t, rj)
		rep = bytes.ReplaceAll(rep, []byte(out), []byte("OUT"))
		files := treeFiles(t, out)
		if ref == nil {
			ref, refReport = files, rep
			continue
		}
		if !sameTree(files, ref) {
			t.Errorf("-j %s: outputs differ from -j 1", j)
		}
		if !bytes.Equal(rep, refReport) {
			t.Errorf("-j %s: report differs:\n%s\n---\n%s", j, rep, refReport)
		}
	}
	out := t.TempDir()
	seen := map[string]int{}
	for k, args := range [][]string{{"--shard", "1/3"}, {"--shard", "2/3"}, {"--shard-from-env", "3"}} {
		if k == 2 {
			t.Setenv("JOB_COMPLETION_INDEX", "2")
		}
		rj := filepath.Join(t.TempDir(), "r.json")
		runCLI(append([]string{"generate", root, "--out-dir", out, "--method", "aabb", "--report", rj}, args...)...)
		r, _ := readReport(t, rj)
		for _, a := range r.Assets {
			seen[a.Input]++
		}
	}
	if len(seen) != 4 {
		t.Errorf("shards covered %d of 4 files: %v", len(seen), seen)
	}
	for in, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d shards", in, n)
		}
	}
	if !sameTree(treeFiles(t, out), ref) {
		t.Error("the union of the shards differs from a single run")
	}
}

func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != batch.CacheFileName {
			rel, _ := filepath.Rel(dir, p)
			files[rel], _ = os.ReadFile(p)
		}
		return err
	})
	return files
}

func sameTree(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestBatchCorpus runs the whole shared corpus in one command: every
// asset is written (the Draco ones included), the report lists them all,
// and a second run reuses every output.
func TestBatchCorpus(t *testing.T) {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	files := testassets.Corpus(t)
	out := t.TempDir()
	rj := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runCLI("generate", corpus, "--out-dir", out, "--method", "aabb", "-j", "2", "-q", "--report", rj)
	r, _ := readReport(t, rj)
	if len(r.Assets) != len(files) {
		t.Fatalf("report lists %d assets, the corpus has %d", len(r.Assets), len(files))
	}
	failed := 0
	for i, a := range r.Assets {
		if a.Input != files[i] {
			t.Errorf("asset %d is %s, want %s (input order)", i, a.Input, files[i])
		}
		switch {
		case a.Status != batch.OK:
			t.Errorf("%s: %s %q", a.Input, a.Status, a.Error)
		default:
			if _, err := gltfio.LoadRaw(a.Output, gltfio.Limits{}); err != nil {
				t.Errorf("%s: output does not load: %v", a.Input, err)
			}
		}
		if a.Status == batch.Failed {
			failed++
			if !strings.Contains(stderr, a.Input+": ") {
				t.Errorf("%s: failure not on stderr", a.Input)
			}
		}
	}
	want := 0
	if failed > 0 {
		want = 1
	}
	if code != want {
		t.Errorf("exit %d, want %d", code, want)
	}
	runCLI("generate", corpus, "--out-dir", out, "--method", "aabb", "-j", "2", "-q", "--report", rj)
	r, _ = readReport(t, rj)
	if r.Summary.Cached != len(files)-failed || r.Summary.Failed != failed {
		t.Errorf("second run: %+v, want %d cached", r.Summary, len(files)-failed)
	}
}

// TestBatchSIGINT interrupts a built binary mid-batch with SIGINT: it
// exits 1, leaves no temporary file and no output that does not load,
// and a re-run finishes the rest.
func TestBatchSIGINT(t *testing.T) {
	duck := filepath.Join(testassets.Shared(t), "corpus", "Duck", "glTF-Binary", "Duck.glb")
	extra := map[string]string{}
	for _, d := range []string{"a", "b", "c", "d", "e", "f"} {
		extra["more/"+d+"/Duck.glb"] = duck
	}
	root := batchTree(t, extra)
	bin := filepath.Join(t.TempDir(), "autocollide")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out := t.TempDir()
	args := []string{"generate", root, "--out-dir", out, "--method", "hull", "-j", "1", "--exclude", "broken/**"}
	cmd := exec.Command(bin, args...)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() { // the first file is done
		t.Fatalf("no output line; stderr %s", stderr.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	for sc.Scan() {
	}
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if code != 1 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("interrupted run: %v, exit %d, stderr %q", err, code, stderr.String())
	}
	written := 0
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		if strings.HasSuffix(p, ".glb") {
			written++
			if _, err := gltfio.LoadRaw(p, gltfio.Limits{}); err != nil {
				t.Errorf("partial output: %v", err)
			}
		}
		return nil
	})
	if written == 0 || written >= 9 {
		t.Errorf("interrupted run wrote %d of 9 files: the signal did not stop it", written)
	}
	start := time.Now()
	again := exec.Command(bin, append(args, "-q")...)
	if msg, err := again.CombinedOutput(); err != nil {
		t.Fatalf("re-run: %v\n%s", err, msg)
	}
	for _, rel := range []string{"props/Box.glb", "props/animals/Duck.glb", "textured/BoxTextured.glb", "more/f/Duck.glb"} {
		if _, err := gltfio.LoadRaw(filepath.Join(out, filepath.FromSlash(rel)), gltfio.Limits{}); err != nil {
			t.Errorf("after the re-run: %v", err)
		}
	}
	t.Logf("interrupted after %d outputs; re-run took %v", written, time.Since(start))
}
