package profiles

import (
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
)

// TestRagdollPreset: the ragdoll preset makes ragdolls of capsules with
// the documented thresholds, and the ragdoll keys are refused where they
// do nothing.
func TestRagdollPreset(t *testing.T) {
	p, err := Load("ragdoll")
	o := mustOptions(t, p, err)
	want := generate.RagdollSettings{MinWeightShare: 0.01, MinSize: 0.03}
	if o.Body.Mode != generate.BodiesPerBone || o.Collider.Method != generate.Capsule || o.Body.Motion != "dynamic" || o.Body.Ragdoll != want {
		t.Errorf("ragdoll: mode %s, method %s, motion %s, ragdoll %+v", o.Body.Mode, o.Collider.Method, o.Body.Motion, o.Body.Ragdoll)
	}
	q, err := Parse("threshold.yaml", []byte("extends: ragdoll\nbodies:\n  assign: threshold\n  weightThreshold: 0.25\n  minSize: 0.1\n"))
	o = mustOptions(t, q, err)
	want = generate.RagdollSettings{MinWeightShare: 0.01, MinSize: 0.1, Threshold: true, WeightThreshold: 0.25}
	if o.Body.Ragdoll != want || o.Body.Mode != generate.BodiesPerBone {
		t.Errorf("threshold profile: %+v", o.Body.Ragdoll)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"bodies:\n  per: root\n  minSize: 0.1\n", "used only with per: bone"},
		{"extends: ragdoll\nmotion: kinematic\n", "whose bodies are dynamic"},
		{"extends: ragdoll\nbodies:\n  assign: heaviest\n", "assign"},
		{"extends: ragdoll\nbodies:\n  minWeightShare: 2\n", "minWeightShare"},
	} {
		_, err := Parse("bad.yaml", []byte(bad.yaml))
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), "bad.yaml") {
			t.Errorf("%q: error %v, want one naming bad.yaml and %q", bad.yaml, err, bad.want)
		}
	}
}
