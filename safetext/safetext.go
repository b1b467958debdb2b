package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Term returns s with every control character (C0, DEL, C1), line or
// paragraph separator, bidi control and invalid UTF-8 byte replaced by a
// visible escape, so that s prints as one inert line.
func Term(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r):
			writeEscape(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Markdown returns s escaped with Term and made inert as inline Markdown
// text, inside a table cell too: "&", "<" and ">" become entities (no
// HTML tag or entity survives), and the characters that start emphasis,
// code spans, links, strikethrough or end a table cell get a backslash.
func Markdown(s string) string {
	return markdownReplacer.Replace(Term(s))
}

var markdownReplacer = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`,
	"[", `\[`, "]", `\]`, "~", `\~`, "!", `\!`,
)

func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func needsEscape(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

func writeEscape(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if r < 0x100 {
			fmt.Fprintf(b, `\x%02x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}
