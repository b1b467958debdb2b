package profiles

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/internal/testassets"
)

// TestSettingsTable: every row names fields that exist with a type its
// values convert to, in the profile and (colliders rows) in generate's
// ColliderSettings and PartSettings; flags, keys and environment
// variables are unique; a default is within the row's own range.
func TestSettingsTable(t *testing.T) {
	seen := map[string]string{}
	for _, s := range Settings() {
		for _, name := range []string{"key " + s.Path(), "flag " + s.Flag, "env " + s.Env(), "older " + s.Older, "older flag " + s.OlderFlag} {
			if strings.HasSuffix(name, " ") {
				continue
			}
			if other, dup := seen[name]; dup {
				t.Errorf("%s: %s is also %s's", s.Key, name, other)
			}
			seen[name] = s.Key
		}
		if s.Flag == "" || s.Doc == "" || !s.Fingerprint && s.Section == "colliders" {
			t.Errorf("%s: a row needs a flag, a doc line, and (colliders) the fingerprint", s.Key)
		}
		structs := []reflect.Type{reflect.TypeFor[Profile]()}
		if s.Section == "colliders" {
			structs = []reflect.Type{reflect.TypeFor[Colliders](), reflect.TypeFor[generate.ColliderSettings](), reflect.TypeFor[generate.PartSettings]()}
		}
		inside, _ := s.Bounds()
		v, err := s.Parse(inside[0])
		if err != nil {
			t.Fatalf("%s: %s: %v", s.Key, inside[0], err)
		}
		for _, st := range structs {
			f, ok := st.FieldByName(s.field)
			if !ok || !reflect.TypeOf(v).ConvertibleTo(f.Type) || f.Type.Kind() != reflect.TypeOf(v).Kind() {
				t.Errorf("%s: %v has no field %s of kind %T", s.Key, st, s.field, v)
			}
		}
		if s.Default != nil {
			if _, err := s.Parse(fmt.Sprint(s.Default)); err != nil || reflect.TypeOf(s.Default) != reflect.TypeOf(v) {
				t.Errorf("%s: default %#v: %v", s.Key, s.Default, err)
			}
		}
	}
}

// settingDocs are a profile setting s to text in each place a profile
// document gives it: its section and, for collider settings, a rule.
func settingDocs(s Setting, text string) map[string]string {
	if s.Section == "" {
		return map[string]string{"top": fmt.Sprintf("%s: %s\n", s.Key, text)}
	}
	return map[string]string{
		"section": fmt.Sprintf("%s:\n  %s: %s\n", s.Section, s.Key, text),
		"rule":    fmt.Sprintf("rules:\n  - match: {name: a}\n    %s: %s\n", s.Key, text),
	}
}

// TestSettingBoundsInProfiles tries each setting just inside and just
// outside its range in a profile's section and in a rule: the inside
// values reach generate (the options, or the rule's part settings), the
// outside ones are refused with the key's path and what it wants.
func TestSettingBoundsInProfiles(t *testing.T) {
	for _, s := range Settings() {
		inside, outside := s.Bounds()
		for _, text := range inside {
			want, _ := s.Parse(text)
			for where, doc := range settingDocs(s, text) {
				p, err := Parse("in.yaml", []byte(doc))
				if err != nil {
					t.Errorf("%s %s %s: %v", s.Key, where, text, err)
					continue
				}
				var got any
				if where == "rule" {
					opt, err := p.Options()
					if err != nil {
						t.Fatal(err)
					}
					ps, _, err := opt.Rules(context.Background(), generate.NodeInfo{Name: "a"})
					if err != nil {
						t.Fatal(err)
					}
					got = reflect.ValueOf(ps).FieldByName(s.field).Interface()
				} else {
					got = p.Value(s)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s %s %s: got %v, want %v", s.Key, where, text, got, want)
				}
			}
		}
		for _, text := range outside {
			for where, doc := range settingDocs(s, text) {
				_, err := Parse("out.yaml", []byte(doc))
				if err == nil || !strings.Contains(err.Error(), s.Key) {
					t.Errorf("%s %s %s: got %v, want an error naming the key", s.Key, where, text, err)
				}
			}
		}
	}
}

// TestSettingsFingerprint: a setting the table says enters the
// fingerprint changes generate.Options' JSON when given a value other
// than the default's; asset-wide ones change it even with the profile's
// text (RulesKey) left out.
func TestSettingsFingerprint(t *testing.T) {
	base := defaults("x")
	baseOpt, err := base.Options()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Settings() {
		inside, _ := s.Bounds()
		text := inside[0]
		if fmt.Sprint(base.Value(s)) == text {
			text = inside[len(inside)-1]
		}
		p := defaults("x")
		if err := p.Set(s, text); err != nil {
			t.Fatal(err)
		}
		opt, err := p.Options()
		if err != nil {
			t.Fatal(err)
		}
		if fp(t, opt, true) == fp(t, baseOpt, true) {
			t.Errorf("%s %s: the fingerprint did not change", s.Key, text)
		}
		if !s.PerInstance && fp(t, opt, false) == fp(t, baseOpt, false) {
			t.Errorf("%s %s: the options' fields did not change (only the profile text did)", s.Key, text)
		}
	}
}

func fp(t *testing.T, o generate.Options, withText bool) string {
	if !withText {
		o.RulesKey = ""
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeSettingsTable: the README's table of settings is the one
// the table makes.
func TestReadmeSettingsTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testassets.Repo(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, got, _ := strings.Cut(string(readme), "<!-- settings table: made from profiles/settings.go -->\n")
	got, _, _ = strings.Cut(got, "<!-- end of settings table -->")
	if want := MarkdownTable(); got != want {
		t.Errorf("the README's settings table differs from profiles.MarkdownTable(); want:\n%s", want)
	}
}

// TestAnnotated: `profiles show`'s text comments every setting of the
// table on its key's line with its flag, and reads back as the same
// profile.
func TestAnnotated(t *testing.T) {
	p, err := Load("physx-gpu")
	if err != nil {
		t.Fatal(err)
	}
	text := p.Annotated()
	for _, s := range Settings() {
		found := false
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), s.Key+":") && strings.Contains(line, "# --"+s.Flag+", "+s.Env()) {
				found = true
			}
		}
		if !found && p.Value(s) != reflect.Zero(reflect.TypeOf(p.Value(s))).Interface() {
			t.Errorf("%s is not annotated:\n%s", s.Key, text)
		}
	}
	back, err := Parse("show.yaml", []byte(text))
	if err != nil || back.Canonical() != p.Canonical() {
		t.Errorf("the annotated text reads back as %v, %v", back, err)
	}
}

// TestChoiceErrorListsOnce: a word that is not one of a setting's choices
// gets an error listing the choices once, from the flag and from a
// profile alike, and a near miss gets a "did you mean".
func TestChoiceErrorListsOnce(t *testing.T) {
	s, ok := FlagSetting("format")
	if !ok {
		t.Fatal("no format flag")
	}
	_, flagErr := s.Parse("bogus")
	_, profErr := Parse("p.yaml", []byte("format: bogus\n"))
	for _, err := range []error{flagErr, profErr} {
		if err == nil {
			t.Fatal("format bogus accepted")
		}
		for _, c := range s.Choices() {
			if n := strings.Count(err.Error(), c); n != 1 {
				t.Errorf("%q names %s %d times", err, c, n)
			}
		}
	}
	if _, err := s.Parse("omii"); err == nil || !strings.Contains(err.Error(), "did you mean omi?") {
		t.Errorf("omii: %v", err)
	}
}
