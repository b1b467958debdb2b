package preview

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/autocollide/autocollide/kinds"
)

// Legend layout, in output pixels (basicfont.Face7x13: 7 px advance,
// 13 px lines, 11 px ascent).
const (
	lineStep   = 16 // legend line pitch
	padding    = 6  // around the legend and between items
	swatchSize = 11
	charWidth  = 7
	ascent     = 11
)

var textColor = rgb{0.15, 0.15, 0.15}

// legendItem is a swatch (colours; several for decomposition hues) and
// its label, or plain text when colors is empty.
type legendItem struct {
	colors []rgb
	text   string
}

func (it legendItem) width() int {
	w := len(it.text) * charWidth
	if len(it.colors) > 0 {
		w += swatchSize + 4
	}
	return w
}

// legendItems lists the colour key (every solid shape type, plus plane,
// decomposition hues and so on only when present) and the counts.
func legendItems(sc *scene) []legendItem {
	var items []legendItem
	for _, s := range kinds.Shapes() {
		if !kinds.Written(s.Type) && !sc.kinds[kind(s.Type)] {
			continue // a shape autocollide never writes: only when drawn
		}
		items = append(items, legendItem{colors: []rgb{rgb(s.Color)}, text: s.Legend})
	}
	items = append(items, legendItem{colors: []rgb{triggerColor}, text: string(kindTrigger)})
	if sc.hues {
		items = append(items, legendItem{colors: []rgb{hueColor(0), hueColor(1), hueColor(2)}, text: "decomposition: one hue per hull"})
	}
	if len(sc.joints) > 0 {
		items = append(items, ragdollLegend(sc.stats))
	}
	st := sc.stats
	var byType []string
	for _, s := range kinds.Shapes() {
		if n := st.ByType[string(s.Type)]; n > 0 {
			byType = append(byType, fmt.Sprintf("%s %d", s.Type, n))
		}
	}
	colliders := fmt.Sprintf("colliders %d", st.Colliders)
	if len(byType) > 0 {
		colliders += " (" + strings.Join(byType, ", ") + ")"
	}
	counts := []string{
		fmt.Sprintf("bodies %d", st.Bodies),
		colliders,
		fmt.Sprintf("triggers %d", st.Triggers),
		fmt.Sprintf("hulls %d, %d vertices", st.Hulls, st.HullVertices),
		fmt.Sprintf("mesh %d triangles, %d vertices", st.RenderTriangles, st.RenderVertices),
	}
	for i, c := range counts {
		if i < len(counts)-1 {
			c += " |"
		}
		items = append(items, legendItem{text: c})
	}
	return append(items, budgetLegend(st.Budgets)...)
}

// placed is an item at its top-left position in the legend band.
type placed struct {
	legendItem
	x, y int
}

// layoutLegend flows the items into lines of at most width pixels; the
// colour key and the counts start on separate lines. It returns the
// positions and the band height.
func layoutLegend(items []legendItem, width int) ([]placed, int) {
	var out []placed
	x, y := padding, padding
	prevSwatch := true
	for _, it := range items {
		w := it.width()
		newLine := x > padding && (x+w > width-padding || prevSwatch && len(it.colors) == 0)
		if newLine {
			x, y = padding, y+lineStep
		}
		out = append(out, placed{it, x, y})
		x += w + 2*padding
		prevSwatch = len(it.colors) > 0
	}
	return out, y + lineStep + padding
}

// drawLegend paints the legend band at the top of r.
func drawLegend(dst *image.RGBA, r image.Rectangle, items []placed) {
	for _, it := range items {
		x, y := r.Min.X+it.x, r.Min.Y+it.y
		tx := x
		if n := len(it.colors); n > 0 {
			for k, c := range it.colors {
				x0 := x + k*swatchSize/n
				x1 := x + (k+1)*swatchSize/n
				fillRect(dst, image.Rect(x0, y+1, x1, y+1+swatchSize), mix(background, c, fillAlpha*1.5))
			}
			strokeRect(dst, image.Rect(x, y+1, x+swatchSize, y+1+swatchSize), darken(it.colors[0]))
			tx += swatchSize + 4
		}
		drawText(dst, tx, y, it.text)
	}
}

func mix(a, b rgb, t float32) rgb {
	return rgb{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}

func toRGBA(c rgb) color.RGBA { return color.RGBA{to8(c[0]), to8(c[1]), to8(c[2]), 255} }

func fillRect(dst *image.RGBA, r image.Rectangle, c rgb) {
	r = r.Intersect(dst.Bounds())
	col := toRGBA(c)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			dst.SetRGBA(x, y, col)
		}
	}
}

func strokeRect(dst *image.RGBA, r image.Rectangle, c rgb) {
	fillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), c)
	fillRect(dst, image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), c)
	fillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), c)
	fillRect(dst, image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// drawText writes s with its line top at (x, y).
func drawText(dst *image.RGBA, x, y int, s string) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(toRGBA(textColor)), Face: basicfont.Face7x13, Dot: fixed.P(x, y+ascent)}
	d.DrawString(s)
}

// layout is where things go in the picture.
type layout struct {
	panels []image.Rectangle // one per view, output pixels
	cams   []camera          // per view, in supersampled panel pixels
	band   image.Rectangle   // the legend band
	legend []placed
}

// layOut computes the panels, their cameras and the legend.
func layOut(sc *scene, opt Options) layout {
	W, H, ss := opt.Width, opt.Height, opt.Supersample
	legend, legendH := layoutLegend(legendItems(sc), W)
	panelH := max(H-legendH, 1)
	l := layout{band: image.Rect(0, panelH, W, H), legend: legend}
	for k, v := range views() {
		r := image.Rect(k*W/3, 0, (k+1)*W/3, panelH)
		w, h := float64(r.Dx()*ss), float64(r.Dy()*ss)
		margin := marginFrac * math.Min(w, h)
		l.panels = append(l.panels, r)
		l.cams = append(l.cams, frameCamera(sc, v, margin, float64(labelHeight*ss)+margin, w-margin, h-margin))
	}
	return l
}

// draw renders the whole picture: three views over the legend band.
func draw(sc *scene, opt Options) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, opt.Width, opt.Height))
	l := layOut(sc, opt)
	var p panel
	biggest := 0
	for _, r := range l.panels {
		biggest = max(biggest, r.Dx()*r.Dy())
	}
	p.reset(biggest*opt.Supersample*opt.Supersample, 1) // allocate once
	for k, r := range l.panels {
		drawPanel(&p, sc, l.cams[k], r, opt.Supersample, img)
		drawText(img, r.Min.X+padding, padding/2, l.cams[k].v.name)
		if k > 0 {
			fillRect(img, image.Rect(r.Min.X, 0, r.Min.X+1, r.Max.Y), separator)
		}
	}
	fillRect(img, l.band, background)
	fillRect(img, image.Rect(0, l.band.Min.Y, l.band.Max.X, l.band.Min.Y+1), separator)
	drawLegend(img, l.band, l.legend)
	return img
}
