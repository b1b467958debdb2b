package main

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
)

// writtenJoints generates the humanoid rig with a profile in a format and
// reads the joints back from the file: per joint node name, its written
// limits as text.
func writtenJoints(t *testing.T, rig, profile, format string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rig.glb")
	if code, _, stderr := runCLI("generate", rig, "--profile", profile, "--format", format, "-q", "-o", out); code != 0 {
		t.Fatalf("%s, %s: exit %d: %s", profile, format, code, stderr)
	}
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := inspect.Describe(a)
	if err != nil {
		t.Fatal(err)
	}
	if f.Family != format {
		t.Fatalf("%s: family %s, want %s", out, f.Family, format)
	}
	joints := map[string]string{}
	for _, j := range f.Joints {
		var b strings.Builder
		for _, l := range j.Limits {
			fmt.Fprintf(&b, "lin %v ang %v", l.LinearAxes, l.AngularAxes)
			if l.Min != nil && l.Max != nil {
				fmt.Fprintf(&b, " [%.6f, %.6f]", *l.Min, *l.Max)
			}
			b.WriteString("; ")
		}
		joints[j.Name] = b.String()
	}
	return joints
}

// TestRagdollProfileLimits: a profile rule extending the ragdoll preset
// changes the limits written (read back from the OMI and the KHR file)
// of the joints whose child bone it matches, and of no other joint.
func TestRagdollProfileLimits(t *testing.T) {
	rig := humanoidRig(t)
	profile := filepath.Join(t.TempDir(), "knees.yaml")
	rule := "extends: ragdoll\nbodies:\n  jointLimits:\n    - {name: stiff knee, bones: [\"CALF_*\"], swing1: 10, swing2: 20, twist: 2}\n"
	if err := os.WriteFile(profile, []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	rad := func(deg float64) string { return fmt.Sprintf("[%.6f, %.6f]", -deg*math.Pi/180, deg*math.Pi/180) }
	want := "lin [0 1 2] ang [] [0.000000, 0.000000]; lin [] ang [0] " + rad(10) + "; lin [] ang [2] " + rad(20) + "; lin [] ang [1] " + rad(2) + "; "
	for _, format := range []string{"omi", "khr"} {
		base := writtenJoints(t, rig, "ragdoll", format)
		got := writtenJoints(t, rig, profile, format)
		if len(base) < 10 || len(got) != len(base) {
			t.Fatalf("%s: %d joints with the preset, %d with the profile; want the same, at least 10", format, len(base), len(got))
		}
		changed := 0
		for name, lim := range got {
			knee := strings.HasPrefix(name, "calf_")
			switch {
			case knee && lim != want:
				t.Errorf("%s: %s limits %s\nwant %s", format, name, lim, want)
			case knee && lim == base[name]:
				t.Errorf("%s: %s limits unchanged by the rule: %s", format, name, lim)
			case !knee && lim != base[name]:
				t.Errorf("%s: %s limits changed by a rule for the knees: %s, was %s", format, name, lim, base[name])
			}
			if knee {
				changed++
			}
		}
		if changed != 2 {
			t.Errorf("%s: %d knee joints, want 2 (calf_L, calf_R): %v", format, changed, slices.Sorted(maps.Keys(got)))
		}
	}
}
