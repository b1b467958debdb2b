package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/profiles"
)

// TestProfilesCommands: list names every preset, init prints a preset
// that loads back to what show prints, and a broken name is a usage
// error with a suggestion.
func TestProfilesCommands(t *testing.T) {
	code, out, _ := runCLI("profiles", "list")
	if code != 0 {
		t.Fatalf("list: exit %d", code)
	}
	dir := t.TempDir()
	for _, name := range profiles.Presets() {
		if !strings.Contains(out, name+" ") {
			t.Errorf("list does not name %s:\n%s", name, out)
		}
		code, text, _ := runCLI("profiles", "init", name)
		if code != 0 || !strings.HasPrefix(text, "# "+name+": ") {
			t.Errorf("init %s: exit %d, %q", name, code, text)
			continue
		}
		f := filepath.Join(dir, name+".yaml")
		os.WriteFile(f, []byte(text), 0o644)
		_, fromFile, _ := runCLI("profiles", "show", f)
		_, preset, _ := runCLI("profiles", "show", name)
		_, body, _ := strings.Cut(preset, "\n")
		_, fileBody, _ := strings.Cut(fromFile, "\n")
		if body == "" || body != fileBody {
			t.Errorf("%s: init's copy resolves to\n%s\nthe preset to\n%s", name, fileBody, body)
		}
	}
	code, _, stderr := runCLI("profiles", "show", "statik-level")
	if code != exitUsage || !strings.Contains(stderr, "did you mean static-level?") {
		t.Errorf("unknown preset: exit %d, %q", code, stderr)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("extends: default\ncolliders:\n  methd: box\n"), 0o644)
	code, _, stderr = runCLI("generate", "--profile", bad, "x.glb", "-o", filepath.Join(dir, "o.glb"))
	if code != exitUsage || !strings.Contains(stderr, bad+":3:3: ") || !strings.Contains(stderr, "did you mean method?") {
		t.Errorf("broken profile: exit %d, %q", code, stderr)
	}
}

// layeredRun runs generate on a copy of the example under dir/sub and
// returns the report's profile section.
func layeredRun(t *testing.T, dir string, args ...string) (batch.Profile, int, string) {
	t.Helper()
	in := filepath.Join(dir, "sub", "furniture.glb")
	if _, err := os.Stat(in); err != nil {
		data, err := os.ReadFile(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(in), 0o755)
		os.WriteFile(in, data, 0o644)
	}
	rep := filepath.Join(dir, "report.json")
	os.Remove(rep)
	code, _, stderr := runCLI(append([]string{"generate", in, "--dry-run", "-q", "--report", rep}, args...)...)
	var r batch.Report
	if data, err := os.ReadFile(rep); err == nil {
		json.Unmarshal(data, &r)
	}
	return r.Profile, code, stderr
}

