package safetext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTerm(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain/name.glb", "plain/name.glb"},
		{"Überstuhl 椅子.glb", "Überstuhl 椅子.glb"},
		{"evil\x1b[2J\x1b]0;pwned\x07.glb", `evil\x1b[2J\x1b]0;pwned\x07.glb`},
		{"evil\nname.glb", `evil\nname.glb`},
		{"fake\rok.glb", `fake\rok.glb`},
		{"tab\there", `tab\there`},
		{"del\x7f", `del\x7f`},
		{"c1\u009bcsi", `c1\x9bcsi`},
		{"raw\x9bbyte", `raw\x9bbyte`},
		{"bidi\u202egnp.exe", `bidi\u202egnp.exe`},
		{"line\u2028sep", `line\u2028sep`},
		{"nul\x00", `nul\x00`},
	} {
		if got := Term(c.in); got != c.want {
			t.Errorf("Term(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTermInert: whatever the input, the output holds no control
// character, no bidi control and only valid UTF-8.
func TestTermInert(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	all.WriteString("\xff\xfe\xc3")
	out := Term(all.String())
	if !utf8.ValidString(out) {
		t.Error("invalid UTF-8 in the output")
	}
	for _, r := range out {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			t.Errorf("%U left in the output", r)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"props/chair.glb", "props/chair.glb"},
		{"<img src=x onerror=alert(1)>.glb", "&lt;img src=x onerror=alert(1)&gt;.glb"},
		{"a|b", `a\|b`},
		{"![x](javascript:alert(1))", `\!\[x\](javascript:alert(1))`},
		{"*bold* _em_ `code` ~~del~~", "\\*bold\\* \\_em\\_ \\`code\\` \\~\\~del\\~\\~"},
		{"&lt;", "&amp;lt;"},
		{"two\nlines", `two\\nlines`},
	} {
		if got := Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzTerm: whatever the input, Term's output is valid UTF-8 without a
// control, separator or bidi character, and Markdown's holds no "<".
func FuzzTerm(f *testing.F) {
	for _, s := range []string{"", "a.glb", "evil\x1b[31m\n\r", "\xff\u202e<img>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Term(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Term(%q) = %q: invalid UTF-8", s, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("Term(%q) = %q: holds %U", s, out, r)
			}
		}
		if md := Markdown(s); strings.ContainsAny(md, "<>") {
			t.Fatalf("Markdown(%q) = %q", s, md)
		}
	})
}
