package hull

import (
	"fmt"
	"github.com/autocollide/autocollide/internal/testassets"
	"io/fs"
	"math"
	"os"
	"path/filepath"
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
}

// corpusMeshes reads the float POSITION accessors of every mesh (all its
// primitives together, in mesh space) of every glTF file in the corpus.
// Draco- and meshopt-compressed and quantized (non-float) positions are
// skipped and listed in skipped.
func corpusMeshes(t testing.TB) (meshes []corpusMesh, skipped []string) {
	root := filepath.Join(testassets.Shared(t), "corpus")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		doc, err := gltf.Open(f)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", rel, err))
			continue
		}
		for mi, m := range doc.Meshes {
			name := fmt.Sprintf("%s#%d", strings.SplitN(rel, string(filepath.Separator), 2)[0], mi)
			if m.Name != "" {
				name += " " + m.Name
			}
			var pts []geom.Vec3
			reason := ""
			for _, prim := range m.Primitives {
				if _, ok := prim.Extensions["KHR_draco_mesh_compression"]; ok {
					reason = "Draco"
					break
				}
				ai, ok := prim.Attributes[gltf.POSITION]
				if !ok {
					continue
				}
				acr := doc.Accessors[ai]
				if acr.ComponentType != gltf.ComponentFloat {
					reason = "quantized positions"
					break
				}
				if acr.BufferView != nil {
					if _, ok := doc.BufferViews[*acr.BufferView].Extensions["EXT_meshopt_compression"]; ok {
						reason = "meshopt"
						break
					}
				}
				pos, err := modeler.ReadPosition(doc, acr, nil)
				if err != nil {
					reason = err.Error()
					break
				}
				for _, p := range pos {
					pts = append(pts, geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])})
				}
			}
			if reason != "" {
				skipped = append(skipped, name+": "+reason)
				continue
			}
			if len(pts) > 0 {
				meshes = append(meshes, corpusMesh{name, pts})
			}
		}
	}
	return meshes, skipped
}

// TestCorpus builds hulls of every corpus mesh at 255, 64 and 32
// vertices: all mesh vertices inside, limit respected. With
// AUTOCOLLIDE_CORPUS_REPORT=1 it prints the volume growth over the exact
// hull as a table.
func TestCorpus(t *testing.T) {
	meshes, skipped := corpusMeshes(t)
	if len(meshes) == 0 {
		t.Fatal("no mesh read from the corpus")
	}
	limits := []int{255, 64, 32}
	report := os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") != ""
	var rows []string
	growth := make([][]float64, len(limits))
	distinct := make([][]float64, len(limits))
	reduced := make([][]float64, len(limits))
	// Identical meshes (MetalRoughSpheresNoTextures has 98 copies of one
	// sphere) give identical hulls: build each distinct mesh once and
	// count its copies.
	copies := map[uint64]int{}
	var order []int
	for i, m := range meshes {
		k := pointsKey(m.pts)
		if copies[k] == 0 {
			order = append(order, i)
		}
		copies[k]++
	}
	for _, mi := range order {
		m := meshes[mi]
		n := copies[pointsKey(m.pts)]
		exact, err := Build(m.pts, Options{MaxVertices: -1})
		if err != nil {
			t.Errorf("%s: exact hull: %v", m.name, err)
			continue
		}
		row := fmt.Sprintf("| %-40s | %3d | %6d | %5d | %-5s |", m.name, n, len(m.pts), len(exact.Vertices), exact.Degenerate)
		for li, lim := range limits {
			h, err := Build(m.pts, Options{MaxVertices: lim})
			if err != nil {
				t.Errorf("%s: limit %d: %v", m.name, lim, err)
				row += " error |"
				continue
			}
			if h.Fallback != "" {
				t.Errorf("%s: limit %d: fell back to %s", m.name, lim, h.Fallback)
			}
			if len(h.Vertices) > lim {
				t.Errorf("%s: %d vertices over the limit %d", m.name, len(h.Vertices), lim)
			}
			if err := Validate(h, m.pts); err != nil {
				t.Errorf("%s: limit %d: %v", m.name, lim, err)
			}
			g := 100 * (h.Volume()/exact.Volume() - 1)
			for k := 0; k < n; k++ {
				growth[li] = append(growth[li], g)
			}
			distinct[li] = append(distinct[li], g)
			if h.Reduced {
				reduced[li] = append(reduced[li], g)
			}
			row += fmt.Sprintf(" %3d v %7.2f%% |", len(h.Vertices), g)
		}
		rows = append(rows, row)
	}
	if !report {
		return
	}
	fmt.Println("| mesh | copies | points | exact hull vertices | degenerate | 255: vertices, volume growth | 64 | 32 |")
	fmt.Println("|---|---:|---:|---:|---|---:|---:|---:|")
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Printf("| median growth, all %d meshes | | | | |%s\n", len(meshes), medians(growth))
	fmt.Printf("| median growth, %d distinct meshes | | | | |%s\n", len(order), medians(distinct))
	fmt.Printf("| median growth, distinct meshes that needed a reduction (%d, %d, %d) | | | | |%s\n", len(reduced[0]), len(reduced[1]), len(reduced[2]), medians(reduced))
	for _, s := range skipped {
		fmt.Println("skipped:", s)
	}
}

func medians(cols [][]float64) string {
	out := ""
	for _, c := range cols {
		g := append([]float64(nil), c...)
		sort.Float64s(g)
		m := 0.0
		if n := len(g); n > 0 {
			m = g[n/2]
			if n%2 == 0 {
				m = (g[n/2-1] + g[n/2]) / 2
			}
		}
		out += fmt.Sprintf(" %.2f%% |", m)
	}
	return out
}

// pointsKey hashes a point list (FNV-1a over the float bits).
func pointsKey(pts []geom.Vec3) uint64 {
	h := uint64(14695981039346656037)
	for _, p := range pts {
		for _, c := range p {
			h ^= math.Float64bits(c)
			h *= 1099511628211
		}
	}
	return h ^ uint64(len(pts))
}
