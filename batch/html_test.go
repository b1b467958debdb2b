package batch

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
)

func htmlTestReport() *Report {
	ok := newAsset(Job{Input: `in/<script>alert("x")</script>.glb`, Output: "out/a.glb"})
	ok.Status, ok.Bodies, ok.Hulls, ok.CappedHulls, ok.HullVertices = OK, 1, 2, 1, 300
	ok.Colliders["convex"] = 2
	ok.BodyList = append(ok.BodyList, Body{Name: "Body", Colliders: 2, Mass: 12.5, Volume: 0.0125, MassSource: "mesh"})
	ok.Parts = append(ok.Parts,
		generate.PartReport{Name: "Leg & <b>", Method: generate.Hull, Colliders: 1, Overshoot: 0.02},
		generate.PartReport{Name: "Seat", Method: generate.AABB, Colliders: 1, Overshoot: 0.9})
	ok.Warnings = append(ok.Warnings, "points skipped <i>")
	ok.Thumbnail = []byte("\x89PNG fake")
	ok.Preview = "previews/dir #1/a?.png"
	ok.TimeMS = 12
	bad := newAsset(Job{Input: "in/broken.glb", Output: "out/broken.glb"})
	bad.Status, bad.Error = Failed, `in/broken.glb: GLB chunk "<JSON>" too long`
	r := &Report{Tool: Tool{Name: "autocollide", Version: "test"}, Mode: "write", Assets: []Asset{ok, bad}}
	r.Summary = Summarize(r.Assets)
	return r
}

// TestHTMLEscapesAndProblems: names, parts, warnings and errors are
// escaped; the problems list the failed file, the capped hulls, the part
// over LargeOvershoot (and not the one under it) and the warning; the
// preview link is relative, escaped and cannot read as a scheme.
func TestHTMLEscapesAndProblems(t *testing.T) {
	r := htmlTestReport()
	page, err := r.HTML(".")
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, raw := range []string{`<script>alert`, `<b>`, `<i>`, `"<JSON>"`} {
		if strings.Contains(s, raw) {
			t.Errorf("%q reached the page unescaped", raw)
		}
	}
	if n := strings.Count(s, "<script>"); n != 1 {
		t.Errorf("%d <script> elements, want only the page's own", n)
	}
	problems := regexp.MustCompile(`(?s)<li class="problem"><span class="kind kind-(\w+)">`).FindAllStringSubmatch(s, -1)
	var kinds []string
	for _, m := range problems {
		kinds = append(kinds, m[1])
	}
	if got, want := strings.Join(kinds, " "), "failed capped overshoot warning"; got != want {
		t.Errorf("problems %q, want %q", got, want)
	}
	if !strings.Contains(s, "Seat (node 0): aabb colliders are 90% larger") || strings.Contains(s, "Leg &amp; &lt;b&gt; (node 0)") {
		t.Error("overshoot problems: want Seat (90%) and not the leg (2%)")
	}
	if !strings.Contains(s, `href="./previews/dir%20%231/a%3F.png"`) {
		t.Errorf("preview link not relative and escaped:\n%s", regexp.MustCompile(`href="[^"]*png"`).FindString(s))
	}
	if !strings.Contains(s, `src="data:image/png;base64,iVBORyBmYWtl"`) {
		t.Error("thumbnail not embedded as a data: URI")
	}
	if strings.Count(s, `<tr id="asset-`) != 2 {
		t.Error("want one row per asset")
	}
	again, _ := r.HTML(".")
	if !bytes.Equal(page, again) {
		t.Error("the same report gives different pages")
	}
	// A dry run's skipped files are no problem; an interrupted run's are.
	dry := &Report{Mode: string(DryRun), Assets: []Asset{newAsset(Job{Input: "a.glb"})}}
	dry.Assets[0].Status = Skipped
	if page, _ := dry.HTML("."); bytes.Contains(page, []byte(`class="problem"`)) {
		t.Error("a dry run's skipped file listed as a problem")
	}
	dry.Mode = string(Write)
	if page, _ := dry.HTML("."); !bytes.Contains(page, []byte(`kind-skipped`)) {
		t.Error("a skipped file of a real run is not listed as a problem")
	}
	// Without timings the time column goes.
	r.StripTimings()
	if page, _ := r.HTML("."); bytes.Contains(page, []byte(`data-key="time"`)) {
		t.Error("time column without timings")
	}
}

func TestRelativeURL(t *testing.T) {
	for _, c := range []struct{ dir, file, want string }{
		{"site", "site/p/a.png", "./p/a.png"},
		{"site/report", "site/p/a b.png", "./../p/a%20b.png"},
		{".", "javascript:alert(1).png", "./javascript:alert%281%29.png"},
	} {
		if got := string(relativeURL(c.dir, filepath.FromSlash(c.file))); got != c.want {
			t.Errorf("relativeURL(%q, %q) = %q, want %q", c.dir, c.file, got, c.want)
		}
	}
}

// TestPreviewPaths: the PNG mirrors the relative path; a sibling with the
// same stem keeps its extension, so no two jobs share a picture.
func TestPreviewPaths(t *testing.T) {
	jobs := []Job{{Rel: "props/chair.glb"}, {Rel: "props/chair.gltf"}, {Rel: "a.glb"}}
	got := previewPaths(jobs, "p")
	want := []string{"p/props/chair.png", "p/props/chair.gltf.png", "p/a.png"}
	for i := range want {
		if got[i] != filepath.FromSlash(want[i]) {
			t.Errorf("job %s: %q, want %q", jobs[i].Rel, got[i], want[i])
		}
	}
}

// TestHTMLPreviewPictures: a row without an embedded thumbnail shows its
// preview file by its URL relative to the page, loaded lazily; an HTML
// report file gets its pictures' folder beside it, any other report none.
func TestHTMLPreviewPictures(t *testing.T) {
	a := newAsset(Job{Input: "in/a.glb", Output: "out/a.glb"})
	a.Status = OK
	a.Preview = filepath.FromSlash("site/report-previews/props/a b.png")
	r := &Report{Mode: string(Write), Assets: []Asset{a}}
	page, err := r.HTML("site")
	if err != nil {
		t.Fatal(err)
	}
	img := regexp.MustCompile(`<img [^>]*>`).FindString(string(page))
	for _, want := range []string{`src="./report-previews/props/a%20b.png"`, `loading="lazy"`} {
		if !strings.Contains(img, want) {
			t.Errorf("picture %s: want %s", img, want)
		}
	}
	for _, c := range []struct{ report, want string }{
		{"build/report.html", "build/report-previews"},
		{"r.HTM", "r-previews"},
		{"build/report.json", ""},
		{"build/report.md", ""},
	} {
		if got := PreviewsBeside(filepath.FromSlash(c.report)); got != filepath.FromSlash(c.want) {
			t.Errorf("PreviewsBeside(%q) = %q, want %q", c.report, got, c.want)
		}
	}
}
