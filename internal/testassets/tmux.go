package testassets

import (
	"os/exec"
	"testing"
)

// Tmux returns the path of tmux, the terminal multiplexer tests use as a
// real pseudo-terminal whose screen they can read back, skipping the test
// when it is missing (failing under AUTOCOLLIDE_REQUIRE_TOOLS=1, as in
// CI, whose .ci/run installs Debian's package).
func Tmux(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err != nil {
		missing(t, "tmux (Debian: apt-get install tmux)")
	}
	return p
}
