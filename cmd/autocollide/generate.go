package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/profiles"
	"github.com/spf13/cobra"
)

type generateFlags struct {
	output, outDir, format, profile, khrGeometry, method, material string
	inPlace                                                        bool
	maxHullVertices                                                int
	density, mass                                                  float64
}

func newGenerate() *cobra.Command {
	var f generateFlags
	c := &cobra.Command{
		Use:   "generate INPUT... (-o OUT | --out-dir DIR | --in-place)",
		Short: "Generate colliders and rigid bodies for glTF files",
		Long: `generate reads each INPUT (.gltf or .glb), makes every root node of its scene
that holds geometry a dynamic rigid body with one collider per mesh instance,
and writes the result. Physics already in a file is kept as it is. Running
generate on its own output replaces what it generated before.

The output keeps the input's container unless the output name asks for the
other (.glb or .gltf). A .gltf written to another folder gets copies of the
buffers and images it references.`,
		Example: `  # OMI physics with the embedded default profile (convex hulls)
  autocollide generate crate.glb -o crate.physics.glb

  # Khronos extensions, boxes, several files into a folder
  autocollide generate --format khr --method aabb a.gltf b.glb --out-dir build/

  # Older KHR geometry.node form, in place
  autocollide generate --format khr --khr-geometry node --in-place level.glb

  # A profile file kept in the project
  autocollide generate --profile props.yaml chair.glb -o out/chair.glb`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runGenerate(c, args, f) },
	}
	fl := c.Flags()
	fl.StringVarP(&f.output, "output", "o", "", "output file (one input only)")
	fl.StringVar(&f.outDir, "out-dir", "", "output folder (file names kept)")
	fl.BoolVar(&f.inPlace, "in-place", false, "overwrite each input")
	fl.StringVar(&f.profile, "profile", "default", "profile: a preset name or a YAML file")
	fl.StringVar(&f.format, "format", "", "extension family: omi or khr (default from the profile: omi)")
	fl.StringVar(&f.khrGeometry, "khr-geometry", "", "KHR collider geometry form: mesh (newest) or node (older)")
	fl.StringVar(&f.method, "method", "", "collider method: aabb, box, sphere, capsule, cylinder or hull (default from the profile: hull)")
	fl.IntVar(&f.maxHullVertices, "max-hull-vertices", 0, "cap on each convex hull's vertices (default from the profile: 255)")
	fl.Float64Var(&f.density, "density", 0, "density of dynamic bodies in kg/m³ (default from the profile, else 1000)")
	fl.StringVar(&f.material, "material", "", "material whose density dynamic bodies have (oak, steel, plastic, ...)")
	fl.Float64Var(&f.mass, "mass", 0, "total mass of each dynamic body in kg, instead of a density")
	return c
}

func runGenerate(c *cobra.Command, inputs []string, f generateFlags) error {
	modes := 0
	for _, set := range []bool{f.output != "", f.outDir != "", f.inPlace} {
		if set {
			modes++
		}
	}
	if modes != 1 {
		return usageError{fmt.Errorf("give exactly one of -o, --out-dir or --in-place")}
	}
	if f.output != "" && len(inputs) > 1 {
		return usageError{fmt.Errorf("-o takes one input; use --out-dir for %d", len(inputs))}
	}
	prof, err := profiles.Load(f.profile)
	if err != nil {
		return usageError{err}
	}
	opt := generate.Options{
		Format:          generate.Format(pick(f.format, prof.Format)),
		KHRGeometryNode: pick(f.khrGeometry, prof.KHRGeometry) == "node",
		Method:          generate.Method(pick(f.method, prof.Method)),
		MaxHullVertices: prof.MaxHullVertices,
	}
	if f.maxHullVertices != 0 {
		opt.MaxHullVertices = f.maxHullVertices
	}
	if opt.Mass, err = massSpec(f, prof); err != nil {
		return usageError{err}
	}
	geometryForm := pick(f.khrGeometry, prof.KHRGeometry)
	switch {
	case opt.Format != generate.OMI && opt.Format != generate.KHR:
		return usageError{fmt.Errorf("--format %q: want omi or khr", opt.Format)}
	case !slices.Contains(generate.Methods(), opt.Method):
		return usageError{fmt.Errorf("--method %q: want one of %v", opt.Method, generate.Methods())}
	case geometryForm != "mesh" && geometryForm != "node":
		return usageError{fmt.Errorf("--khr-geometry %q: want mesh or node", geometryForm)}
	case opt.MaxHullVertices < 4:
		return usageError{fmt.Errorf("--max-hull-vertices %d: want at least 4", opt.MaxHullVertices)}
	}
	if f.outDir != "" {
		if err := os.MkdirAll(f.outDir, 0o755); err != nil {
			return usageError{err}
		}
	}
	failed := 0
	for _, in := range inputs {
		out := f.output
		switch {
		case f.inPlace:
			out = in
		case f.outDir != "":
			out = filepath.Join(f.outDir, filepath.Base(in))
		}
		rep, err := generateOne(c.Context(), in, out, f.inPlace, opt)
		if err != nil {
			fmt.Fprintln(c.ErrOrStderr(), err)
			failed++
			continue
		}
		fmt.Fprintf(c.OutOrStdout(), "%s → %s: %s\n", in, out, summary(rep))
		for _, n := range rep.Notes {
			fmt.Fprintf(c.OutOrStdout(), "  note: %s\n", n)
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(c.ErrOrStderr(), "%s: warning: %s\n", in, w)
		}
	}
	if failed > 0 {
		return errFailed
	}
	return nil
}

