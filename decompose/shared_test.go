package decompose

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir finds the project's shared folder: $AUTOCOLLIDE_SHARED, or the
// first ancestor's "shared" holding corpus/.
func sharedDir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("AUTOCOLLIDE_SHARED"); d != "" {
		return d
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "shared", "corpus")); err == nil && fi.IsDir() {
			return filepath.Join(dir, "shared")
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Skip("shared folder not found (set AUTOCOLLIDE_SHARED)")
		}
		dir = up
	}
}
