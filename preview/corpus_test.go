package preview

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// TestCorpus renders a preview of every corpus asset after generate
// (convex hulls, or boxes where hull generation fails or the asset is
// huge), skipping the ones
// generate refuses (Draco). Every view must show something. With
// AUTOCOLLIDE_PREVIEW_DIR set, the PNGs are written there for a look.
func TestCorpus(t *testing.T) {
	files := testassets.Corpus(t)
	outDir := os.Getenv("AUTOCOLLIDE_PREVIEW_DIR")
	tmp := t.TempDir()
	opt := Options{Width: 640, Height: 480}
	var total time.Duration
	rendered := 0
	for _, src := range files {
		name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
		dst := filepath.Join(tmp, filepath.Base(filepath.Dir(filepath.Dir(src)))+"-"+name+".glb")
		gstart := time.Now()
		method, err := generateTo(src, dst, generate.Hull)
		if err != nil {
			method, err = generateTo(src, dst, generate.AABB)
		}
		if err != nil {
			t.Logf("skip %s: generate: %v", src, err)
			continue
		}
		gen := time.Since(gstart)
		start := time.Now()
		img, st, err := RenderFile(dst, opt)
		total += time.Since(start)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		rendered++
		for k := range 3 {
			r := image.Rect(k*opt.Width/3, labelHeight+1, (k+1)*opt.Width/3, opt.Height/2)
			if blank(img, r) {
				t.Errorf("%s: view %d is blank", src, k)
			}
		}
		t.Logf("%-60s %-5s gen %v render %v %s", strings.TrimPrefix(src, testassets.Shared(t)+"/"), method, gen.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), statsLine(st))
		if outDir != "" {
			if err := WritePNG(filepath.Join(outDir, filepath.Base(dst)+".png"), img); err != nil {
				t.Error(err)
			}
		}
	}
	if rendered < len(files)/2 {
		t.Errorf("rendered only %d of %d corpus files", rendered, len(files))
	}
	t.Logf("rendered %d of %d files at %dx%d in %v (load + render)", rendered, len(files), opt.Width, opt.Height, total.Round(time.Millisecond))
}

// corpusHullTriangles: assets with more triangles get boxes, because
// generate's hulls for MetalRoughSpheresNoTextures (1M triangles) take
// minutes, which would push this test far past its time budget.
const corpusHullTriangles = 200_000

func generateTo(src, dst string, m generate.Method) (generate.Method, error) {
	a, err := gltfio.Load(src, gltfio.Limits{})
	if err != nil {
		return m, err
	}
	if ex, err := mesh.Extract(a.Doc); err == nil && m == generate.Hull {
		n := 0
		for _, p := range ex.Parts {
			n += len(p.Triangles)
		}
		if n > corpusHullTriangles {
			m = generate.AABB
		}
	}
	if _, err := generate.Asset(context.Background(), a, generate.Options{Collider: generate.ColliderSettings{Method: m}, Encoding: generate.Encoding{Format: physics.OMI, Binary: true}}); err != nil {
		return m, err
	}
	return m, a.Save(dst)
}

// blank reports whether every pixel of r is the background colour.
func blank(img *image.RGBA, r image.Rectangle) bool {
	bg := to8s(background)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if pixel(img, x, y) != bg {
				return false
			}
		}
	}
	return true
}

func statsLine(st Stats) string {
	return fmt.Sprintf("bodies %d colliders %d %v hulls %d (%d verts) tris %d", st.Bodies, st.Colliders, st.ByType, st.Hulls, st.HullVertices, st.RenderTriangles)
}
