package profiles

import (
	"context"
	"fmt"
	"math"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/ragdoll"
)

// Options turns the profile into generation options. Its rules (and the
// hull caps Options has no asset-wide field for) become Options.Rules.
// Options.RulesKey is always the canonical text: besides the rules, it
// tells apart what JSON cannot show in a cache key (bodies.pattern, a
// compiled regular expression, marshals as {}).
func (p *Profile) Options() (generate.Options, error) {
	c := p.Colliders
	opt := generate.Options{
		Encoding: generate.Encoding{
			Format:          physics.Family(p.Format),
			KHRGeometryNode: p.KHRGeometry == "node",
		},
		Collider: c.colliderSettings(),
		Body: generate.BodySettings{
			Mode:              generate.BodyMode(p.Bodies.Per),
			Overlap:           generate.OverlapRule(p.Bodies.Overlapping),
			Pattern:           p.Bodies.pattern,
			Motion:            physics.MotionType(p.Motion),
			Trigger:           p.Trigger,
			NamingConventions: p.NamingConventions,
			Ragdoll: generate.RagdollSettings{
				MinWeightShare: p.Bodies.MinWeightShare, MinSize: p.Bodies.MinSize,
				Threshold: p.Bodies.Assign == "threshold", WeightThreshold: p.Bodies.WeightThreshold,
				Limits: p.Bodies.limitRules(),
			},
		},
	}
	var err error
	if opt.Body.Mass, err = p.Mass.spec(); err != nil {
		return opt, fmt.Errorf("%s: %w", p.Name, err)
	}
	if m := p.PhysicsMaterial; m != nil {
		opt.Body.Material = &physics.Material{
			StaticFriction: m.StaticFriction, DynamicFriction: m.DynamicFriction, Restitution: m.Restitution,
			FrictionCombine: m.FrictionCombine, RestitutionCombine: m.RestitutionCombine,
		}
	}
	if f := p.Filter; f != nil {
		opt.Body.Filter = &physics.Filter{CollisionSystems: f.Systems, CollideWithSystems: f.CollideWith, NotCollideWithSystems: f.NotCollideWith}
	}
	if len(p.Rules) > 0 || c.perInstance() {
		if opt.Rules, err = p.rules(); err != nil {
			return opt, fmt.Errorf("%s: %w", p.Name, err)
		}
	}
	opt.RulesKey = p.Canonical()
	return opt, nil
}

// limitRules is the joint-limit table in the ragdoll package's terms
// (radians); nil when the profile has none.
func (b Bodies) limitRules() []ragdoll.LimitRule {
	var out []ragdoll.LimitRule
	for _, r := range b.JointLimits {
		out = append(out, ragdoll.LimitRule{Name: r.Name, Patterns: slices.Clone(r.Bones), Limit: ragdoll.Limit{
			Swing1: r.Swing1 * math.Pi / 180, Swing2: r.Swing2 * math.Pi / 180, Twist: r.Twist * math.Pi / 180}})
	}
	return out
}

// spec resolves the mass section (nothing set: the generator's default
// density).
func (m Mass) spec() (generate.Mass, error) {
	if m.Material != "" {
		d, err := mass.Density(m.Material)
		return generate.Mass{Density: d}, err
	}
	return generate.Mass{Density: m.Density, Mass: m.Total}, nil
}

// rules compiles the rules into the function generate asks per mesh
// instance: the first matching rule's settings over the profile's
// colliders section, with the rule's motion and mass for the instance's
// body; an instance no rule matches gets the section's hull caps only.
// The function fails with ctx's error once ctx is done (checked before
// each rule), and with the rule's name when its nameRegex would cost
// more than regexcost.MaxCost to match against the node's name.
func (p *Profile) rules() (func(context.Context, generate.NodeInfo) (generate.PartSettings, bool, error), error) {
	var base generate.PartSettings
	copyColliders(reflect.ValueOf(&base).Elem(), p.Colliders, func(s Setting) bool { return s.PerInstance })
	rules := p.Rules
	masses := make([]generate.Mass, len(rules))
	for i, r := range rules {
		if r.Mass == nil {
			continue
		}
		var err error
		if masses[i], err = r.Mass.spec(); err != nil {
			return nil, fmt.Errorf("rule %q: mass: %w", r.Name, err)
		}
	}
	return func(ctx context.Context, n generate.NodeInfo) (generate.PartSettings, bool, error) {
		for i, r := range rules {
			if err := ctx.Err(); err != nil {
				return base, false, err
			}
			if ok, err := r.Match.matches(n); err != nil {
				return base, false, fmt.Errorf("rule %q: nameRegex %s: nodes[%d] (a name of %d bytes): %w", r.Name, Excerpt(r.Match.NameRegex), n.Node, len(n.Name), err)
			} else if !ok {
				continue
			}
			s := base
			s.Rule = r.Name
			s.Trigger = r.Trigger
			s.Motion, s.Mass = physics.MotionType(r.Motion), masses[i]
			copyColliders(reflect.ValueOf(&s).Elem(), r.Set, func(Setting) bool { return true })
			return s, true, nil
		}
		return base, base != generate.PartSettings{}, nil
	}, nil
}

// matches says whether every criterion of m holds for n; the regular
// expression, the costly one, is matched last and may refuse the match
// for its cost (a *regexcost.CostError).
func (m *Match) matches(n generate.NodeInfo) (bool, error) {
	glob := func(pattern, s string) bool {
		ok, _ := path.Match(pattern, s) // checked when decoded
		return ok
	}
	switch {
	case m.Name != "" && !glob(m.Name, n.Name),
		m.Mesh != "" && !glob(m.Mesh, n.Mesh),
		m.Path != "" && !glob(m.Path, n.Path),
		m.File != "" && !glob(m.File, lastSegments(n.File, strings.Count(m.File, "/")+1)):
		return false, nil
	}
	if m.ExtrasKey != "" {
		if _, ok := n.Extras[m.ExtrasKey]; !ok {
			return false, nil
		}
	}
	for k, want := range m.Extras {
		v, ok := n.Extras[k]
		if !ok || extrasText(v) != want {
			return false, nil
		}
	}
	size := max(n.Size[0], n.Size[1], n.Size[2])
	if !m.Size.holds(size) || !m.Triangles.holds(float64(n.Triangles)) {
		return false, nil
	}
	if m.nameRe == nil {
		return true, nil
	}
	return m.nameRe.MatchString(n.Name)
}

// lastSegments is the last n segments of a slash-separated path (all of
// them when it has fewer).
func lastSegments(p string, n int) string {
	segs := strings.Split(p, "/")
	return strings.Join(segs[max(len(segs)-n, 0):], "/")
}

// extrasText writes a decoded JSON value as a profile writes it.
func extrasText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(v)
}

func (r *Range) holds(x float64) bool {
	return r == nil || x >= r.Min && (r.Max == 0 || x <= r.Max)
}
