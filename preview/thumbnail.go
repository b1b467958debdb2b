package preview

import (
	"image"
	"image/color"
)

// Shrink returns img scaled down by an integer factor, each output pixel
// the average of a factor×factor block (edge pixels that do not fill a
// block are dropped). It is exact integer arithmetic, so the same image
// gives the same bytes. A factor below 2 returns a copy.
func Shrink(img image.Image, factor int) *image.RGBA {
	factor = max(factor, 1)
	b := img.Bounds()
	w, h := b.Dx()/factor, b.Dy()/factor
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	n := uint32(factor * factor)
	for y := range h {
		for x := range w {
			var r, g, bl, a uint32
			for dy := range factor {
				for dx := range factor {
					c := color.RGBAModel.Convert(img.At(b.Min.X+x*factor+dx, b.Min.Y+y*factor+dy)).(color.RGBA)
					r, g, bl, a = r+uint32(c.R), g+uint32(c.G), bl+uint32(c.B), a+uint32(c.A)
				}
			}
			out.SetRGBA(x, y, color.RGBA{uint8((r + n/2) / n), uint8((g + n/2) / n), uint8((bl + n/2) / n), uint8((a + n/2) / n)})
		}
	}
	return out
}
