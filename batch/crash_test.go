package batch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
)

// The crash test (issue #41): a run is killed (SIGKILL, from inside its
// own process) just before its Nth file-system operation, for every N
// from 1 to the number a whole run makes; the operations are every
// temporary file created, every write into one, every rename and every
// removal, that is every step by which outputs, their .bin files, copied
// resources and the cache files reach the disk. After each kill:
//   - every input still loads (in place: with its old colliders or its
//     new ones);
//   - every output either loads or is absent;
//   - the next run succeeds, reports every file OK or cached, leaves no
//     temporary file and no stale .bin, and its outputs and cache are
//     those of a run never interrupted (a third run finds all cached).
//
// The killed run is a re-executed test binary (TestMain below): the
// batch.Run that generate calls, with the options generate gives it
// (--in-place; --out-dir with the cache), writing through a gltfio.FS
// that counts operations and kills the process at the chosen one.

const crashEnv = "AUTOCOLLIDE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(crashEnv) != "" {
		os.Exit(crashChild())
	}
	os.Exit(m.Run())
}

// crashFS kills the process just before operation number at (1-based)
// and counts the operations made.
type crashFS struct {
	gltfio.OSFS
	at int64
	n  *atomic.Int64
}

func (f crashFS) op() {
	if n := f.n.Add(1); n == f.at {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}

func (f crashFS) CreateTemp(dir, pattern string) (gltfio.TempFile, error) {
	f.op()
	t, err := f.OSFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return crashFile{t, f}, nil
}

func (f crashFS) Rename(a, b string) error { f.op(); return f.OSFS.Rename(a, b) }
func (f crashFS) Remove(p string) error    { f.op(); return f.OSFS.Remove(p) }

type crashFile struct {
	gltfio.TempFile
	fs crashFS
}

func (c crashFile) Write(p []byte) (int, error) {
	// A kill in the middle of a write: half the bytes reach the disk.
	if c.fs.n.Load()+1 == c.fs.at && len(p) > 1 {
		c.TempFile.Write(p[:len(p)/2])
		c.TempFile.Sync()
	}
	c.fs.op()
	return c.TempFile.Write(p)
}

// crashOptions are the options of a crash run, by mode: the method
// differs from the one the tree was first generated with, so that every
// output (and every .bin) is replaced.
func crashOptions(mode string) Options {
	g := generate.Options{Collider: generate.ColliderSettings{Method: generate.Hull, MaxHullVertices: 32}, Encoding: generate.Encoding{Format: physics.OMI}}
	o := Options{Generate: g, Workers: 1, ToolVersion: "crash-test"}
	if mode == "inplace" {
		o.InPlace = true
	} else {
		o.Cache = true
	}
	return o
}

func crashJobs(mode, root string) ([]Job, error) {
	if mode == "inplace" {
		return Plan([]string{root}, PlanOptions{InPlace: true})
	}
	return Plan([]string{filepath.Join(root, "in")}, PlanOptions{OutDir: filepath.Join(root, "out")})
}

// crashChild runs in the re-executed binary: one run, killed at
// operation AUTOCOLLIDE_CRASH_AT (0: never); it prints the operations
// made.
func crashChild() int {
	mode, root := os.Getenv(crashEnv), os.Getenv("AUTOCOLLIDE_CRASH_ROOT")
	at, _ := strconv.ParseInt(os.Getenv("AUTOCOLLIDE_CRASH_AT"), 10, 64)
	jobs, err := crashJobs(mode, root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	o := crashOptions(mode)
	var n atomic.Int64
	o.FS = crashFS{at: at, n: &n}
	assets, _, err := Run(context.Background(), jobs, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, a := range assets {
		if a.Status == Failed {
			fmt.Fprintln(os.Stderr, a.Error)
			return 1
		}
	}
	fmt.Println(n.Load())
	return 0
}

func runCrashChild(t *testing.T, mode, root string, at int) (string, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+mode, "AUTOCOLLIDE_CRASH_ROOT="+root, fmt.Sprintf("AUTOCOLLIDE_CRASH_AT=%d", at))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return stderr.String(), err
	}
	return strings.TrimSpace(string(out)), nil
}

// crashTemplate makes the tree every kill starts from: two .gltf assets
// with external buffers and images (one in a subfolder) and a .glb,
// already generated once with hulls of at most 8 vertices (in place, or
// into out/ with the cache), so that a crash run (32) replaces the
// Duck's .bin and rewrites the Cube's with the same bytes.
func crashTemplate(t *testing.T, mode string) string {
	t.Helper()
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	root := t.TempDir()
	in := root
	if mode == "outdir" {
		in = filepath.Join(root, "in")
	}
	for _, f := range []string{"Cube.gltf", "Cube.bin", "Cube_BaseColor.png", "Cube_MetallicRoughness.png"} {
		copyFile(t, filepath.Join(corpus, "Cube", "glTF", f), filepath.Join(in, f))
	}
	for _, f := range []string{"Duck.gltf", "Duck.bin", "DuckCM.png"} {
		copyFile(t, filepath.Join(corpus, "Duck_glTF-Quantized", "glTF-Quantized", f), filepath.Join(in, "sub", f))
	}
	copyFile(t, filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb"), filepath.Join(in, "Box.glb"))
	jobs, err := crashJobs(mode, root)
	if err != nil {
		t.Fatal(err)
	}
	o := crashOptions(mode)
	o.Generate.Collider.MaxHullVertices = 8 // other hulls: another .bin (the Duck's; the Cube's stays)
	for _, a := range run(t, jobs, o) {
		if a.Status != OK {
			t.Fatalf("template: %s: %s %s", a.Input, a.Status, a.Error)
		}
	}
	return root
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		copyFile(t, p, filepath.Join(dst, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// treeFiles reads every file under dir, by relative path.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)], _ = os.ReadFile(p)
		}
		return nil
	})
	return files
}

func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary dozens of times")
	}
	for _, mode := range []string{"inplace", "outdir"} {
		t.Run(mode, func(t *testing.T) { crashConsistency(t, mode) })
	}
}

