package viewer

import (
	_ "embed"

	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/preview"
)

//go:embed viewer.min.js
var script string

//go:embed LICENSES.md
var licenses string

//go:embed LICENSE-three
var licenseThree string

// Script returns the viewer's script: it defines AutocollideViewer and
// contains no "</script" (it can go inside a script element as it is).
func Script() string { return script }

// License returns the licences of what the script bundles.
func License() string { return licenses + "\n## three.js\n\n" + licenseThree }

// Palette is what the viewer colours colliders by, as the PNG previews
// do: a colour per shape type, triggers and joints, and the hues of the
// hulls of a decomposition. Colours are RGB in [0, 1], drawn as sRGB.
type Palette struct {
	Shapes  map[string][3]float32 `json:"shapes"`
	Legend  map[string]string     `json:"legend"`
	Trigger [3]float32            `json:"trigger"`
	Joint   [3]float32            `json:"joint"`
	// The k-th hull of a body with several is drawn in HSV colour
	// (HueStart + k·HueStep mod 1, HueSaturation, HueValue).
	HueStart      float64 `json:"hueStart"`
	HueStep       float64 `json:"hueStep"`
	HueSaturation float64 `json:"hueSaturation"`
	HueValue      float64 `json:"hueValue"`
}

// DefaultPalette is the previews' palette: kinds' shape colours, and
// preview's trigger, joint and decomposition colours.
func DefaultPalette() Palette {
	pp := preview.Colors()
	p := Palette{Shapes: map[string][3]float32{}, Legend: map[string]string{"trigger": "trigger", "joint": "joint"},
		Trigger: pp.Trigger, Joint: pp.Joint,
		HueStart: pp.HueStart, HueStep: pp.HueStep, HueSaturation: pp.HueSaturation, HueValue: pp.HueValue}
	for _, s := range kinds.Shapes() {
		p.Shapes[string(s.Type)] = s.Color
		p.Legend[string(s.Type)] = s.Legend
	}
	return p
}
