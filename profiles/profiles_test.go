package profiles

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

func TestPresetsLoad(t *testing.T) {
	names := Presets()
	for _, want := range []string{"default", "static-level", "character", "vehicle", "pickup", "physx-gpu", "unity", "godot", "khr"} {
		p, err := Load(want)
		if err != nil {
			t.Errorf("preset %s: %v", want, err)
			continue
		}
		if p.Name != want {
			t.Errorf("preset %s: named %q", want, p.Name)
		}
		if _, err := p.Options(); err != nil {
			t.Errorf("preset %s: options: %v", want, err)
		}
	}
	if len(names) < 9 {
		t.Errorf("presets %v: want at least nine", names)
	}
}

// TestDefaultsAreTheDefaultPreset: a profile that extends nothing starts
// from the same settings the default preset spells out.
func TestDefaultsAreTheDefaultPreset(t *testing.T) {
	d, err := Load("default")
	if err != nil {
		t.Fatal(err)
	}
	empty, err := Parse("empty.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Canonical() != empty.Canonical() {
		t.Errorf("default preset:\n%s\nempty profile:\n%s", d.Canonical(), empty.Canonical())
	}
}

// TestPresetSettings checks what each preset is documented to do.
func TestPresetSettings(t *testing.T) {
	get := func(n string) generate.Options {
		p, err := Load(n)
		return mustOptions(t, p, err)
	}
	if o := get("default"); o.Collider.Method != generate.Auto || o.Body.Motion != "dynamic" || o.Encoding.Format != physics.OMI || !o.Body.NamingConventions {
		t.Errorf("default: %+v", o)
	}
	if o := get("khr"); o.Encoding.Format != physics.KHR {
		t.Errorf("khr: format %s", o.Encoding.Format)
	}
	if o := get("character"); o.Collider.Method != generate.Capsule || o.Body.Motion != "kinematic" || o.Body.Mode != generate.BodiesPerFile {
		t.Errorf("character: %+v", o)
	}
	if o := get("pickup"); o.Collider.Method != generate.Sphere || !o.Body.Trigger {
		t.Errorf("pickup: %+v", o)
	}
	if o := get("godot"); o.Encoding.Format != physics.OMI || o.Collider.MaxHullVertices != 255 {
		t.Errorf("godot: %+v", o)
	}
	part := func(o generate.Options, n generate.NodeInfo) generate.PartSettings {
		if o.Rules == nil {
			t.Fatal("no rules")
		}
		s, _, _ := o.Rules(context.Background(), n)
		return s
	}
	if o := get("physx-gpu"); o.Collider.MaxHullVertices != 64 || part(o, generate.NodeInfo{Name: "x"}).MaxHullFaces != 64 {
		t.Errorf("physx-gpu: %+v", o)
	}
	if o := get("unity"); part(o, generate.NodeInfo{Name: "x"}).MaxHullTriangles != 255 {
		t.Errorf("unity: %+v", o)
	}
	v := get("vehicle")
	if v.Collider.Method != generate.Decompose || part(v, generate.NodeInfo{Name: "Wheels"}).Method != generate.Cylinder ||
		part(v, generate.NodeInfo{Name: "Cesium_Milk_Truck"}).Method != "" {
		t.Errorf("vehicle: wheels and chassis not told apart")
	}
	l := get("static-level")
	if l.Body.Motion != "static" || part(l, generate.NodeInfo{Size: geom.Vec3{20, 3, 1}}).Method != generate.Trimesh ||
		part(l, generate.NodeInfo{Size: geom.Vec3{1, 1, 1}, Triangles: 200}).Method != "" {
		t.Errorf("static-level: large and small geometry not told apart")
	}
}

