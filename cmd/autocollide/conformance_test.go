package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/conformance"
	"github.com/autocollide/autocollide/physics/schema"
)

// The conformance suite (#21): documents written from the specifications'
// text (package internal/conformance) run through validate, the JSON
// schemas, convert both ways and to G4MF, the Khronos validator, generate
// and, for a sample, the drop test. Every check has a name, "FILE STEP
// [SUBCHECK]"; a check that fails today because of an item of #21 that
// another branch fixes is listed in conformanceKnown under that item.

// knownConf is a set of checks that fail today, each with a text its
// failure must contain. A check is named by a pattern of path.Match whose
// * matches within a word: "*-required-*.gl* convert-*" names the convert
// step of those files, not the steps after it ("... convert-omi validate").
type knownConf struct {
	checks []string
	want   string // a substring of each failure's message
	why    string
}

// conformanceKnown: the checks that fail today, by #21 item number. The
// test fails when a listed check passes (remove it: the fix merged), when
// a listed check fails without the wanted text, and when a pattern matches
// no check at all.
var conformanceKnown = map[int][]knownConf{}

// confRun records the checks of one run.
type confRun struct {
	ran   []string
	fails map[string]string
}

func (r *confRun) check(name string, err error) bool {
	r.ran = append(r.ran, name)
	if err != nil {
		r.fails[name] = err.Error()
	}
	return err == nil
}

