// Package profiles defines autocollide's YAML profiles: the settings a
// studio keeps per kind of asset (props, level geometry, characters,
// vehicles, pickups). Presets are embedded in the binary; a profile file
// may extend a preset or another file. Documents are decoded strictly: an
// unknown or misspelled key, a wrong type, a value out of range, an
// unknown preset, a circular extends or a bad regular expression is an
// error naming file:line:column, with a suggestion when one is close.
//
// A resolved Profile turns into generate.Options with Options; its rules
// become Options.Rules, and its canonical text (Canonical) is
// Options.RulesKey, so caches tell profiles apart.
package profiles

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/autocollide/autocollide/enginenames"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/regexcost"
	"github.com/autocollide/autocollide/safefile"
)

// Limits on a profile, so that a hostile one is refused before it costs
// memory: real profiles are a few kilobytes with tens of rules.
const (
	// MaxFileSize bounds a profile file (and each file it extends): 1 MiB.
	MaxFileSize = 1 << 20
	// MaxRules bounds the rules of a profile, its extends chain included.
	MaxRules = 1000
)

//go:embed presets/*.yaml
var presets embed.FS

// Profile is a resolved set of generation settings: its extends chain
// applied, every value checked. The yaml tags give the canonical text.
type Profile struct {
	// Name is the preset name or the file the profile came from.
	Name string `yaml:"-"`
	// Format is what to write (Formats): an extension family, "omi" or
	// "khr", or engine names, "unreal" or "godot-names"; KHRGeometry the KHR collider geometry form: "mesh" or "node".
	Format      string `yaml:"format"`
	KHRGeometry string `yaml:"khrGeometry"`
	// NamingConventions turns on the artists' naming conventions
	// (UCX_/UBX_/USP_/UCP_ prefixes, Godot -col/-convcol suffixes, ...).
	NamingConventions bool   `yaml:"namingConventions"`
	Bodies            Bodies `yaml:"bodies"`
	// Motion is the motion type of generated bodies: "static",
	// "kinematic" or "dynamic".
	Motion string `yaml:"motion"`
	Mass   Mass   `yaml:"mass,omitempty"`
	// PhysicsMaterial and Filter, when set, go on every generated
	// collider.
	PhysicsMaterial *PhysicsMaterial `yaml:"physicsMaterial,omitempty"`
	Filter          *Filter          `yaml:"filter,omitempty"`
	// Trigger makes every generated collider a trigger.
	Trigger   bool      `yaml:"trigger"`
	Colliders Colliders `yaml:"colliders"`
	// Rules are tried in order for each mesh instance; the first that
	// matches sets its collider settings.
	Rules []Rule `yaml:"rules,omitempty"`

	// at records where each setting was last given, for errors found once
	// the chain is resolved.
	at map[string]string
	// regexUsed is the regular expression budget its documents spent.
	regexUsed int
}

// Bodies says which nodes become rigid bodies.
type Bodies struct {
	// Per is "root" (each scene root holding geometry), "node" (each
	// node with a mesh), "file" (one body for the whole scene) or
	// "pattern" (each node whose name matches Pattern, a regular
	// expression; geometry outside every match falls back to "root").
	Per     string `yaml:"per"`
	Pattern string `yaml:"pattern,omitempty"`
	// Overlapping says what becomes of dynamic bodies whose colliders
	// overlap at rest: "merge" (the default, also when empty) or "warn".
	Overlapping string `yaml:"overlapping,omitempty"`
	// With per: bone (a ragdoll of each skinned mesh), a bone gets a body
	// when its share of the skin's weight reaches MinWeightShare and its
	// vertices' size MinSize of the skin's (0: package ragdoll's
	// defaults); Assign gives each vertex to its "dominant" bone or to
	// every bone whose share reaches WeightThreshold ("threshold").
	MinWeightShare  float64 `yaml:"minWeightShare,omitempty"`
	MinSize         float64 `yaml:"minSize,omitempty"`
	Assign          string  `yaml:"assign,omitempty"`
	WeightThreshold float64 `yaml:"weightThreshold,omitempty"`
	// JointLimits is the ragdoll's joint-limit table: each joint takes
	// the rule for its child bone's name and anatomical class
	// (ragdoll.RuleFor: the class's rule, unless a rule not named for a
	// class matches the name). A document's rules come before those of the profile it
	// extends, so it can override any; the table must hold a rule for
	// every bone ("*"). Empty: one 30° cone and ±20° twist for every
	// joint (ragdoll.DefaultLimits).
	JointLimits []JointLimit `yaml:"jointLimits,omitempty"`

	pattern *regexp.Regexp
}

