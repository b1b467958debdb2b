package batch

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/viewer"
	"html/template"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
)

// LargeOvershoot is the overshoot (colliders' volume over the part's
// convex hull, minus one) above which the HTML report lists a part among
// its problems.
const LargeOvershoot = 0.5

//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"num": func(f float64) string { return fmt.Sprintf("%.4g", f) },
	"pct": func(f float64) string { return fmt.Sprintf("%+.0f%%", f*100) },
}).Parse(htmlSource))

// IsHTMLName reports whether a report file name asks for the HTML page.
func IsHTMLName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".html" || ext == ".htm"
}

type htmlRow struct {
	Index int
	Asset Asset
	// Name is the input without the folder all inputs share.
	Name        string
	Thumb, Link template.URL
	// Model is the written output, relative to the page, for the 3D
	// viewer ("" when nothing was written).
	Model                     template.URL
	ColliderCount             int
	Colliders, Methods        string
	Mass, Volume, MaxOver     float64
	HasMass, HasOver, Timings bool
}

type htmlProblem struct {
	Index       int
	Kind, Input string
	Text        string
}

type htmlPage struct {
	R        *Report
	Rows     []htmlRow
	Problems []htmlProblem
	Timings  bool
	Wall     string
	// Root is the folder all inputs share, left out of the names.
	Root string
	// Viewer is the 3D viewer's script, inlined but not run until a row
	// is opened; Palette its colours.
	Viewer  template.HTML
	Palette viewer.Palette
}

// HTML renders the report as one page: the settings and counts, the
// problems (failed files with their errors, skipped files, capped hulls,
// parts whose colliders overshoot their convex hull by more than
// LargeOvershoot, warnings), then a table with one row per asset that
// sorts by any column when its header is clicked (plain script, no
// network). Each asset's picture is its Thumbnail embedded as a data: URI
// when it has one, else its Preview file, linked relative to dir, the
// folder the page is written to, and loaded only when its row scrolls
// into view; rows off screen are not laid out either, so a page of 1,000
// assets opens about as fast as its text is read. All text is escaped.
//
// Each written asset's row has a 3D button that opens the viewer of
// package viewer on the output, linked relative to dir: its script is
// part of the page (no network) and runs, and the model loads, only when
// a row is opened. A page opened from disk cannot read other files in
// Chromium or Firefox, so there the viewer asks once for the folder.
func (r *Report) HTML(dir string) ([]byte, error) {
	p := htmlPage{R: r, Viewer: template.HTML(viewer.Script()), Palette: viewer.DefaultPalette()}
	for _, a := range r.Assets {
		p.Timings = p.Timings || a.TimeMS > 0
	}
	if r.WallMS > 0 {
		p.Wall = fmt.Sprintf("%.1f s", r.WallMS/1000)
	}
	var inputs []string
	for _, a := range r.Assets {
		inputs = append(inputs, a.Input)
	}
	p.Root = commonDir(inputs)
	for i, a := range r.Assets {
		row := htmlRow{Index: i, Asset: a, Name: strings.TrimPrefix(a.Input, p.Root), Colliders: inspect.ColliderSummary(a.Colliders), Methods: methodSummary(a.Parts)}
		for _, n := range a.Colliders {
			row.ColliderCount += n
		}
		for _, b := range a.BodyList {
			row.Mass += b.Mass
			row.Volume += b.Volume
			row.HasMass = true
		}
		for _, pr := range a.Parts {
			if !row.HasOver || pr.Overshoot > row.MaxOver {
				row.MaxOver, row.HasOver = pr.Overshoot, true
			}
		}
		if a.Preview != "" {
			row.Link = relativeURL(dir, a.Preview)
		}
		switch {
		case len(a.Thumbnail) > 0:
			row.Thumb = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(a.Thumbnail))
		case a.Preview != "":
			row.Thumb = row.Link
		}
		if r.Mode == string(Write) && a.Output != "" && (a.Status == OK || a.Status == Cached) {
			row.Model = relativeURL(dir, a.Output)
		}
		p.Rows = append(p.Rows, row)
		p.Problems = append(p.Problems, problems(i, row.Name, a, r.Mode == string(DryRun))...)
	}
	// Failed files first, then skipped ones, capped hulls, overshoots
	// and warnings; in input order within each kind.
	rank := map[string]int{"failed": 0, "skipped": 1, "capped": 2, "overshoot": 3, "warning": 4}
	sort.SliceStable(p.Problems, func(i, j int) bool { return rank[p.Problems[i].Kind] < rank[p.Problems[j].Kind] })
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// PreviewsBeside is the folder beside an HTML report file that receives
// the previews its page shows, when no other folder is given: the
// report's name without its extension, then "-previews"
// (build/report.html → build/report-previews). It is "" for a report that
// is not HTML, or that goes to a stream (its page then embeds each
// picture as Previews.Thumbnails).
func PreviewsBeside(report string) string {
	if !IsHTMLName(report) || streamPath(report) {
		return ""
	}
	return strings.TrimSuffix(report, filepath.Ext(report)) + "-previews"
}

// problems lists what needs a person's attention in one asset, the
// asset being named name on the page.
func problems(i int, name string, a Asset, dryRun bool) []htmlProblem {
	var ps []htmlProblem
	add := func(kind, text string) {
		ps = append(ps, htmlProblem{Index: i, Kind: kind, Input: name, Text: text})
	}
	switch a.Status {
	case Failed:
		add("failed", a.Error)
	case Skipped:
		if !dryRun { // a dry run skips every file by design
			add("skipped", strings.Join(a.Notes, "; "))
		}
	}
	if a.CappedHulls > 0 {
		add("capped", fmt.Sprintf("%d of %d hulls over the vertex or face limit, replaced by a bounding polytope within it", a.CappedHulls, a.Hulls))
	}
	for _, pr := range a.Parts {
		if pr.Overshoot > LargeOvershoot {
			add("overshoot", fmt.Sprintf("%s (node %d): %s colliders are %.0f%% larger than its convex hull", pr.Name, pr.Node, pr.Method, pr.Overshoot*100))
		}
	}
	for _, w := range a.Warnings {
		add("warning", w)
	}
	return ps
}

// methodSummary counts the parts by the method that made their
// colliders: "3 hull, 1 box".
func methodSummary(parts []generate.PartReport) string {
	n := map[string]int{}
	for _, p := range parts {
		n[string(p.Method)]++
	}
	return inspect.ColliderSummary(n)
}

// commonDir is the longest folder prefix, ending in a separator, that
// all paths share; "" when there is none.
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	prefix := paths[0]
	for _, p := range paths[1:] {
		for !strings.HasPrefix(p, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if i := strings.LastIndexAny(prefix, `/\`); i >= 0 {
		return prefix[:i+1]
	}
	return ""
}

// relativeURL is the URL of file relative to the folder dir, each path
// segment escaped and "./" in front so that no segment reads as a
// scheme; "" when there is no relative path.
func relativeURL(dir, file string) template.URL {
	absDir, err1 := filepath.Abs(dir)
	absFile, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(absDir, absFile)
	if err != nil {
		return ""
	}
	segs := strings.Split(filepath.ToSlash(rel), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return template.URL("./" + strings.Join(segs, "/"))
}
