package ragdoll

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/autocollide/autocollide/geom"
)

// Limit bounds the child body's rotation relative to its parent in the
// joint frame (+Y along the child bone: the twist axis), as Unreal's
// Physics Asset constraints do: symmetric half-angles in radians, each in
// [0, π]. Swing1 is about the frame's X axis, Swing2 about its Z axis (an
// elliptic cone), Twist about Y. The rest pose is the middle of every
// range.
type Limit struct {
	Swing1, Swing2, Twist float64
}

// LimitRule gives joints whose child bone name matches one of Patterns the
// limit Limit. Patterns are path.Match globs compared case-insensitively
// ("*forearm*").
type LimitRule struct {
	Name     string
	Patterns []string
	Limit    Limit
}

// DefaultLimits is the table used when Settings.Limits is nil: one rule,
// "default", giving every joint a 30° cone and ±20° of twist. It knows
// no bone names; the humanoid table (spine, neck, shoulder, elbow, hip,
// knee, ankle, ...) is data and lives in the profiles' ragdoll preset,
// where it can be copied and edited (autocollide profiles init ragdoll).
func DefaultLimits() []LimitRule {
	const d = math.Pi / 180
	return []LimitRule{{Name: "default", Patterns: []string{"*"}, Limit: Limit{Swing1: 30 * d, Swing2: 30 * d, Twist: 20 * d}}}
}

// checkRules rejects malformed patterns and limits outside [0, π].
func checkRules(rules []LimitRule) error {
	for i, r := range rules {
		for _, p := range r.Patterns {
			if _, err := path.Match(strings.ToLower(p), ""); err != nil {
				return fmt.Errorf("%w: limit rule %d %q: pattern %q: %v", ErrBadSetting, i, r.Name, p, err)
			}
		}
		for _, a := range []float64{r.Limit.Swing1, r.Limit.Swing2, r.Limit.Twist} {
			if !(a >= 0 && a <= math.Pi) {
				return fmt.Errorf("%w: limit rule %d %q: angle %v outside [0, π]", ErrBadSetting, i, r.Name, a)
			}
		}
	}
	return nil
}

// MatchLimit returns the first rule of the table with a pattern matching
// the bone name (case-insensitively), or false when none does.
func MatchLimit(rules []LimitRule, name string) (LimitRule, bool) {
	low := strings.ToLower(name)
	for _, r := range rules {
		for _, p := range r.Patterns {
			if ok, _ := path.Match(strings.ToLower(p), low); ok {
				return r, true
			}
		}
	}
	return LimitRule{}, false
}

// RuleFor returns the rule of the table for a joint whose child bone has
// the given name and class: anatomy first, names second. A rule whose Name
// is a class (Elbow's is "elbow") is that class's rule. For a classified
// joint the first rule that is no class's and matches the name by a
// pattern other than "*" wins (a profile's own rule for some bones
// overrides their class), then its class's rule; otherwise, and for
// unclassified joints, the first rule matching the name (MatchLimit): a
// class's rule matches by its patterns only joints whose class the
// skeleton does not tell, so "*arm*" makes no shoulder of a forearm.
func RuleFor(rules []LimitRule, name string, class Class) (LimitRule, bool) {
	if class != Unclassified {
		low := strings.ToLower(name)
		for _, r := range rules {
			if isClass(r.Name) {
				continue
			}
			for _, p := range r.Patterns {
				if ok, _ := path.Match(strings.ToLower(p), low); ok && p != "*" {
					return r, true
				}
			}
		}
		for _, r := range rules {
			if r.Name == string(class) {
				return r, true
			}
		}
	}
	for _, r := range rules {
		if class != Unclassified && isClass(r.Name) {
			continue // not this joint's class
		}
		if _, ok := MatchLimit([]LimitRule{r}, name); ok {
			return r, true
		}
	}
	return LimitRule{}, false
}

// joinBodies adds a joint from every body with a parent body, at the child
// bone's head, its +Y along the child's axis, its limit the table's rule
// for the child bone's name and class.
func (sk *skeleton) joinBodies(rd *Ragdoll, rules []LimitRule, class []Class) error {
	for i, b := range rd.Bodies {
		if b.Parent < 0 {
			continue
		}
		rule, ok := RuleFor(rules, b.Name, class[b.Bone])
		if !ok {
			return fmt.Errorf("ragdoll: %s: no limit rule matches its name (end the table with \"*\")", sk.name(b.Bone))
		}
		p := rd.Bodies[b.Parent]
		world := b.Frame.Linear()
		jr := turn(world.Col(1), world.MulVec(b.Axis)).Mul(world) // joint rotation, world
		pr := p.Frame.Linear().Transpose()
		rd.Joints = append(rd.Joints, Joint{
			Child: i, Parent: b.Parent, Rule: rule.Name, Limit: rule.Limit, Class: class[b.Bone],
			ChildFrame:  Pose{Rotation: geom.QuatFromMat3(world.Transpose().Mul(jr)).Normalize()},
			ParentFrame: Pose{Position: toLocal(p.Frame, sk.head[b.Bone]), Rotation: geom.QuatFromMat3(pr.Mul(jr)).Normalize()},
		})
	}
	return nil
}

// turn returns the smallest rotation taking unit a to unit b (a half turn
// about an axis perpendicular to a when they are opposite).
func turn(a, b geom.Vec3) geom.Mat3 {
	c := a.Dot(b)
	if c < -1+1e-12 {
		perp := a.Cross(geom.Vec3{1, 0, 0})
		if perp.Len() < 1e-6 {
			perp = a.Cross(geom.Vec3{0, 1, 0})
		}
		u := perp.Normalize()
		// Rotation by π about u: 2uuᵀ − I.
		var m geom.Mat3
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				m[i][j] = 2 * u[i] * u[j]
			}
			m[i][i]--
		}
		return m
	}
	v := a.Cross(b)
	k := 1 / (1 + c)
	// Rodrigues: I + [v]× + [v]×² /(1+c).
	return geom.Mat3{
		{1 - k*(v[1]*v[1]+v[2]*v[2]), -v[2] + k*v[0]*v[1], v[1] + k*v[0]*v[2]},
		{v[2] + k*v[0]*v[1], 1 - k*(v[0]*v[0]+v[2]*v[2]), -v[0] + k*v[1]*v[2]},
		{-v[1] + k*v[0]*v[2], v[0] + k*v[1]*v[2], 1 - k*(v[0]*v[0]+v[1]*v[1])},
	}
}
