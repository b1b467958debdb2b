package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/schema"
)

// runCLI runs the command line in-process and returns its exit code and
// output streams.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// isDraco reports whether a corpus file uses KHR_draco_mesh_compression.
func isDraco(t *testing.T, path string) bool {
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range a.Doc.ExtensionsUsed {
		if u == "KHR_draco_mesh_compression" {
			return true
		}
	}
	return false
}

type corpusRun struct {
	in, out, format string
}

var (
	corpusOnce sync.Once
	corpusRuns []corpusRun
	corpusDir  string
)

// generateCorpus runs generate on every corpus file in both formats once
// per test binary, and checks the exit codes and error lines.
func generateCorpus(t *testing.T) []corpusRun {
	t.Helper()
	files := append(testassets.Corpus(t), testassets.CorpusPhysics(t)...)
	corpusOnce.Do(func() {
		dir, err := os.MkdirTemp("", "autocollide-e2e-")
		if err != nil {
			t.Fatal(err)
		}
		corpusDir = dir
		for _, format := range []string{"omi", "khr", "khr-node"} {
			for i, in := range files {
				out := filepath.Join(dir, format, fmt.Sprintf("%02d", i), filepath.Base(in))
				os.MkdirAll(filepath.Dir(out), 0o755)
				code, _, stderr := runCLI(append([]string{"generate", in, "-o", out}, formatArgs(format)...)...)
				if invalidPhysics(t, in) {
					wantRefusedPhysics(t, in, code, stderr)
					continue
				}
				if code != 0 {
					t.Errorf("%s (%s): exit %d: %s", in, format, code, stderr)
					continue
				}
				corpusRuns = append(corpusRuns, corpusRun{in, out, format})
			}
		}
	})
	if len(corpusRuns) == 0 {
		t.Fatal("no corpus output")
	}
	return corpusRuns
}

// formatArgs returns the flags for a corpus run's format: omi, khr, or
// khr-node (KHR with the older geometry.node form). The runs use hulls:
// the default profile's auto decomposes ToyCar and SheenCloth, which costs
// minutes per run (presets_test.go runs auto and every preset).
func formatArgs(format string) []string {
	if format == "khr-node" {
		return []string{"--method", "hull", "--format", "khr", "--khr-geometry", "node"}
	}
	return []string{"--method", "hull", "--format", format}
}

