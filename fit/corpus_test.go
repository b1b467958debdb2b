package fit

import (
	"fmt"
	"github.com/autocollide/autocollide/internal/testassets"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

type corpusMesh struct {
	name string
	pts  []geom.Vec3
	skip string // why the mesh is not measured
}

// corpusMeshes reads every mesh's float POSITION data (all primitives of a
// mesh together, in mesh space). Draco, meshopt and quantized data are
// skipped with a reason.
func corpusMeshes(t *testing.T, root string) []corpusMesh {
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".gltf" || ext == ".glb") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var out []corpusMesh
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		sample := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		doc, err := gltf.Open(f)
		if err != nil {
			out = append(out, corpusMesh{name: sample, skip: "open: " + err.Error()})
			continue
		}
		if slices.Contains(doc.ExtensionsUsed, "KHR_draco_mesh_compression") {
			out = append(out, corpusMesh{name: sample, skip: "Draco-compressed"})
			continue
		}
		if slices.Contains(doc.ExtensionsUsed, "EXT_meshopt_compression") {
			out = append(out, corpusMesh{name: sample, skip: "meshopt-compressed"})
			continue
		}
		for mi, m := range doc.Meshes {
			cm := corpusMesh{name: fmt.Sprintf("%s/%d", sample, mi)}
			if m.Name != "" {
				cm.name = fmt.Sprintf("%s/%s", sample, m.Name)
			}
			for _, p := range m.Primitives {
				ai, ok := p.Attributes[gltf.POSITION]
				if !ok || ai >= len(doc.Accessors) {
					continue
				}
				acr := doc.Accessors[ai]
				if acr.ComponentType != gltf.ComponentFloat {
					cm.skip = "quantized positions"
					break
				}
				pos, err := modeler.ReadPosition(doc, acr, nil)
				if err != nil {
					cm.skip = "read: " + err.Error()
					break
				}
				for _, v := range pos {
					cm.pts = append(cm.pts, geom.Vec3{float64(v[0]), float64(v[1]), float64(v[2])})
				}
			}
			out = append(out, cm)
		}
	}
	return out
}

// TestCorpus fits every kind to every mesh of the shared corpus, checks
// containment and that the box beats the PCA box and the AABB, and with
// AUTOCOLLIDE_CORPUS_REPORT=1 prints the volume ratios to the hull.
func TestCorpus(t *testing.T) {
	shared := testassets.Shared(t)
	if shared == "" {
		t.Skip("shared/corpus not found (set AUTOCOLLIDE_SHARED)")
	}
	report := os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") == "1"
	meshes := corpusMeshes(t, filepath.Join(shared, "corpus"))
	var b strings.Builder
	fmt.Fprintf(&b, "\n| mesh | points | hull verts | box/hull | aabb/hull | pca/hull | sphere/hull | capsule/hull | cylinder/hull | box max gap / diag |\n|---|---|---|---|---|---|---|---|---|---|\n")
	measured := 0
	seen := map[string]bool{} // identical point sets (copies of one mesh) are measured once
	for _, m := range meshes {
		if m.skip != "" {
			fmt.Fprintf(&b, "| %s | skipped: %s |\n", m.name, m.skip)
			continue
		}
		key := fmt.Sprint(m.pts)
		if seen[key] {
			continue
		}
		seen[key] = true
		in, err := Prepare(m.pts)
		if err != nil {
			fmt.Fprintf(&b, "| %s | %d | error: %v |\n", m.name, len(m.pts), err)
			continue
		}
		measured++
		shapes := map[Kind]Shape{}
		for _, k := range Kinds() {
			s, err := in.Fit(k, Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", m.name, k, err)
			}
			for i, p := range m.pts {
				if !Contains(s, p, 0) {
					t.Fatalf("%s %s: point %d outside", m.name, k, i)
				}
			}
			shapes[k] = s
		}
		pca := volume(in.finishBox(in.pca, DefaultTolerance*in.diag))
		box := shapes[KindBox].Volume
		if box > pca*(1+1e-9) || box > shapes[KindAABB].Volume*(1+1e-9) {
			t.Errorf("%s: box %v worse than PCA %v or AABB %v", m.name, box, pca, shapes[KindAABB].Volume)
		}
		hv := in.HullVolume()
		ratio := func(v float64) string {
			if hv == 0 {
				return "flat"
			}
			return fmt.Sprintf("%.3f", v/hv)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %.4f |\n", m.name, len(m.pts), in.HullVertexCount(),
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
	shared := testassets.Shared(t)
	if shared == "" {
		t.Skip("shared/corpus not found (set AUTOCOLLIDE_SHARED)")
	}
	seen := map[string]bool{}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| mesh | hull verts | box / best of 300 random starts |\n|---|---|---|\n")
	for _, m := range corpusMeshes(t, filepath.Join(shared, "corpus")) {
		key := fmt.Sprint(m.pts)
		if m.skip != "" || seen[key] {
			continue
		}
		seen[key] = true
		in, err := Prepare(m.pts)
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
		fmt.Fprintf(&b, "| %s | %d | %.5f |\n", m.name, len(in.support), s.Volume/best)
	}
	t.Log(b.String())
}
