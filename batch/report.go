package batch

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"github.com/autocollide/autocollide/generate"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/safetext"
)

// Status is what happened to one asset.
type Status string

// Statuses.
const (
	OK      Status = "ok"      // generated (and written, unless checking)
	Failed  Status = "failed"  // see Asset.Error
	Skipped Status = "skipped" // not processed: dry run, interrupted, or a link out of the input folder
	Cached  Status = "cached"  // the output was already current
)

// Body is one generated rigid body.
type Body struct {
	Node       int     `json:"node"`
	Name       string  `json:"name"`
	Colliders  int     `json:"colliders"`
	Mass       float64 `json:"mass"`
	Volume     float64 `json:"volume"`
	MassSource string  `json:"massSource"`
	// InertiaSource, CollidersVolume, Size and Merged are
	// generate.BodyReport's (dynamic bodies; Merged when overlapping
	// bodies were merged into this one).
	InertiaSource   string   `json:"inertiaSource,omitempty"`
	CollidersVolume float64  `json:"collidersVolume,omitempty"`
	Size            float64  `json:"size,omitempty"`
	Merged          []string `json:"merged,omitempty"`
}

// Asset is the result for one input file. Slices and maps are never nil,
// so the JSON has the same members for every asset.
type Asset struct {
	Input  string `json:"input"`
	Output string `json:"output"`
	Status Status `json:"status"`
	Bodies int    `json:"bodies"`
	// Kept counts scene roots whose authored physics was kept.
	Kept int `json:"kept"`
	// Colliders counts generated colliders by shape type.
	Colliders map[string]int `json:"colliders"`
	// HullVertices is the total vertex count of the output's convex
	// hull meshes.
	HullVertices int `json:"hullVertices"`
	// Hulls counts the generated convex hulls, and CappedHulls those
	// that were over the vertex or face limits and were replaced by a
	// bounding polytope within them.
	Hulls       int    `json:"hulls"`
	CappedHulls int    `json:"cappedHulls"`
	BodyList    []Body `json:"bodyList"`
	// Parts says, per mesh instance, which method made its colliders and
	// why, and how far they overshoot the part's convex hull.
	Parts    []generate.PartReport `json:"parts"`
	Notes    []string              `json:"notes"`
	Warnings []string              `json:"warnings"`
	Error    string                `json:"error,omitempty"`
	// TimeMS is the wall time spent on the asset; 0 (and absent from
	// the JSON) after StripTimings.
	TimeMS float64 `json:"timeMs,omitempty"`
	// Preview is the PNG drawn of the output (Options.Previews.Dir).
	Preview string `json:"preview,omitempty"`
	// Thumbnail is a small PNG of the output for the HTML report
	// (Options.Previews.Thumbnails); not part of the JSON.
	Thumbnail []byte `json:"-"`
	// Internal is true when the asset failed on a bug (a recovered
	// panic) rather than on its input; not part of the JSON.
	Internal bool `json:"-"`
	// Ragdolls says what each skin's ragdoll became (bodies per bone).
	Ragdolls []generate.RagdollReport `json:"ragdolls,omitempty"`
}

func newAsset(j Job) Asset {
	return Asset{Input: j.Input, Output: j.Output, Colliders: map[string]int{}, BodyList: []Body{}, Parts: []generate.PartReport{}, Notes: []string{}, Warnings: []string{}}
}

// Tool identifies the program that wrote a report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Profile is the effective generation settings of a run.
type Profile struct {
	Name            string `json:"name"`
	Format          string `json:"format"`
	KHRGeometry     string `json:"khrGeometry"`
	Method          string `json:"method"`
	MaxHullVertices int    `json:"maxHullVertices"`
	// MaxColliders is the profile's cap on each mesh instance's
	// colliders (0: decompose's default; rules may set their own).
	MaxColliders int     `json:"maxColliders,omitempty"`
	Density      float64 `json:"density,omitempty"`
	Mass         float64 `json:"mass,omitempty"`
}

