package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/safetext"
	"github.com/spf13/cobra"
)

func newConvert() *cobra.Command {
	var out, to, khrGeometry string
	var strict bool
	c := &cobra.Command{
		Use:   "convert IN -o OUT --to omi|khr",
		Short: "Convert a file's physics between the OMI and KHR families, or export it as G4MF",
		Long: `convert reads the physics of IN in whichever family and revision it carries
(current OMI, legacy OMI_collider, the old OMI body and joint forms, current
KHR with geometry.mesh or geometry.node, the 2024 KHR_collision_shapes) and
writes it in the current form of the other family (or of the same family,
which migrates legacy files). Where the mapping is lossy it warns per item and
does the nearest faithful thing; --strict makes those errors.

An IN ending in .g4tf or .g4b is read as a 3D G4MF file: its nodes (one to
one), meshes (triangles), shapes, motions, colliders and triggers become a
glTF file with the physics in the --to family; what glTF cannot hold is
warned about per item.

When OUT ends in .g4tf or .g4b, IN (with its physics, either family) is
exported as a 3D G4MF file instead and --to is not needed: the node hierarchy
of the default scene under a new root node, each glTF mesh as a G4MF mesh,
bodies, colliders and triggers on nodes of their own, shapes in the shapes
array. What G4MF cannot express (materials, filters, joints, sized planes,
skins, ...) is warned about per item.`,
		Example: `  autocollide convert truck.glb -o truck.khr.glb --to khr
  autocollide convert old_collider.gltf -o migrated.gltf --to omi --strict
  autocollide convert furniture.physics.glb -o furniture.g4tf
  autocollide convert furniture.g4tf -o furniture.glb --to khr`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if out == "" {
				return usageError{fmt.Errorf("-o OUT is required")}
			}
			if g4mf.IsName(out) {
				return convertG4MF(c, args[0], out, strict)
			}
			codec, err := codecs.Parse(to)
			if err != nil {
				return usageError{fmt.Errorf("--to %q: want %s", to, codecs.Names())}
			}
			fam := codec.Family()
			if khrGeometry != "mesh" && khrGeometry != "node" {
				return usageError{fmt.Errorf("--khr-geometry %q: want mesh or node", khrGeometry)}
			}
			in := args[0]
			if sameFile(in, out) {
				return usageError{fmt.Errorf("%s: output is the input", in)}
			}
			enc := physics.EncodeOptions{GeometryNode: khrGeometry == "node"}
			a, warns, err := convertInput(in, fam, strict, enc)
			if a != nil {
				for _, w := range a.Warnings {
					fmt.Fprintf(c.ErrOrStderr(), "%s: warning: %s\n", safetext.Term(in), safetext.Term(w))
				}
			}
			for _, w := range warns {
				fmt.Fprintf(c.ErrOrStderr(), "%s: warning: %s\n", safetext.Term(in), safetext.Term(w.String()))
			}
			if err == nil {
				if err = a.Save(out); err != nil {
					err = fmt.Errorf("%s: %w", in, err)
				}
			}
			if err != nil {
				fmt.Fprintln(c.ErrOrStderr(), safetext.Term(err.Error()))
				if errors.Is(err, convert.ErrInternal) {
					return errInternal
				}
				return errFailed
			}
			fmt.Fprintf(c.OutOrStdout(), "%s → %s (%s, %d warnings)\n", safetext.Term(in), safetext.Term(out), fam, len(warns))
			return nil
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "output file")
	c.Flags().StringVar(&to, "to", "", "target family: "+codecs.Names())
	c.Flags().StringVar(&khrGeometry, "khr-geometry", "mesh", "KHR collider geometry form: mesh (2026 revision, what current readers read) or node (2025 revision; see the README)")
	c.Flags().BoolVar(&strict, "strict", false, "treat every lossy item as an error")
	return c
}

// convertInput reads in (glTF, or 3D G4MF by its name) with its physics
// rewritten in family fam, ready to save; errors name the file.
func convertInput(in string, fam physics.Family, strict bool, enc physics.EncodeOptions) (*gltfio.Asset, []physics.Warning, error) {
	if g4mf.IsName(in) {
		a, warns, err := g4mf.ImportAsset(in, fam, enc)
		if err == nil && strict && len(warns) > 0 {
			err = fmt.Errorf("%s: %d lossy items with --strict", in, len(warns))
		}
		return a, warns, err
	}
	a, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		return nil, nil, err
	}
	doc, err := a.TypedCopy()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in, err)
	}
	warns, err := convert.ConvertWith(doc, fam, convert.Options{Strict: strict, Encode: enc})
	if err == nil {
		err = a.ReplaceExtensions(doc, codecs.Extensions())
	}
	if err != nil {
		return nil, warns, fmt.Errorf("%s: %w", in, err)
	}
	return a, warns, nil
}

// convertG4MF exports IN as a 3D G4MF file.
func convertG4MF(c *cobra.Command, in, out string, strict bool) error {
	if sameFile(in, out) {
		return usageError{fmt.Errorf("%s: output is the input", in)}
	}
	if g4mf.IsName(in) {
		return usageError{fmt.Errorf("%s: already a G4MF file; convert it to .glb or .gltf with --to", in)}
	}
	warns, err := g4mf.ExportFile(in, out)
	for _, w := range warns {
		fmt.Fprintf(c.ErrOrStderr(), "%s: warning: %s\n", safetext.Term(in), safetext.Term(w))
	}
	if err == nil && strict && len(warns) > 0 {
		os.Remove(out)
		err = fmt.Errorf("%d lossy items with --strict", len(warns))
	}
	if err != nil {
		fmt.Fprintf(c.ErrOrStderr(), "%s: %s\n", safetext.Term(in), safetext.Term(err.Error()))
		return errFailed
	}
	fmt.Fprintf(c.OutOrStdout(), "%s → %s (g4mf, %d warnings)\n", safetext.Term(in), safetext.Term(out), len(warns))
	return nil
}
