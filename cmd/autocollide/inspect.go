package main

import (
	"encoding/json"
	"fmt"
	"github.com/autocollide/autocollide/safetext"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
	"github.com/spf13/cobra"
)

func newInspect() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "inspect FILE...",
		Short: "Describe the physics a glTF file carries",
		Long: `inspect prints, for each FILE, the physics it carries: the extension family
and revision (OMI or KHR, current or an older form), then per rigid body its
node, motion, mass, centre of mass, inertia and velocities, and its colliders
and triggers by shape type and size (hulls with their vertex and triangle
counts, materials and filters by index); colliders on no body; joints with
their limits and drives; physics materials; collision filters. An output of
generate also shows the fingerprint it recorded (see generate --check). A
.g4tf or .g4b FILE is read as 3D G4MF (family g4mf, its node and shape
indices).

--json prints a JSON array with one object per file, following the schema
inspect/inspect.schema.json. The exit code is 1 when a file cannot be read.`,
		Example: `  autocollide inspect build/chair.glb
  autocollide inspect --json build/*.glb > physics.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			failed := false
			files := []*inspect.File{}
			for _, p := range args {
				f, err := describe(p)
				if err != nil {
					fmt.Fprintln(c.ErrOrStderr(), safetext.Term(err.Error()))
					failed = true
					continue
				}
				if asJSON {
					files = append(files, f)
				} else {
					f.WriteText(c.OutOrStdout())
				}
			}
			if asJSON {
				data, err := json.MarshalIndent(files, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "%s\n", data)
			}
			if failed {
				return errFailed
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON (schema: inspect/inspect.schema.json)")
	return c
}

// describe reads a glTF file, or a 3D G4MF file by its name, and
// describes its physics.
func describe(path string) (*inspect.File, error) {
	if g4mf.IsName(path) {
		return inspect.DescribeG4MF(path)
	}
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		return nil, err
	}
	return inspect.Describe(a)
}
