package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// subset names the assets whose input path contains a string: the summary
// gives their own geometric means beside the whole population's.
type subset struct {
	Name, Contains string
}

// parseSubset reads -subset's NAME=SUBSTRING.
func parseSubset(s string) (subset, error) {
	name, sub, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || sub == "" || name == "all" {
		return subset{}, fmt.Errorf("%q is not NAME=SUBSTRING with a NAME other than \"all\" and a SUBSTRING of the asset paths", s)
	}
	return subset{name, sub}, nil
}

// subsetOf is the name of the first subset whose string the path
// contains, "" when none does.
func subsetOf(path string, subsets []subset) string {
	for _, s := range subsets {
		if strings.Contains(path, s.Contains) {
			return s.Name
		}
	}
	return ""
}

// distFloor is the distance (fraction of the mesh's diagonal) below which
// two sets' distances count as equal in their ratio: an exact fit reads as
// 1e-6 (a box read back as a hull grown to circumscribe it) or 1e-18 (a
// peer's hull of the mesh's own vertices), whose quotient means nothing.
// It is a tenth of decompose.UncoveredTol.
const distFloor = 1e-4

// distRatio is v/ref with both raised to distFloor.
func distRatio(v, ref float64) float64 {
	return math.Max(v, distFloor) / math.Max(ref, distFloor)
}

// summaryTable is one group of assets (the whole population, "all", or a
// subset): per set, the geometric means over the group's assets of the
// set's ratios to each reference set of the same asset.
type summaryTable struct {
	Group  string
	Assets int
	Rows   []summaryRow
}

// summaryRow is one set of a summaryTable.
type summaryRow struct {
	Set string
	// GeoMean[metric][reference] is the geometric mean of the set's ratios
	// to the reference over the assets where both were measured; Count
	// the number of those assets. Metrics: "surface", "outer" (the
	// distances) and each engine's name (its active step).
	GeoMean map[string]map[string]float64
	Count   map[string]map[string]int
	// WorstCoverage is the lowest coverage over the group's assets (1
	// when none measured the set), Assets how many of them measured it.
	WorstCoverage float64
	Assets        int
}

// summaryMetrics lists the metrics of a summary row, in column order.
func summaryMetrics(engines []string) []string {
	return append([]string{"surface", "outer"}, engines...)
}

// summarizeGroup computes the summary of the assets of one subset ("" or
// "all": every asset), with ratios to each of refs.
func summarizeGroup(res *results, refs []string, group string) summaryTable {
	t := summaryTable{Group: group}
	if t.Group == "" {
		t.Group = "all"
	}
	logs := map[string]map[string]map[string][]float64{} // set, metric, ref
	rows := map[string]*summaryRow{}
	for _, a := range res.Assets {
		if t.Group != "all" && a.Subset != group {
			continue
		}
		t.Assets++
		byName := map[string]*setResult{}
		for i := range a.Sets {
			if a.Sets[i].Error == "" {
				byName[a.Sets[i].Name] = &a.Sets[i]
			}
		}
		for _, s := range a.Sets {
			r := rows[s.Name]
			if r == nil {
				r = &summaryRow{Set: s.Name, WorstCoverage: 1}
				rows[s.Name] = r
				logs[s.Name] = map[string]map[string][]float64{}
				t.Rows = append(t.Rows, summaryRow{Set: s.Name}) // keeps the order of first appearance
			}
			if s.Error != "" {
				continue
			}
			r.Assets++
			r.WorstCoverage = math.Min(r.WorstCoverage, s.Coverage)
			for _, ref := range refs {
				b := byName[ref]
				if b == nil {
					continue
				}
				add := func(metric string, v, bv float64) {
					if v > 0 && bv > 0 && !math.IsInf(v, 0) && !math.IsInf(bv, 0) {
						if logs[s.Name][metric] == nil {
							logs[s.Name][metric] = map[string][]float64{}
						}
						logs[s.Name][metric][ref] = append(logs[s.Name][metric][ref], v/bv)
					}
				}
				add("surface", distRatio(s.SurfaceDist, b.SurfaceDist), 1)
				add("outer", distRatio(s.OuterDist, b.OuterDist), 1)
				for _, e := range res.Engines {
					se, be := s.Engines[e], b.Engines[e]
					if se != nil && be != nil && len(se.Runs) > 0 && len(be.Runs) > 0 {
						add(e, se.ActiveCPU, be.ActiveCPU)
					}
				}
			}
		}
	}
	for i := range t.Rows {
		r := rows[t.Rows[i].Set]
		r.GeoMean = map[string]map[string]float64{}
		r.Count = map[string]map[string]int{}
		for metric, byRef := range logs[r.Set] {
			r.GeoMean[metric] = map[string]float64{}
			r.Count[metric] = map[string]int{}
			for ref, xs := range byRef {
				r.GeoMean[metric][ref] = geomean(xs)
				r.Count[metric][ref] = len(xs)
			}
		}
		t.Rows[i] = *r
	}
	return t
}