// TestCorpusSchemas: every output's physics validates against the
// official JSON schemas (with the defects of SCHEMA-BUGS.md worked
// around by physics/schema).
func TestCorpusSchemas(t *testing.T) {
	dir, err := schema.FindSpecs()
	if err != nil {
		t.Fatal(err)
	}
	checker, err := schema.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range generateCorpus(t) {
		a, err := gltfio.LoadRaw(r.out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		js, err := a.Tree.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		err = checker.CheckDocument(js)
		if err == nil {
			continue
		}
		in, _ := gltfio.LoadRaw(r.in, gltfio.Limits{})
		inJS, _ := in.Tree.MarshalJSON()
		had := map[string]bool{}
		if inErr := checker.CheckDocument(inJS); inErr != nil {
			for _, l := range strings.Split(inErr.Error(), "\n") {
				had[l] = true
			}
		}
		for _, l := range strings.Split(err.Error(), "\n") {
			if !had[l] {
				t.Errorf("%s (%s): schema problem the input lacked: %s", r.in, r.format, l)
			}
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if corpusDir != "" {
		os.RemoveAll(corpusDir)
	}
	if namesDir != "" {
		os.RemoveAll(namesDir)
	}
	os.Exit(code)
}

type validatorResult struct {
	Errors   int      `json:"errors"`
	Warnings int      `json:"warnings"`
	Codes    []string `json:"codes"`
}

func runValidator(t *testing.T, files []string) map[string]validatorResult {
	tools := testassets.Tools(t)
	cmd := exec.Command("node", append([]string{filepath.Join(tools, "validate", "validate.mjs")}, files...)...)
	cmd.Dir = tools
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("validator: %v: %s", err, stderr.String())
	}
	res := map[string]validatorResult{}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("validator output: %v", err)
	}
	return res
}

// TestCorpusValidator: every output passes the Khronos validator with no
// error that its input did not have.
func TestCorpusValidator(t *testing.T) {
	runs := generateCorpus(t)
	var files []string
	seen := map[string]bool{}
	for _, r := range runs {
		files = append(files, r.out)
		if !seen[r.in] {
			files = append(files, r.in)
			seen[r.in] = true
		}
	}
	res := runValidator(t, files)
	for _, r := range runs {
		in, out := res[r.in], res[r.out]
		had := map[string]bool{}
		for _, c := range in.Codes {
			had[c] = true
		}
		var fresh []string
		for _, c := range out.Codes {
			if !had[c] {
				fresh = append(fresh, c)
			}
		}
		if out.Errors < 0 || len(fresh) > 0 {
			t.Errorf("%s (%s): validator errors the input lacked: %v", r.in, r.format, fresh)
		}
		if in.Errors == 0 && out.Errors != 0 {
			t.Errorf("%s (%s): %d validator errors: %v", r.in, r.format, out.Errors, out.Codes)
		}
	}
}

// TestCorpusPreservation: removing what was added gives the input's JSON
// back (and the input's binary buffer), and the output declares the
// physics extensions as used but never required.
func TestCorpusPreservation(t *testing.T) {
	for _, r := range generateCorpus(t) {
		in, err := gltfio.LoadRaw(r.in, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := gltfio.Load(r.out, gltfio.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", r.out, err)
		}
		if !out.Stripped && !gltfio.Equal(in.Tree, out.Tree) {
			t.Errorf("%s: output changed but has no undo record", r.in)
			continue
		}
		if !gltfio.Equal(in.Tree, out.Tree) {
			t.Errorf("%s (%s): output minus generated content differs from the input", r.in, r.format)
		}
		if in.Binary && len(in.Doc.Buffers) > 0 && !bytes.Equal(in.Doc.Buffers[0].Data, out.Doc.Buffers[0].Data) {
			t.Errorf("%s (%s): binary buffer changed", r.in, r.format)
		}
		raw, err := gltfio.LoadRaw(r.out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, req := range raw.Doc.ExtensionsRequired {
			if strings.HasPrefix(req, "OMI_physics") || strings.HasPrefix(req, "KHR_physics") || req == "KHR_implicit_shapes" {
				t.Errorf("%s: %s in extensionsRequired", r.out, req)
			}
		}
	}
}

// TestCorpusIdempotent: generating on the output gives the same bytes
// (written under the same name in another folder, since a .gltf names
// the .bin of its generated data after itself; that file is the same too).
func TestCorpusIdempotent(t *testing.T) {
	for _, r := range generateCorpus(t) {
		again := filepath.Join(filepath.Dir(r.out), "again", filepath.Base(r.out))
		os.MkdirAll(filepath.Dir(again), 0o755)
		if code, _, stderr := runCLI(append([]string{"generate", r.out, "-o", again}, formatArgs(r.format)...)...); code != 0 {
			t.Errorf("%s: second run: %s", r.out, stderr)
			continue
		}
		// The .bin's name carries its content's hash: the same name in
		// both folders, holding the same bytes.
		names := []string{filepath.Base(r.out)}
		entries, _ := os.ReadDir(filepath.Dir(again))
		for _, e := range entries {
			if gltfio.IsGeneratedBin(strings.TrimSuffix(filepath.Base(r.out), filepath.Ext(r.out)), e.Name()) {
				names = append(names, e.Name())
			}
		}
		for _, name := range names {
			a, errA := os.ReadFile(filepath.Join(filepath.Dir(r.out), name))
			b, errB := os.ReadFile(filepath.Join(filepath.Dir(again), name))
			if !bytes.Equal(a, b) || (errA == nil) != (errB == nil) {
				t.Errorf("%s (%s): second run's %s differs from the first", r.in, r.format, name)
			}
		}
		os.RemoveAll(filepath.Dir(again))
	}
}

// TestBadFiles: every broken file gives exit 1, one error line naming the
// file, no panic and no output.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "bad", "*.gl*"))
	if len(files) < 15 {
		t.Fatalf("only %d broken files", len(files))
	}
	dir := t.TempDir()
	for _, f := range files {
		out := filepath.Join(dir, "out"+filepath.Ext(f))
		code, _, stderr := runCLI("generate", f, "-o", out)
		line := strings.TrimSpace(stderr)
		if code != 1 || line == "" || strings.Contains(line, "\n") || !strings.HasPrefix(line, f+": ") {
			t.Errorf("%s: want exit 1 and one line starting with the file name, got %d %q", filepath.Base(f), code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written", filepath.Base(f))
			os.Remove(out)
		}
		t.Logf("%s: %s", filepath.Base(f), line)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}
