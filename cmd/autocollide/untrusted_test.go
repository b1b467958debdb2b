//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const hostileToken = "ghp_Zz9Yy8Xx7Ww6Vv5Uu4Tt3"

// runWithin runs the command line in-process and fails the test when it
// does not finish in time: a read blocked on a pipe would hang forever.
func runWithin(t *testing.T, d time.Duration, args ...string) (int, string) {
	t.Helper()
	type res struct {
		code   int
		stderr string
	}
	ch := make(chan res, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		ch <- res{code, errb.String()}
	}()
	select {
	case r := <-ch:
		return r.code, r.stderr
	case <-time.After(d):
		t.Fatalf("%v: still running after %v", args, d)
		return 0, ""
	}
}

// hostileTree is tmp/secrets (outside) and tmp/assets/furniture.glb.
func hostileTree(t *testing.T) (tmp, assets string) {
	t.Helper()
	tmp = t.TempDir()
	assets = filepath.Join(tmp, "assets")
	if err := os.MkdirAll(assets, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(example(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(assets, "furniture.glb"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "secrets"), []byte("https://me:"+hostileToken+"@github.com\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return tmp, assets
}

// TestProjectFileCannotPrintSecrets: an autocollide.yaml shipped with the
// assets that points its profile at a credentials file (or extends one)
// fails naming the file and position, never printing the token.
func TestProjectFileCannotPrintSecrets(t *testing.T) {
	tmp, assets := hostileTree(t)
	project := filepath.Join(assets, ProjectFile)
	for _, text := range []string{
		"profile: ../secrets\n",
		"profile: " + filepath.Join(tmp, "secrets") + "\n",
		"profile: ./evil.yaml\n", // evil.yaml extends the secrets
	} {
		os.WriteFile(filepath.Join(assets, "evil.yaml"), []byte("extends: ../secrets\n"), 0o644)
		if err := os.WriteFile(project, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := runWithin(t, time.Minute, "generate", assets, "--out-dir", filepath.Join(tmp, "out"))
		if code == 0 || strings.Contains(stderr, hostileToken) || strings.Contains(stderr, "ghp_") {
			t.Errorf("%q: exit %d, stderr %q", text, code, stderr)
		}
		if !strings.Contains(stderr, project+":1:10: profile: ") || !strings.Contains(stderr, "not a profile") {
			t.Errorf("%q: stderr %q: want the project file's position and \"not a profile\"", text, stderr)
		}
	}
}

// TestSpecialFilesNeverHang: a named pipe as the input, and a pipe or a
// link to /dev/zero as the cache file, end at once: the input fails, the
// cache is treated as absent.
func TestSpecialFilesNeverHang(t *testing.T) {
	tmp, assets := hostileTree(t)
	pipe := filepath.Join(assets, "pipe.glb")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := runWithin(t, time.Minute, "generate", pipe, "-o", filepath.Join(tmp, "p.glb"))
	if code != exitFailed || !strings.Contains(stderr, "not a regular file") {
		t.Errorf("pipe as input: exit %d, %q", code, stderr)
	}
	os.Remove(pipe)
	for name, plant := range map[string]func(string) error{
		"pipe":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"/dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		out := filepath.Join(tmp, "out-"+filepath.Base(name))
		os.MkdirAll(out, 0o755)
		if err := plant(filepath.Join(out, ".autocollide-cache.json")); err != nil {
			t.Fatal(err)
		}
		code, stderr := runWithin(t, time.Minute, "generate", assets, "--out-dir", out, "-q")
		if code != exitOK {
			t.Errorf("%s as the cache: exit %d, %q", name, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(out, "furniture.glb")); err != nil {
			t.Errorf("%s as the cache: no output: %v", name, err)
		}
	}
}

// TestLinkedImageNotCopied: a .gltf whose image links to a file outside
// its folder fails, and nothing of the file reaches the output folder.
func TestLinkedImageNotCopied(t *testing.T) {
	tmp, assets := hostileTree(t)
	os.Remove(filepath.Join(assets, "furniture.glb"))
	fixture{nodes: func(w *bytes.Buffer) { w.WriteString(`{"mesh":0}`) },
		extra: `,"images":[{"uri":"tex.png"}]`}.write(t, filepath.Join(assets, "a.gltf"))
	if err := os.Symlink("../secrets", filepath.Join(assets, "tex.png")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	code, stderr := runWithin(t, time.Minute, "generate", assets, "--out-dir", out)
	if code != exitFailed || !strings.Contains(stderr, "outside the asset's folder") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(hostileToken)) {
				t.Errorf("%s carries the secret", p)
			}
		}
		return nil
	})
}
