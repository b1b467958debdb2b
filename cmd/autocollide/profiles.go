package main

import (
	"fmt"

	"github.com/autocollide/autocollide/profiles"
	"github.com/spf13/cobra"
)

func newProfiles() *cobra.Command {
	c := &cobra.Command{Use: "profiles", Short: "List and show the embedded profile presets"}
	c.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the embedded presets",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			for _, n := range profiles.Presets() {
				fmt.Fprintln(c.OutOrStdout(), n)
			}
			return nil
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print a preset or check and print a profile file",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			p, err := profiles.Load(args[0])
			if err != nil {
				return usageError{err}
			}
			fmt.Fprintf(c.OutOrStdout(), "# %s\nformat: %s\nkhrGeometry: %s\nmethod: %s\nmaxHullVertices: %d\n", p.Name, p.Format, p.KHRGeometry, p.Method, p.MaxHullVertices)
			switch {
			case p.Material != "":
				fmt.Fprintf(c.OutOrStdout(), "material: %s\n", p.Material)
			case p.Mass != 0:
				fmt.Fprintf(c.OutOrStdout(), "mass: %g\n", p.Mass)
			case p.Density != 0:
				fmt.Fprintf(c.OutOrStdout(), "density: %g\n", p.Density)
			}
			return nil
		},
	})
	return c
}
