package profiles_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/profiles"
)

// FuzzParse feeds arbitrary YAML to Parse: it must not panic, must return
// exactly one of a profile and an error, must name the file in every
// error, and must give the same answer twice.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("presets", "*.y*ml"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"format: khr\nmethod: decompose\nmaxHullVertices: 64\n",
		"method: [1, 2]\n",
		"formt: omi\n",
		"density: 1e400\n",
		"a: &a [*a, *a]\n",
		"maxHullVertices: 3\n",
		"%YAML 1.2\n---\nmass: 2\n...\n",
	} {
		f.Add([]byte(s))
	}
	const name = "fuzz.yaml"
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := profiles.Parse(name, data)
		if (p == nil) == (err == nil) {
			t.Fatalf("profile %v and error %v", p, err)
		}
		if err != nil && !strings.Contains(err.Error(), name) {
			t.Fatalf("error does not name the file: %v", err)
		}
		p2, err2 := profiles.Parse(name, data)
		if !reflect.DeepEqual(p, p2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("not deterministic: %v %v / %v %v", p, err, p2, err2)
		}
	})
}
