// Package safetext makes text taken from inputs (file names, node names,
// error messages that quote them) safe to print on a terminal or in a
// log, and safe to put into a Markdown document.
//
// A name sent in with an asset folder can hold anything a file system
// allows: ESC starts terminal control sequences (colours, cursor moves,
// window titles), CR and LF forge or split log lines, Unicode bidi
// controls reorder what the reader sees. Term replaces every such
// character with a visible Go-style escape (\x1b, \r, \n, \u202e) and
// leaves all other text, non-ASCII letters included, as it is. Markdown
// does the same and also neutralises what a Markdown renderer would turn
// into markup: HTML tags and entities (<img src=x onerror=...>), table
// cell separators, emphasis, code spans and links.
//
// Backslashes are not escaped, so a name that already contains the text
// "\x1b" prints the same as one holding the ESC byte: the output is for
// people to read, not to be parsed back.
package safetext
