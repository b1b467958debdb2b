package preview

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
)

// Default and limiting image sizes, in output pixels.
const (
	DefaultWidth       = 1280
	DefaultHeight      = 480
	DefaultSupersample = 2
	// MinWidth and MinHeight leave room for three views and the legend.
	MinWidth  = 480
	MinHeight = 200
	// MaxSide bounds either side, so a typo cannot allocate gigabytes.
	MaxSide = 8192
	// MaxSupersample bounds the supersampling factor.
	MaxSupersample = 4
	// MaxPixels bounds width × height × supersample², the samples
	// rendered: each costs about 40 bytes in the buffers of the view
	// being drawn (a third of the picture) and the picture 4 bytes per
	// output pixel, so the largest picture (4096 × 4096, or 8192 × 2048,
	// without supersampling) stays near 300 MB. When the default
	// supersampling would pass it, it is lowered (down to none).
	MaxPixels = 1 << 24
)

// Options controls the picture. Zero values mean the defaults.
type Options struct {
	Width, Height int
	// Supersample is the number of samples per output pixel along each
	// axis (anti-aliasing); 1 turns it off.
	Supersample int
}

func (o Options) withDefaults() (Options, error) {
	if o.Width == 0 {
		o.Width = DefaultWidth
	}
	if o.Height == 0 {
		o.Height = DefaultHeight
	}
	if o.Supersample == 0 {
		o.Supersample = DefaultSupersample
		for o.Supersample > 1 && o.Width*o.Height*o.Supersample*o.Supersample > MaxPixels {
			o.Supersample--
		}
	}
	switch {
	case o.Width < MinWidth || o.Width > MaxSide:
		return o, fmt.Errorf("width %d: want %d to %d pixels", o.Width, MinWidth, MaxSide)
	case o.Height < MinHeight || o.Height > MaxSide:
		return o, fmt.Errorf("height %d: want %d to %d pixels", o.Height, MinHeight, MaxSide)
	case o.Supersample < 1 || o.Supersample > MaxSupersample:
		return o, fmt.Errorf("supersample %d: want 1 to %d", o.Supersample, MaxSupersample)
	case o.Width*o.Height*o.Supersample*o.Supersample > MaxPixels:
		return o, fmt.Errorf("%d × %d pixels × supersample %d²: over the limit of %d samples (4096 × 4096 without supersampling)", o.Width, o.Height, o.Supersample, MaxPixels)
	}
	return o, nil
}

// Stats counts what the picture shows.
type Stats struct {
	// Family is the physics extension family read ("omi", "khr" or "").
	Family string `json:"family"`
	// Bodies counts nodes with a motion (rigid bodies) in the scene.
	Bodies int `json:"bodies"`
	// Colliders counts solid colliders with a shape; ByType splits them by
	// shape type ("box", "sphere", "capsule", "cylinder", "convex",
	// "trimesh", "plane").
	Colliders int            `json:"colliders"`
	ByType    map[string]int `json:"byType"`
	// Triggers counts trigger volumes with a shape of their own.
	Triggers int `json:"triggers"`
	// Hulls counts convex colliders; HullVertices sums the vertices of
	// their hulls as drawn (the convex hull of each referenced mesh).
	Hulls        int `json:"hulls"`
	HullVertices int `json:"hullVertices"`
	// RenderTriangles and RenderVertices count the render mesh drawn.
	RenderTriangles int `json:"renderTriangles"`
	RenderVertices  int `json:"renderVertices"`
	// Warnings are the physics decoder's, as "path: message".
	Warnings []string `json:"warnings,omitempty"`
	// Ragdolls are the armatures whose bones carry jointed bodies (as
	// inspect reads them): the bones with bodies, the merged bones and
	// the joints with their limits. Each joint is drawn as a dot with a
	// stick to its parent body.
	Ragdolls []inspect.Ragdoll `json:"ragdolls,omitempty"`
	// Budgets are the mesh instances' collider budgets autocollide
	// recorded (as inspect reads them): the budget, the colliders kept
	// and how many became which primitive.
	Budgets []inspect.Budget `json:"budgets,omitempty"`
}

// ErrEmpty is returned (wrapped, naming the file) for a scene with
// neither triangles nor colliders: there is nothing to draw.
var ErrEmpty = errors.New("nothing to draw: the scene has no triangles and no colliders")

// Render draws the asset's render mesh and colliders. The asset should be
// loaded with gltfio.LoadRaw, which keeps generated colliders. Errors name
// the asset's file.
func Render(a *gltfio.Asset, opt Options) (*image.RGBA, Stats, error) {
	if a == nil || a.Doc == nil {
		return nil, Stats{}, errors.New("preview: nil asset")
	}
	img, st, err := render(a, opt)
	if err != nil {
		return nil, st, fmt.Errorf("%s: preview: %w", a.Path, err)
	}
	return img, st, nil
}

func render(a *gltfio.Asset, opt Options) (*image.RGBA, Stats, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, Stats{}, err
	}
	sc, err := buildScene(a.Doc)
	if err != nil {
		return nil, Stats{}, err
	}
	if sc.stats.RenderTriangles == 0 && sc.stats.Colliders == 0 && sc.stats.Triggers == 0 {
		return nil, sc.stats, ErrEmpty
	}
	if err := sc.addRagdolls(a); err != nil {
		return nil, sc.stats, err
	}
	return draw(sc, opt), sc.stats, nil
}

// RenderFile loads path with gltfio.LoadRaw and renders it.
func RenderFile(path string, opt Options) (*image.RGBA, Stats, error) {
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		return nil, Stats{}, err
	}
	return Render(a, opt)
}

// EncodePNG returns img as PNG bytes (deterministic for a given image).
func EncodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WritePNG writes img to path as a PNG, atomically (a temporary file
// renamed over path).
func WritePNG(path string, img image.Image) error {
	data, err := EncodePNG(img)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := gltfio.WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
