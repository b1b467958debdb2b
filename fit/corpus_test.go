package fit

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// TestCorpus fits every kind to every mesh of the shared corpus, checks
// containment and that the box beats the PCA box and the AABB, and with
// AUTOCOLLIDE_CORPUS_REPORT=1 prints the volume ratios to the hull.
func TestCorpus(t *testing.T) {
	report := os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") == "1"
	meshes := testassets.CorpusMeshes(t)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| mesh | points | hull verts | box/hull | aabb/hull | pca/hull | sphere/hull | capsule/hull | cylinder/hull | box max gap / diag |\n|---|---|---|---|---|---|---|---|---|---|\n")
	measured := 0
	seen := map[string]bool{} // identical point sets (copies of one mesh) are measured once
	for _, m := range meshes {
		if m.Skip != "" {
			fmt.Fprintf(&b, "| %s | skipped: %s |\n", m.Name, m.Skip)
			continue
		}
		key := fmt.Sprint(m.Points)
		if seen[key] {
			continue
		}
		seen[key] = true
		in, err := Prepare(m.Points)
		if err != nil {
			fmt.Fprintf(&b, "| %s | %d | error: %v |\n", m.Name, len(m.Points), err)
			continue
		}
		measured++
		shapes := map[Kind]Shape{}
		for _, k := range Kinds() {
			s, err := in.Fit(k, Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", m.Name, k, err)
			}
			for i, p := range m.Points {
				if !Contains(s, p, 0) {
					t.Fatalf("%s %s: point %d outside", m.Name, k, i)
				}
			}
			shapes[k] = s
		}
		pca := volume(in.finishBox(in.pca, DefaultTolerance*in.diag))
		box := shapes[KindBox].Volume
		if box > pca*(1+1e-9) || box > shapes[KindAABB].Volume*(1+1e-9) {
			t.Errorf("%s: box %v worse than PCA %v or AABB %v", m.Name, box, pca, shapes[KindAABB].Volume)
		}
		hv := in.HullVolume()
		ratio := func(v float64) string {
			if hv == 0 {
				return "flat"
			}
			return fmt.Sprintf("%.3f", v/hv)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %.4f |\n", m.Name, len(m.Points), in.HullVertexCount(),
			ratio(box), ratio(shapes[KindAABB].Volume), ratio(pca), ratio(shapes[KindSphere].Volume),
			ratio(shapes[KindCapsule].Volume), ratio(shapes[KindCylinder].Volume), shapes[KindBox].MaxGap/in.diag)
	}
	if measured == 0 {
		t.Fatal("no corpus mesh could be measured")
	}
	if report {
		t.Log(b.String())
	}
}

// TestCorpusBoxMultistart (AUTOCOLLIDE_CORPUS_REPORT=1 only, about a
// minute): compares the box with the best of 300 pattern searches started
// from random orientations on the full hull, per distinct corpus mesh.
func TestCorpusBoxMultistart(t *testing.T) {
	if os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") != "1" {
		t.Skip("set AUTOCOLLIDE_CORPUS_REPORT=1")
	}
	seen := map[string]bool{}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| mesh | hull verts | box / best of 300 random starts |\n|---|---|---|\n")
	for _, m := range testassets.CorpusMeshes(t) {
		key := fmt.Sprint(m.Points)
		if m.Skip != "" || seen[key] {
			continue
		}
		seen[key] = true
		in, err := Prepare(m.Points)
		if err != nil || in.dim < 3 {
			continue
		}
		s, err := in.Fit(KindBox, Options{Tolerance: -1, GapSamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		r := newRand(1)
		best := math.Inf(1)
		for i := 0; i < 300; i++ {
			m := randQuat(r).Mat3()
			if _, v := refineBox(in.support, m, boxVolume(in.support, m)); v < best {
				best = v
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %.5f |\n", m.Name, len(in.support), s.Volume/best)
	}
	t.Log(b.String())
}
