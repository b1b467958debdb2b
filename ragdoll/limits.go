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

func deg(s1, s2, tw float64) Limit {
	return Limit{Swing1: s1 * math.Pi / 180, Swing2: s2 * math.Pi / 180, Twist: tw * math.Pi / 180}
}

// HumanoidLimits is the default table: elbow and knee before shoulder and
// hip (a forearm is also an arm), a catch-all last. The skeleton does not
// say which way a hinge bends, so elbows and knees are wide cones with
// little twist rather than one-sided hinges.
func HumanoidLimits() []LimitRule {
	return []LimitRule{
		{"elbow", []string{"*forearm*", "*lowerarm*", "*lower_arm*", "*elbow*"}, deg(75, 75, 30)},
		{"knee", []string{"*calf*", "*shin*", "*knee*", "*lowerleg*", "*lower_leg*", "*leftleg", "*rightleg", "*leg02*", "*leg2*"}, deg(75, 75, 5)},
		{"clavicle", []string{"*clavicle*", "*collar*"}, deg(15, 15, 10)},
		{"wrist", []string{"*hand*", "*wrist*"}, deg(45, 45, 15)},
		{"ankle", []string{"*foot*", "*ankle*"}, deg(30, 30, 10)},
		{"toe", []string{"*toe*"}, deg(20, 20, 5)},
		{"shoulder", []string{"*shoulder*", "*upperarm*", "*upper_arm*", "*arm*"}, deg(80, 80, 45)},
		{"hip", []string{"*thigh*", "*upleg*", "*upperleg*", "*upper_leg*", "*hip*", "*leg*"}, deg(60, 60, 30)},
		{"neck", []string{"*neck*"}, deg(40, 40, 45)},
		{"head", []string{"*head*"}, deg(30, 30, 40)},
		{"spine", []string{"*spine*", "*chest*", "*torso*", "*pelvis*", "*back*"}, deg(30, 30, 20)},
		{"tail", []string{"*tail*"}, deg(30, 30, 10)},
		{"default", []string{"*"}, deg(30, 30, 20)},
	}
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

// match returns the first rule whose pattern matches name, or false.
func match(rules []LimitRule, name string) (LimitRule, bool) {
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

// joinBodies adds a joint from every body with a parent body, at the child
// bone's head, its +Y along the child's axis.
func (sk *skeleton) joinBodies(rd *Ragdoll, rules []LimitRule) error {
	for i, b := range rd.Bodies {
		if b.Parent < 0 {
			continue
		}
		rule, ok := match(rules, b.Name)
		if !ok {
			return fmt.Errorf("ragdoll: %s: no limit rule matches its name (end the table with \"*\")", sk.name(b.Bone))
		}
		p := rd.Bodies[b.Parent]
		world := b.Frame.Linear()
		jr := turn(world.Col(1), world.MulVec(b.Axis)).Mul(world) // joint rotation, world
		pr := p.Frame.Linear().Transpose()
		rd.Joints = append(rd.Joints, Joint{
			Child: i, Parent: b.Parent, Rule: rule.Name, Limit: rule.Limit,
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
