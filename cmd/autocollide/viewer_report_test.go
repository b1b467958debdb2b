package main

import (
	"fmt"
	"image"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/viewer"
	"github.com/chromedp/chromedp"
)

// viewerCorpus builds an input tree with an asset of each kind the
// viewer must draw, each folder's settings in its autocollide.yaml:
// primitives, a decomposition, a ragdoll, triggers, a Draco and a meshopt
// asset.
func viewerCorpus(t *testing.T) string {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	in := t.TempDir()
	copyTo := func(dir, src string, settings string) {
		t.Helper()
		d := filepath.Join(in, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range strings.Split(src, ",") {
			data, err := os.ReadFile(filepath.Join(corpus, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if settings != "" {
			if err := os.WriteFile(filepath.Join(d, ProjectFile), []byte(settings), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyTo("prims", "Box/glTF-Binary/Box.glb", "")
	copyTo("decomp", "Duck/glTF-Binary/Duck.glb", "method: decompose\n")
	copyTo("ragdoll", "CesiumMan/glTF-Embedded/CesiumMan.gltf", "profile: ragdoll\n")
	copyTo("trigger", "Duck/glTF-Binary/Duck.glb", "profile: pickup\n")
	copyTo("draco", "Box_glTF-Draco/glTF-Draco/Box.gltf,Box_glTF-Draco/glTF-Draco/Box.bin", "")
	copyTo("meshopt", "Pirate/pirate.glb", "")
	return in
}

type viewShot struct {
	Counts map[string]int  `json:"counts"`
	Rects  map[string]rect `json:"rects"`
	PNG    string          `json:"png"`
}

// shotJS draws the open view with the render mesh at meshOpacity and
// opaque colliders, and returns what it drew.
func shotJS(meshOpacity float64) string {
	return fmt.Sprintf(`(async () => { const v = window.autocollideView; await v.ready;
	  v.setColliderOpacity(1); v.setMeshOpacity(%g);
	  return {counts: v.counts(), rects: v.rects(), png: v.renderer.domElement.toDataURL("image/png")}; })()`, meshOpacity)
}

// colourClass says which palette entries a saturated pixel may be: the
// shape types whose colour (or, for convex, one of the decomposition
// hues) is within 14° of its hue.
type palettePixels struct {
	hues map[string][]float64
}

func newPalettePixels(counts map[string]int) palettePixels {
	p := viewer.DefaultPalette()
	pp := palettePixels{hues: map[string][]float64{}}
	hue := func(c [3]float32) float64 { h, _, _ := hsvOf(float64(c[0]), float64(c[1]), float64(c[2])); return h }
	for typ, c := range p.Shapes {
		pp.hues[typ] = []float64{hue(c)}
	}
	pp.hues["trigger"] = []float64{hue(p.Trigger)}
	pp.hues["joint"] = []float64{hue(p.Joint)}
	for k := 0; k < counts["convex"]; k++ {
		pp.hues["convex"] = append(pp.hues["convex"], 360*math.Mod(p.HueStart+float64(k)*p.HueStep, 1))
	}
	return pp
}

// saturated says whether a pixel is drawn in a collider colour at all
// (the background, grid and untextured meshes are grey).
func saturated(img image.Image, x, y int) (h float64, ok bool) {
	r, g, b, _ := img.At(x, y).RGBA()
	h, s, v := hsvOf(float64(r)/65535, float64(g)/65535, float64(b)/65535)
	return h, s > 0.4 && v > 0.15
}

func (pp palettePixels) is(typ string, h float64) bool {
	for _, want := range pp.hues[typ] {
		if hueDistance(h, want) < 14 {
			return true
		}
	}
	return false
}

// TestReportViewerInChromium opens the HTML report's 3D view of an asset
// of each kind in headless Chromium (the report's folder served over
// HTTP, as a static host would) and checks, on the canvas' pixels with
// the render mesh hidden, that each drawn shape type's colour is present
// inside the rectangle its colliders project to and that no collider
// colour lies outside every collider's rectangle; that unticking a type
// removes its colour; that with every type unticked the render mesh is
// still drawn (Draco and meshopt decoded); and that the page logs no
// console error.
func TestReportViewerInChromium(t *testing.T) {
	b := newBrowser(t, 1400, 1000, 4*time.Minute)
	in := viewerCorpus(t)
	work := t.TempDir()
	out, page := filepath.Join(work, "out"), filepath.Join(work, "report.html")
	if code, _, stderr := runCLI("generate", in, "--out-dir", out, "--report", page, "-j", "2", "-q"); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(work)))
	defer srv.Close()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/report.html")); err != nil {
		t.Fatal(err)
	}
	if eval[bool](t, b, `typeof window.AutocollideViewer !== "undefined"`) {
		t.Error("the viewer's script ran before any row was opened")
	}
	rows := eval[[]string](t, b, `Array.from(document.querySelectorAll("#assets > tbody > tr"), r => r.querySelector("button.open3d") ? r.dataset.i + " " + r.cells[1].textContent.trim() : "")`)
	wantTypes := map[string][]string{
		"prims/Box.glb":      {"box"},
		"decomp/Duck.glb":    {"convex"},
		"ragdoll/CesiumMan":  {"capsule", "joint"},
		"trigger/Duck.glb":   {"trigger"},
		"draco/Box.gltf":     {"box"},
		"meshopt/pirate.glb": {"convex"},
	}
	seen := 0
	for _, row := range rows {
		i, name, _ := strings.Cut(row, " ")
		var want []string
		for k, v := range wantTypes {
			if strings.Contains(name, k) {
				want = v
			}
		}
		if want == nil {
			t.Errorf("row %q: no 3D view expected", row)
			continue
		}
		seen++
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			eval[bool](t, b, fmt.Sprintf(`(document.querySelector('tr[data-i="%s"] button.open3d').click(), true)`, i))
			shot := eval[viewShot](t, b, shotJS(0))
			for _, typ := range want {
				if shot.Counts[typ] == 0 {
					t.Errorf("no %s drawn; counts %v", typ, shot.Counts)
				}
			}
			pp := newPalettePixels(shot.Counts)
			img := decodeDataURL(t, shot.PNG)
			checkColours(t, img, shot, pp, filepath.Join(work, strings.ReplaceAll(name, "/", "_")+".png"))
			// Unticking each type removes its colour.
			for typ := range shot.Counts {
				if typ == "joint" {
					continue
				}
				off := eval[viewShot](t, b, fmt.Sprintf(`(document.querySelector('#acv-host input[data-type="%s"]').click(), %s)`, typ, shotJS(0)))
				img := decodeDataURL(t, off.PNG)
				n := 0
				for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
					for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
						if h, ok := saturated(img, x, y); ok && pp.is(typ, h) && !otherTypeCovers(off, pp, typ, h, x, y) {
							n++
						}
					}
				}
				if n > 20 {
					t.Errorf("%s unticked: %d pixels of its colour remain", typ, n)
				}
			}
			// Every type unticked, the render mesh opaque: the mesh is drawn.
			mesh := eval[viewShot](t, b, `(Array.from(document.querySelectorAll('#acv-host input[data-type]')).forEach(c => { if (c.checked) c.click(); }), `+shotJS(1)+`)`)
			img = decodeDataURL(t, mesh.PNG)
			drawn := 0
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					r, g, bb, _ := img.At(x, y).RGBA()
					if math.Abs(float64(r>>8)-0xf2)+math.Abs(float64(g>>8)-0xf2)+math.Abs(float64(bb>>8)-0xf2) > 30 {
						drawn++
					}
				}
			}
			if drawn < 2000 {
				t.Errorf("render mesh: %d pixels off the background, want it drawn", drawn)
			}
			eval[bool](t, b, `(document.getElementById("acv-close").click(), true)`)
		})
	}
	if seen != len(wantTypes) {
		t.Errorf("%d rows with a 3D view, want %d", seen, len(wantTypes))
	}
	for _, p := range b.consoleErrors(t) {
		t.Errorf("console: %s", p)
	}
}

