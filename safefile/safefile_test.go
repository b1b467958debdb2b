//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// layout builds an asset folder beside a secrets file:
//
//	tmp/secret.txt
//	tmp/asset/ok.bin, sub/inner.bin
//	tmp/asset/tex.png -> ../secret.txt (relative link out)
//	tmp/asset/abs.png -> tmp/secret.txt (absolute link out)
//	tmp/asset/up -> .. (a folder link out)
//	tmp/asset/in.png -> sub/inner.bin (a link that stays inside)
//	tmp/asset/pipe (a FIFO), tmp/asset/zero -> /dev/zero
func layout(t *testing.T) (string, Dir) {
	t.Helper()
	tmp := t.TempDir()
	asset := filepath.Join(tmp, "asset")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(asset, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(tmp, "secret.txt"), []byte("TOKEN=hunter2"), 0o600))
	must(os.WriteFile(filepath.Join(asset, "ok.bin"), []byte("1234"), 0o644))
	must(os.WriteFile(filepath.Join(asset, "sub", "inner.bin"), []byte("inner"), 0o644))
	must(os.Symlink("../secret.txt", filepath.Join(asset, "tex.png")))
	must(os.Symlink(filepath.Join(tmp, "secret.txt"), filepath.Join(asset, "abs.png")))
	must(os.Symlink("..", filepath.Join(asset, "up")))
	must(os.Symlink("sub/inner.bin", filepath.Join(asset, "in.png")))
	must(syscall.Mkfifo(filepath.Join(asset, "pipe"), 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(asset, "zero")))
	return tmp, Dir(asset)
}

func TestDirConfines(t *testing.T) {
	_, d := layout(t)
	for _, tc := range []struct {
		name string
		want error  // nil: read succeeds
		data string // when it succeeds
	}{
		{name: "ok.bin", data: "1234"},
		{name: "sub/inner.bin", data: "inner"},
		{name: "in.png", data: "inner"},
		{name: "sub/../ok.bin", data: "1234"},
		{name: "tex.png", want: ErrOutside},
		{name: "abs.png", want: ErrOutside},
		{name: "up/secret.txt", want: ErrOutside},
		{name: "up/asset/ok.bin", want: ErrOutside},
		{name: "../secret.txt", want: ErrOutside},
		{name: "pipe", want: ErrNotRegular},
		{name: "zero", want: ErrOutside},
		{name: "sub", want: ErrNotRegular},
	} {
		data, err := readWithin(t, func() ([]byte, error) { return d.ReadFile(tc.name, 1<<20) })
		switch {
		case tc.want == nil && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == nil && string(data) != tc.data:
			t.Errorf("%s: read %q, want %q", tc.name, data, tc.data)
		case tc.want != nil && !errors.Is(err, tc.want):
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "hunter2"):
			t.Errorf("%s: error carries the secret: %v", tc.name, err)
		}
	}
}

func TestSpecialFilesFailFast(t *testing.T) {
	_, d := layout(t)
	pipe := filepath.Join(string(d), "pipe")
	for _, p := range []string{pipe, "/dev/zero", string(d)} {
		if _, err := readWithin(t, func() ([]byte, error) { return ReadFile(p, 1<<20) }); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: err %v, want ErrNotRegular", p, err)
		}
	}
	// A link to a special file is followed and still refused.
	if _, err := readWithin(t, func() ([]byte, error) { return ReadFile(filepath.Join(string(d), "zero"), 1<<20) }); !errors.Is(err, ErrNotRegular) {
		t.Errorf("link to /dev/zero: err %v, want ErrNotRegular", err)
	}
}

func TestSizeCap(t *testing.T) {
	_, d := layout(t)
	if _, err := d.ReadFile("ok.bin", 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("4-byte file under a 3-byte cap: err %v", err)
	}
	if data, err := d.ReadFile("ok.bin", 4); err != nil || string(data) != "1234" {
		t.Errorf("4-byte file under a 4-byte cap: %q, %v", data, err)
	}
	if _, err := d.Check("ok.bin", 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Check over the cap: err %v", err)
	}
	if n, err := d.Check("in.png", 10); err != nil || n != 5 {
		t.Errorf("Check: %d, %v", n, err)
	}
}

// readWithin fails the test when read does not return within a few
// seconds: a read blocked on a pipe would otherwise hang the run.
func readWithin(t *testing.T, read func() ([]byte, error)) ([]byte, error) {
	t.Helper()
	type res struct {
		data []byte
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		d, err := read()
		ch <- res{d, err}
	}()
	select {
	case r := <-ch:
		return r.data, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("read blocked for 5 s")
		return nil, nil
	}
}