// summaries is the summary of the whole population, then of each subset
// that has assets (an asset in no subset is only in the first).
func summaries(res *results, refs []string, subsets []subset) []summaryTable {
	out := []summaryTable{summarizeGroup(res, refs, "")}
	for _, s := range subsets {
		if t := summarizeGroup(res, refs, s.Name); t.Assets > 0 {
			out = append(out, t)
		}
	}
	return out
}

// printSummary prints the summary tables: per set, the geometric means of
// its ratios to each reference side by side, the worst coverage and the
// number of assets.
func printSummary(w io.Writer, tables []summaryTable, refs, engines []string) {
	metrics := summaryMetrics(engines)
	names := map[string]string{"surface": "surface dist", "outer": "outer dist"}
	for _, t := range tables {
		fmt.Fprintf(w, "\n### Summary (%s, %d assets): geometric means over the assets of each set's ratios to %s\n\n", t.Group, t.Assets, quoteJoin(refs))
		head, sep := "| set |", "|---|"
		for _, m := range metrics {
			n := names[m]
			if n == "" {
				n = m + " active step"
			}
			for _, ref := range refs {
				head += fmt.Sprintf(" %s × %s |", n, ref)
				sep += "---|"
			}
		}
		fmt.Fprintf(w, "%s worst coverage | assets |\n%s---|---|\n", head, sep)
		for _, r := range t.Rows {
			line := "| " + r.Set + " |"
			for _, m := range metrics {
				for _, ref := range refs {
					line += " " + gmText(r, m, ref, t.Assets) + " |"
				}
			}
			if r.Assets == 0 {
				fmt.Fprintf(w, "%s – | 0 |\n", line)
				continue
			}
			fmt.Fprintf(w, "%s %.4f | %d |\n", line, r.WorstCoverage, r.Assets)
		}
	}
}

// gmText is a geometric mean with, when it covers fewer than the group's
// assets, the count it covers.
func gmText(r summaryRow, metric, ref string, assets int) string {
	g, ok := r.GeoMean[metric][ref]
	if !ok || math.IsNaN(g) {
		return "–"
	}
	if n := r.Count[metric][ref]; n < assets {
		return fmt.Sprintf("%.2f (%d)", g, n)
	}
	return fmt.Sprintf("%.2f", g)
}

func quoteJoin(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, " and ")
}

// readResults reads a -json file and makes its summary again (with the
// distance floor and the references of this build), against its ratio set
// and also; its subsets are those its assets were put in.
func readResults(path string, also []string) (*results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res results
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(res.Assets) == 0 || res.RatioTo == "" {
		return nil, fmt.Errorf("%s: not a sim-bench -json file (no assets or no ratio set)", path)
	}
	refs := []string{res.RatioTo}
	for _, r := range append(res.RatiosTo, also...) {
		if !slices.Contains(refs, r) {
			refs = append(refs, r)
		}
	}
	var subsets []subset
	for _, a := range res.Assets {
		if a.Subset != "" && !slices.ContainsFunc(subsets, func(s subset) bool { return s.Name == a.Subset }) {
			subsets = append(subsets, subset{Name: a.Subset})
		}
	}
	res.RatiosTo = refs
	res.Summary = summaries(&res, refs, subsets)
	return &res, nil
}
