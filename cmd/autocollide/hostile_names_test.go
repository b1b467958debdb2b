package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// controlBytes returns the control bytes of s other than newline: what a
// terminal or a log would act on.
func controlBytes(s string) []byte {
	var bad []byte
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' || c == 0x7f {
			bad = append(bad, c)
		}
	}
	return bad
}

// TestHostileFileNames: file names holding ESC sequences, CR, LF and an
// HTML tag are printed escaped by every command (no control byte reaches
// stdout or stderr, a name never splits a line) and go into the Markdown
// report as inert text.
func TestHostileFileNames(t *testing.T) {
	good, err := os.ReadFile(example(t))
	if err != nil {
		t.Fatal(err)
	}
	broken, err := os.ReadFile(filepath.Join(testassets.Repo(), "testdata", "bad", "truncated.glb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	names := map[string][]byte{
		"evil\x1b[31mred\x1b]0;title\x07.glb": good,
		"evil\nname.glb":                      good,
		"fake\rok.glb":                        good,
		"<img src=x onerror=alert(1)>.glb":    good,
		"broken\x1b[2J.glb":                   broken,
	}
	for n, data := range names {
		if err := os.WriteFile(filepath.Join(in, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(dir, "report.md")
	code, stdout, stderr := runCLI("generate", in, "--out-dir", filepath.Join(dir, "out"), "--report", report, "-v", "--method", "aabb")
	if code != 1 {
		t.Errorf("exit %d, want 1 (one broken file)\n%s%s", code, stdout, stderr)
	}
	outputs := stdout + stderr
	var runs []string
	for n := range names {
		f := filepath.Join(in, n)
		runs = append(runs, f)
		for _, args := range [][]string{
			{"validate", f},
			{"convert", f, "--to", "khr", "-o", filepath.Join(dir, "c.glb")},
			{"preview", f, "-o", filepath.Join(dir, "p.png"), "--width", "64", "--height", "48"},
		} {
			_, o, e := runCLI(args...)
			outputs += o + e
		}
	}
	_, o, e := runCLI(append([]string{"validate"}, runs...)...)
	outputs += o + e
	if bad := controlBytes(outputs); len(bad) > 0 {
		t.Errorf("%d control bytes printed (%q), output:\n%s", len(bad), bad, outputs)
	}
	for _, want := range []string{`evil\nname.glb`, `fake\rok.glb`, `evil\x1b[31mred\x1b]0;title\x07.glb`, `broken\x1b[2J.glb: `} {
		if !strings.Contains(outputs, want) {
			t.Errorf("output lacks the escaped name %s:\n%s", want, outputs)
		}
	}
	for _, line := range strings.Split(outputs, "\n") {
		if strings.HasPrefix(line, "name.glb") {
			t.Errorf("a file name split a line: %q", line)
		}
	}
	md, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(md), "<img") || !strings.Contains(string(md), "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("the Markdown report carries the raw tag or lost the name:\n%s", md)
	}
	if bad := controlBytes(string(md)); len(bad) > 0 {
		t.Errorf("the Markdown report holds control bytes %q", bad)
	}
}
