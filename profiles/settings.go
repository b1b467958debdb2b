package profiles

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/autocollide/autocollide/generate"
)

// Type is how a setting's value is written and checked.
type Type int

// The types of settings.
const (
	Whole  Type = iota // a whole number in [Min, Max]
	Number             // a finite number in [Min, Max]
	Choice             // one of Choices
	Switch             // true or false
)

// Setting is one row of the settings table: a setting that a profile
// (and, in the colliders section, a rule), a command-line flag, an
// AUTOCOLLIDE_* environment variable and a project file may each give,
// decoded and range-checked in one place, so that no two sources can
// disagree on what they accept.
type Setting struct {
	// Key is the YAML key, in Section ("colliders", whose keys a rule
	// may also set; "" for the top level).
	Key, Section string
	// Flag is the command-line flag, also the project file's key and,
	// upper-cased, the environment variable's name (Env).
	Flag string
	// Older is an older key (and flag) that sets the same setting.
	Older, OlderFlag string
	Type             Type
	// Min and Max bound a Whole or Number setting (Max +Inf: none).
	Min, Max float64
	// Noun is what a Number is, in messages ("a fraction").
	Noun string
	// Default is the value every profile starts from (an int, float64,
	// string or bool by Type); nil leaves the field zero, which means the
	// generator's own default.
	Default any
	// Doc is the line the README's table and the flag's help give.
	Doc string
	// Fingerprint says the setting enters the options' fingerprint
	// (generate.Options' JSON, which caches and output records hash).
	Fingerprint bool
	// PerInstance says the setting reaches generate through the rules
	// only (generate.PartSettings), never asset-wide: then it passes
	// over the mesh instances that artists' Unreal names decide.
	PerInstance bool

	// field names the Go field in Profile or Colliders, in
	// generate.ColliderSettings and in generate.PartSettings.
	field   string
	choices func() []string
}

// settings is the table. A new setting is a row here, a field in
// Colliders (or Profile) and, for a colliders setting, in
// generate.ColliderSettings and generate.PartSettings, plus its use.
var settings = []Setting{
	{Key: "format", Flag: "format", Type: Choice, Default: "omi", Fingerprint: true, field: "Format", choices: Formats,
		Doc: "what to write: a physics extension family or engine names (a file that carries physics keeps its family)"},
	{Key: "khrGeometry", Flag: "khr-geometry", Type: Choice, Default: "mesh", Fingerprint: true, field: "KHRGeometry", choices: func() []string { return geometries },
		Doc: "KHR collider geometry form: mesh (the 2026 revision, what current readers read) or node (the 2025 revision)"},
	{Key: "namingConventions", Flag: "naming-conventions", Type: Switch, Default: true, Fingerprint: true, field: "NamingConventions",
		Doc: "honour artists' collider naming conventions (UCX_, -col, ...)"},
	{Key: "method", Section: "colliders", Flag: "method", Type: Choice, Default: "auto", Fingerprint: true, field: "Method", choices: Methods,
		Doc: "collider method"},
	{Key: "maxHullVertices", Section: "colliders", Flag: "max-hull-vertices", Type: Whole, Min: 4, Max: math.Inf(1), Default: 255, Fingerprint: true, field: "MaxHullVertices",
		Doc: "cap on each convex hull's vertices"},
	{Key: "maxHullFaces", Section: "colliders", Flag: "max-hull-faces", Type: Whole, Min: 4, Max: math.Inf(1), Fingerprint: true, PerInstance: true, field: "MaxHullFaces",
		Doc: "cap on each convex hull's faces (polygons); none by default"},
	{Key: "maxHullTriangles", Section: "colliders", Flag: "max-hull-triangles", Type: Whole, Min: 4, Max: math.Inf(1), Fingerprint: true, PerInstance: true, field: "MaxHullTriangles",
		Doc: "cap on each convex hull's triangles (Unity: 255); none by default"},
	{Key: "maxColliders", Section: "colliders", Flag: "max-colliders", Older: "maxHulls", OlderFlag: "max-hulls", Type: Whole, Min: MinColliders, Max: MaxColliders, Default: 8, Fingerprint: true, field: "MaxColliders",
		Doc: "auto, decompose: cap on the colliders per mesh instance, whatever their type"},
	{Key: "concavity", Section: "colliders", Flag: "concavity", Type: Number, Min: 1e-6, Max: 1, Noun: "a fraction", Fingerprint: true, field: "Concavity",
		Doc: "decompose: largest concavity a hull may keep, as a fraction of the part's size (generator's default 0.05)"},
	{Key: "absConcavity", Section: "colliders", Flag: "abs-concavity", Type: Number, Min: 1e-6, Max: maxDimensions, Noun: "a length in metres", Fingerprint: true, field: "AbsConcavity",
		Doc: "decompose: concavity in metres a hull may keep whatever the part's size (none by default)"},
	{Key: "autoTolerance", Section: "colliders", Flag: "auto-tolerance", Type: Number, Min: 1e-6, Max: 10, Noun: "a fraction", Fingerprint: true, field: "AutoTolerance",
		Doc: "auto: how much larger than the mesh a primitive or hull may be (generator's default 0.15)"},
	{Key: "hullFill", Section: "colliders", Flag: "hull-fill", Type: Number, Min: 1e-6, Max: 1, Noun: "a fraction", Fingerprint: true, field: "HullFill",
		Doc: "auto: how much of its hull a mesh must fill to get a single hull (generator's default 0.9)"},
	{Key: "searchTriangles", Section: "colliders", Flag: "search-triangles", Type: Whole, Min: 100, Max: 1e6, Fingerprint: true, field: "SearchTriangles",
		Doc: "decompose, auto: a mesh of more than twice this many triangles has its cuts searched on a proxy of about this many; smaller is faster and looser (generator's default 8000, auto's 1500)"},
	{Key: "gapSlack", Section: "colliders", Flag: "gap-slack", Type: Number, Min: 1e-6, Max: 10, Noun: "a fraction", Default: 0.2, Fingerprint: true, field: "GapSlack",
		Doc: "decompose, auto: fewer colliders than maxColliders while the mean distance from the hulls' outer surface (where no other hull covers it) to the mesh stays within 1 + this of the unbudgeted decomposition's (1e-6: merge only where it does not grow)"},
}