// TestSettingsLayers: flags over AUTOCOLLIDE_* over the nearest
// autocollide.yaml over the profile; the project file's profile path is
// relative to it.
func TestSettingsLayers(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "profiles"), 0o755)
	os.WriteFile(filepath.Join(dir, "profiles", "mine.yaml"), []byte("extends: physx-gpu\ncolliders: {method: aabb}\nmass: {total: 7}\n"), 0o644)

	p, code, stderr := layeredRun(t, dir)
	if code != 0 || p.Name != "default" || p.Method != "auto" || p.Format != "omi" {
		t.Fatalf("no layers: %+v, exit %d %s", p, code, stderr)
	}
	// A project file in a parent folder of the input.
	os.WriteFile(filepath.Join(dir, "autocollide.yaml"), []byte("profile: profiles/mine.yaml\nformat: khr\n"), 0o644)
	p, code, stderr = layeredRun(t, dir)
	if code != 0 || p.Name != filepath.Join(dir, "profiles", "mine.yaml") || p.Method != "aabb" || p.Format != "khr" || p.MaxHullVertices != 64 || p.Mass != 7 {
		t.Fatalf("project file: %+v, exit %d %s", p, code, stderr)
	}
	// The environment over the project file, flags over both.
	t.Setenv("AUTOCOLLIDE_FORMAT", "omi")
	t.Setenv("AUTOCOLLIDE_MAX_HULL_VERTICES", "32")
	t.Setenv("AUTOCOLLIDE_DENSITY", "500")
	t.Setenv("AUTOCOLLIDE_MAX_COLLIDERS", "6")
	p, code, stderr = layeredRun(t, dir, "--max-hull-vertices", "16")
	if code != 0 || p.Format != "omi" || p.MaxHullVertices != 16 || p.Density != 500 || p.Mass != 0 || p.Method != "aabb" || p.MaxColliders != 6 {
		t.Fatalf("environment and flags: %+v, exit %d %s", p, code, stderr)
	}
	// A nearer project file replaces the farther one.
	os.WriteFile(filepath.Join(dir, "sub", "autocollide.yaml"), []byte("method: box\n"), 0o644)
	p, code, stderr = layeredRun(t, dir)
	if code != 0 || p.Name != "default" || p.Method != "box" {
		t.Fatalf("nearest project file: %+v, exit %d %s", p, code, stderr)
	}
	// Bad values name their layer.
	t.Setenv("AUTOCOLLIDE_MAX_HULL_VERTICES", "many")
	if _, code, stderr = layeredRun(t, dir); code != exitUsage || !strings.Contains(stderr, "AUTOCOLLIDE_MAX_HULL_VERTICES=many: want a whole number") {
		t.Errorf("bad environment value: exit %d, %q", code, stderr)
	}
	os.Unsetenv("AUTOCOLLIDE_MAX_HULL_VERTICES")
	os.Unsetenv("AUTOCOLLIDE_DENSITY")
	t.Setenv("AUTOCOLLIDE_MAX_COLLIDERS", "0")
	if _, code, stderr = layeredRun(t, dir); code != exitUsage || !strings.Contains(stderr, `environment: max-colliders "0": want a whole number from 1 to 1024`) {
		t.Errorf("budget out of range: exit %d, %q", code, stderr)
	}
	os.Unsetenv("AUTOCOLLIDE_MAX_COLLIDERS")
	project := filepath.Join(dir, "sub", "autocollide.yaml")
	for _, c := range []struct{ text, want string }{
		{"method: box\nmax-hull-vertex: 4\n", project + `:2:1: unknown setting "max-hull-vertex" (did you mean max-hull-vertices?)`},
		{"max-hulls: lots\n", project + `:1:12: max-hulls: "lots": want a whole number`},
		{"max-colliders: 1025\n", project + `: max-colliders "1025": want a whole number from 1 to 1024`},
		{"profile: missing.yaml\n", project + ":1:10: profile: " + filepath.Join(dir, "sub", "missing.yaml") + ": no such file"},
		{"format: khr\nprofile: statik-level\n", project + `:2:10: profile: unknown preset "statik-level" (did you mean static-level?)`},
		{"method: hul\n", project + `: method "hul": want one of`},
		{"density: 100\nmaterial: oak\n", project + ": give only one of density, material and mass"},
	} {
		os.WriteFile(project, []byte(c.text), 0o644)
		_, code, stderr := layeredRun(t, dir)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%q: exit %d, %q; want one line with %q", c.text, code, stderr, c.want)
		}
	}
}

// TestSettingKeysDocumented: every setting the environment and the
// project file may give is a generate flag, and those outside the table
// of settings (which profiles.TestReadmeSettingsTable compares) are in
// the README's usage block as --flag and in its settings list.
func TestSettingKeysDocumented(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testassets.Repo(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	_, usage, _ := strings.Cut(text, "autocollide generate INPUT...")
	usage, _, _ = strings.Cut(usage, "autocollide convert")
	_, list, _ := strings.Cut(text, "The settings are ")
	list, _, _ = strings.Cut(list, "spelled as the flags")
	flags := newGenerate().Flags()
	for _, k := range settingKeys {
		if flags.Lookup(k) == nil {
			t.Errorf("setting %s is no generate flag", k)
		}
		if _, inTable := profiles.FlagSetting(k); inTable {
			continue // in the README's table of settings
		}
		if !strings.Contains(usage, "--"+k+" ") && !strings.Contains(usage, "--"+k+"=") {
			t.Errorf("the README's usage block does not show --%s", k)
		}
		if !strings.Contains(list, "`"+k+"`") {
			t.Errorf("the README's settings list does not name %s: %q", k, list)
		}
	}
}
