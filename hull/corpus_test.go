package hull

import (
	"fmt"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
)

// TestCorpus builds hulls of every corpus mesh at 255, 64 and 32
// vertices: all mesh vertices inside, limit respected. With
// AUTOCOLLIDE_CORPUS_REPORT=1 it prints the volume growth over the exact
// hull as a table.
func TestCorpus(t *testing.T) {
	var meshes []testassets.CorpusMesh
	var skipped []string
	for _, m := range testassets.CorpusMeshes(t) {
		if m.Skip != "" {
			skipped = append(skipped, m.Name+": "+m.Skip)
			continue
		}
		meshes = append(meshes, m)
	}
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
		k := pointsKey(m.Points)
		if copies[k] == 0 {
			order = append(order, i)
		}
		copies[k]++
	}
	for _, mi := range order {
		m := meshes[mi]
		n := copies[pointsKey(m.Points)]
		exact, err := Build(m.Points, Options{MaxVertices: -1})
		if err != nil {
			t.Errorf("%s: exact hull: %v", m.Name, err)
			continue
		}
		row := fmt.Sprintf("| %-40s | %3d | %6d | %5d | %-5s |", m.Name, n, len(m.Points), len(exact.Vertices), exact.Degenerate)
		for li, lim := range limits {
			h, err := Build(m.Points, Options{MaxVertices: lim})
			if err != nil {
				t.Errorf("%s: limit %d: %v", m.Name, lim, err)
				row += " error |"
				continue
			}
			if h.Fallback != "" {
				t.Errorf("%s: limit %d: fell back to %s", m.Name, lim, h.Fallback)
			}
			if len(h.Vertices) > lim {
				t.Errorf("%s: %d vertices over the limit %d", m.Name, len(h.Vertices), lim)
			}
			if err := Validate(h, m.Points); err != nil {
				t.Errorf("%s: limit %d: %v", m.Name, lim, err)
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
