package profiles

import (
	"fmt"
	"math"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/mass"
	"go.yaml.in/yaml/v3"
)

// The keys of each section.
var (
	topKeys       = []string{"extends", "format", "khrGeometry", "namingConventions", "bodies", "motion", "mass", "physicsMaterial", "filter", "trigger", "colliders", "rules"}
	bodiesKeys    = []string{"per", "pattern", "overlapping", "minWeightShare", "minSize", "assign", "weightThreshold", "jointLimits"}
	limitKeys     = []string{"name", "bones", "swing1", "swing2", "twist"}
	massKeys      = []string{"density", "material", "total"}
	materialKeys  = []string{"staticFriction", "dynamicFriction", "restitution", "frictionCombine", "restitutionCombine"}
	filterKeys    = []string{"systems", "collideWith", "notCollideWith"}
	colliderKeys  = sectionKeys("colliders")
	ruleKeys      = append([]string{"name", "match", "trigger", "motion", "mass"}, colliderKeys...)
	matchKeys     = []string{"name", "nameRegex", "mesh", "path", "file", "extrasKey", "extras", "size", "triangles"}
	rangeKeys     = []string{"min", "max"}
	inf           = math.Inf(1)
	maxDimensions = 1e7 // metres: far beyond any asset, catches unit slips
)