func crashConsistency(t *testing.T, mode string) {
	template := crashTemplate(t, mode)
	// The reference: the run never interrupted.
	ref := t.TempDir()
	copyTree(t, template, ref)
	total, err := runCrashChild(t, mode, ref, 0)
	if err != nil {
		t.Fatalf("uninterrupted run: %v: %s", err, total)
	}
	ops, _ := strconv.Atoi(total)
	if ops < 10 {
		t.Fatalf("an uninterrupted run made %d file operations: the hook sees nothing", ops)
	}
	want := treeFiles(t, ref)
	t.Logf("%s: %d operations; killing the run before each", mode, ops)
	for at := 1; at <= ops; at++ {
		root := filepath.Join(t.TempDir(), "r")
		copyTree(t, template, root)
		if out, err := runCrashChild(t, mode, root, at); err == nil {
			t.Fatalf("kill at %d: the run was not killed (%s)", at, out)
		}
		jobs, err := crashJobs(mode, root)
		if err != nil {
			t.Fatal(err)
		}
		old, now := treeFiles(t, template), treeFiles(t, ref)
		for _, j := range jobs {
			if _, err := gltfio.LoadRaw(j.Input, gltfio.Limits{}); err != nil {
				t.Fatalf("kill at %d: input %s no longer loads: %v", at, j.Input, err)
			}
			if _, err := os.Stat(j.Output); err != nil && mode == "outdir" {
				continue // absent
			}
			// Loads, and is exactly the old output or the new one, with
			// every file it references.
			b, err := gltfio.LoadRaw(j.Output, gltfio.Limits{})
			if err != nil || !b.HasGenerated() {
				t.Errorf("kill at %d: output %s is there but does not load with colliders: %v", at, j.Output, err)
				continue
			}
			rel, _ := filepath.Rel(root, j.Output)
			files := []string{filepath.ToSlash(rel)}
			for _, r := range b.Resources {
				files = append(files, path.Join(path.Dir(files[0]), r))
			}
			isOld, isNew := true, true
			for _, f := range files {
				data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
				isOld = isOld && bytes.Equal(data, old[f])
				isNew = isNew && bytes.Equal(data, now[f])
			}
			if !isOld && !isNew {
				t.Errorf("kill at %d: %s with %v is neither the old output nor the new one", at, j.Output, files[1:])
			}
		}
		// The next run repairs and reports correctly.
		if out, err := runCrashChild(t, mode, root, 0); err != nil {
			t.Fatalf("kill at %d: the next run failed: %v: %s", at, err, out)
		}
		got := treeFiles(t, root)
		for name := range got {
			if strings.Contains(name, ".tmp-") {
				t.Errorf("kill at %d: %s left after the next run", at, name)
			}
		}
		if !equalFiles(got, want) {
			var diff []string
			for name := range want {
				if !bytes.Equal(got[name], want[name]) {
					diff = append(diff, name)
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok {
					diff = append(diff, name+" (extra)")
				}
			}
			t.Errorf("kill at %d: after the next run the tree differs from an uninterrupted run's: %v", at, diff)
		}
		if mode == "outdir" {
			o := crashOptions(mode)
			o.ToolVersion = "crash-test"
			for _, a := range run(t, jobs, o) {
				if a.Status != Cached {
					t.Errorf("kill at %d: third run: %s is %s, want cached", at, a.Input, a.Status)
				}
			}
		}
	}
}
