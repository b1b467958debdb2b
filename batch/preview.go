package batch

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/preview"
	"github.com/autocollide/autocollide/safefile"
)

// Previews says which pictures a run draws of its outputs.
type Previews struct {
	// Dir, when set, receives one PNG per written or cached output, at
	// the input's relative path with the extension .png
	// (props/chair.glb → Dir/props/chair.png; chair.glb.png when a
	// sibling chair.gltf took chair.png).
	Dir string
	// Thumbnails keeps a half-size copy of each picture, as PNG bytes,
	// in Asset.Thumbnail (for the HTML report).
	Thumbnails bool
}

func (p Previews) enabled() bool { return p.Dir != "" || p.Thumbnails }

// previewPaths names each job's PNG under dir, in job order: dir joined
// with its Preview name (named by Plan over the whole listing, so that
// shards and settings groups of one listing never share one).
func previewPaths(jobs []Job, dir string) []string {
	names := previewNames(jobs)
	paths := make([]string, len(jobs))
	for i, j := range jobs {
		n := j.Preview
		if n == "" {
			n = names[i]
		}
		if n != "" {
			paths[i] = filepath.Join(dir, filepath.FromSlash(n))
		}
	}
	return paths
}

// previewNames gives each job a distinct PNG name (distinct ignoring
// case): its relative path with .png for its extension, or with .png
// added, or with -N.png for its extension, the first no earlier job took.
func previewNames(jobs []Job) []string {
	names := make([]string, len(jobs))
	taken := map[string]bool{}
	for i, j := range jobs {
		rel := path.Clean(filepath.ToSlash(j.Rel))
		stem := strings.TrimSuffix(rel, path.Ext(rel))
		for n := 0; names[i] == ""; n++ {
			name := stem + ".png"
			switch {
			case n == 1:
				name = rel + ".png"
			case n > 1:
				name = fmt.Sprintf("%s-%d.png", stem, n)
			}
			if k := strings.ToLower(name); !taken[k] {
				taken[k], names[i] = true, name
			}
		}
	}
	return names
}

// addPreview draws the picture of a written or cached output from the
// bytes on disk (as an engine would load them) and records it in the
// asset. A cached output keeps a PNG that is newer than it (as make
// would judge).
// Failures become warnings of the asset: a preview never fails a file.
func addPreview(r *result, mode Mode, p Previews, pngPath string) {
	a := &r.asset
	if mode != Write || (a.Status != OK && a.Status != Cached) {
		return
	}
	if g4mf.IsName(r.job.Output) {
		a.Notes = append(a.Notes, "no preview: the renderer reads glTF only")
		return
	}
	warn := func(err error) { a.Warnings = append(a.Warnings, "preview: "+err.Error()) }
	if p.Dir != "" && pngPath == "" {
		warn(fmt.Errorf("%s: another input already has its picture's name", r.job.Input))
		return
	}
	var img image.Image
	if a.Status == Cached && upToDate(pngPath, r.job.Output) {
		if !p.Thumbnails {
			a.Preview = pngPath
			return
		}
		img = readPNG(pngPath) // nil when unreadable: drawn again
	}
	if img == nil {
		drawn, _, err := preview.RenderFile(r.job.Output, preview.Options{})
		if err != nil {
			warn(err)
			return
		}
		if pngPath != "" {
			if err := os.MkdirAll(filepath.Dir(pngPath), 0o755); err != nil {
				warn(err)
				return
			}
			if err := preview.WritePNG(pngPath, drawn); err != nil {
				warn(err)
				return
			}
		}
		img = drawn
	}
	a.Preview = pngPath
	if p.Thumbnails {
		data, err := preview.EncodePNG(preview.Shrink(img, 2))
		if err != nil {
			warn(err)
			return
		}
		a.Thumbnail = data
	}
}

// upToDate reports whether the file at pngPath exists and was modified
// no earlier than output.
func upToDate(pngPath, output string) bool {
	if pngPath == "" {
		return false
	}
	ps, err1 := os.Stat(pngPath)
	out, err2 := os.Stat(output)
	return err1 == nil && err2 == nil && !ps.ModTime().Before(out.ModTime())
}

func readPNG(p string) image.Image {
	f, err := safefile.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil
	}
	return img
}
