package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeSet is a set measured with the given surface distance, coverage and
// Jolt active step (0: no Jolt run).
func fakeSet(name string, dist, cov, jolt float64) setResult {
	s := setResult{Name: name, SurfaceDist: dist, OuterDist: dist / 2, Coverage: cov, Engines: map[string]*engineResult{}}
	if jolt > 0 {
		s.Engines["jolt"] = &engineResult{Runs: []pileRun{{}}, ActiveCPU: jolt}
	}
	return s
}

// TestSummaryRatiosToTwoReferences: the summary's geometric means are of
// each asset's ratios to each reference of the same asset, over the
// assets where both were measured, per subset and over all; coverage is
// the worst of the group.
func TestSummaryRatiosToTwoReferences(t *testing.T) {
	subsets := []subset{{"corpus", "/corpus/"}, {"acd", "/acd-meshes/"}}
	paths := []string{"x/corpus/A/a.glb", "x/corpus/B/b.gltf", "x/acd-meshes/c.obj", "x/d.obj"}
	res := &results{Engines: []string{"jolt"}, RatiosTo: []string{"base", "vhacd-default"}}
	for i, sets := range [][]setResult{
		{fakeSet("base", 1, 1, 2), fakeSet("default", 2, 1, 1), fakeSet("vhacd-default", 4, 0.9, 8)},
		{fakeSet("base", 1, 1, 4), fakeSet("default", 0.5, 0.98, 1), fakeSet("vhacd-default", 1, 1, 4)},
		// c: V-HACD failed; default has no Jolt run.
		{fakeSet("base", 2, 1, 1), fakeSet("default", 6, 1, 0), {Name: "vhacd-default", Error: "TestVHACD: crashed"}},
		// d, in no subset: exact fits (1e-6 and 1e-18 of the diagonal), whose distance ratios are 1.
		{fakeSet("base", 1e-6, 1, 1), fakeSet("default", 1e-6, 1, 1), fakeSet("vhacd-default", 1e-18, 1, 1)},
	} {
		res.Assets = append(res.Assets, assetResult{Name: paths[i], Subset: subsetOf(paths[i], subsets), Sets: sets})
	}
	tables := summaries(res, res.RatiosTo, subsets)
	if len(tables) != 3 || tables[0].Group != "all" || tables[0].Assets != 4 || tables[1].Group != "corpus" || tables[1].Assets != 2 || tables[2].Group != "acd" || tables[2].Assets != 1 {
		t.Fatalf("groups: %+v", tables)
	}
	row := func(tb summaryTable, set string) summaryRow {
		for _, r := range tb.Rows {
			if r.Set == set {
				return r
			}
		}
		t.Fatalf("%s: no row %s", tb.Group, set)
		return summaryRow{}
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: %g, want %g", what, got, want)
		}
	}
	all, corpus, acd := tables[0], tables[1], tables[2]
	d := row(all, "default")
	// surface × base: 2, 0.5, 3, 1 → ∜3; jolt × base: 0.5, 0.25 (c has no run), 1 → ∛0.125.
	near("all default surface×base", d.GeoMean["surface"]["base"], math.Pow(3, 0.25))
	near("all default jolt×base", d.GeoMean["jolt"]["base"], 0.5)
	// × vhacd-default: a, b and d (c's failed): surface 0.5, 0.5, 1; jolt 1/8, 1/4, 1.
	near("all default surface×vhacd", d.GeoMean["surface"]["vhacd-default"], math.Cbrt(0.25))
	near("all default jolt×vhacd", d.GeoMean["jolt"]["vhacd-default"], math.Cbrt(1.0/32))
	if d.Count["jolt"]["base"] != 3 || d.Count["surface"]["base"] != 4 || d.Count["surface"]["vhacd-default"] != 3 {
		t.Errorf("counts: %v", d.Count)
	}
	if d.WorstCoverage != 0.98 || d.Assets != 4 {
		t.Errorf("default: worst coverage %g over %d assets, want 0.98 over 4", d.WorstCoverage, d.Assets)
	}
	v := row(all, "vhacd-default")
	if v.WorstCoverage != 0.9 || v.Assets != 3 {
		t.Errorf("vhacd-default: worst coverage %g over %d assets, want 0.9 over 3 (its error left out)", v.WorstCoverage, v.Assets)
	}
	near("vhacd jolt×base", v.GeoMean["jolt"]["base"], math.Cbrt(4))       // 4, 1, 1
	near("vhacd surface×base", v.GeoMean["surface"]["base"], math.Cbrt(4)) // 4, 1, and 1 for d (both under the floor)
	near("corpus default surface×base", row(corpus, "default").GeoMean["surface"]["base"], 1)
	near("acd default surface×base", row(acd, "default").GeoMean["surface"]["base"], 3)
	if _, ok := row(acd, "default").GeoMean["jolt"]; ok {
		t.Errorf("acd: default has a Jolt ratio without a Jolt run: %v", row(acd, "default").GeoMean)
	}
	var md bytes.Buffer
	printSummary(&md, tables, res.RatiosTo, res.Engines)
	out := md.String()
	for _, want := range []string{
		"### Summary (all, 4 assets)",
		"| set | surface dist × base | surface dist × vhacd-default | outer dist × base | outer dist × vhacd-default | jolt active step × base | jolt active step × vhacd-default | worst coverage | assets |",
		"| default | 1.32 | 0.63 (3) | 1.32 | 0.63 (3) | 0.50 (3) | 0.31 (3) | 0.9800 | 4 |",
		"### Summary (acd, 1 assets)",
		"| vhacd-default | – | – | – | – | – | – | – | 0 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// -from-json makes the same summary from the run's file.
	res.RatioTo = "base"
	res.Summary = tables
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	os.WriteFile(path, b, 0o644)
	again, err := readResults(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want summaryTable
	json.Unmarshal(mustJSON(t, tables[0]), &want)
	if !reflect.DeepEqual(again.Summary[0], want) || len(again.Summary) != 3 || again.Summary[2].Group != "acd" {
		t.Errorf("-from-json summary differs:\n%+v\nwant\n%+v", again.Summary, want)
	}
	if _, err := readResults(filepath.Join(t.TempDir(), "none.json"), nil); err == nil {
		t.Error("a missing -from-json file: no error")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSubsetFlag: -subset takes NAME=SUBSTRING, the first matching subset
// wins, and a path in none is in no subset.
func TestSubsetFlag(t *testing.T) {
	for _, bad := range []string{"corpus", "=x", "corpus=", "all=/x/"} {
		if _, err := parseSubset(bad); err == nil {
			t.Errorf("-subset %q: no error", bad)
		}
	}
	a, err := parseSubset("acd=/acd-meshes/")
	if err != nil || a != (subset{"acd", "/acd-meshes/"}) {
		t.Fatalf("parseSubset: %+v, %v", a, err)
	}
	s := []subset{a, {"bench", "/bench/"}}
	if got := subsetOf("/s/bench/acd-meshes/cup.obj", s); got != "acd" {
		t.Errorf("cup: %q, want acd (the first match)", got)
	}
	if got := subsetOf("/s/bench/real-meshes/Bottle.obj", s); got != "bench" {
		t.Errorf("Bottle: %q, want bench", got)
	}
	if got := subsetOf("/s/corpus/Duck.glb", s); got != "" {
		t.Errorf("Duck: %q, want none", got)
	}
}
