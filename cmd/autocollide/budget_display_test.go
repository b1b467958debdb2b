package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
)

// TestBudgetShown: inspect and preview show, per mesh instance, the
// budget, the colliders kept and how many became which primitive, as
// generate's report has them, on the milk truck (a body decomposed into
// hulls and a box, two wheel pairs into cylinders); a budget record that
// does not match its file is a warning naming its JSON path.
func TestBudgetShown(t *testing.T) {
	dir := t.TempDir()
	out, rep := filepath.Join(dir, "truck.gltf"), filepath.Join(dir, "truck.json")
	if code, _, stderr := runCLI("generate", milkTruck(t), "-o", out, "--report", rep); code != 0 {
		t.Fatalf("generate: %s", stderr)
	}
	var report struct {
		Assets []generate.Report `json:"assets"`
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &report); err != nil || len(report.Assets) != 1 {
		t.Fatalf("report: %v, %d assets", err, len(report.Assets))
	}
	want := map[int]generate.PartReport{}
	primitives := 0
	for _, p := range report.Assets[0].Parts {
		if p.Budget > 0 && p.Colliders > 0 {
			want[p.Node] = p
			for _, n := range p.Primitives {
				primitives += n
			}
		}
	}
	if len(want) < 2 || primitives == 0 {
		t.Fatalf("the truck should give several budgeted parts with primitives: %+v", report.Assets[0].Parts)
	}

	code, stdout, stderr := runCLI("inspect", "--json", out)
	if code != 0 {
		t.Fatalf("inspect: %s", stderr)
	}
	var files []inspect.File
	if err := json.Unmarshal([]byte(stdout), &files); err != nil || len(files) != 1 {
		t.Fatalf("inspect --json: %v", err)
	}
	got := files[0].Budgets
	if len(got) != len(want) {
		t.Errorf("inspect shows %d budgets, the report %d: %+v", len(got), len(want), got)
	}
	for _, g := range got {
		p, ok := want[g.Node]
		if !ok {
			t.Errorf("inspect shows a budget on nodes[%d], the report none", g.Node)
			continue
		}
		prims := 0
		for _, n := range g.Primitives {
			prims += n
		}
		if g.Max != p.Budget || g.Colliders != p.Colliders || g.Hulls+prims != g.Colliders || !maps.Equal(g.Primitives, nonNil(p.Primitives)) {
			t.Errorf("nodes[%d] %q: inspect %+v, report budget %d, colliders %d, primitives %v", g.Node, g.Name, g, p.Budget, p.Colliders, p.Primitives)
		}
	}
	_, text, _ := runCLI("inspect", out)
	_, pv, pvErr := runCLI("preview", out, "-o", filepath.Join(dir, "truck.png"))
	for _, g := range got {
		line := fmt.Sprintf("budget of mesh nodes[%d] %q: %s", g.Node, g.Name, g)
		if !strings.Contains(text, line) {
			t.Errorf("inspect's text lacks %q:\n%s", line, text)
		}
		if s := fmt.Sprintf("budget of %q: %s", g.Name, g); !strings.Contains(pv, s) {
			t.Errorf("preview's summary lacks %q: %s%s", s, pv, pvErr)
		}
	}

	// A record claiming more colliders than follow it (the last
	// instance's: its budget runs past the nodes).
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	last := got[len(got)-1]
	if last.Colliders == last.Max {
		t.Fatalf("the last instance fills its budget: %+v", last)
	}
	first := last.First
	node := a.Tree.Arr("nodes")[first].(*gltfio.Object)
	node.Obj("extras").Obj(gltfio.MarkKey).Obj(gltfio.BudgetKey).Set("colliders", gltfio.IntNum(last.Max))
	bad := filepath.Join(dir, "bad.gltf")
	if err := a.Save(bad); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI("inspect", "--json", bad)
	if code != 0 {
		t.Fatalf("inspect of a wrong record: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &files); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("nodes[%d].extras.autocollide.budget", first)
	if len(files[0].Budgets) != len(got)-1 || !strings.Contains(strings.Join(files[0].Warnings, "\n"), path) {
		t.Errorf("a wrong record: %d budgets (want %d), warnings %q (want one naming %s)", len(files[0].Budgets), len(got)-1, files[0].Warnings, path)
	}
}

func nonNil(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}