// Summary counts assets by status.
type Summary struct {
	Total   int `json:"total"`
	OK      int `json:"ok"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Cached  int `json:"cached"`
}

// Report is a whole run; its JSON form follows report.schema.json.
type Report struct {
	Tool    Tool    `json:"tool"`
	Profile Profile `json:"profile"`
	// Mode is "write", "dry-run" or "check".
	Mode string `json:"mode"`
	// Shard is "K/N" when the run processed one shard, else absent.
	Shard       string  `json:"shard,omitempty"`
	Interrupted bool    `json:"interrupted,omitempty"`
	Summary     Summary `json:"summary"`
	Assets      []Asset `json:"assets"`
	// WallMS is the run's wall time; absent after StripTimings.
	WallMS float64 `json:"wallMs,omitempty"`
}

// Schema is the JSON Schema (draft 2020-12) of the JSON report.
//
//go:embed report.schema.json
var Schema []byte

// Summarize counts the assets by status.
func Summarize(assets []Asset) Summary {
	s := Summary{Total: len(assets)}
	for _, a := range assets {
		switch a.Status {
		case OK:
			s.OK++
		case Failed:
			s.Failed++
		case Skipped:
			s.Skipped++
		case Cached:
			s.Cached++
		}
	}
	return s
}

// StripTimings clears every timing field, leaving a report that depends
// only on the inputs and options.
func (r *Report) StripTimings() {
	r.WallMS = 0
	for i := range r.Assets {
		r.Assets[i].TimeMS = 0
	}
}

// JSON encodes the report, indented, with a final newline.
func (r *Report) JSON() ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Markdown renders the report for people: the settings, the summary
// and a table with one row per asset, then the errors and warnings.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# autocollide batch report\n\n")
	fmt.Fprintf(&b, "- tool: %s %s\n", r.Tool.Name, r.Tool.Version)
	fmt.Fprintf(&b, "- profile: %s (format %s, method %s, max hull vertices %d)\n", mdEscape(r.Profile.Name), r.Profile.Format, r.Profile.Method, r.Profile.MaxHullVertices)
	fmt.Fprintf(&b, "- mode: %s", r.Mode)
	if r.Shard != "" {
		fmt.Fprintf(&b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", interrupted")
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n- %d assets: %d ok, %d cached, %d skipped, %d failed\n\n", s.Total, s.OK, s.Cached, s.Skipped, s.Failed)
	b.WriteString("| input | status | bodies | colliders | hull vertices | mass (kg) |\n| --- | --- | ---: | --- | ---: | ---: |\n")
	for _, a := range r.Assets {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d | %s |\n", mdEscape(a.Input), a.Status, a.Bodies, mdEscape(inspect.ColliderSummary(a.Colliders)), a.HullVertices, massText(a))
	}
	writeBudgets(&b, r.Assets)
	writeRagdolls(&b, r.Assets)
	var problems []string
	for _, a := range r.Assets {
		if a.Error != "" {
			problems = append(problems, fmt.Sprintf("- **%s**: %s", mdEscape(a.Input), mdEscape(a.Error)))
		}
		for _, w := range a.Warnings {
			problems = append(problems, fmt.Sprintf("- %s: warning: %s", mdEscape(a.Input), mdEscape(w)))
		}
	}
	if len(problems) > 0 {
		b.WriteString("\n## Errors and warnings\n\n" + strings.Join(problems, "\n") + "\n")
	}
	return []byte(b.String())
}

// WriteFile writes the report as Markdown when path ends in .md, as an
// HTML page when it ends in .html or .htm, else as JSON, atomically.
func (r *Report) WriteFile(path string) error {
	var data []byte
	var err error
	switch {
	case strings.EqualFold(filepath.Ext(path), ".md"):
		data = r.Markdown()
	case IsHTMLName(path):
		data, err = r.HTML(filepath.Dir(path))
	default:
		data, err = r.JSON()
	}
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return gltfio.WriteFileAtomic(path, data)
}

// WriteTable prints the end-of-run summary table: one row per asset
// (with all false, only the failed and skipped ones), then the counts.
func (r *Report) WriteTable(w io.Writer, color, all bool) {
	paint := func(s Status) string {
		if !color {
			return string(s)
		}
		code := map[Status]string{OK: "32", Failed: "31", Skipped: "33", Cached: "36"}[s]
		return "\x1b[" + code + "m" + string(s) + "\x1b[0m"
	}
	var rows []Asset
	for _, a := range r.Assets {
		if all || a.Status == Failed || a.Status == Skipped {
			rows = append(rows, a)
		}
	}
	width := 5
	for _, a := range rows {
		width = max(width, len(safetext.Term(a.Input)))
	}
	if len(rows) > 0 {
		fmt.Fprintf(w, "%-*s  %-7s  %6s  %s\n", width, "input", "status", "bodies", "colliders")
	}
	for _, a := range rows {
		pad := strings.Repeat(" ", max(0, 7-len(a.Status)))
		fmt.Fprintf(w, "%-*s  %s%s  %6d  %s\n", width, safetext.Term(a.Input), paint(a.Status), pad, a.Bodies, inspect.ColliderSummary(a.Colliders))
	}
	s := r.Summary
	fmt.Fprintf(w, "%d assets: %d ok, %d cached, %d skipped, %d failed", s.Total, s.OK, s.Cached, s.Skipped, s.Failed)
	if r.WallMS > 0 {
		fmt.Fprintf(w, " in %.1f s", r.WallMS/1000)
	}
	fmt.Fprintln(w)
}

func massText(a Asset) string {
	total := 0.0
	for _, b := range a.BodyList {
		total += b.Mass
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("%.4g", total)
}

func mdEscape(s string) string { return safetext.Markdown(s) }

// writeRagdolls adds a section per asset with ragdolls: per skin, the
// bones with bodies, the merged bones and the joints with their limits.
// writeBudgets lists the parts decomposed within a budget (more than one
// collider): what each kept and which parts became primitives, then the
// share of primitives over all of them.
func writeBudgets(b *strings.Builder, assets []Asset) {
	parts, prims := 0, 0
	for _, a := range assets {
		for _, p := range a.Parts {
			if p.Budget == 0 || p.Colliders < 2 {
				continue
			}
			if parts == 0 {
				b.WriteString("\n## Decomposed parts\n\n| input | part | colliders of budget |\n| --- | --- | --- |\n")
			}
			parts += p.Colliders
			for _, n := range p.Primitives {
				prims += n
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", mdEscape(a.Input), mdEscape(p.Name), p.Kept())
		}
	}
	if parts > 0 {
		fmt.Fprintf(b, "\n%d of the %d parts of decompositions became primitives (%.0f%%).\n", prims, parts, 100*float64(prims)/float64(parts))
	}
}

func writeRagdolls(b *strings.Builder, assets []Asset) {
	for _, a := range assets {
		for i, rd := range a.Ragdolls {
			if i == 0 {
				fmt.Fprintf(b, "\n## Ragdolls: %s\n\n", mdEscape(a.Input))
			}
			for k, line := range rd.Lines() {
				if k == 0 {
					fmt.Fprintf(b, "- %s\n", mdEscape(line))
					continue
				}
				fmt.Fprintf(b, "  - %s\n", mdEscape(line))
			}
		}
	}
}
