package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
)

// TestMassWritten: the example's bodies get the masses and inertias of
// their closed meshes at the given density, in both families, and --mass
// sets every body's total.
func TestMassWritten(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"omi", "khr"} {
		out := filepath.Join(dir, format+".glb")
		if code, _, stderr := runCLI("generate", example(t), "-o", out, "--format", format, "--method", "aabb", "--density", "500"); code != 0 {
			t.Fatal(stderr)
		}
		a, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		dec := omi.Decode
		if format == "khr" {
			dec = khr.Decode
		}
		m, _, err := dec(a.Doc)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]int{}
		for i, n := range a.Doc.Nodes {
			byName[n.Name] = i
		}
		// Crate: a 0.6 m cube; table: 1.2×0.05×0.8 top + four 0.06×0.75×0.06 legs.
		crate := m.Nodes[byName["Crate"]].Motion
		if crate == nil || crate.Mass == nil || math.Abs(*crate.Mass-0.216*500) > 1e-9 {
			t.Fatalf("%s: crate motion %+v, want 108 kg", format, crate)
		}
		want := 108 * (0.36 + 0.36) / 12
		for _, d := range crate.InertiaDiagonal {
			if math.Abs(d-want) > 1e-9 {
				t.Fatalf("%s: crate inertia %v, want %v", format, *crate.InertiaDiagonal, want)
			}
		}
		table := m.Nodes[byName["Table"]].Motion
		if math.Abs(*table.Mass-(0.048+0.0108)*500) > 1e-9 {
			t.Fatalf("%s: table mass %v", format, *table.Mass)
		}
		// The table's centre of mass: top at y 0.775 (0.048 m³), legs at 0.375.
		wantY := (0.048*0.775 + 0.0108*0.375) / 0.0588
		if c := table.CenterOfMass; c == nil || math.Abs(c[1]-wantY) > 1e-9 {
			t.Fatalf("%s: table centre of mass %v, want y %v", format, c, wantY)
		}
	}
	out := filepath.Join(dir, "mass.glb")
	if code, _, stderr := runCLI("generate", example(t), "-o", out, "--mass", "7"); code != 0 {
		t.Fatal(stderr)
	}
	a, _ := gltfio.LoadRaw(out, gltfio.Limits{})
	m, _, _ := omi.Decode(a.Doc)
	for _, i := range m.NodeIndices() {
		if mo := m.Nodes[i].Motion; mo != nil && math.Abs(*mo.Mass-7) > 1e-9 {
			t.Fatalf("nodes[%d]: mass %v with --mass 7", i, *mo.Mass)
		}
	}
}

// TestCorpusMassReport prints volume, mass and source per corpus body
// with AUTOCOLLIDE_CORPUS_REPORT=1 (for the closing notes), and checks
// every generated body got a positive, finite mass.
func TestCorpusMassReport(t *testing.T) {
	show := os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") == "1"
	var b strings.Builder
	fmt.Fprintln(&b, "| asset | bodies | volume (m³) | mass (kg) | source |")
	fmt.Fprintln(&b, "| --- | --- | --- | --- | --- |")
	for _, in := range testassets.Corpus(t) {
		a, err := gltfio.Load(in, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := generate.Asset(context.Background(), a, generate.Options{Collider: generate.ColliderSettings{Method: generate.AABB}})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		vol, kg := 0.0, 0.0
		sources := map[string]int{}
		for _, br := range rep.BodyList {
			if !(br.Mass > 0) || math.IsInf(br.Mass, 0) {
				t.Errorf("%s: %s: mass %v", in, br.Name, br.Mass)
			}
			vol += br.Volume
			kg += br.Mass
			sources[br.MassSource]++
		}
		fmt.Fprintf(&b, "| %s | %d | %.4g | %.4g | %v |\n", filepath.Base(in), rep.Bodies, vol, kg, sources)
	}
	if show {
		t.Log("\n" + b.String())
	}
}
