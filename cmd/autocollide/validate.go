package main

import (
	"fmt"

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
revision): structure and types, indices in range, joint rules, shape
parameters, hull meshes (one triangle primitive, closed, convex, vertex count),
NaN, and extension declarations. Each problem is printed with its JSON path.
The exit code is 1 when any file has an error (or, with --strict, a warning);
notes (info) never fail.`,
		Example: `  autocollide validate build/*.glb
  autocollide validate --max-hull-vertices 64 level.gltf`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			failed := 0
			for _, f := range args {
				a, err := gltfio.LoadRaw(f, gltfio.Limits{})
				if err != nil {
					fmt.Fprintln(c.ErrOrStderr(), safetext.Term(err.Error()))
					failed++
					continue
				}
				probs := validate.Validate(a.Doc, validate.Options{MaxHullVertices: maxHull})
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
