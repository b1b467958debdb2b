package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// printMarkdown prints one table per asset (every set's cost and fidelity
// with its ratios to the ratio set of the same asset) and a summary: per
// set, the geometric means of those ratios over the assets.
func printMarkdown(w io.Writer, c config, res *results) {
	fmt.Fprintf(w, "Pile of %d copies, %d steps timed at 60 Hz, %d round(s); engines %s; ratios against %q of the same asset in the same run.\n",
		res.N, res.Steps, res.Repeat, strings.Join(res.Engines, ", "), res.RatioTo)
	fmt.Fprintln(w, "Step figures are ms of CPU per step: active = median of the steps before rest, median and mean = of the first steps timed.")
	head := "| set | colliders | hull verts | surface dist % (×) | outer dist % (×) | coverage | uncovered % |"
	sep := "|---|---|---|---|---|---|---|"
	for _, e := range res.Engines {
		head += fmt.Sprintf(" %s active (×) | %s median / mean | %s rest s |", e, e, e)
		sep += "---|---|---|"
	}
	type key struct{ set, what string }
	ratios := map[key][]float64{}
	worstCov := map[string]float64{}
	var order []string
	for _, a := range res.Assets {
		fmt.Fprintf(w, "\n### %s (%d triangles)\n\n%s\n%s\n", a.Name, a.Triangles, head, sep)
		var base *setResult
		for i := range a.Sets {
			if a.Sets[i].Name == res.RatioTo && a.Sets[i].Error == "" {
				base = &a.Sets[i]
			}
		}
		for _, s := range a.Sets {
			if _, ok := worstCov[s.Name]; !ok {
				order = append(order, s.Name)
				worstCov[s.Name] = 1
			}
			if s.Error != "" {
				fmt.Fprintf(w, "| %s | error: %s |\n", s.Name, firstLine(s.Error))
				continue
			}
			worstCov[s.Name] = math.Min(worstCov[s.Name], s.Coverage)
			line := fmt.Sprintf("| %s | %s | %d | %.3f%s | %.3f%s | %.4f | %.2f |", s.Name, shapesText(s), s.HullVertices,
				100*s.SurfaceDist, ratioText(s.SurfaceDist, base, func(b *setResult) float64 { return b.SurfaceDist }),
				100*s.OuterDist, ratioText(s.OuterDist, base, func(b *setResult) float64 { return b.OuterDist }), s.Coverage, 100*s.Uncovered)
			if base != nil && base.SurfaceDist > 0 {
				ratios[key{s.Name, "dist"}] = append(ratios[key{s.Name, "dist"}], s.SurfaceDist/base.SurfaceDist)
			}
			if base != nil && base.OuterDist > 0 {
				ratios[key{s.Name, "outer"}] = append(ratios[key{s.Name, "outer"}], s.OuterDist/base.OuterDist)
			}
			for _, e := range res.Engines {
				er := s.Engines[e]
				if er == nil || len(er.Runs) == 0 {
					line += " – | – | – |"
					continue
				}
				var be *engineResult
				if base != nil {
					be = base.Engines[e]
				}
				r := ""
				if be != nil && be.ActiveCPU > 0 {
					r = fmt.Sprintf(" (%.2f)", er.ActiveCPU/be.ActiveCPU)
					ratios[key{s.Name, e}] = append(ratios[key{s.Name, e}], er.ActiveCPU/be.ActiveCPU)
				}
				esc := ""
				if er.Escaped > 0 {
					esc = fmt.Sprintf(", %d escaped", er.Escaped)
				}
				line += fmt.Sprintf(" %.3f%s | %.3f / %.3f | %s%s |", er.ActiveCPU, r, er.MedianCPU, er.MeanCPU, restShort(er.Rest), esc)
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintf(w, "\n### Summary: geometric means over the assets of each set's ratios to %q\n\n", res.RatioTo)
	h := "| set | surface dist × | outer dist × |"
	sp := "|---|---|---|"
	for _, e := range res.Engines {
		h += fmt.Sprintf(" %s active step × |", e)
		sp += "---|"
	}
	fmt.Fprintf(w, "%s worst coverage | assets |\n%s---|---|\n", h, sp)
	sort.SliceStable(order, func(i, j int) bool { return false })
	for _, name := range order {
		d := ratios[key{name, "dist"}]
		line := fmt.Sprintf("| %s | %s | %s |", name, gm(d), gm(ratios[key{name, "outer"}]))
		for _, e := range res.Engines {
			line += fmt.Sprintf(" %s |", gm(ratios[key{name, e}]))
		}
		if len(d) == 0 {
			fmt.Fprintf(w, "%s – | 0 |\n", line)
			continue
		}
		fmt.Fprintf(w, "%s %.4f | %d |\n", line, worstCov[name], len(d))
	}
}

func gm(xs []float64) string {
	g := geomean(xs)
	if math.IsNaN(g) {
		return "–"
	}
	return fmt.Sprintf("%.2f", g)
}

func ratioText(v float64, base *setResult, f func(*setResult) float64) string {
	if base == nil || f(base) <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%.2f)", v/f(base))
}

func shapesText(s setResult) string {
	var parts []string
	keys := make([]string, 0, len(s.Shapes))
	for k := range s.Shapes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", s.Shapes[k], k))
	}
	return strings.Join(parts, " + ")
}

func restShort(t *float64) string {
	if t == nil {
		return "not at rest"
	}
	return fmt.Sprintf("%.2f", *t)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
