package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/chromedp/chromedp"
)

// hostileName is an asset name that is markup: unescaped, it would add a
// broken image to the page (a console error and an image that does not
// load).
const hostileName = "props/<img src=broken> & 'q'.glb"

// doneMarker is the console message that ends the test's listening.
const doneMarker = "autocollide: test done"

// TestHTMLReportInChromium writes the HTML report of a small batch (corpus
// assets, one with a name that is markup, and a broken file), opens it in
// headless Chromium and checks that the page has no console errors, that
// every image loads, that the problems list the failed file, and that
// clicking a column header sorts the rows by it, ascending then
// descending. The screenshot is kept in the test's temporary folder.
func TestHTMLReportInChromium(t *testing.T) {
	chromium := testassets.Chromium(t)
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	root := batchTree(t, map[string]string{hostileName: filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb")})
	work := t.TempDir()
	out, pngs, page := filepath.Join(work, "out"), filepath.Join(work, "previews"), filepath.Join(work, "report.html")
	code, _, stderr := runCLI("generate", root, "--out-dir", out, "--preview-dir", pngs, "--report", page, "-j", "2", "-q")
	if code != 1 || !strings.Contains(stderr, "truncated.glb") {
		t.Fatalf("exit %d (want 1: one broken file); stderr:\n%s", code, stderr)
	}
	// The same run again is served by the cache and gives the figures to
	// expect, as JSON.
	if code, _, stderr := runCLI("generate", root, "--out-dir", out, "--report", filepath.Join(work, "report.json"), "-q"); code != 1 {
		t.Fatalf("second run: exit %d; stderr:\n%s", code, stderr)
	}
	rep, _ := readReport(t, filepath.Join(work, "report.json"))
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "<img src=broken>") {
		t.Fatal("the asset name reached the page unescaped")
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-gpu", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	listening := make(chan struct{})
	messages := chromedp.Console(ctx)
	go func() {
		defer close(listening)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Text == doneMarker {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				where := m.URL
				if len(where) > 80 {
					where = where[:80] + "…"
				}
				problems = append(problems, m.String()+" at "+where+":"+strconv.FormatInt(m.Line+1, 10))
				mu.Unlock()
			}
		}
	}()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatalf("opening %s in %s: %v", page, chromium, err)
	}

	type img struct {
		Alt    string `json:"alt"`
		Loaded bool   `json:"loaded"`
	}
	imgs, err := chromedp.Run(ctx, chromedp.Evaluate[[]img](`Array.from(document.images, i => ({alt: i.alt, loaded: i.complete && i.naturalWidth > 0}))`))
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for _, a := range rep.Assets {
		if a.Status == "ok" || a.Status == "cached" {
			written++
		}
	}
	if len(imgs) != written {
		t.Errorf("%d images on the page, want one per written asset (%d)", len(imgs), written)
	}
	for _, im := range imgs {
		if !im.Loaded {
			t.Errorf("image %q did not load", im.Alt)
		}
	}

	failedProblems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#problems li.problem"), li => li.textContent).filter(s => s.startsWith("failed"))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(failedProblems) != 1 || !strings.Contains(failedProblems[0], "truncated.glb") {
		t.Errorf("problems listing failed files: %q, want the one broken file", failedProblems)
	}

	rowOrder := func() []int {
		t.Helper()
		order, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(document.querySelectorAll("#assets > tbody > tr"), r => Number(r.dataset.i))`))
		if err != nil {
			t.Fatal(err)
		}
		return order
	}
	want := make([]int, len(rep.Assets))
	for i := range want {
		want[i] = i
	}
	if got := rowOrder(); !slices.Equal(got, want) {
		t.Fatalf("rows before sorting: %v, want the report's order %v", got, want)
	}
	// Sorting by hull vertices: ascending, ties in the report's order;
	// then descending.
	sort.SliceStable(want, func(a, b int) bool { return rep.Assets[want[a]].HullVertices < rep.Assets[want[b]].HullVertices })
	if slices.IsSorted(want) {
		t.Fatal("the test batch would not change order when sorted by hull vertices")
	}
	header := chromedp.CSS(`th[data-key="hullVertices"] button`)
	if err := chromedp.Do(ctx, chromedp.Click(header)); err != nil {
		t.Fatal(err)
	}
	if got := rowOrder(); !slices.Equal(got, want) {
		t.Errorf("rows after one click on hull vertices: %v, want %v", got, want)
	}
	for i := range want {
		want[i] = i
	}
	sort.SliceStable(want, func(a, b int) bool { return rep.Assets[want[a]].HullVertices > rep.Assets[want[b]].HullVertices })
	if err := chromedp.Do(ctx, chromedp.Click(header)); err != nil {
		t.Fatal(err)
	}
	if got := rowOrder(); !slices.Equal(got, want) {
		t.Errorf("rows after a second click: %v, want descending %v", got, want)
	}

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	shotPath := filepath.Join(work, "report-screenshot.png")
	if err := os.WriteFile(shotPath, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", shotPath, len(shot))

	// The marker comes after every message the page wrote before it.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`console.info("`+doneMarker+`")`)); err != nil {
		t.Fatal(err)
	}
	<-listening
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("console: %s", p)
	}
}
