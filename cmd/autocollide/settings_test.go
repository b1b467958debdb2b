package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/profiles"
)

// resolveWith resolves the settings of an input under dir, the flags of
// a fresh generate command set as flags says, the environment holding
// env (for the test's length) and dir's project file holding project (none when empty). A flag
// the flag set itself refuses is returned as the error.
func resolveWith(t *testing.T, dir string, flags, env map[string]string, project string) (*settings, error) {
	fl := newGenerate().Flags()
	for k, v := range flags {
		if err := fl.Set(k, v); err != nil {
			return nil, fmt.Errorf("--%s: %w", k, err)
		}
	}
	os.Remove(filepath.Join(dir, ProjectFile))
	if project != "" {
		if err := os.WriteFile(filepath.Join(dir, ProjectFile), []byte(project), 0o644); err != nil {
			return nil, err
		}
	}
	for k, v := range env {
		t.Setenv(k, v)
		defer os.Unsetenv(k)
	}
	return newLayers(fl).forInput(filepath.Join(dir, "in.glb"))
}

// TestSettingBoundsEverySource tries each setting of the table just
// inside and just outside its range as a flag (and its older name), an
// environment variable and a project file key: inside values reach the
// resolved profile, outside ones are refused naming the setting, in
// every source alike (profiles.TestSettingBoundsInProfiles does the
// profile's section and its rules).
func TestSettingBoundsEverySource(t *testing.T) {
	dir := t.TempDir()
	for _, s := range profiles.Settings() {
		sources := func(text string) map[string]func() (*settings, error) {
			out := map[string]func() (*settings, error){
				"flag":         func() (*settings, error) { return resolveWith(t, dir, map[string]string{s.Flag: text}, nil, "") },
				"environment":  func() (*settings, error) { return resolveWith(t, dir, nil, map[string]string{s.Env(): text}, "") },
				"project file": func() (*settings, error) { return resolveWith(t, dir, nil, nil, s.Flag+": "+text+"\n") },
			}
			if s.OlderFlag != "" {
				out["older flag"] = func() (*settings, error) { return resolveWith(t, dir, map[string]string{s.OlderFlag: text}, nil, "") }
			}
			return out
		}
		inside, outside := s.Bounds()
		for _, text := range inside {
			want, _ := s.Parse(text)
			for where, resolve := range sources(text) {
				got, err := resolve()
				if err != nil {
					t.Errorf("%s %s %s: %v", s.Flag, where, text, err)
					continue
				}
				if v := got.profile.Value(s); fmt.Sprint(v) != fmt.Sprint(want) {
					t.Errorf("%s %s %s: got %v", s.Flag, where, text, v)
				}
			}
		}
		for _, text := range outside {
			for where, resolve := range sources(text) {
				_, err := resolve()
				if err == nil || !strings.Contains(err.Error(), s.Flag) && !strings.Contains(err.Error(), s.Env()) && (s.OlderFlag == "" || !strings.Contains(err.Error(), s.OlderFlag)) {
					t.Errorf("%s %s %s: got %v, want an error naming the setting", s.Flag, where, text, err)
				}
			}
		}
	}
}

// TestConcavityOneRange: the disagreement issue 38 found is gone:
// concavity 1 is accepted and 0.0000001 refused by the flag as by a
// profile.
func TestConcavityOneRange(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text string
		ok   bool
	}{{"1", true}, {"0.0000001", false}} {
		_, flagErr := resolveWith(t, dir, map[string]string{"concavity": c.text}, nil, "")
		_, profErr := profiles.Parse("p.yaml", []byte("colliders: {concavity: "+c.text+"}\n"))
		if (flagErr == nil) != c.ok || (profErr == nil) != c.ok {
			t.Errorf("concavity %s: flag %v, profile %v; want both accepted = %v", c.text, flagErr, profErr, c.ok)
		}
	}
}
