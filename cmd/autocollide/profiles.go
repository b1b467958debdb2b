package main

import (
	"fmt"
	"strings"

	"github.com/autocollide/autocollide/profiles"
	"github.com/spf13/cobra"
)

func newProfiles() *cobra.Command {
	c := &cobra.Command{Use: "profiles", Short: "List, show and copy the embedded profile presets"}
	c.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the embedded presets with what each is for",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			for _, n := range profiles.Presets() {
				fmt.Fprintf(c.OutOrStdout(), "%-13s %s\n", n, presetSummary(n))
			}
			return nil
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Check a preset or profile file and print its resolved settings (extends applied)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			p, err := profiles.Load(args[0])
			if err != nil {
				return usageError{err}
			}
			fmt.Fprintf(c.OutOrStdout(), "# %s, resolved\n%s", p.Name, p.Annotated())
			return nil
		},
	})
	c.AddCommand(&cobra.Command{
		Use:     "init NAME",
		Short:   "Print a preset's YAML with its comments, ready to edit",
		Example: "  autocollide profiles init static-level > level.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			text, err := profiles.PresetText(args[0])
			if err != nil {
				return usageError{err}
			}
			_, err = c.OutOrStdout().Write(text)
			return err
		},
	})
	return c
}

// presetSummary is the first line of a preset's leading comment, without
// the preset's name.
func presetSummary(name string) string {
	text, err := profiles.PresetText(name)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(text), "\n")
	line = strings.TrimSpace(strings.TrimPrefix(line, "#"))
	return strings.TrimSpace(strings.TrimPrefix(line, name+":"))
}
