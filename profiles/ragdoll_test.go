package profiles

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/ragdoll"
)

// TestRagdollPreset: the ragdoll preset makes ragdolls of capsules with
// the documented thresholds, and the ragdoll keys are refused where they
// do nothing.
func TestRagdollPreset(t *testing.T) {
	p, err := Load("ragdoll")
	o := mustOptions(t, p, err)
	r := o.Body.Ragdoll
	if o.Body.Mode != generate.BodiesPerBone || o.Collider.Method != generate.Capsule || o.Body.Motion != "dynamic" ||
		r.MinWeightShare != 0.01 || r.MinSize != 0.03 || r.Threshold || r.WeightThreshold != 0 || len(r.Limits) == 0 {
		t.Errorf("ragdoll: mode %s, method %s, motion %s, ragdoll %+v", o.Body.Mode, o.Collider.Method, o.Body.Motion, o.Body.Ragdoll)
	}
	q, err := Parse("threshold.yaml", []byte("extends: ragdoll\nbodies:\n  assign: threshold\n  weightThreshold: 0.25\n  minSize: 0.1\n"))
	o = mustOptions(t, q, err)
	r = o.Body.Ragdoll
	if r.MinWeightShare != 0.01 || r.MinSize != 0.1 || !r.Threshold || r.WeightThreshold != 0.25 || o.Body.Mode != generate.BodiesPerBone {
		t.Errorf("threshold profile: %+v", o.Body.Ragdoll)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"bodies:\n  per: root\n  minSize: 0.1\n", "used only with per: bone"},
		{"bodies:\n  per: root\n  jointLimits: [{name: a, bones: ['*'], swing1: 1, swing2: 1, twist: 1}]\n", "used only with per: bone"},
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

// TestRagdollJointLimits: the preset's humanoid table gives the bones of
// the corpus and of common rigs the rule of their joint (the first match
// wins, case-insensitively), in radians; a profile extending it puts its
// rules first; the canonical text (profiles show) and the preset's text
// (profiles init) are profiles giving the same table.
func TestRagdollJointLimits(t *testing.T) {
	p, err := Load("ragdoll")
	rules := mustOptions(t, p, err).Body.Ragdoll.Limits
	for bone, want := range map[string]string{
		"mixamorig:LeftForeArm": "elbow", "forearm_L": "elbow", "LeftArm": "shoulder", "upperarm_R": "shoulder",
		"LeftLeg": "knee", "calf_R": "knee", "RightUpLeg": "hip", "thigh_L": "hip", "Hand_L": "wrist", "foot_R": "ankle",
		"LeftToeBase": "toe", "neck_01": "neck", "Head": "head", "Spine2": "spine", "pelvis": "spine",
		"b_Tail01_012": "tail", "Skeleton_torso_joint_1": "spine", "Bone.003": "default",
	} {
		if got, ok := ragdoll.MatchLimit(rules, bone); !ok || got.Name != want {
			t.Errorf("%s: rule %q (%v), want %q", bone, got.Name, ok, want)
		}
	}
	elbow, _ := ragdoll.MatchLimit(rules, "forearm_L")
	if d := 180 / math.Pi; math.Abs(elbow.Limit.Swing1*d-75) > 1e-9 || math.Abs(elbow.Limit.Twist*d-30) > 1e-9 {
		t.Errorf("elbow %+v: want 75° swing, 30° twist in radians", elbow.Limit)
	}

	q, err := Parse("tail.yaml", []byte("extends: ragdoll\nbodies:\n  jointLimits:\n    - {name: stiff tail, bones: [\"*TAIL*\"], swing1: 5, swing2: 10, twist: 0}\n"))
	own := mustOptions(t, q, err).Body.Ragdoll.Limits
	if len(own) != len(rules)+1 || own[0].Name != "stiff tail" || !reflect.DeepEqual(own[1:], rules) {
		t.Errorf("extending table: %d rules, first %q; want the new rule before the preset's %d", len(own), own[0].Name, len(rules))
	}
	if got, _ := ragdoll.MatchLimit(own, "b_Tail01_012"); got.Name != "stiff tail" || got.Limit.Swing2 != 10*math.Pi/180 {
		t.Errorf("tail bone under the extending table: %+v", got)
	}

	for name, text := range map[string]string{"canonical": p.Canonical(), "preset text": presetText(t, "ragdoll")} {
		again, err := Parse(name+".yaml", []byte(text))
		if got := mustOptions(t, again, err).Body.Ragdoll.Limits; !reflect.DeepEqual(got, rules) {
			t.Errorf("%s: %d rules, want the preset's %d", name, len(got), len(rules))
		}
	}
}

func presetText(t *testing.T, name string) string {
	t.Helper()
	b, err := PresetText(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRagdollJointLimitErrors: a bad joint-limit rule is an error naming
// the file, the line and the key with its index.
func TestRagdollJointLimitErrors(t *testing.T) {
	rule := func(s string) string {
		return "extends: ragdoll\nbodies:\n  jointLimits:\n    - {name: ok, bones: [\"*arm*\"], swing1: 10, swing2: 10, twist: 10}\n    - " + s + "\n"
	}
	for _, c := range []struct{ yaml, want string }{
		{rule("{name: neg, bones: [\"*\"], swing1: -5, swing2: 10, twist: 10}"), "bodies.jointLimits[1].swing1: -5 is outside [0, 180]"},
		{rule("{name: wide, bones: [\"*\"], swing1: 5, swing2: 10, twist: 181}"), "bodies.jointLimits[1].twist: 181 is outside [0, 180]"},
		{rule("{name: glob, bones: [\"[arm\"], swing1: 5, swing2: 10, twist: 1}"), "bodies.jointLimits[1].bones: bad glob \"[arm\""},
		{rule("{name: none, bones: [], swing1: 5, swing2: 10, twist: 1}"), "bodies.jointLimits[1].bones: want a list of names"},
		{rule("{name: blank, bones: [\"\"], swing1: 5, swing2: 10, twist: 1}"), "bodies.jointLimits[1].bones: want a name"},
		{rule("{name: short, bones: [\"*\"], swing1: 5}"), "bodies.jointLimits[1]: swing2, twist missing"},
		{rule("{name: typo, bones: [\"*\"], swing1: 5, swing2: 1, twist: 1, twst: 2}"), "unknown key \"bodies.jointLimits[1].twst\""},
		{rule("{name: deg, bones: [\"*\"], swing1: 5°, swing2: 1, twist: 1}"), "bodies.jointLimits[1].swing1: want a number"},
		{"extends: ragdoll\nbodies:\n  jointLimits: {name: x}\n", "bodies.jointLimits: want a list of rules"},
		{"extends: default\nbodies:\n  per: bone\n  jointLimits:\n    - {name: arm, bones: [\"*arm*\"], swing1: 1, swing2: 1, twist: 1}\n", "bodies.jointLimits: no rule for every bone"},
	} {
		_, err := Parse("bad.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
			t.Errorf("%q:\nerror %v\nwant one at bad.yaml:line saying %q", c.yaml, err, c.want)
		}
	}
}
