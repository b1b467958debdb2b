package main

import (
	"fmt"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/autocollide/autocollide/safetext"
	"github.com/spf13/cobra"
)

func newValidate() *cobra.Command {
	var maxHull int
	var quiet, strict bool
	c := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check the physics of glTF files against the specifications",
		Long: `validate checks the physics extensions of each FILE (OMI and KHR, every
revision; a .g4tf or .g4b file's G4MF physics, with G4MF paths): structure and types, indices in range, joint rules, shape
parameters, hull meshes (one triangle primitive, closed, convex, vertex count),
NaN, and extension declarations. Each problem is printed with its JSON path,
after an info line naming the revision the file is written in (KHR collider
geometry.mesh, the 2026 revision, or geometry.node, the 2025 one; the 2024
KHR_collision_shapes; OMI current, Stage 1 or the archived OMI_collider).
The exit code is 1 when any file has an error (or, with --strict, a warning);
notes (info) never fail.`,
		Example: `  autocollide validate build/*.glb
  autocollide validate --max-hull-vertices 64 level.gltf`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkMaxHullVertices(maxHull); err != nil {
				return usageError{err}
			}
			failed := 0
			for _, f := range args {
				probs, rev, err := validateFile(f, validate.Options{MaxHullVertices: maxHull})
				if err != nil {
					fmt.Fprintln(c.ErrOrStderr(), safetext.Term(err.Error()))
					failed++
					continue
				}
				if rev != "" && !quiet {
					fmt.Fprintf(c.OutOrStdout(), "%s: info: revision: %s\n", safetext.Term(f), rev)
				}
				errs, warns := 0, 0
				for _, p := range probs {
					if p.Severity == validate.Warning {
						warns++
					}
					if p.Severity == validate.Error || strict && p.Severity == validate.Warning {
						errs++
					} else if quiet {
						continue
					}
					fmt.Fprintf(c.OutOrStdout(), "%s: %s\n", safetext.Term(f), safetext.Term(p.String()))
				}
				if errs > 0 {
					failed++
				} else if !quiet {
					notes := ""
					if n := len(probs) - warns; n > 0 {
						notes = fmt.Sprintf(", %d notes", n)
					}
					fmt.Fprintf(c.OutOrStdout(), "%s: ok (%d warnings%s)\n", safetext.Term(f), warns, notes)
				}
			}
			if failed > 0 {
				return errFailed
			}
			return nil
		},
	}
	c.Flags().IntVar(&maxHull, "max-hull-vertices", 255, "largest vertex count accepted for a convex hull")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "print errors only")
	c.Flags().BoolVar(&strict, "strict", false, "treat warnings (e.g. a hull mesh over the vertex limit, an older form) as errors")
	return c
}

// validateFile reads a glTF file, or a 3D G4MF file by its name, and
// checks its physics; it also names the revision a glTF file's physics is
// written in ("" for none, and for G4MF).
func validateFile(path string, opt validate.Options) ([]validate.Problem, string, error) {
	if g4mf.IsName(path) {
		f, err := g4mf.Read(path)
		if err != nil {
			return nil, "", err
		}
		probs, err := g4mf.Validate(f, opt)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		return probs, "", nil
	}
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		return nil, "", err
	}
	return validate.Validate(a.Doc, opt), validate.Revision(a.Doc), nil
}
