package batch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/hostile"
	"github.com/autocollide/autocollide/internal/testassets"
)

// TestInputsReadOnce (issue 41, "each input file is read once per run"):
// the write check, the cost estimates and the run derive from one read of
// each input's JSON. Inputs rewritten after the write check keep their
// first costs (JobCosts does not read them again), and the run fails
// them, naming the file, instead of generating from contents the write
// check never saw; an untouched input is generated as usual. Before:
// CheckWrites, JobCosts (each call) and the run each read every input.
func TestInputsReadOnce(t *testing.T) {
	furniture, err := os.ReadFile(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	os.MkdirAll(in, 0o755)
	small := hostile.Instanced(10, 2)
	os.WriteFile(filepath.Join(in, "a.gltf"), small, 0o644)
	os.WriteFile(filepath.Join(in, "b.gltf"), small, 0o644)
	os.WriteFile(filepath.Join(in, "c.glb"), furniture, 0o644)
	jobs, err := Plan([]string{in}, PlanOptions{OutDir: out})
	if err != nil || len(jobs) != 3 {
		t.Fatalf("plan: %v %v", jobs, err)
	}
	lim := gltfio.Limits{}
	if err := CheckWrites(jobs, Writes{Outputs: true, Cache: true}, lim); err != nil {
		t.Fatal(err)
	}
	methods := []generate.Method{generate.AABB, generate.AABB, generate.AABB}
	before := JobCosts(jobs, methods, lim)

	// Behind the run's back: a's JSON gains a trailing space, b becomes
	// 50 times the instances.
	os.WriteFile(filepath.Join(in, "a.gltf"), append(small, ' '), 0o644)
	os.WriteFile(filepath.Join(in, "b.gltf"), hostile.Instanced(500, 2), 0o644)
	after := JobCosts(jobs, methods, lim)
	for i := range jobs {
		if after[i] != before[i] {
			t.Errorf("%s: cost %g after the rewrite, %g before: read again", jobs[i].Rel, after[i], before[i])
		}
	}
	if fresh := JobCosts(append([]Job(nil), Job{Input: jobs[1].Input, Rel: jobs[1].Rel}), methods[:1], lim); fresh[0] == before[1] {
		t.Fatal("the rewritten b costs what it did: the test proves nothing")
	}

	assets, _, err := Run(context.Background(), jobs, Options{Generate: generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB}}, Workers: 2, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range assets {
		switch i {
		case 0, 1:
			if a.Status != Failed || !strings.Contains(a.Error, jobs[i].Input+": changed since the run started") {
				t.Errorf("%s: %s %q, want it failed as changed", jobs[i].Rel, a.Status, a.Error)
			}
			if _, err := os.Stat(jobs[i].Output); err == nil {
				t.Errorf("%s: an output was written", jobs[i].Rel)
			}
		default:
			if a.Status != OK {
				t.Errorf("%s: %s %q, want it generated", jobs[i].Rel, a.Status, a.Error)
			}
		}
	}
}