// otherTypeCovers says whether a pixel of hue h at (x, y) may belong to
// a type other than typ that is still drawn there (hues can be close).
func otherTypeCovers(s viewShot, pp palettePixels, typ string, h float64, x, y int) bool {
	for other, r := range s.Rects {
		if other != typ && r.holds(x, y, 2) && pp.is(other, h) {
			return true
		}
	}
	return false
}

// checkColours: each type's colour is inside its rectangle, no collider
// colour is outside every rectangle. The picture is saved as file.
func checkColours(t *testing.T, img image.Image, s viewShot, pp palettePixels, file string) {
	t.Helper()
	inside := map[string]int{}
	stray := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			h, ok := saturated(img, x, y)
			if !ok {
				continue
			}
			covered := false
			for typ, r := range s.Rects {
				if r.holds(x, y, 2) {
					covered = true
					if pp.is(typ, h) {
						inside[typ]++
					}
				}
			}
			if !covered {
				stray++
			}
		}
	}
	var types []string
	for typ := range s.Rects {
		types = append(types, typ)
	}
	sort.Strings(types)
	for _, typ := range types {
		min := 200
		if typ == "joint" {
			min = 20
		}
		if inside[typ] < min {
			t.Errorf("%s: %d pixels of its colour inside its rectangle %+v, want at least %d", typ, inside[typ], s.Rects[typ], min)
		}
	}
	if stray > 0 {
		t.Errorf("%d collider-coloured pixels outside every collider's rectangle", stray)
	}
	if d := os.Getenv("AUTOCOLLIDE_SCREENSHOTS"); d != "" {
		file = filepath.Join(d, filepath.Base(file))
	}
	if err := writePNG(file, img); err != nil {
		t.Error(err)
	}
	t.Logf("%s: pixels per type %v; picture %s", filepath.Base(file), inside, file)
}
