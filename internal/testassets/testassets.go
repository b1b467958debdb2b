// Package testassets locates the project's shared test material (the
// ../shared folder beside the repository, or $AUTOCOLLIDE_SHARED) and the
// pinned npm test tools, and reads the corpus meshes' points for the
// geometry packages' tests; for tests only. A missing folder or tool skips
// the test, and fails it under AUTOCOLLIDE_REQUIRE_TOOLS=1 (as in CI).
package testassets

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the repository root, found from this file's location.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Shared returns the shared folder, skipping the test when it is absent
// (and failing when AUTOCOLLIDE_REQUIRE_TOOLS=1, as in CI).
func Shared(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("AUTOCOLLIDE_SHARED"); d != "" {
		return d
	}
	for dir := repoRoot(); ; {
		if st, err := os.Stat(filepath.Join(dir, "shared", "corpus")); err == nil && st.IsDir() {
			return filepath.Join(dir, "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			missing(t, "the shared/ folder (set AUTOCOLLIDE_SHARED)")
			return ""
		}
		dir = parent
	}
}

// Corpus returns every .gltf and .glb file of shared/corpus, sorted.
func Corpus(t testing.TB) []string {
	t.Helper()
	return gltfFiles(t, "corpus")
}

// CorpusPhysics returns every .gltf and .glb file of shared/corpus-physics
// (real assets that already carry OMI physics), sorted.
func CorpusPhysics(t testing.TB) []string {
	t.Helper()
	return gltfFiles(t, "corpus-physics")
}

// SpecEditor returns the KHR spec editor's 71 test and sample files
// (shared/spec-editor, from eoineoineoin/glTF_Physics), sorted, skipping
// the test when the folder is absent, even under
// AUTOCOLLIDE_REQUIRE_TOOLS=1: the folder is not part of the shared/ that
// the project was given (a session laid it there by hand, and the files
// carry no licence to copy them into the repository), so CI may not have
// it. The drives those files exercise have fixtures of our own in
// physics/validate.
func SpecEditor(t testing.TB) []string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(Shared(t), "spec-editor")); err != nil {
		t.Skip("shared/spec-editor (the KHR spec editor's test files) is absent")
	}
	return gltfFiles(t, "spec-editor")
}

func gltfFiles(t testing.TB, sub string) []string {
	var files []string
	filepath.Walk(filepath.Join(Shared(t), sub), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("shared/%s holds no glTF files", sub)
	}
	return files
}

// Tools returns the repository's tools folder with its node_modules
// installed, skipping the test when they are missing (failing under
// AUTOCOLLIDE_REQUIRE_TOOLS=1).
func Tools(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(repoRoot(), "tools")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		missing(t, "tools/node_modules (run: npm ci --prefix tools)")
	}
	return dir
}

// NodeModule returns the repository's tools folder when node is on the
// PATH and the pinned npm package module is installed under
// tools/node_modules, skipping the test otherwise (failing under
// AUTOCOLLIDE_REQUIRE_TOOLS=1).
func NodeModule(t testing.TB, module string) string {
	t.Helper()
	dir := Tools(t)
	if _, err := exec.LookPath("node"); err != nil {
		missing(t, "node on the PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", module)); err != nil {
		missing(t, "tools/node_modules/"+module+" (run: npm ci --prefix tools)")
	}
	return dir
}

// RunNode runs the node script tools/<script> (which needs the npm package
// module) with req as JSON on stdin, and decodes its JSON answer into
// resp. Missing tools skip the test, or fail it under
// AUTOCOLLIDE_REQUIRE_TOOLS=1.
func RunNode(t testing.TB, module, script string, req, resp any) {
	t.Helper()
	dir := NodeModule(t, module)
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(dir, script))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	if err := json.Unmarshal(out, resp); err != nil {
		t.Fatalf("node %s: bad JSON answer: %v", script, err)
	}
}

// Repo returns the repository root.
func Repo() string { return repoRoot() }

func missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("AUTOCOLLIDE_REQUIRE_TOOLS") == "1" {
		t.Fatalf("missing %s", what)
	}
	t.Skipf("missing %s", what)
}

// Decoded returns a copy of the shared asset at path with its
// KHR_draco_mesh_compression decoded, written as GLB into a test temporary
// folder by the pinned glTF-Transform CLI with the npm draco3dgltf
// decoder: the reference that package mesh's Draco extraction is compared
// with.
func Decoded(t testing.TB, path string) string {
	t.Helper()
	cli := filepath.Join(Tools(t), "node_modules", ".bin", "gltf-transform")
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".glb")
	cmd := exec.Command(cli, "copy", path, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gltf-transform copy %s: %v\n%s", path, err, msg)
	}
	return out
}
