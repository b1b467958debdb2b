package testassets

import (
	"os"
	"os/exec"
	"testing"
)

// Chromium returns the path of a Chromium executable ($AUTOCOLLIDE_CHROMIUM,
// else chromium or chromium-browser on PATH; Debian's package is
// chromium), skipping the test when there is none (failing under
// AUTOCOLLIDE_REQUIRE_TOOLS=1, as in CI, whose .ci/run installs it).
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("AUTOCOLLIDE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	missing(t, "chromium (Debian: apt-get install chromium)")
	return ""
}