// Settings returns the settings table, in its order.
func Settings() []Setting { return append([]Setting(nil), settings...) }

// FlagSetting returns the setting a flag (or its older name) sets.
func FlagSetting(flag string) (Setting, bool) {
	for _, s := range settings {
		if s.Flag == flag || s.OlderFlag == flag && flag != "" {
			return s, true
		}
	}
	return Setting{}, false
}

// keySetting returns the setting of a key (or its older name) in section.
func keySetting(section, key string) (Setting, bool) {
	for _, s := range settings {
		if s.Section == section && (s.Key == key || s.Older == key && key != "") {
			return s, true
		}
	}
	return Setting{}, false
}

// sectionKeys are the keys of a section's settings, older names after.
func sectionKeys(section string) []string {
	var keys, older []string
	for _, s := range settings {
		if s.Section == section {
			keys = append(keys, s.Key)
			if s.Older != "" {
				older = append(older, s.Older)
			}
		}
	}
	return append(keys, older...)
}

// Env is the environment variable that gives the setting.
func (s Setting) Env() string {
	return "AUTOCOLLIDE_" + strings.ToUpper(strings.ReplaceAll(s.Flag, "-", "_"))
}

// Choices lists a Choice setting's values.
func (s Setting) Choices() []string {
	if s.choices == nil {
		return nil
	}
	return s.choices()
}

// Path is the setting's dotted YAML path in a profile.
func (s Setting) Path() string {
	if s.Section == "" {
		return s.Key
	}
	return s.Section + "." + s.Key
}

// Want says what the setting accepts, as messages ask for it: "a whole
// number from 1 to 1024", "one of mesh, node".
func (s Setting) Want() string {
	switch s.Type {
	case Whole:
		if math.IsInf(s.Max, 1) {
			return fmt.Sprintf("a whole number of at least %.0f", s.Min)
		}
		return fmt.Sprintf("a whole number from %.0f to %.0f", s.Min, s.Max)
	case Number:
		noun := s.Noun
		if noun == "" {
			noun = "a number"
		}
		return fmt.Sprintf("%s from %g to %g", noun, s.Min, s.Max)
	case Switch:
		return "true or false"
	}
	return "one of " + strings.Join(s.Choices(), ", ")
}

// inRange says whether a number is within the setting's bounds (NaN is
// not).
func (s Setting) inRange(f float64) bool { return f >= s.Min && f <= s.Max }

// Parse reads the setting's value from text (a flag, an environment
// variable, a project file): an int, float64, string or bool by Type,
// or an error saying what the setting wants.
func (s Setting) Parse(text string) (any, error) {
	bad := fmt.Errorf("want %s", s.Want())
	switch s.Type {
	case Whole:
		n, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil || !s.inRange(float64(n)) {
			return nil, bad
		}
		return n, nil
	case Number:
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || !s.inRange(f) {
			return nil, bad
		}
		return f, nil
	case Switch:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, bad
		}
		return b, nil
	}
	if !contains(s.Choices(), text) {
		return nil, fmt.Errorf("%v%s", bad, typo(text, s.Choices()))
	}
	return text, nil
}

// decode reads the setting's value from a profile document.
func (s Setting) decode(d doc, e entry) (any, error) {
	switch s.Type {
	case Whole:
		n, err := d.integer(e, math.MinInt)
		switch {
		case err != nil:
			return nil, err
		case float64(n) < s.Min:
			return nil, d.errf(e.v, "%s: %d is below %.0f", e.field, n, s.Min)
		case float64(n) > s.Max:
			return nil, d.errf(e.v, "%s: %d is above %.0f", e.field, n, s.Max)
		}
		return n, nil
	case Number:
		return d.number(e, s.Min, s.Max)
	case Switch:
		return d.boolean(e)
	}
	return d.enum(e, s.Choices()...)
}