// known returns the entry of conformanceKnown listing check name.
func known(name string) (int, *knownConf, string) {
	for _, item := range slices.Sorted(mapKeys(conformanceKnown)) {
		for i := range conformanceKnown[item] {
			k := &conformanceKnown[item][i]
			for _, p := range k.checks {
				// A * stays within the file name or one word of the step.
				if ok, _ := path.Match(strings.ReplaceAll(p, " ", "/"), strings.ReplaceAll(name, " ", "/")); ok {
					return item, k, p
				}
			}
		}
	}
	return 0, nil, ""
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// verdict compares the run with conformanceKnown and logs, per item, the
// checks that fail today.
func (r *confRun) verdict(t *testing.T) {
	t.Helper()
	used := map[string]bool{}
	perItem := map[int][]string{}
	for _, name := range r.ran {
		msg, failed := r.fails[name]
		item, k, pat := known(name)
		if k != nil {
			used[pat] = true
		}
		switch {
		case failed && k == nil:
			t.Errorf("%s: %s", name, msg)
		case failed && !strings.Contains(msg, k.want):
			t.Errorf("%s: fails (listed under #21 item %d) for another reason: %s", name, item, msg)
		case failed:
			perItem[item] = append(perItem[item], name)
		case k != nil:
			t.Errorf("%s: passes; remove it from conformanceKnown (#21 item %d: %s)", name, item, k.why)
		}
	}
	for item, ks := range conformanceKnown {
		for _, k := range ks {
			for _, p := range k.checks {
				if !used[p] {
					t.Errorf("conformanceKnown item %d: %q matches no check", item, p)
				}
			}
		}
	}
	for _, item := range slices.Sorted(mapKeys(perItem)) {
		sort.Strings(perItem[item])
		t.Logf("#21 item %d: %d checks fail today:\n  %s", item, len(perItem[item]), strings.Join(perItem[item], "\n  "))
	}
	t.Logf("%d checks, %d failing", len(r.ran), len(r.fails))
}

// confFile is one written input.
type confFile struct {
	c    *conformance.Case
	path string
}

// TestConformance runs the suite.
func TestConformance(t *testing.T) {
	specs, err := schema.FindSpecs()
	if err != nil {
		t.Fatal(err)
	}
	checker, err := schema.Load(specs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	for _, d := range []string{in, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := &confRun{fails: map[string]string{}}
	s := &confSuite{r: r, checker: checker, out: out, validator: map[string]valEntry{}, drop: map[string]string{}}
	for _, c := range conformance.Cases() {
		f, err := c.Write(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{f.GLTF, f.GLB} {
			s.valid(confFile{c, p})
		}
		for i := range c.Broken {
			b := &c.Broken[i]
			bf, err := b.Write(in, c)
			if err != nil {
				t.Fatal(err)
			}
			s.broken(c, b, bf.GLTF)
		}
	}
	// The node tools run in subtests: without them (outside CI) they skip
	// and the other checks still count.
	t.Run("validator", func(t *testing.T) { s.runValidator(t) })
	t.Run("drop", func(t *testing.T) { s.runDrop(t) })
	r.verdict(t)
}

// confSuite holds what the checks share.
type confSuite struct {
	r         *confRun
	checker   *schema.Checker
	out       string
	validator map[string]valEntry // file → its check
	drop      map[string]string   // file → check name
}

// valEntry is a file queued for the Khronos validator.
type valEntry struct {
	check        string
	missingImage bool // an IO_ERROR on images is expected
}

func base(p string) string { return filepath.Base(p) }

// valid runs the checks of a valid file.
func (s *confSuite) valid(f confFile) {
	name := base(f.path)
	code, stdout, stderr := runCLI("validate", "-q", f.path)
	s.r.check(name+" validate", exitErr(code, stdout+stderr))
	s.r.check(name+" schema", s.schemaOf(f.path))
	s.queue(f, f.path, name+" validator")
	if f.c.Drop && filepath.Ext(f.path) == ".glb" {
		s.drop[f.path] = name + " drop"
	}
	for _, to := range convertTargets(f.c.Family) {
		s.convert(f, to)
	}
	if filepath.Ext(f.path) == ".gltf" {
		s.g4mf(f)
	}
	s.extraChecks(f)
}

// exitErr is nil for exit 0, else an error with the output.
func exitErr(code int, output string) error {
	if code == 0 {
		return nil
	}
	return fmt.Errorf("exit %d: %s", code, strings.TrimSpace(output))
}

// schemaOf checks a file's physics against the JSON schemas.
func (s *confSuite) schemaOf(p string) error {
	a, err := gltfio.LoadRaw(p, gltfio.Limits{})
	if err != nil {
		return err
	}
	js, err := a.Tree.MarshalJSON()
	if err != nil {
		return err
	}
	return s.checker.CheckDocument(js)
}

func convertTargets(f conformance.Family) []string {
	switch f {
	case conformance.OMI:
		return []string{"khr"}
	case conformance.KHR:
		return []string{"omi"}
	}
	return []string{"omi", "khr"}
}

// broken runs the checks of a broken variant: validate and convert fail
// with an error at (or under) the variant's path.
func (s *confSuite) broken(c *conformance.Case, b *conformance.Broken, p string) {
	name := base(p)
	code, stdout, _ := runCLI("validate", "-q", p)
	s.r.check(name+" validate", errorAt(code, stdout, p, b.Path))
	to := convertTargets(c.Family)[0]
	code, _, stderr := runCLI("convert", p, "-o", filepath.Join(s.out, name+"."+to+".gltf"), "--to", to)
	if code == 0 {
		s.r.check(name+" convert-refused", fmt.Errorf("convert exit 0 (%s prohibits: %s)", b.Path, b.Rule))
	} else {
		s.r.check(name+" convert-refused", errorAt(code, "error: "+stderr, "", b.Path))
	}
}

// errorAt checks that output (validate's lines, or convert's error line)
// holds an error at the JSON path want or under it.
func errorAt(code int, output, file, want string) error {
	for _, l := range strings.Split(output, "\n") {
		l = strings.TrimPrefix(l, file+": ")
		_, rest, ok := strings.Cut(l, "error: ")
		if !ok {
			continue
		}
		for _, field := range strings.Split(rest, ": ") {
			if field == want || strings.HasPrefix(field, want+".") || strings.HasPrefix(field, want+"[") {
				if code != 1 {
					return fmt.Errorf("error at %s but exit %d", want, code)
				}
				return nil
			}
		}
	}
	return fmt.Errorf("exit %d, no error at %s: %s", code, want, strings.TrimSpace(output))
}

// queue puts a file of case f (an input or one of its outputs) in the
// Khronos validator's run under check name.
func (s *confSuite) queue(f confFile, p, check string) {
	s.validator[p] = valEntry{check, f.c.MissingImage != ""}
}

// runValidator runs the Khronos validator once over every queued file:
// no errors (a missing image's IO_ERROR aside).
func (s *confSuite) runValidator(t *testing.T) {
	files := slices.Sorted(mapKeys(s.validator))
	res := runValidator(t, files)
	for _, p := range files {
		e := s.validator[p]
		v, ok := res[p]
		var err error
		switch {
		case !ok:
			err = fmt.Errorf("no validator result")
		case v.Errors < 0:
			err = fmt.Errorf("validator: %v", v.Codes)
		default:
			var codes []string
			for _, c := range v.Codes {
				if !(e.missingImage && strings.HasPrefix(c, "IO_ERROR /images/")) {
					codes = append(codes, c)
				}
			}
			if len(codes) > 0 {
				err = fmt.Errorf("validator errors: %v", codes)
			}
		}
		s.r.check(e.check, err)
	}
}

// runDrop runs the drop test once over the sample: every engine loads the
// file and its dynamic body rests on the ground.
func (s *confSuite) runDrop(t *testing.T) {
	files := slices.Sorted(mapKeys(s.drop))
	t.Logf("drop test: %d files", len(files))
	_, _, res := runDropTest(t, files, "--modes", "alone")
	for _, p := range files {
		var fails []string
		for _, engine := range dropEngines {
			e, ok := res[p][engine]
			switch {
			case !ok:
				fails = append(fails, engine+": no result")
			case !e.OK:
				fails = append(fails, engine+": "+strings.Join(e.Failures, "; "))
			case len(e.Bodies) == 0:
				fails = append(fails, engine+": no body")
			}
		}
		var err error
		if len(fails) > 0 {
			err = fmt.Errorf("drop test: %s", strings.Join(fails, " | "))
		}
		s.r.check(s.drop[p], err)
	}
}
