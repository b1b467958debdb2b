package main

import (
	"fmt"
	"strings"

	"github.com/autocollide/autocollide/decompose"
)

// result is one mesh's figures for the per-set summary.
type result struct {
	name      string
	ours      decompose.Metrics
	secs      float64
	vhacd     *decompose.Metrics
	vhacdSecs float64
}

// coacdFigure is CoACD's reference figure for a mesh, from the SOURCES.md
// of its folder: hull count, surface distance (% of the diagonal) and wall
// seconds.
type coacdFigure struct {
	hulls int
	dist  float64
	secs  float64
}

// benchSet is a group of meshes compared with CoACD as a whole. outer says
// which surface distance its reference figures use: the acd meshes' is the
// mean over every hull's whole surface (Metrics.SurfaceDistMean), the real
// meshes' leaves out the faces inside another hull (Metrics.OuterDistMean).
type benchSet struct {
	name   string
	source string
	outer  bool
	coacd  map[string]coacdFigure
	// members lists meshes of the set without a CoACD figure.
	members []string
}

var benchSets = []benchSet{
	{name: "acd meshes", source: "shared/bench/acd-meshes/SOURCES.md", coacd: map[string]coacdFigure{
		"box-thick": {12, 0.60, 2.03}, "cube-notch": {3, 2.15, 0.89}, "cube": {1, 0, 0.15},
		"cup": {18, 0.76, 2.42}, "cylinder": {17, 0.79, 2.72}, "defsphere": {21, 3.09, 3.03},
		"hose": {9, 2.25, 2.79}, "ob_chair_gothic": {14, 0.37, 2.55}, "plaque": {5, 0.83, 1.30},
		"sphere": {1, 0, 0.09}, "torus1": {12, 0.62, 1.43}, "wall": {7, 0.05, 0.91},
	}, members: []string{"al", "cow-nonormals"}},
	{name: "real meshes", source: "shared/bench/real-meshes/SOURCES.md", outer: true, coacd: map[string]coacdFigure{
		"Bottle": {112, 0.67, 144.4}, "KitchenPot": {49, 0.81, 62.7}, "SnowFlake": {43, 0.16, 20.6},
	}},
	{name: "corpus props"},
}

// setOf returns the index in benchSets of the set holding the mesh; meshes
// of no named set are corpus props (the last set).
func setOf(name string) int {
	for i, s := range benchSets {
		if _, ok := s.coacd[name]; ok {
			return i
		}
		for _, m := range s.members {
			if m == name {
				return i
			}
		}
	}
	return len(benchSets) - 1
}

// summary prints, per set, each mesh against CoACD's figure and the set's
// means (over the meshes with a CoACD figure, so that the two means are
// over the same meshes).
func summary(rs []result) {
	for si, s := range benchSets {
		var in []result
		for _, r := range rs {
			if setOf(r.name) == si {
				in = append(in, r)
			}
		}
		if len(in) == 0 {
			continue
		}
		what := "surface dist (every hull's whole surface, SurfaceDistMean)"
		if s.outer {
			what = "surface dist (faces inside another hull left out, OuterDistMean)"
		}
		src := "no CoACD figures exist for this set"
		if s.source != "" {
			src = "CoACD's figures from " + s.source
		}
		fmt.Printf("\n### %s: ours vs CoACD\n\n%s; %s, %% of the diagonal. Wall s: ours measured here, CoACD's from its source.\n\n", s.name, src, what)
		fmt.Println("| mesh | hulls ours / CoACD | surface dist % ours / CoACD | uncovered % | wall s ours / CoACD | surface dist % vhacd-js |")
		fmt.Println("|---|---|---|---|---|---|")
		var n int
		var sumOurs, sumCoacd, sumAll, sumV float64
		nV := 0
		for _, r := range in {
			d := r.ours.SurfaceDistMean
			var vd string = "–"
			if r.vhacd != nil {
				v := r.vhacd.SurfaceDistMean
				if s.outer {
					v = r.vhacd.OuterDistMean
				}
				vd = fmt.Sprintf("%.3f", 100*v)
				sumV += 100 * v
				nV++
			}
			if s.outer {
				d = r.ours.OuterDistMean
			}
			sumAll += 100 * d
			c, ok := s.coacd[r.name]
			if !ok {
				fmt.Printf("| %s | %d / – | %.3f / – | %.2f | %.3f / – | %s |\n", r.name, r.ours.Hulls, 100*d, 100*r.ours.Uncovered, r.secs, vd)
				continue
			}
			n++
			sumOurs += 100 * d
			sumCoacd += c.dist
			fmt.Printf("| %s | %d / %d %s | %.3f / %.2f %s | %.2f | %.3f / %.2f | %s |\n", r.name, r.ours.Hulls, c.hulls, mark(r.ours.Hulls <= c.hulls),
				100*d, c.dist, mark(100*d <= c.dist+5e-4), 100*r.ours.Uncovered, r.secs, c.secs, vd)
		}
		var means []string
		if n > 0 {
			means = append(means, fmt.Sprintf("mean over the %d meshes with a CoACD figure: ours %.3f, CoACD %.3f %s", n, sumOurs/float64(n), sumCoacd/float64(n), mark(sumOurs <= sumCoacd+5e-4)))
		}
		means = append(means, fmt.Sprintf("mean over all %d: ours %.3f", len(in), sumAll/float64(len(in))))
		if nV > 0 {
			means = append(means, fmt.Sprintf("vhacd-js %.3f over %d", sumV/float64(nV), nV))
		}
		fmt.Printf("\nSurface dist %%, %s.\n", strings.Join(means, "; "))
	}
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}