// JointLimit is one rule of a ragdoll's joint-limit table: the joints
// whose child bone's name matches one of Bones (path.Match globs,
// compared case-insensitively) may swing Swing1 degrees either way about
// the joint frame's X axis and Swing2 about its Z axis (an elliptic cone
// around the bone, +Y), and twist Twist degrees either way about Y, from
// the rest pose. Each angle is in [0, 180].
type JointLimit struct {
	Name   string   `yaml:"name"`
	Bones  []string `yaml:"bones,flow"`
	Swing1 float64  `yaml:"swing1"`
	Swing2 float64  `yaml:"swing2"`
	Twist  float64  `yaml:"twist"`
}

// Mass says how heavy dynamic bodies are: at most one of Density (kg/m³),
// Material (a named density: oak, steel, ...) and Total (kg per body).
// None set: 1000 kg/m³.
type Mass struct {
	Density  float64 `yaml:"density,omitempty"`
	Material string  `yaml:"material,omitempty"`
	Total    float64 `yaml:"total,omitempty"`
}

// PhysicsMaterial is the surface of generated colliders.
type PhysicsMaterial struct {
	StaticFriction     *float64 `yaml:"staticFriction,omitempty"`
	DynamicFriction    *float64 `yaml:"dynamicFriction,omitempty"`
	Restitution        *float64 `yaml:"restitution,omitempty"`
	FrictionCombine    string   `yaml:"frictionCombine,omitempty"`
	RestitutionCombine string   `yaml:"restitutionCombine,omitempty"`
}

// Filter is the collision filter of generated colliders: the systems
// they belong to, and either the systems they collide with or those they
// do not.
type Filter struct {
	Systems        []string `yaml:"systems"`
	CollideWith    []string `yaml:"collideWith,omitempty"`
	NotCollideWith []string `yaml:"notCollideWith,omitempty"`
}

// The range of colliders.maxColliders and of the --max-colliders setting:
// one collider at least; 1024 is sixteen times decompose's default cap,
// past any budget an engine affords one mesh.
const (
	MinColliders = 1
	MaxColliders = 1024
)

// Colliders are the collider settings of a mesh instance. Zero numbers
// mean the generator's defaults.
type Colliders struct {
	// Method is one of Methods (the kinds table's methods).
	Method           string `yaml:"method,omitempty"`
	MaxHullVertices  int    `yaml:"maxHullVertices,omitempty"`
	MaxHullFaces     int    `yaml:"maxHullFaces,omitempty"`
	MaxHullTriangles int    `yaml:"maxHullTriangles,omitempty"`
	// MaxColliders caps the colliders of a mesh instance whatever their
	// type (a part that became a primitive counts once), from
	// MinColliders to MaxColliders. The key maxHulls, its older name,
	// sets it too.
	MaxColliders int     `yaml:"maxColliders,omitempty"`
	Concavity    float64 `yaml:"concavity,omitempty"`
	// AbsConcavity (metres) is a concavity below which decompose never
	// splits a part, whatever its size: the threshold is the larger of it
	// and Concavity times the mesh instance's diagonal.
	AbsConcavity  float64 `yaml:"absConcavity,omitempty"`
	AutoTolerance float64 `yaml:"autoTolerance,omitempty"`
	HullFill      float64 `yaml:"hullFill,omitempty"`
	// SearchTriangles sizes the proxy a decomposition searches its cuts
	// on (generate.ColliderSettings.SearchTriangles).
	SearchTriangles int `yaml:"searchTriangles,omitempty"`
	// GapSlack lets a decomposition merge below maxColliders
	// (generate.ColliderSettings.GapSlack).
	GapSlack float64 `yaml:"gapSlack,omitempty"`
}

// Rule sets the collider settings of the mesh instances it matches, and
// may set their body's motion and mass.
type Rule struct {
	// Name labels the rule in reports (default: rule N).
	Name  string `yaml:"name"`
	Match Match  `yaml:"match"`
	// Set holds the settings; zero fields keep the profile's.
	Set Colliders `yaml:",inline"`
	// Trigger makes the matched instances' colliders triggers.
	Trigger bool `yaml:"trigger,omitempty"`
	// Motion ("static", "kinematic" or "dynamic") and Mass, when set, go
	// to the body of the matched instances, over the profile's motion and
	// mass sections (see generate.PartSettings).
	Motion string `yaml:"motion,omitempty"`
	Mass   *Mass  `yaml:"mass,omitempty"`
}

