package ragdoll

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/internal/testassets"
)

// presetLikeLimits is a table shaped like the profiles' ragdoll preset:
// rules named for classes, whose globs alone would make shoulders of
// CesiumMan's "arm_joint" elbows and wrists and hips of its knees.
func presetLikeLimits() []LimitRule {
	d := math.Pi / 180
	r := func(name string, deg float64, globs ...string) LimitRule {
		return LimitRule{Name: name, Patterns: globs, Limit: Limit{Swing1: deg * d, Swing2: deg * d, Twist: deg / 2 * d}}
	}
	return []LimitRule{
		r("elbow", 75, "*forearm*"), r("knee", 74, "*calf*"), r("wrist", 45, "*hand*"),
		r("ankle", 30, "*foot*"), r("toe", 20, "*toe*"), r("shoulder", 80, "*arm*"),
		r("hip", 60, "*leg*"), r("neck", 40, "*neck*"), r("head", 31, "*head*"),
		r("spine", 32, "*spine*", "*torso*"), r("default", 29, "*"),
	}
}

// TestAnatomyCorpus: CesiumMan's and RiggedFigure's elbows, knees, wrists
// and ankles take those rules, though their names ("arm_joint_L_2",
// "leg_joint_L_2") match the shoulder's and hip's globs first; Fox's
// front legs take the arm rules, its hind legs the leg rules, its tail
// the default.
func TestAnatomyCorpus(t *testing.T) {
	want := map[string]map[string]string{
		"CesiumMan": {
			"Skeleton_arm_joint_L__4_": "shoulder", "Skeleton_arm_joint_L__3_": "elbow", "Skeleton_arm_joint_L__2_": "wrist",
			"Skeleton_arm_joint_R": "shoulder", "Skeleton_arm_joint_R__2_": "elbow", "Skeleton_arm_joint_R__3_": "wrist",
			"leg_joint_L_1": "hip", "leg_joint_L_2": "knee", "leg_joint_L_3": "ankle", "leg_joint_L_5": "toe",
			"leg_joint_R_1": "hip", "leg_joint_R_2": "knee", "leg_joint_R_3": "ankle", "leg_joint_R_5": "toe",
			"torso_joint_3": "spine", "Skeleton_neck_joint_1": "neck", "Skeleton_neck_joint_2": "head",
		},
		"RiggedFigure": {
			"arm_joint_L_1": "shoulder", "arm_joint_L_2": "elbow", "arm_joint_L_3": "wrist",
			"arm_joint_R_1": "shoulder", "arm_joint_R_2": "elbow", "arm_joint_R_3": "wrist",
			"leg_joint_L_1": "hip", "leg_joint_L_2": "knee", "leg_joint_L_3": "ankle", "leg_joint_L_5": "toe",
			"leg_joint_R_1": "hip", "leg_joint_R_2": "knee", "leg_joint_R_3": "ankle", "leg_joint_R_5": "toe",
			"torso_joint_2": "spine", "torso_joint_3": "spine", "neck_joint_1": "neck", "neck_joint_2": "head",
		},
		"Fox": {
			"b_LeftUpperArm_09": "shoulder", "b_LeftForeArm_010": "elbow", "b_LeftHand_011": "wrist",
			"b_LeftLeg02_016": "knee", "b_LeftFoot01_017": "ankle", "b_LeftFoot02_018": "toe",
			"b_Spine01_02": "spine", "b_Neck_04": "neck", "b_Head_05": "head", "b_Tail02_013": "default",
		},
	}
	seen := 0
	for _, path := range testassets.Corpus(t) {
		rel, _ := filepath.Rel(filepath.Join(testassets.Shared(t), "corpus"), path)
		asset, _, _ := strings.Cut(rel, string(filepath.Separator))
		w, ok := want[asset]
		if !ok {
			continue
		}
		doc, err := gltf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		seen++
		in := skinnedInstances(t, doc)[0]
		rd, err := Build(in.bones, in.skin, Settings{Limits: presetLikeLimits()})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, j := range rd.Joints {
			got[rd.Bodies[j.Child].Name] = j.Rule
			if j.Rule != "default" && j.Rule != string(j.Class) {
				t.Errorf("%s: joint %s: class %q took rule %q", asset, rd.Bodies[j.Child].Name, j.Class, j.Rule)
			}
		}
		for bone, rule := range w {
			if got[bone] != rule {
				t.Errorf("%s: joint %s takes rule %q, want %q", asset, bone, got[bone], rule)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d assets", seen, len(want))
	}
}

// TestAnatomyWithoutNames: the humanoid rig with its bones renamed
// "bone.000", "bone.001", ... gets the same class for every bone, and so
// the same rule for every joint, as with its names; the classes are the
// anatomical ones.
func TestAnatomyWithoutNames(t *testing.T) {
	r, id := humanoid(3)
	named, err := Build(r.bones, r.skin(), Settings{Limits: presetLikeLimits()})
	if err != nil {
		t.Fatal(err)
	}
	anon := make([]Bone, len(r.bones))
	for i, b := range r.bones {
		anon[i] = b
		anon[i].Name = fmt.Sprintf("bone.%03d", i)
	}
	plain, err := Build(anon, r.skin(), Settings{Limits: presetLikeLimits()})
	if err != nil {
		t.Fatal(err)
	}
	if len(named.Joints) != len(plain.Joints) || len(named.Joints) < 15 {
		t.Fatalf("%d joints named, %d unnamed", len(named.Joints), len(plain.Joints))
	}
	classOf := map[int]Class{}
	for i, j := range named.Joints {
		p := plain.Joints[i]
		if j.Class != p.Class || j.Rule != p.Rule || named.Bodies[j.Child].Bone != plain.Bodies[p.Child].Bone {
			t.Errorf("joint %s: class %q rule %q named, class %q rule %q as %s", named.Bodies[j.Child].Name, j.Class, j.Rule, p.Class, p.Rule, plain.Bodies[p.Child].Name)
		}
		classOf[named.Bodies[j.Child].Bone] = j.Class
	}
	for bone, c := range map[string]Class{
		"Spine": Spine, "Chest": Spine, "Neck": Neck, "Head": Head,
		"LeftClavicle": Clavicle, "LeftArm": Shoulder, "LeftForeArm": Elbow, "LeftHand": Wrist,
		"RightClavicle": Clavicle, "RightArm": Shoulder, "RightForeArm": Elbow, "RightHand": Wrist,
		"LeftUpLeg": Hip, "LeftLeg": Knee, "LeftFoot": Ankle, "LeftToeBase": Toe,
		"RightUpLeg": Hip, "RightLeg": Knee, "RightFoot": Ankle, "RightToeBase": Toe,
	} {
		if got := classOf[id[bone]]; got != c {
			t.Errorf("%s: class %q, want %q", bone, got, c)
		}
	}
}

// TestRuleFor: a profile's own rule (not named for a class) overrides the
// class by its globs; "*" does not; an unclassified joint goes by names.
func TestRuleFor(t *testing.T) {
	rules := append([]LimitRule{{Name: "stiff", Patterns: []string{"calf_*"}}, {Name: "any", Patterns: []string{"*"}}}, presetLikeLimits()...)
	for _, c := range []struct {
		name  string
		class Class
		want  string
	}{
		{"calf_L", Knee, "stiff"},
		{"leg_joint_L_2", Knee, "knee"},
		{"arm_joint_L_2", Elbow, "elbow"},
		{"finger1", Finger, "any"},
		{"arm_joint_L_2", Unclassified, "any"},
	} {
		r, ok := RuleFor(rules, c.name, c.class)
		if !ok || r.Name != c.want {
			t.Errorf("%s (%s): rule %q, want %q", c.name, c.class, r.Name, c.want)
		}
	}
	r, _ := RuleFor(presetLikeLimits(), "arm_joint_L_2", Unclassified)
	if r.Name != "shoulder" {
		t.Errorf("unclassified arm_joint_L_2: rule %q, want the names' shoulder", r.Name)
	}
}
