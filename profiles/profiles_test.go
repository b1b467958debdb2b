package profiles

import (
	"strings"
	"testing"
)

func TestPresetsLoad(t *testing.T) {
	names := Presets()
	if len(names) == 0 || names[0] == "" {
		t.Fatal("no presets embedded")
	}
	for _, n := range names {
		if _, err := Load(n); err != nil {
			t.Errorf("preset %s: %v", n, err)
		}
	}
}

func TestStrictErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"formt: omi\n", "line 1"},
		{"format: omi\nmethod: hul\n", "line 2, column 9"},
		{"maxHullVertices: many\n", "line 1"},
		{"maxHullVertices: 2\n", "below 4"},
		{"format: [omi]\n", "line 1"},
	} {
		_, err := Parse("p.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "p.yaml: ") {
			t.Errorf("%q: error %v, want one mentioning %q", c.doc, err, c.want)
		}
	}
	if _, err := Load("no-such-preset"); err == nil || !strings.Contains(err.Error(), "default") {
		t.Errorf("unknown preset: %v", err)
	}
}