// Match is what a rule asks of a mesh instance; every criterion given
// must hold (none given matches every instance).
type Match struct {
	// Name is a glob (path.Match) on the node's name, NameRegex a
	// regular expression on it.
	Name      string `yaml:"name,omitempty"`
	NameRegex string `yaml:"nameRegex,omitempty"`
	// Mesh is a glob on the mesh's name.
	Mesh string `yaml:"mesh,omitempty"`
	// Path is a glob on the node's path from its scene root
	// ("Truck/Body/Wheel_FL"; * stops at /).
	Path string `yaml:"path,omitempty"`
	// File is a glob on the asset's path, matched against as many of its
	// last segments as the glob has ("props/chair.glb" matches
	// assets/props/chair.glb): a rule for one asset (what `autocollide
	// review` keeps).
	File string `yaml:"file,omitempty"`
	// ExtrasKey requires the node's extras to have that key; Extras
	// requires each key to have that value (compared as text).
	ExtrasKey string            `yaml:"extrasKey,omitempty"`
	Extras    map[string]string `yaml:"extras,omitempty"`
	// Size bounds the largest dimension of the instance's world-space
	// bounding box, in metres; Triangles bounds its triangle count.
	Size      *Range `yaml:"size,omitempty"`
	Triangles *Range `yaml:"triangles,omitempty"`

	nameRe *regexcost.Matcher
}

// Range is an inclusive range; a zero Max is unbounded.
type Range struct {
	Min float64 `yaml:"min,omitempty"`
	Max float64 `yaml:"max,omitempty"`
}

// Values a profile accepts.
var (
	formats    = append(codecs.Families(), enginenames.Families()...)
	geometries = []string{"mesh", "node"}
	bodyModes  = []string{"root", "node", "file", "pattern", "bone"}
	// overlapRules are bodies.overlapping's values.
	overlapRules = []string{"merge", "warn"}
	motions      = []string{"static", "kinematic", "dynamic"}
	methods      = kinds.Methods()
	combines     = []string{"average", "minimum", "maximum", "multiply"}
)

// Formats lists the formats a profile (and generate's --format) accepts:
// the physics codecs' families, then the engine-name formats.
func Formats() []string { return append([]string(nil), formats...) }

// assignments are how a ragdoll gives vertices to bones.
var assignments = []string{"dominant", "threshold"}

// Methods lists the collider methods a profile accepts.
func Methods() []string { return append([]string(nil), methods...) }

// defaults is where every profile starts before its extends chain: the
// same settings as the default preset.
// The settings of the table take their Default there.
func defaults(name string) *Profile {
	p := &Profile{
		Name: name, Bodies: Bodies{Per: "root"}, Motion: "dynamic", Mass: Mass{Density: 1000},
		at: map[string]string{},
	}
	for _, s := range settings {
		if s.Default != nil {
			s.set(p, s.Default)
		}
	}
	return p
}

