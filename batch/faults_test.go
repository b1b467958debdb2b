package batch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
)

// faultFS writes through the real file system, except into files whose
// final name is victim: there it fails as a full disk (after a few bytes)
// or a read-only folder does (at creation).
type faultFS struct {
	gltfio.OSFS
	victim   string
	readOnly bool
}

func (f faultFS) CreateTemp(dir, pattern string) (gltfio.TempFile, error) {
	if !strings.HasPrefix(pattern, "."+f.victim+".tmp-") {
		return f.OSFS.CreateTemp(dir, pattern)
	}
	if f.readOnly {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.EROFS}
	}
	tf, err := f.OSFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &fullFile{TempFile: tf, room: 64}, nil
}

// fullFile accepts room bytes, then fails as a full disk does.
type fullFile struct {
	gltfio.TempFile
	room int
}

func (f *fullFile) Write(p []byte) (int, error) {
	if len(p) <= f.room {
		f.room -= len(p)
		return f.TempFile.Write(p)
	}
	n, _ := f.TempFile.Write(p[:f.room])
	f.room = 0
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// faultBatch copies the example into three inputs and plans a run of
// them into an output folder.
func faultBatch(t *testing.T) (in, out string, jobs []Job) {
	src, err := os.ReadFile(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out = filepath.Join(dir, "in"), filepath.Join(dir, "out")
	os.MkdirAll(in, 0o755)
	for _, n := range []string{"a.glb", "b.glb", "c.glb"} {
		os.WriteFile(filepath.Join(in, n), src, 0o644)
	}
	jobs, err = Plan([]string{in}, PlanOptions{OutDir: out})
	if err != nil || len(jobs) != 3 {
		t.Fatalf("plan: %v %v", jobs, err)
	}
	return in, out, jobs
}

// checkFault asserts that only b failed, with an error naming its output
// and the cause, that a and c were written, and that the output folder
// holds no b and no temporary file.
func checkFault(t *testing.T, assets []Asset, out, cause string) {
	t.Helper()
	for i, a := range assets {
		if i == 1 {
			if a.Status != Failed || !strings.Contains(a.Error, filepath.Join(out, "b.glb")+": ") || !strings.Contains(a.Error, cause) {
				t.Errorf("b: %s %q, want failed naming the output with %q", a.Status, a.Error, cause)
			}
			continue
		}
		if a.Status != OK {
			t.Errorf("%s: %s %q: the batch did not go on", a.Input, a.Status, a.Error)
		}
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.glb c.glb" {
		t.Errorf("output folder holds %v, want a.glb c.glb only", names)
	}
}

func TestDiskFull(t *testing.T) {
	_, out, jobs := faultBatch(t)
	assets, _, err := Run(context.Background(), jobs, Options{Generate: generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB}}, Workers: 2, FS: faultFS{victim: "b.glb"}})
	if err != nil {
		t.Fatal(err)
	}
	checkFault(t, assets, out, "no space left on device")
}

func TestReadOnlyOutput(t *testing.T) {
	_, out, jobs := faultBatch(t)
	assets, _, err := Run(context.Background(), jobs, Options{Generate: generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB}}, Workers: 2, FS: faultFS{victim: "b.glb", readOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	checkFault(t, assets, out, "read-only file system")
}

// TestReadOnlyFolder makes the output folder truly read-only (which root
// ignores, so it is skipped as root; TestReadOnlyOutput covers the same
// through a test double).
func TestReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	_, out, jobs := faultBatch(t)
	os.MkdirAll(out, 0o755)
	os.Chmod(out, 0o555)
	defer os.Chmod(out, 0o755)
	assets, _, _ := Run(context.Background(), jobs, Options{Generate: generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB}}, Workers: 2})
	for _, a := range assets {
		if a.Status != Failed || !strings.Contains(a.Error, "permission denied") {
			t.Errorf("%s: %s %q", a.Input, a.Status, a.Error)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("files left in the read-only folder: %v", entries)
	}
}

// TestInputRemoved: an input removed after the run was planned fails with
// an error naming it; the others are written.
func TestInputRemoved(t *testing.T) {
	in, out, jobs := faultBatch(t)
	os.Remove(filepath.Join(in, "b.glb"))
	assets, _, err := Run(context.Background(), jobs, Options{Generate: generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB}}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if a := assets[1]; a.Status != Failed || !strings.Contains(a.Error, filepath.Join(in, "b.glb")) || !strings.Contains(a.Error, "no such file") {
		t.Errorf("b: %s %q", a.Status, a.Error)
	}
	if assets[0].Status != OK || assets[2].Status != OK {
		t.Errorf("the batch did not go on: %v %v", assets[0], assets[2])
	}
	if _, err := os.Stat(filepath.Join(out, "b.glb")); err == nil {
		t.Error("an output was written for the removed input")
	}
}

// TestFullFileDouble checks the double itself: it must really fail, so the
// fault tests above cannot pass by accident.
func TestFullFileDouble(t *testing.T) {
	dir := t.TempDir()
	err := gltfio.WriteFileAtomicTo(faultFS{victim: "x"}, filepath.Join(dir, "x"), bytes.Repeat([]byte("z"), 1000))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("want ENOSPC, got %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestPanicFailsOneFile: a bug that panics while one file is generated
// fails that file alone, marked internal, and the batch goes on.
func TestPanicFailsOneFile(t *testing.T) {
	_, _, jobs := faultBatch(t)
	var calls atomic.Int32
	opt := aabb
	opt.Rules = func(context.Context, generate.NodeInfo) (generate.PartSettings, bool, error) {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		return generate.PartSettings{}, false, nil
	}
	assets, _, err := Run(context.Background(), jobs, Options{Generate: opt, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var internal, ok int
	for _, a := range assets {
		switch {
		case a.Internal && a.Status == Failed && strings.Contains(a.Error, "internal error") && strings.Contains(a.Error, "boom"):
			internal++
		case a.Status == OK && !a.Internal:
			ok++
		}
	}
	if internal != 1 || ok != 2 {
		t.Errorf("%d internal failures and %d written, want 1 and 2: %+v", internal, ok, assets)
	}
}
