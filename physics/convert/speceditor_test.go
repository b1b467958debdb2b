package convert_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/validate"
)

// TestSpecEditorFiles: every one of the KHR spec editor's 71 test and
// sample files validates without an error, converts to OMI and back to
// KHR with each output validating without an error, and comes back with
// its joints and drives as written (a drive target's missing gain made
// explicit, its default 0). RigidBodies_Joint_09, a velocity motor
// (positionTarget 0, no stiffness), draws one note at its drive and no
// warning.
func TestSpecEditorFiles(t *testing.T) {
	files := testassets.SpecEditor(t)
	if len(files) != 71 {
		t.Fatalf("%d spec editor files, want 71", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gltf")
		t.Run(name, func(t *testing.T) {
			doc := openDoc(t, f)
			probs := validate.Validate(doc, validate.Options{})
			if validate.HasErrors(probs) {
				t.Fatalf("validate: %v", probs)
			}
			if name == "RigidBodies_Joint_09" {
				drive := "extensions.KHR_physics_rigid_bodies.physicsJoints[0].drives[0]"
				notes := 0
				for _, p := range probs {
					if p.Severity == validate.Warning || p.Path == drive && p.Severity != validate.Info {
						t.Errorf("want no warning and a note at the drive; got %v", p)
					}
					if p.Path == drive {
						notes++
					}
				}
				if notes != 1 {
					t.Errorf("want one note at %s; got %v", drive, probs)
				}
			}
			before, _, err := khr.Decode(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, to := range []physics.Family{physics.OMI, physics.KHR} {
				if _, err := convert.Convert(doc, to, false); err != nil {
					t.Fatalf("to %s: %v", to, err)
				}
				if probs := validate.Validate(doc, validate.Options{}); validate.HasErrors(probs) {
					t.Fatalf("after convert to %s: %v", to, probs)
				}
			}
			after, _, err := khr.Decode(doc)
			if err != nil {
				t.Fatal(err)
			}
			for i := range before.Joints {
				for k := range before.Joints[i].Drives {
					d := &before.Joints[i].Drives[k]
					if d.PositionTarget != nil && d.Stiffness == nil {
						d.Stiffness = ptr(0)
					}
					if d.VelocityTarget != nil && d.Damping == nil {
						d.Damping = ptr(0)
					}
				}
			}
			want, _ := json.Marshal(before.Joints)
			got, _ := json.Marshal(after.Joints)
			if string(want) != string(got) {
				t.Errorf("joints changed by KHR→OMI→KHR:\nwant %s\n got %s", want, got)
			}
		})
	}
}