func TestRules(t *testing.T) {
	o := parseOptions(t, "rules.yaml", `
rules:
  - name: tagged
    match: {extras: {collider: box}}
    method: box
  - name: marked
    match: {extrasKey: noCollide}
    method: none
  - name: wheels
    match: {name: "Wheel_*", mesh: "wheel*"}
    method: cylinder
  - name: deep
    match: {path: "Truck/*/Door"}
    method: hull
    maxHullVertices: 32
  - name: mid
    match: {size: {min: 1, max: 2}, triangles: {max: 100}}
    method: sphere
    trigger: true
  - name: regex
    match: {nameRegex: "(?i)^rock\\d+$"}
    method: decompose
    maxHulls: 4
    concavity: 0.1
`)
	if o.RulesKey == "" || !strings.Contains(o.RulesKey, "Truck/*/Door") {
		t.Errorf("rules key %q does not describe the rules", o.RulesKey)
	}
	for _, c := range []struct {
		n    generate.NodeInfo
		rule string
		want generate.PartSettings
	}{
		{generate.NodeInfo{Name: "a", Extras: map[string]any{"collider": "box"}}, "tagged", generate.PartSettings{Method: generate.Box}},
		{generate.NodeInfo{Name: "a", Extras: map[string]any{"collider": "sphere"}}, "", generate.PartSettings{}},
		{generate.NodeInfo{Name: "a", Extras: map[string]any{"noCollide": false}}, "marked", generate.PartSettings{Method: generate.None}},
		{generate.NodeInfo{Name: "Wheel_FL", Mesh: "wheel.001"}, "wheels", generate.PartSettings{Method: generate.Cylinder}},
		{generate.NodeInfo{Name: "Wheel_FL", Mesh: "hub"}, "", generate.PartSettings{}},
		{generate.NodeInfo{Name: "Door", Path: "Truck/Body/Door"}, "deep", generate.PartSettings{Method: generate.Hull, MaxHullVertices: 32}},
		{generate.NodeInfo{Name: "Door", Path: "Truck/Body/Frame/Door"}, "", generate.PartSettings{}},
		{generate.NodeInfo{Name: "b", Size: geom.Vec3{0.5, 1.5, 0.2}, Triangles: 80}, "mid", generate.PartSettings{Method: generate.Sphere, Trigger: true}},
		{generate.NodeInfo{Name: "b", Size: geom.Vec3{0.5, 2.5, 0.2}, Triangles: 80}, "", generate.PartSettings{}},
		{generate.NodeInfo{Name: "b", Size: geom.Vec3{0.5, 1.5, 0.2}, Triangles: 101}, "", generate.PartSettings{}},
		{generate.NodeInfo{Name: "ROCK12"}, "regex", generate.PartSettings{Method: generate.Decompose, MaxColliders: 4, Concavity: 0.1}},
		{generate.NodeInfo{Name: "ROCK12b"}, "", generate.PartSettings{}},
	} {
		got, ok, _ := o.Rules(context.Background(), c.n)
		c.want.Rule = c.rule
		if ok != (c.rule != "") || got != c.want {
			t.Errorf("%+v: got %+v, %v; want %+v", c.n, got, ok, c.want)
		}
	}
}

