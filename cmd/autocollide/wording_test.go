package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// TestNoSeedInUserText: "seed" was the project's old name for the OMI
// Stage 1 forms; no help text and nothing inspect, validate or convert
// print about the legacy fixtures (copied under neutral names, so the
// file name does not count) says it.
func TestNoSeedInUserText(t *testing.T) {
	seed := regexp.MustCompile(`(?i)\bseed`)
	var said []string
	check := func(what, text string) {
		if loc := seed.FindStringIndex(text); loc != nil {
			lo, hi := max(0, loc[0]-60), min(len(text), loc[1]+60)
			said = append(said, what+": …"+text[lo:hi]+"…")
		}
	}
	for _, cmd := range [][]string{{}, {"generate"}, {"inspect"}, {"validate"}, {"convert"}, {"preview"}, {"profiles"}, {"profiles", "list"}, {"profiles", "show"}, {"profiles", "init"}} {
		_, out, errOut := runCLI(append(cmd, "--help")...)
		check(strings.Join(append(cmd, "--help"), " "), out+errOut)
	}
	dir := t.TempDir()
	legacy, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", "legacy", "*.gltf"))
	if len(legacy) < 3 {
		t.Fatalf("%d legacy fixtures", len(legacy))
	}
	for i, f := range legacy {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(dir, "legacy"+string(rune('a'+i))+".gltf")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"inspect", in}, {"inspect", "--json", in}, {"validate", in},
			{"convert", in, "--to", "omi", "-o", filepath.Join(dir, "omi.gltf")},
			{"convert", in, "--to", "khr", "-o", filepath.Join(dir, "khr.gltf")},
			{"generate", in, "-o", filepath.Join(dir, "gen.gltf")},
		} {
			_, out, errOut := runCLI(args...)
			check(strings.Join(args[:1], " ")+" "+filepath.Base(f), out+errOut)
		}
	}
	for _, s := range said {
		t.Errorf("says seed: %s", s)
	}
}