// apply sets what one document's top-level keys say over p. Sections
// merge key by key over what the extended profile set, except mass and
// filter, whose keys exclude each other and are replaced as a whole; a
// document's rules come before those of the profile it extends.
func (p *Profile) apply(d doc, top []entry) error {
	for _, e := range top {
		p.at[e.key] = d.where(e.v)
		var err error
		switch e.key {
		case "extends":
		case "format", "khrGeometry", "namingConventions":
			s, _ := keySetting("", e.key)
			var v any
			if v, err = s.decode(d, e); err == nil {
				s.set(p, v)
			}
		case "bodies":
			err = p.applyBodies(d, e)
		case "motion":
			p.Motion, err = d.enum(e, motions...)
		case "mass":
			err = p.applyMass(d, e)
		case "physicsMaterial":
			err = p.applyMaterial(d, e)
		case "filter":
			err = p.applyFilter(d, e)
		case "trigger":
			p.Trigger, err = d.boolean(e)
		case "colliders":
			var ents []entry
			if ents, err = d.mapping(e.v, e.field, colliderKeys); err == nil {
				err = p.Colliders.apply(d, ents, p.at)
			}
		case "rules":
			err = p.applyRules(d, e)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *Profile) applyBodies(d doc, e entry) error {
	ents, err := d.mapping(e.v, e.field, bodiesKeys)
	if err != nil {
		return err
	}
	for _, b := range ents {
		p.at[b.field] = d.where(b.v)
		switch b.key {
		case "per":
			p.Bodies.Per, err = d.enum(b, bodyModes...)
		case "pattern":
			p.Bodies.pattern, p.Bodies.Pattern, err = d.regex(b)
		case "overlapping":
			p.Bodies.Overlapping, err = d.enum(b, overlapRules...)
		case "minWeightShare":
			p.Bodies.MinWeightShare, err = d.number(b, 0, 1)
		case "minSize":
			p.Bodies.MinSize, err = d.number(b, 0, 1)
		case "assign":
			p.Bodies.Assign, err = d.enum(b, assignments...)
		case "weightThreshold":
			p.Bodies.WeightThreshold, err = d.number(b, 1e-3, 1)
		case "jointLimits":
			err = p.applyJointLimits(d, b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// applyJointLimits puts a document's joint-limit rules before those of
// the profile it extends: the first matching rule wins, so they override.
func (p *Profile) applyJointLimits(d doc, e entry) error {
	if e.v.Kind != yaml.SequenceNode || len(e.v.Content) == 0 {
		return d.errf(e.v, "%s: want a list of rules (name, bones, swing1, swing2, twist), got %s", e.field, kindName(e.v))
	}
	if total := len(e.v.Content) + len(p.Bodies.JointLimits); total > MaxRules {
		return d.errf(e.v, "%s: %d rules (with those extended), over the limit of %d", e.field, total, MaxRules)
	}
	var rules []JointLimit
	for i, n := range e.v.Content {
		r, err := decodeJointLimit(d, n, fmt.Sprintf("%s[%d]", e.field, i))
		if err != nil {
			return err
		}
		rules = append(rules, r)
	}
	p.Bodies.JointLimits = append(rules, p.Bodies.JointLimits...)
	return nil
}

// decodeJointLimit reads one rule; every key is required.
func decodeJointLimit(d doc, n *yaml.Node, section string) (JointLimit, error) {
	var r JointLimit
	ents, err := d.mapping(n, section, limitKeys)
	if err != nil {
		return r, err
	}
	for _, x := range ents {
		switch x.key {
		case "name":
			r.Name, err = d.str(x)
		case "bones":
			if r.Bones, err = d.strs(x); err == nil {
				for _, g := range r.Bones {
					if _, perr := path.Match(strings.ToLower(g), ""); perr != nil {
						err = d.errf(x.v, "%s: bad glob %s: %v", x.field, Excerpt(g), perr)
						break
					}
				}
			}
		case "swing1":
			r.Swing1, err = d.number(x, 0, 180)
		case "swing2":
			r.Swing2, err = d.number(x, 0, 180)
		case "twist":
			r.Twist, err = d.number(x, 0, 180)
		}
		if err != nil {
			return r, err
		}
	}
	if len(ents) < len(limitKeys) {
		var missing []string
		for _, k := range limitKeys {
			if !slices.ContainsFunc(ents, func(x entry) bool { return x.key == k }) {
				missing = append(missing, k)
			}
		}
		return r, d.errf(n, "%s: %s missing (a rule gives name, bones, swing1, swing2 and twist, in degrees)", section, strings.Join(missing, ", "))
	}
	return r, nil
}

func (p *Profile) applyMass(d doc, e entry) error {
	m, err := decodeMass(d, e)
	if err == nil {
		p.Mass = m
	}
	return err
}

// decodeMass reads a mass section, the profile's or a rule's: one of
// density, material and total.
func decodeMass(d doc, e entry) (Mass, error) {
	var m Mass
	ents, err := d.mapping(e.v, e.field, massKeys)
	if err != nil {
		return m, err
	}
	if len(ents) > 1 {
		return m, d.errf(ents[1].k, "%s: give only one of density, material and total", e.field)
	}
	for _, x := range ents {
		switch x.key {
		case "density":
			m.Density, err = d.number(x, 1e-3, 1e6)
		case "total":
			m.Total, err = d.number(x, 1e-6, 1e9)
		case "material":
			if m.Material, err = d.str(x); err == nil {
				if _, merr := mass.Density(m.Material); merr != nil {
					err = d.errf(x.v, "%s: unknown material %s%s", x.field, Excerpt(m.Material), suggest(m.Material, mass.Materials()))
				}
			}
		}
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

func (p *Profile) applyMaterial(d doc, e entry) error {
	ents, err := d.mapping(e.v, e.field, materialKeys)
	if err != nil {
		return err
	}
	if p.PhysicsMaterial == nil {
		p.PhysicsMaterial = &PhysicsMaterial{}
	}
	m := p.PhysicsMaterial
	num := func(x entry, max float64) (*float64, error) {
		f, err := d.number(x, 0, max)
		return &f, err
	}
	for _, x := range ents {
		switch x.key {
		case "staticFriction":
			m.StaticFriction, err = num(x, inf)
		case "dynamicFriction":
			m.DynamicFriction, err = num(x, inf)
		case "restitution":
			m.Restitution, err = num(x, 1)
		case "frictionCombine":
			m.FrictionCombine, err = d.enum(x, combines...)
		case "restitutionCombine":
			m.RestitutionCombine, err = d.enum(x, combines...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *Profile) applyFilter(d doc, e entry) error {
	ents, err := d.mapping(e.v, e.field, filterKeys)
	if err != nil {
		return err
	}
	f := &Filter{}
	for _, x := range ents {
		switch x.key {
		case "systems":
			f.Systems, err = d.strs(x)
		case "collideWith":
			f.CollideWith, err = d.strs(x)
		case "notCollideWith":
			f.NotCollideWith, err = d.strs(x)
		}
		if err != nil {
			return err
		}
	}
	switch {
	case f.Systems == nil:
		return d.errf(e.k, "filter: systems is missing (the systems the colliders belong to)")
	case f.CollideWith != nil && f.NotCollideWith != nil:
		return d.errf(e.k, "filter: give only one of collideWith and notCollideWith")
	}
	p.Filter = f
	return nil
}

// apply sets the collider keys given; at records their positions.
func (c *Colliders) apply(d doc, ents []entry, at map[string]string) error {
	var err error
	for _, x := range ents {
		if at != nil {
			at[x.field] = d.where(x.v)
		}
		s, _ := keySetting("colliders", x.key)
		if x.key == s.Older && slices.ContainsFunc(ents, func(y entry) bool { return y.key == s.Key }) {
			// One setting under two names: a profile extending another
			// overrides it by either, but one section gives it once.
			return d.errf(x.k, "%s: give only one of %s and %s (its older name)", x.field, s.Key, s.Older)
		}
		var v any
		if v, err = s.decode(d, x); err == nil {
			s.store(reflect.ValueOf(c).Elem(), v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *Profile) applyRules(d doc, e entry) error {
	if e.v.Kind != yaml.SequenceNode {
		return d.errf(e.v, "rules: want a list of rules, got %s", kindName(e.v))
	}
	if total := len(e.v.Content) + len(p.Rules); total > MaxRules {
		return d.errf(e.v, "rules: %d rules (with those extended), over the limit of %d", total, MaxRules)
	}
	var rules []Rule
	for i, n := range e.v.Content {
		r, err := decodeRule(d, n, fmt.Sprintf("rules[%d]", i))
		if err != nil {
			return err
		}
		if r.Name == "" {
			r.Name = fmt.Sprintf("%s rule %d", d.file, i+1)
		}
		if r.Set.Method == "trimesh" && r.Motion != "static" {
			p.at["trimesh"] = d.where(n)
		}
		rules = append(rules, r)
	}
	p.Rules = append(rules, p.Rules...)
	return nil
}

func decodeRule(d doc, n *yaml.Node, section string) (Rule, error) {
	var r Rule
	ents, err := d.mapping(n, section, ruleKeys)
	if err != nil {
		return r, err
	}
	var set []entry
	for _, x := range ents {
		switch x.key {
		case "name":
			r.Name, err = d.str(x)
		case "trigger":
			r.Trigger, err = d.boolean(x)
		case "match":
			r.Match, err = decodeMatch(d, x)
		case "motion":
			r.Motion, err = d.enum(x, motions...)
		case "mass":
			var m Mass
			if m, err = decodeMass(d, x); err == nil && m == (Mass{}) {
				err = d.errf(x.v, "%s: give one of density, material and total", x.field)
			}
			r.Mass = &m
		default:
			set = append(set, x)
		}
		if err != nil {
			return r, err
		}
	}
	if err := r.Set.apply(d, set, nil); err != nil {
		return r, err
	}
	if r.Set.Method == "trimesh" && (r.Motion == "kinematic" || r.Motion == "dynamic") {
		return r, d.errf(n, "%s: method trimesh needs motion: static (the rule's motion is %s); use hull or decompose", section, r.Motion)
	}
	if r.Set == (Colliders{}) && !r.Trigger && r.Motion == "" && r.Mass == nil {
		return r, d.errf(n, "%s: the rule sets nothing (give a method, a parameter, trigger, motion or mass)", section)
	}
	return r, nil
}

func decodeMatch(d doc, e entry) (Match, error) {
	var m Match
	ents, err := d.mapping(e.v, e.field, matchKeys)
	if err != nil {
		return m, err
	}
	glob := func(x entry) (string, error) {
		s, err := d.str(x)
		if err == nil {
			if _, perr := path.Match(s, ""); perr != nil {
				err = d.errf(x.v, "%s: bad glob %s: %v", x.field, Excerpt(s), perr)
			}
		}
		return s, err
	}
	for _, x := range ents {
		switch x.key {
		case "name":
			m.Name, err = glob(x)
		case "nameRegex":
			m.nameRe, m.NameRegex, err = d.matcher(x)
		case "mesh":
			m.Mesh, err = glob(x)
		case "path":
			m.Path, err = glob(x)
		case "file":
			m.File, err = glob(x)
		case "extrasKey":
			m.ExtrasKey, err = d.str(x)
		case "extras":
			m.Extras, err = decodeExtras(d, x)
		case "size":
			m.Size, err = decodeRange(d, x, maxDimensions, false)
		case "triangles":
			m.Triangles, err = decodeRange(d, x, 1e12, true)
		}
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

func decodeExtras(d doc, e entry) (map[string]string, error) {
	if e.v.Kind != yaml.MappingNode || len(e.v.Content) == 0 {
		return nil, d.errf(e.v, "%s: want a mapping of extras keys to values, got %s", e.field, kindName(e.v))
	}
	out := map[string]string{}
	for i := 0; i+1 < len(e.v.Content); i += 2 {
		k, v := e.v.Content[i], e.v.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return nil, d.errf(k, "%s: want key: value with a plain value", e.field)
		}
		if _, dup := out[k.Value]; dup {
			return nil, d.errf(k, "%s.%s: key given twice", e.field, k.Value)
		}
		out[k.Value] = v.Value
	}
	return out, nil
}

func decodeRange(d doc, e entry, limit float64, whole bool) (*Range, error) {
	ents, err := d.mapping(e.v, e.field, rangeKeys)
	if err != nil {
		return nil, err
	}
	if len(ents) == 0 {
		return nil, d.errf(e.v, "%s: give min, max or both", e.field)
	}
	r := &Range{}
	for _, x := range ents {
		var f float64
		if whole {
			var n int
			n, err = d.integer(x, 0)
			f = float64(n)
		} else {
			f, err = d.number(x, 0, limit)
		}
		if err != nil {
			return nil, err
		}
		if x.key == "min" {
			r.Min = f
		} else {
			if f == 0 {
				return nil, d.errf(x.v, "%s: max 0 matches nothing", x.field)
			}
			r.Max = f
		}
	}
	if r.Max != 0 && r.Min > r.Max {
		return nil, d.errf(e.v, "%s: min %v is above max %v", e.field, r.Min, r.Max)
	}
	return r, nil
}

// check validates what only the resolved profile can tell.
func (p *Profile) check() error {
	switch {
	case p.Bodies.Per == "pattern" && p.Bodies.Pattern == "":
		return p.errAt("bodies.per", "bodies: per: pattern needs a pattern (a regular expression on node names)")
	case p.Bodies.Per != "pattern" && p.Bodies.Pattern != "":
		return p.errAt("bodies.pattern", "bodies: a pattern is used only with per: pattern (per is %s)", p.Bodies.Per)
	case p.Bodies.Per != "bone" && p.Bodies.ragdoll():
		return p.errAt("bodies.per", "bodies: minWeightShare, minSize, assign and weightThreshold are used only with per: bone (per is %s)", p.Bodies.Per)
	case p.Bodies.Per == "bone" && p.Motion != "dynamic":
		return p.errAt("motion", "bodies: per: bone makes ragdolls, whose bodies are dynamic (motion is %s)", p.Motion)
	case p.Bodies.JointLimits != nil && !slices.ContainsFunc(p.Bodies.JointLimits, func(r JointLimit) bool { return slices.Contains(r.Bones, "*") }):
		return p.errAt("bodies.jointLimits", "bodies.jointLimits: no rule for every bone: end the table with one whose bones are \"*\"")
	}
	if p.Motion != "static" {
		if p.Colliders.Method == "trimesh" {
			return p.errAt("colliders.method", "colliders.method: trimesh colliders need motion: static (motion is %s); use hull or decompose", p.Motion)
		}
		if p.at["trimesh"] != "" {
			return p.errAt("trimesh", "a rule sets method trimesh, which needs motion: static (motion is %s); use hull or decompose", p.Motion)
		}
	}
	if m := p.PhysicsMaterial; m != nil && m.StaticFriction != nil && m.DynamicFriction != nil && *m.DynamicFriction > *m.StaticFriction {
		return p.errAt("physicsMaterial", "physicsMaterial: dynamicFriction %v is above staticFriction %v", *m.DynamicFriction, *m.StaticFriction)
	}
	return nil
}
