package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/chromedp/chromedp"
)

// TestReportViewerFromDisk opens the HTML report from disk (file://),
// where the browser lets the page read no other file: opening a row's 3D
// view asks for the outputs' folder, and once it is chosen (the folder
// given to the page's folder input, as a person picking it would) the view
// draws the model from it, a .gltf whose .bin and textures are separate
// files included, with its colliders where they project.
func TestReportViewerFromDisk(t *testing.T) {
	b := newBrowser(t, 1400, 900, 4*time.Minute)
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	in := t.TempDir()
	for _, f := range []string{"Cube.gltf", "Cube.bin", "Cube_BaseColor.png", "Cube_MetallicRoughness.png"} {
		copyTo(t, filepath.Join(corpus, "Cube", "glTF", f), filepath.Join(in, "props", f))
	}
	work := t.TempDir()
	out, page := filepath.Join(work, "out"), filepath.Join(work, "report.html")
	if code, _, stderr := runCLI("generate", in, "--out-dir", out, "--method", "box", "--report", page, "-q"); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate("file://"+filepath.ToSlash(page))); err != nil {
		t.Fatal(err)
	}
	waitFor := func(what, cond string) {
		t.Helper()
		waitUntil(t, b, what, cond)
	}
	eval[bool](t, b, `(document.querySelector("button.open3d").click(), true)`)
	waitFor("the folder question", `!document.getElementById("acv-folder").hidden`)
	if err := chromedp.Do(b.ctx, chromedp.SetUploadFiles("#acv-pick", []string{out})); err != nil {
		t.Fatalf("choosing the folder: %v", err)
	}
	waitFor("the view", `!!window.autocollideView && window.autocollideView.items.length > 0`)
	shot := eval[viewShot](t, b, shotJS(0))
	if shot.Counts["box"] != 1 {
		t.Fatalf("view counts %v, want one box", shot.Counts)
	}
	img := decodeDataURL(t, shot.PNG)
	checkColours(t, img, shot, newPalettePixels(shot.Counts), filepath.Join(work, "from-disk.png"))
	// The texture, a file beside the .gltf, came from the folder too.
	if !eval[bool](t, b, `window.autocollideView.renderMeshes.some(m => m.material.map && m.material.map.image && m.material.map.image.width > 0)`) {
		t.Error("the render mesh was drawn without its texture")
	}
	model := "file://" + filepath.ToSlash(filepath.Join(out, "props", "Cube.gltf"))
	for _, p := range b.consoleErrors(t) {
		// The first try, by URL, is refused on file://; that is what asks
		// for the folder. Nothing else may fail.
		if !strings.Contains(p, model) {
			t.Errorf("console: %s", p)
		}
	}
}