// massSpec resolves --density, --material and --mass over the profile's
// density, material and mass: at most one of the three on each level, and
// the command line wins.
func massSpec(f generateFlags, p *profiles.Profile) (generate.Mass, error) {
	resolve := func(where string, density float64, material string, total float64) (generate.Mass, bool, error) {
		n := 0
		for _, set := range []bool{density != 0, material != "", total != 0} {
			if set {
				n++
			}
		}
		switch {
		case n == 0:
			return generate.Mass{}, false, nil
		case n > 1:
			return generate.Mass{}, false, fmt.Errorf("%s: give only one of density, material and mass", where)
		case material != "":
			d, err := mass.Density(material)
			return generate.Mass{Density: d}, true, err
		case density != 0 && !(density > 0 && density < math.Inf(1)):
			return generate.Mass{}, false, fmt.Errorf("%s: density %v is not a positive number", where, density)
		case total != 0 && !(total > 0 && total < math.Inf(1)):
			return generate.Mass{}, false, fmt.Errorf("%s: mass %v is not a positive number", where, total)
		}
		return generate.Mass{Density: density, Mass: total}, true, nil
	}
	if m, ok, err := resolve("command line", f.density, f.material, f.mass); ok || err != nil {
		return m, err
	}
	m, _, err := resolve("profile "+p.Name, p.Density, p.Material, p.Mass)
	return m, err
}

func pick(flag, profile string) string {
	if flag != "" {
		return flag
	}
	return profile
}

func generateOne(ctx context.Context, in, out string, inPlace bool, opt generate.Options) (*generate.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !inPlace && sameFile(in, out) {
		return nil, fmt.Errorf("%s: output is the input; use --in-place to overwrite it", in)
	}
	a, err := gltfio.Load(in, gltfio.Limits{})
	if err != nil {
		return nil, err
	}
	opt.Binary = gltfio.IsBinaryName(out)
	rep, err := generate.Asset(ctx, a, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	if rep.Bodies == 0 && rep.Kept == 0 && physics.Detect(a.Doc) == physics.None {
		return nil, fmt.Errorf("%s: no triangle geometry in the scene; nothing to collide with", in)
	}
	return rep, a.Save(out)
}

// summary says in a few words what was generated.
func summary(r *generate.Report) string {
	kinds := make([]string, 0, len(r.Colliders))
	for k := range r.Colliders {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	s := fmt.Sprintf("%d bodies", r.Bodies)
	for _, k := range kinds {
		s += fmt.Sprintf(", %d %s", r.Colliders[k], k)
	}
	total := 0.0
	for _, b := range r.BodyList {
		total += b.Mass
	}
	if total > 0 {
		s += fmt.Sprintf(", %.4g kg", total)
	}
	if r.Kept > 0 {
		s += fmt.Sprintf(", %d kept as authored", r.Kept)
	}
	return s
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}