// Set gives the setting the value text says on the profile, checked as
// a profile's value is (Parse).
func (p *Profile) Set(s Setting, text string) error {
	v, err := s.Parse(text)
	if err != nil {
		return err
	}
	s.set(p, v)
	return nil
}

// set stores a decoded value in the profile's field.
func (s Setting) set(p *Profile, v any) {
	if s.Section == "colliders" {
		s.store(reflect.ValueOf(&p.Colliders).Elem(), v)
		return
	}
	s.store(reflect.ValueOf(p).Elem(), v)
}

// store sets the setting's field of the struct st to v.
func (s Setting) store(st reflect.Value, v any) {
	f := st.FieldByName(s.field)
	f.Set(reflect.ValueOf(v).Convert(f.Type()))
}

// colliderSettings is the asset-wide part of the colliders section, in
// generate's terms (PerInstance settings go through the rules instead).
func (c Colliders) colliderSettings() generate.ColliderSettings {
	var out generate.ColliderSettings
	copyColliders(reflect.ValueOf(&out).Elem(), c, func(s Setting) bool { return !s.PerInstance })
	return out
}

// copyColliders copies each colliders setting keep accepts from c into
// the field of the same name of dst, when it is set (not zero).
func copyColliders(dst reflect.Value, c Colliders, keep func(Setting) bool) {
	src := reflect.ValueOf(c)
	for _, s := range settings {
		if s.Section != "colliders" || !keep(s) {
			continue
		}
		if v := src.FieldByName(s.field); !v.IsZero() {
			f := dst.FieldByName(s.field)
			f.Set(v.Convert(f.Type()))
		}
	}
}

// MarkdownTable is the README's table of settings, made from the table.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| key | flag, environment | values | default | what |\n| --- | --- | --- | --- | --- |\n")
	for _, s := range settings {
		key := "`" + s.Path() + "`"
		flag := "`--" + s.Flag + "`, `" + s.Env() + "`"
		if s.Older != "" {
			key += " (`" + s.Older + "`)"
			flag += " (`--" + s.OlderFlag + "`)"
		}
		values := s.Want()
		def := "–"
		if s.Default != nil {
			def = fmt.Sprint(s.Default)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", key, flag, values, def, s.Doc)
	}
	return b.String()
}

// perInstance says whether the section gives a PerInstance setting.
func (c Colliders) perInstance() bool {
	var base generate.PartSettings
	copyColliders(reflect.ValueOf(&base).Elem(), c, func(s Setting) bool { return s.PerInstance })
	return base != generate.PartSettings{}
}

// Value is the profile's value of a setting: an int, float64, string or
// bool by its Type.
func (p *Profile) Value(s Setting) any {
	st := reflect.ValueOf(p).Elem()
	if s.Section == "colliders" {
		st = st.FieldByName("Colliders")
	}
	f := st.FieldByName(s.field)
	switch s.Type {
	case Whole:
		return int(f.Int())
	case Number:
		return f.Float()
	case Switch:
		return f.Bool()
	}
	return f.String()
}

// Bounds returns values just inside the setting's range (its bounds, a
// choice, true) and just outside it (the next number past each bound, a
// word no choice is; the first and last choices), as text: what a test of every source gives it.
func (s Setting) Bounds() (inside, outside []string) {
	text := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch s.Type {
	case Whole:
		whole := func(f float64) string { return strconv.FormatFloat(f, 'f', 0, 64) }
		inside, outside = []string{whole(s.Min)}, []string{whole(s.Min - 1)}
		if !math.IsInf(s.Max, 1) {
			inside, outside = append(inside, whole(s.Max)), append(outside, whole(s.Max+1))
		}
	case Number:
		inside = []string{text(s.Min), text(s.Max)}
		outside = []string{text(math.Nextafter(s.Min, math.Inf(-1))), text(math.Nextafter(s.Max, math.Inf(1)))}
	case Switch:
		inside, outside = []string{"false", "true"}, []string{"maybe"}
	default:
		c := s.Choices()
		inside, outside = []string{c[0], c[len(c)-1]}, []string{"nope"}
	}
	return inside, outside
}

// Annotated is the profile's canonical text (Canonical) with each
// setting of the table commented with its flag, its environment variable
// and what it accepts: what `profiles show` prints.
func (p *Profile) Annotated() string {
	var root yaml.Node
	text := p.Canonical()
	if err := yaml.Unmarshal([]byte(text), &root); err != nil || len(root.Content) == 0 {
		return text // Canonical's own encoding always decodes
	}
	var note func(m *yaml.Node, section string)
	note = func(m *yaml.Node, section string) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if s, ok := keySetting(section, m.Content[i].Value); ok && m.Content[i+1].Kind == yaml.ScalarNode {
				m.Content[i+1].LineComment = fmt.Sprintf("--%s, %s: %s", s.Flag, s.Env(), s.Want())
			} else if section == "" && m.Content[i].Value == "colliders" && m.Content[i+1].Kind == yaml.MappingNode {
				note(m.Content[i+1], "colliders")
			}
		}
	}
	note(root.Content[0], "")
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return text
	}
	enc.Close()
	return b.String()
}