// TestExtends: an extending file overrides key by key, its rules come
// first, and a file path is relative to the extending file.
func TestExtends(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "base"), 0o755)
	os.WriteFile(filepath.Join(dir, "base", "props.yaml"), []byte("extends: vehicle\ncolliders:\n  maxHullVertices: 32\nrules:\n  - {name: doors, match: {name: Door*}, method: box}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte("extends: base/props.yaml\nformat: khr\ncolliders:\n  maxHulls: 8\nrules:\n  - {name: first, match: {name: Door1}, method: sphere}\n"), 0o644)
	p, err := Load(filepath.Join(dir, "mine.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c := p.Colliders
	if p.Format != "khr" || c.Method != "decompose" || c.MaxHullVertices != 32 || c.MaxColliders != 8 || p.Mass.Total != 1500 {
		t.Errorf("merged settings: %+v", p)
	}
	var names []string
	for _, r := range p.Rules {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "first,doors,wheels" {
		t.Errorf("rule order %v, want first,doors,wheels", names)
	}
}

// TestBadProfiles: each file of testdata/profiles/bad gives one error,
// on one line, at the position and with the message its "# want" line
// says.
func TestBadProfiles(t *testing.T) {
	dir := filepath.Join("..", "testdata", "profiles", "bad")
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) < 20 {
		t.Fatalf("%d broken profiles (%v)", len(files), err)
	}
	want := regexp.MustCompile(`^# want (\S+?:\d+(?::\d+)?): (.*)\n`)
	for _, f := range files {
		data, _ := os.ReadFile(f)
		m := want.FindSubmatch(data)
		if m == nil {
			t.Errorf("%s: no # want line", f)
			continue
		}
		_, err := Load(f)
		if err == nil {
			t.Errorf("%s: no error", f)
			continue
		}
		prefix := filepath.Join(dir, string(m[1])) + ": "
		msg := err.Error()
		// {methods} stands for the kinds table's list, so a new kind
		// does not edit this file's data.
		w := strings.ReplaceAll(string(m[2]), "{methods}", strings.Join(Methods(), ", "))
		if !strings.HasPrefix(msg, prefix) || !strings.HasPrefix(msg[len(prefix):], w) || strings.Contains(msg, "\n") {
			t.Errorf("%s:\n got %s\nwant %s%s...", filepath.Base(f), msg, prefix, w)
		}
	}
}

func TestUnknownPreset(t *testing.T) {
	if _, err := Load("defualt"); err == nil || err.Error() != `unknown preset "defualt" (did you mean default?)` {
		t.Errorf("got %v", err)
	}
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"formt", " (did you mean format?)"},
		{"Motoin", " (did you mean motion?)"},
		{"zzzzzzzz", " (known: colliders, format, motion)"},
	} {
		if got := Suggest(c.s, []string{"format", "motion", "colliders"}); got != c.want {
			t.Errorf("%s: %q, want %q", c.s, got, c.want)
		}
	}
}

// TestRulesKey: profiles that generate differently have different keys,
// and the key does not depend on where the settings came from.
func TestRulesKey(t *testing.T) {
	key := func(doc string) string { return parseOptions(t, "k.yaml", doc).RulesKey }
	a := key("bodies: {per: pattern, pattern: '^A'}\n")
	if b := key("bodies: {per: pattern, pattern: '^B'}\n"); a == b {
		t.Error("body patterns ^A and ^B share a key")
	}
	if b := key("bodies:\n  pattern: '^A'\n  per: pattern\n"); a != b {
		t.Errorf("the same settings in another order: %q, %q", a, b)
	}
	if key("extends: physx-gpu\n") == key("") {
		t.Error("physx-gpu and default share a key")
	}
}

// TestRuleAutoKeys: a rule's autoTolerance and hullFill reach the
// settings generate gets for the instances it matches.
func TestRuleAutoKeys(t *testing.T) {
	opt := parseOptions(t, "auto.yaml", `
rules:
  - match: {name: "Ball*"}
    autoTolerance: 0.3
    hullFill: 0.7
`)
	s, ok, _ := opt.Rules(context.Background(), generate.NodeInfo{Name: "Ball1"})
	if !ok || s.AutoTolerance != 0.3 || s.HullFill != 0.7 {
		t.Errorf("Ball1: %+v, %v; want autoTolerance 0.3 and hullFill 0.7", s, ok)
	}
	if s, _, _ := opt.Rules(context.Background(), generate.NodeInfo{Name: "Crate"}); s.AutoTolerance != 0 || s.HullFill != 0 {
		t.Errorf("Crate matches no rule but gets %+v", s)
	}
}

// TestAbsConcavity: colliders.absConcavity becomes the asset-wide
// Options.AbsConcavity, a rule's reaches only the instances it matches,
// and profiles that differ only in a rule's absConcavity have different
// cache keys.
func TestAbsConcavity(t *testing.T) {
	options := func(doc string) generate.Options { return parseOptions(t, "abs.yaml", doc) }
	if o := options("colliders: {method: decompose, absConcavity: 0.02}\n"); o.Collider.AbsConcavity != 0.02 || o.Collider.Concavity != 0 {
		t.Errorf("colliders.absConcavity 0.02: Options.AbsConcavity %v, Concavity %v", o.Collider.AbsConcavity, o.Collider.Concavity)
	}
	if o := options(""); o.Collider.AbsConcavity != 0 {
		t.Errorf("no absConcavity: Options.AbsConcavity %v, want 0 (none)", o.Collider.AbsConcavity)
	}
	rule := "rules:\n  - match: {name: \"Rock*\"}\n    method: decompose\n    absConcavity: %v\n"
	o := options(fmt.Sprintf(rule, 0.5))
	if s, ok, _ := o.Rules(context.Background(), generate.NodeInfo{Name: "Rock3"}); !ok || s.AbsConcavity != 0.5 || s.Method != generate.Decompose {
		t.Errorf("Rock3: %+v, %v; want decompose with absConcavity 0.5", s, ok)
	}
	if s, _, _ := o.Rules(context.Background(), generate.NodeInfo{Name: "Crate"}); s.AbsConcavity != 0 {
		t.Errorf("Crate matches no rule but gets absConcavity %v", s.AbsConcavity)
	}
	if o.Collider.AbsConcavity != 0 {
		t.Errorf("a rule's absConcavity leaked into the asset-wide options: %v", o.Collider.AbsConcavity)
	}
	if other := options(fmt.Sprintf(rule, 0.25)); other.RulesKey == o.RulesKey {
		t.Errorf("rules with absConcavity 0.5 and 0.25 share the key %q", o.RulesKey)
	}
}

// TestColliderKeysDocumented: every colliders key is in the default
// preset that `profiles init default` prints (the README's table of
// settings is TestReadmeSettingsTable's).
func TestColliderKeysDocumented(t *testing.T) {
	preset, err := PresetText("default")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range colliderKeys {
		if !regexp.MustCompile(`(?m)^  (# )?` + k + `:`).Match(preset) {
			t.Errorf("the default preset does not show colliders.%s", k)
		}
	}
}

// parseOptions parses doc as a profile named name and resolves its options,
// failing the test on any error.
func parseOptions(t *testing.T, name, doc string) generate.Options {
	t.Helper()
	p, err := Parse(name, []byte(doc))
	return mustOptions(t, p, err)
}

// mustOptions resolves the options of a profile just loaded or parsed
// (p, err), failing the test on either error.
func mustOptions(t *testing.T, p *Profile, err error) generate.Options {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	o, err := p.Options()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestMatchFile: a rule's file glob matches the asset's last path
// segments, so it names one asset whatever folder generate was given.
func TestMatchFile(t *testing.T) {
	p, err := Parse("p.yaml", []byte("rules:\n  - name: chair\n    match: {file: props/chair.glb}\n    method: box\n"))
	if err != nil {
		t.Fatal(err)
	}
	opt, err := p.Options()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		want bool
	}{
		{"assets/props/chair.glb", true},
		{"props/chair.glb", true},
		{"/abs/x/props/chair.glb", true},
		{"assets/other/chair.glb", false},
		{"chair.glb", false},
		{"assets/props/chair.glb.bak", false},
	} {
		s, ok, _ := opt.Rules(context.Background(), generate.NodeInfo{File: c.file})
		if got := ok && s.Method == "box"; got != c.want {
			t.Errorf("file %q: matched %v, want %v", c.file, got, c.want)
		}
	}
}

// TestRuleBody: a rule's motion and mass (density, material or total)
// reach the settings generate gets for the instances it matches, an
// instance no rule matches gets neither, and each enters the rules key.
func TestRuleBody(t *testing.T) {
	doc := `
rules:
  - name: floor
    match: {name: "Floor*"}
    method: trimesh
    motion: static
  - name: crate
    match: {name: "Crate*"}
    mass: {density: 500}
  - name: beam
    match: {name: "Beam*"}
    mass: {material: steel}
    motion: kinematic
  - name: bag
    match: {name: "Bag*"}
    mass: {total: 12}
`
	opt := parseOptions(t, "body.yaml", doc)
	steel, err := mass.Density("steel")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want generate.PartSettings
	}{
		{"Floor1", generate.PartSettings{Rule: "floor", Method: generate.Trimesh, Motion: physics.Static}},
		{"Crate1", generate.PartSettings{Rule: "crate", Mass: generate.Mass{Density: 500}}},
		{"Beam1", generate.PartSettings{Rule: "beam", Motion: physics.Kinematic, Mass: generate.Mass{Density: steel}}},
		{"Bag1", generate.PartSettings{Rule: "bag", Mass: generate.Mass{Mass: 12}}},
		{"Lamp", generate.PartSettings{}},
	} {
		got, ok, err := opt.Rules(context.Background(), generate.NodeInfo{Name: c.name})
		if err != nil || ok != (c.want.Rule != "") || got != c.want {
			t.Errorf("%s: got %+v, %v, %v; want %+v", c.name, got, ok, err, c.want)
		}
	}
	for _, other := range []string{
		strings.Replace(doc, "density: 500", "density: 600", 1),
		strings.Replace(doc, "motion: kinematic", "motion: dynamic", 1),
	} {
		if parseOptions(t, "body.yaml", other).RulesKey == opt.RulesKey {
			t.Errorf("a rule's mass or motion changed, the rules key did not:\n%s", other)
		}
	}
}
