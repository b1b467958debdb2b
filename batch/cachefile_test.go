//go:build unix

package batch

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialCacheFiles: a pipe, /dev/zero or a file over the cap in
// place of the cache file is read at once as no cache.
func TestSpecialCacheFiles(t *testing.T) {
	for name, plant := range map[string]func(string) error{
		"pipe":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"/dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"too large": func(p string) error {
			if err := os.WriteFile(p, []byte(`{"version":1,"entries":{}}`), 0o644); err != nil {
				return err
			}
			return os.Truncate(p, MaxCacheFileSize+1)
		},
	} {
		dir := t.TempDir()
		if err := plant(filepath.Join(dir, CacheFileName)); err != nil {
			t.Fatal(err)
		}
		done := make(chan *cacheFile, 1)
		go func() { done <- readCacheFile(dir) }()
		select {
		case cf := <-done:
			if cf == nil || len(cf.Entries) != 0 {
				t.Errorf("%s: %+v, want an empty cache", name, cf)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading the cache blocked", name)
		}
	}
}