// Presets returns the names of the embedded presets, sorted.
func Presets() []string {
	entries, _ := presets.ReadDir("presets")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// PresetText returns a preset's YAML as embedded, comments included,
// ready to copy and edit.
func PresetText(name string) ([]byte, error) {
	data, err := presets.ReadFile(path.Join("presets", name+".yaml"))
	if err != nil {
		return nil, unknownPreset(name)
	}
	return data, nil
}

func unknownPreset(name string) error {
	return fmt.Errorf("unknown preset %s%s", Excerpt(name), suggest(name, Presets()))
}

// IsFile says whether a --profile or extends value names a file rather
// than a preset: it contains a slash or ends in .yaml or .yml.
func IsFile(nameOrFile string) bool {
	return strings.ContainsAny(nameOrFile, `/\`) || strings.HasSuffix(nameOrFile, ".yaml") || strings.HasSuffix(nameOrFile, ".yml")
}

// Load returns the preset called nameOrFile ("" is default), or reads
// the profile file of that name when IsFile says it is one.
func Load(nameOrFile string) (*Profile, error) {
	if nameOrFile == "" {
		nameOrFile = "default"
	}
	return load(nameOrFile, nil, nil)
}

// Parse decodes a profile document; name labels its errors, and a file
// it extends is found relative to name's folder.
func Parse(name string, data []byte) (*Profile, error) {
	return resolve(name, data, []string{filepath.Clean(name)})
}

// load reads a preset or file, from is the extends key that asked for it
// (nil at the top) and chain the documents extending it.
func load(nameOrFile string, from *Error, chain []string) (*Profile, error) {
	id := "preset " + nameOrFile
	var data []byte
	var err error
	if IsFile(nameOrFile) {
		id = filepath.Clean(nameOrFile)
		data, err = safefile.ReadFile(nameOrFile, MaxFileSize)
		if err != nil {
			err = fmt.Errorf("%s: %w", nameOrFile, err)
		}
	} else {
		data, err = PresetText(nameOrFile)
	}
	if err != nil {
		if from != nil {
			from.Msg = fmt.Sprintf("extends: %v", err)
			return nil, from
		}
		return nil, err
	}
	for i, c := range chain {
		if c == id {
			from.Msg = fmt.Sprintf("extends: circular: %s → %s", strings.Join(chain[i:], " → "), id)
			return nil, from
		}
	}
	name := nameOrFile
	if !IsFile(nameOrFile) {
		name = "preset " + nameOrFile
	}
	p, err := resolve(name, data, append(chain, id))
	if err != nil {
		return nil, err
	}
	if !IsFile(nameOrFile) {
		p.Name = nameOrFile
	}
	return p, nil
}

// resolve decodes one document over the profile it extends (or the
// defaults) and checks the result.
func resolve(name string, data []byte, chain []string) (*Profile, error) {
	d := doc{file: name, regexUsed: new(int)}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil && err.Error() != "EOF" {
		return nil, yamlSyntax(name, err)
	}
	if len(root.Content) > 0 && !isProfile(name, root.Content[0]) {
		n := root.Content[0]
		return nil, &Error{File: name, Line: n.Line, Column: n.Column, Msg: notProfile}
	}
	var top []entry
	if len(root.Content) > 0 {
		var err error
		if top, err = d.mapping(root.Content[0], "", topKeys); err != nil {
			return nil, err
		}
	}
	p := defaults(name)
	for _, e := range top {
		if e.key != "extends" {
			continue
		}
		parent, err := d.str(e)
		if err != nil {
			return nil, err
		}
		if IsFile(parent) && !filepath.IsAbs(parent) {
			parent = filepath.Join(filepath.Dir(name), parent)
		}
		if !IsFile(name) && IsFile(parent) {
			return nil, d.errf(e.v, "extends: a preset extends presets only, not %s", Excerpt(parent))
		}
		from := &Error{File: name, Line: e.v.Line, Column: e.v.Column}
		if p, err = load(parent, from, chain); err != nil {
			return nil, err
		}
		p.Name = name
	}
	*d.regexUsed = p.regexUsed // the extended files' share
	if err := p.apply(d, top); err != nil {
		return nil, err
	}
	p.regexUsed = *d.regexUsed
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// notProfile is the whole message about a file that is not a profile:
// it may be anything (a key, a password file), so nothing of it is shown.
const notProfile = "not a profile: a profile is a YAML mapping of settings in a .yaml or .yml file (its contents are not shown)"

// isProfile says whether a document is really a profile, whose errors may
// quote short excerpts of it: its top is a mapping and, when it was read
// from a file, the file's name says YAML. A file named otherwise that
// happens to parse (a credentials file, /etc/passwd) is refused without
// quoting any of it.
func isProfile(name string, top *yaml.Node) bool {
	if top.Kind != yaml.MappingNode {
		return false
	}
	if !IsFile(name) {
		return true
	}
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlSyntax places a YAML syntax error at its line; in a file not named
// .yaml or .yml it only says the file is not a profile.
func yamlSyntax(name string, err error) error {
	msg := err.Error()
	var line int
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &line)
		msg = "YAML: " + strings.TrimPrefix(msg, m[0])
	}
	if ext := strings.ToLower(filepath.Ext(name)); IsFile(name) && ext != ".yaml" && ext != ".yml" {
		msg = notProfile
	}
	return &Error{File: name, Line: line, Msg: msg}
}

// Canonical returns the profile's settings as YAML with every key in a
// fixed order: what `profiles show` prints, and the rules key of caches.
func (p *Profile) Canonical() string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	// Plain structs of strings and numbers always encode.
	enc.Encode(p)
	enc.Close()
	return b.String()
}

// errAt is an error at the recorded position of a setting.
func (p *Profile) errAt(key, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if at := p.at[key]; at != "" {
		return errors.New(at + ": " + msg)
	}
	return fmt.Errorf("%s: %s", p.Name, msg)
}

// ragdoll reports whether a ragdoll setting is given.
func (b Bodies) ragdoll() bool {
	return b.MinWeightShare != 0 || b.MinSize != 0 || b.Assign != "" || b.WeightThreshold != 0 || b.JointLimits != nil
}
