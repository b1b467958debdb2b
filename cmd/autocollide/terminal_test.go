package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
)

// TestTerminalScreen runs a batch of corpus assets (and one broken file)
// in a real pseudo-terminal (a tmux pane) and reads back the screen a
// person sees at the end: the failure printed above the finished progress
// bar, the bar itself, the summary table, and no per-part note lines
// unless -v asks for them.
func TestTerminalScreen(t *testing.T) {
	tmux := testassets.Tmux(t)
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	extra := map[string]string{}
	for _, name := range []string{"BoxInterleaved", "AnimatedMorphCube", "SimpleInstancing", "OrientationTest", "MultiUVTest", "NegativeScaleTest"} {
		extra["more/"+name+".glb"] = filepath.Join(corpus, name, "glTF-Binary", name+".glb")
	}
	root := batchTree(t, extra) // 9 corpus assets and broken/truncated.glb
	bin := filepath.Join(t.TempDir(), "autocollide")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	quiet := terminalScreen(t, tmux, bin, "generate", root, "--out-dir", t.TempDir(), "-j", "2")
	verbose := terminalScreen(t, tmux, bin, "generate", root, "--out-dir", t.TempDir(), "-j", "2", "-v")

	for name, screen := range map[string]string{"default": quiet, "-v": verbose} {
		lines := strings.Split(screen, "\n")
		bar, failure, table, total := -1, -1, -1, -1
		for i, l := range lines {
			switch {
			case regexp.MustCompile(`generate\s+10/10\b.*100 %`).MatchString(l):
				bar = i
			case strings.HasPrefix(l, filepath.Join(root, "broken", "truncated.glb")+": "):
				failure = i
			case regexp.MustCompile(`^input\s+status\s+bodies\s+colliders$`).MatchString(strings.TrimSpace(l)):
				table = i
			case strings.HasPrefix(l, "10 assets: 9 ok, 0 cached, 0 skipped, 1 failed in "):
				total = i
			}
		}
		if bar < 0 || failure < 0 || table < 0 || total < 0 {
			t.Fatalf("%s: screen lacks the finished bar (line %d), the failure (%d), the table header (%d) or the counts (%d):\n%s", name, bar, failure, table, total, screen)
		}
		if !(failure < bar && bar < table && table < total) {
			t.Errorf("%s: want the failure above the bar, the table below it: failure %d, bar %d, table %d, counts %d:\n%s", name, failure, bar, table, total, screen)
		}
		if rows := total - table - 1; rows != 10 {
			t.Errorf("%s: the table has %d rows, want one per file (10):\n%s", name, rows, screen)
		}
		if n := len(regexp.MustCompile(`(?m)generate\s+\d+/10\b`).FindAllString(screen, -1)); n != 1 {
			t.Errorf("%s: %d progress bars on the screen, want the one redrawn in place:\n%s", name, n, screen)
		}
		if !strings.Contains(screen, "EXIT=1") {
			t.Errorf("%s: a run with a failed file must exit 1:\n%s", name, screen)
		}
	}
	t.Logf("the screen without -v:\n%s", quiet)
	if n := strings.Count(quiet, "note: "); n != 0 {
		t.Errorf("without -v the screen shows %d note lines:\n%s", n, quiet)
	}
	if n := strings.Count(verbose, "note: "); n < 9 {
		t.Errorf("with -v the screen shows %d note lines, want at least one per asset (9):\n%s", n, verbose)
	}
}

// terminalScreen runs the command in a detached tmux pane of 200×400
// (on a server of its own) and returns the pane's visible text once the
// command has printed its exit code. The pane is tall enough that nothing
// scrolls off; tmux's scroll-back is not read, since tmux pushes a
// screen cleared from its top line into it, which no one sees.
func terminalScreen(t *testing.T, tmux string, args ...string) string {
	t.Helper()
	return watchScreen(t, tmux, nil, args...)
}

// watchScreen is terminalScreen that also passes each screen read while
// the command runs to watch (if not nil), some five times a second.
func watchScreen(t *testing.T, tmux string, watch func(screen string), args ...string) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	script := strings.Join(quoted, " ") + `; echo EXIT=$?; sleep 600`
	tm := func(a ...string) ([]byte, error) {
		return exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, a...)...).CombinedOutput()
	}
	if out, err := tm("new-session", "-d", "-x", "200", "-y", "400", "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	defer tm("kill-server")
	deadline := time.Now().Add(5 * time.Minute)
	for {
		out, err := tm("capture-pane", "-p", "-J")
		if err != nil {
			t.Fatalf("tmux capture-pane: %v\n%s", err, out)
		}
		screen := strings.TrimRight(string(out), "\n ")
		if regexp.MustCompile(`(?m)^EXIT=\d+$`).MatchString(screen) {
			return screen
		}
		if watch != nil {
			watch(screen)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not finish in 5 minutes; screen:\n%s", screen)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestTerminalDecomposeSteps: while a file of a batch is decomposed, the
// line of the bar says which part and how far (parts done of the parts so far); once
// the run is over no such text is left on the screen.
func TestTerminalDecomposeSteps(t *testing.T) {
	tmux := testassets.Tmux(t)
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	box := filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb")
	duck := filepath.Join(corpus, "Duck", "glTF-Binary", "Duck.glb")
	bin := filepath.Join(t.TempDir(), "autocollide")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	step := regexp.MustCompile(`generate\s+[01]/2\b.*  Duck\.glb: decompose "LOD3spShape" (\d+)/(\d+) parts`)
	var seen []string
	screen := watchScreen(t, tmux, func(s string) {
		if m := step.FindStringSubmatch(s); m != nil {
			seen = append(seen, m[1]+"/"+m[2])
		}
	}, bin, "generate", "--method", "decompose", box, duck, "--out-dir", t.TempDir())
	if len(seen) == 0 {
		t.Errorf("no screen showed the decomposition's progress beside the bar; the last:\n%s", screen)
	}
	t.Logf("steps seen: %v", seen)
	if strings.Contains(screen, "decompose \"") || !strings.Contains(screen, "EXIT=0") {
		t.Errorf("the finished screen still shows a step, or the run failed:\n%s", screen)
	}
}
