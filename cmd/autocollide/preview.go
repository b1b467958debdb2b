package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/autocollide/autocollide/preview"
	"github.com/autocollide/autocollide/safetext"
	"github.com/spf13/cobra"
)

type previewFlags struct {
	output        string
	width, height int
}

func newPreview() *cobra.Command {
	var f previewFlags
	c := &cobra.Command{
		Use:   "preview FILE [-o preview.png]",
		Short: "Draw a file's colliders over its mesh in a PNG",
		Long: `preview renders FILE (.gltf or .glb, OMI or KHR physics of any revision) as a
PNG: the render mesh in grey with every collider drawn over it, one colour per
shape type, in three views (front, side, three-quarter), with a legend and the
counts. Shapes are drawn from the parameters written in the file, so the
picture shows what a physics engine will load.

Without -o the picture is written next to FILE as FILE-without-extension
.preview.png.`,
		Example: `  autocollide generate crate.glb -o crate.physics.glb
  autocollide preview crate.physics.glb -o crate.png

  # A smaller picture
  autocollide preview --width 640 --height 240 level.gltf -o level.png`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runPreview(c, args[0], f) },
	}
	fl := c.Flags()
	fl.StringVarP(&f.output, "output", "o", "", "output PNG (default: next to FILE, .preview.png)")
	fl.IntVar(&f.width, "width", preview.DefaultWidth, "image width in pixels")
	fl.IntVar(&f.height, "height", preview.DefaultHeight, "image height in pixels")
	return c
}

func runPreview(c *cobra.Command, in string, f previewFlags) error {
	out := f.output
	if out == "" {
		out = strings.TrimSuffix(in, filepath.Ext(in)) + ".preview.png"
	}
	if !strings.EqualFold(filepath.Ext(out), ".png") {
		return usageError{fmt.Errorf("-o %s: the output must be a .png file", out)}
	}
	opt := preview.Options{Width: f.width, Height: f.height}
	if f.width < preview.MinWidth || f.width > preview.MaxSide || f.height < preview.MinHeight || f.height > preview.MaxSide {
		return usageError{fmt.Errorf("--width %d --height %d: want %d–%d × %d–%d pixels",
			f.width, f.height, preview.MinWidth, preview.MaxSide, preview.MinHeight, preview.MaxSide)}
	}
	if f.width*f.height > preview.MaxPixels {
		return usageError{fmt.Errorf("--width %d --height %d: %d pixels, over the limit of %d (4096 × 4096, or 8192 × 2048)",
			f.width, f.height, f.width*f.height, preview.MaxPixels)}
	}
	img, st, err := preview.RenderFile(in, opt)
	if err != nil {
		fmt.Fprintln(c.ErrOrStderr(), safetext.Term(err.Error()))
		return errFailed
	}
	for _, w := range st.Warnings {
		fmt.Fprintf(c.ErrOrStderr(), "%s: warning: %s\n", safetext.Term(in), safetext.Term(w))
	}
	if err := preview.WritePNG(out, img); err != nil {
		fmt.Fprintln(c.ErrOrStderr(), safetext.Term(err.Error()))
		return errFailed
	}
	fmt.Fprintf(c.OutOrStdout(), "%s → %s: %s\n", safetext.Term(in), safetext.Term(out), previewSummary(st))
	return nil
}

func previewSummary(st preview.Stats) string {
	types := make([]string, 0, len(st.ByType))
	for t := range st.ByType {
		types = append(types, t)
	}
	sort.Strings(types)
	s := fmt.Sprintf("%d bodies, %d colliders", st.Bodies, st.Colliders)
	for _, t := range types {
		s += fmt.Sprintf(", %d %s", st.ByType[t], t)
	}
	if st.Triggers > 0 {
		s += fmt.Sprintf(", %d triggers", st.Triggers)
	}
	for _, rd := range st.Ragdolls {
		s += fmt.Sprintf(", ragdoll (%s): %d bones with bodies, %d merged, %d joints", rd.SkinsText(), len(rd.Bodies), len(rd.Merged), len(rd.Joints))
	}
	for _, b := range st.Budgets {
		s += fmt.Sprintf(", budget of %q: %s", safetext.Term(b.Name), b)
	}
	return s + fmt.Sprintf(", %d render triangles", st.RenderTriangles)
}
