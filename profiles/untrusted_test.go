//go:build unix

package profiles

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/autocollide/autocollide/safefile"
)

const token = "ghp_S3cr3tT0k3nS3cr3tT0k3n"

// secrets writes files a hostile profile might point at: a credentials
// file, a passwd-like file, and the same under a .yaml name.
func secrets(t *testing.T) (dir string) {
	dir = t.TempDir()
	files := map[string]string{
		".git-credentials": "https://user:" + token + "@github.com\n",
		"passwd":           "root:x:0:0:" + token + ":/root:/bin/bash\ndaemon:x:1:1::/:/bin/sh\n",
		"creds.yaml":       "https://user:" + token + "@github.com\n",
		"list.yaml":        "- " + token + "\n",
		"bad-yaml":         "a: [" + token + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNonProfileFilesAreNotPrinted: a profile path or an extends naming
// a file that is not a profile fails with the file and a position, and
// no byte of the file.
func TestNonProfileFilesAreNotPrinted(t *testing.T) {
	dir := secrets(t)
	for _, target := range []string{".git-credentials", "passwd", "creds.yaml", "list.yaml", "bad-yaml"} {
		// As the profile itself.
		_, err := Load(filepath.Join(dir, target))
		checkQuiet(t, target, err, filepath.Join(dir, target))
		// As what a profile extends, relative and absolute.
		for i, ext := range []string{"./" + target, filepath.Join(dir, target)} {
			p := filepath.Join(dir, "p"+string(rune('0'+i))+".yaml")
			if err := os.WriteFile(p, []byte("format: khr\nextends: "+ext+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(p)
			checkQuiet(t, "extends "+ext, err, filepath.Join(dir, target))
		}
	}
}

func checkQuiet(t *testing.T, what string, err error, file string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: loaded", what)
	case strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "ghp_"):
		t.Errorf("%s: the error prints the file: %v", what, err)
	case !strings.Contains(err.Error(), file+":1"):
		t.Errorf("%s: the error does not name %s and a line: %v", what, file, err)
	}
}

// TestProfileErrorExcerptIsShort: an error in a real profile quotes the
// offending value escaped and cut short.
func TestProfileErrorExcerptIsShort(t *testing.T) {
	long := `\e[31m` + strings.Repeat("x", 5000) // \e: YAML's escape for ESC
	p := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(p, []byte("format: \""+long+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	if err == nil {
		t.Fatal("loaded")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, p+":1:9: format: \"\\x1b[31mxxx") || len(msg) > len(p)+200 || strings.ContainsRune(msg, 0x1b) {
		t.Errorf("error %q: want the position and a short escaped excerpt", msg)
	}
}

// TestSpecialProfileFilesFailFast: a named pipe or /dev/zero as the
// profile or as what it extends fails at once.
func TestSpecialProfileFilesFailFast(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{pipe, zero, "/dev/zero"} {
		for _, viaExtends := range []bool{false, true} {
			p := target
			if viaExtends {
				p = filepath.Join(dir, "top.yaml")
				if err := os.WriteFile(p, []byte("extends: "+target+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan error, 1)
			go func() { _, err := Load(p); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, safefile.ErrNotRegular) && !strings.Contains(fmtErr(err), "not a regular file") {
					t.Errorf("%s (extends %v): err %v, want not a regular file", target, viaExtends, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s (extends %v): Load blocked for 5 s", target, viaExtends)
			}
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestHugeProfilesRefusedUpFront: a profile over MaxFileSize, or with
// more than MaxRules rules, is refused before it is decoded.
func TestHugeProfilesRefusedUpFront(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("rules:\n")
	for b.Len() < 4<<20 {
		b.WriteString("  - match: {name: \"Wheel*\"}\n    method: hull\n")
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); !errors.Is(err, safefile.ErrTooLarge) {
		t.Errorf("4 MB profile: err %v, want a size refusal", err)
	}
	b.Reset()
	b.WriteString("rules:\n")
	for range MaxRules + 1 {
		b.WriteString("  - match: {name: \"Wheel*\"}\n    method: hull\n")
	}
	many := filepath.Join(dir, "many.yaml")
	if err := os.WriteFile(many, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(many); err == nil || !strings.Contains(err.Error(), "over the limit of 1000") {
		t.Errorf("%d rules: err %v, want a refusal", MaxRules+1, err)
	}
}
