package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// printMarkdown prints one table per asset (every set's cost and fidelity
// with its ratios to the first ratio set of the same asset) and the
// summaries of res.Summary (see printSummary).
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
	for _, a := range res.Assets {
		fmt.Fprintf(w, "\n### %s (%d triangles)\n\n%s\n%s\n", a.Name, a.Triangles, head, sep)
		var base *setResult
		for i := range a.Sets {
			if a.Sets[i].Name == res.RatioTo && a.Sets[i].Error == "" {
				base = &a.Sets[i]
			}
		}
		for _, s := range a.Sets {
			if s.Error != "" {
				fmt.Fprintf(w, "| %s | error: %s |\n", s.Name, firstLine(s.Error))
				continue
			}
			line := fmt.Sprintf("| %s | %s | %d | %.3f%s | %.3f%s | %.4f | %.2f |", s.Name, shapesText(s), s.HullVertices,
				100*s.SurfaceDist, ratioText(s.SurfaceDist, base, func(b *setResult) float64 { return b.SurfaceDist }),
				100*s.OuterDist, ratioText(s.OuterDist, base, func(b *setResult) float64 { return b.OuterDist }), s.Coverage, 100*s.Uncovered)
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
	printSummary(w, res.Summary, res.RatiosTo, res.Engines)
}

// ratioText is a distance's ratio to the base set's (see distRatio).
func ratioText(v float64, base *setResult, f func(*setResult) float64) string {
	if base == nil {
		return ""
	}
	return fmt.Sprintf(" (%.2f)", distRatio(v, f(base)))
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
