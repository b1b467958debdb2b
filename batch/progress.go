package batch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/safetext"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// Verbosity chooses how much a progress printer says.
type Verbosity int

// Verbosities.
const (
	Quiet   Verbosity = -1 // failures only
	Normal  Verbosity = 0  // failures, warnings and (in logs) a line per asset
	Verbose Verbosity = 1  // also each asset's notes, bodies and time
)

// LogProgress prints one line per asset as the run reaches it, in job
// order, for logs (CI): "IN → OUT: summary" on out, failures (one line,
// starting with the file name) and warnings on errw. The notes (why each
// part got its collider) are printed only at Verbose: on a large batch
// they would drown the failures. At Verbose, an asset still being made
// after StepEvery gets a line saying how far its decomposition has got,
// and another at most every StepEvery.
type LogProgress struct {
	Out, Err  io.Writer
	Verbosity Verbosity

	mu    sync.Mutex
	since map[int]time.Time // job → its first step or last progress line
	every time.Duration     // 0: StepEvery (tests shorten it)
}

// StepEvery is the least time between two progress lines of one asset in
// a log.
const StepEvery = 5 * time.Second

// Start implements Progress.
func (*LogProgress) Start(int) {}

// Finish implements Progress.
func (*LogProgress) Finish() {}

// Done implements Progress.
func (l *LogProgress) Done(_ int, a Asset) {
	l.mu.Lock()
	defer l.mu.Unlock()
	writeAsset(l.Out, l.Err, a, l.Verbosity)
}

// Step implements StepProgress: at Verbose, a line per asset at most
// every StepEvery, the first one StepEvery after its first step, so quick
// assets print none.
func (l *LogProgress) Step(i int, input string, s generate.Step) {
	if l.Verbosity < Verbose {
		return
	}
	every := l.every
	if every == 0 {
		every = StepEvery
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.since == nil {
		l.since = map[int]time.Time{}
	}
	t, ok := l.since[i]
	if ok && now.Sub(t) < every {
		return
	}
	l.since[i] = now
	if ok {
		fmt.Fprintln(l.Out, stepText(input, s))
	}
}

// Settled implements StepProgress.
func (l *LogProgress) Settled(i int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.since, i)
}

// stepText says how far an asset's decomposition has got:
// `in/ToyCar.gltf: decompose "Body" 12/20 parts`.
func stepText(input string, s generate.Step) string {
	return fmt.Sprintf("%s: decompose %q %d/%d parts", safetext.Term(input), safetext.Term(s.Part), s.Done, s.Total)
}

func writeAsset(out, errw io.Writer, a Asset, v Verbosity) {
	if a.Status == Failed {
		fmt.Fprintln(errw, oneLine(a.Error))
		return
	}
	if v >= Normal {
		switch a.Status {
		case OK:
			if a.Output == a.Input {
				fmt.Fprintf(out, "%s: %s", safetext.Term(a.Input), AssetSummary(a))
			} else {
				fmt.Fprintf(out, "%s → %s: %s", safetext.Term(a.Input), safetext.Term(a.Output), AssetSummary(a))
			}
		case Cached:
			fmt.Fprintf(out, "%s → %s: current (%s)", safetext.Term(a.Input), safetext.Term(a.Output), AssetSummary(a))
		case Skipped:
			// Why it was skipped is the line's point, not a note.
			fmt.Fprintf(out, "%s: skipped", safetext.Term(a.Input))
			if len(a.Notes) > 0 {
				fmt.Fprintf(out, " (%s)", safetext.Term(oneLine(strings.Join(a.Notes, "; "))))
			}
		}
		if v >= Verbose && a.TimeMS > 0 {
			fmt.Fprintf(out, " [%.0f ms]", a.TimeMS)
		}
		fmt.Fprintln(out)
		if v >= Verbose {
			for _, n := range a.Notes {
				fmt.Fprintf(out, "  note: %s\n", safetext.Term(n))
			}
			for _, b := range a.BodyList {
				fmt.Fprintf(out, "  body nodes[%d] %q: %d colliders, %.4g m³, %.4g kg from %s\n", b.Node, b.Name, b.Colliders, b.Volume, b.Mass, b.MassSource)
			}
		}
	}
	if a.Status == OK {
		for _, w := range a.Warnings {
			fmt.Fprintf(errw, "%s: warning: %s\n", safetext.Term(a.Input), oneLine(w))
		}
	}
}

// oneLine makes a message from an input one inert line: newlines become
// spaces and other control characters visible escapes.
func oneLine(s string) string { return safetext.Term(strings.ReplaceAll(s, "\n", " ")) }

// AssetSummary says in a few words what an asset got: "2 bodies, 3
// convex, 12.5 kg, 1 kept as authored".
func AssetSummary(a Asset) string {
	s := fmt.Sprintf("%d bodies", a.Bodies)
	if c := inspect.ColliderSummary(a.Colliders); c != "" {
		s += ", " + c
	}
	if m := massText(a); m != "" {
		s += ", " + m + " kg"
	}
	if a.Kept > 0 {
		s += fmt.Sprintf(", %d kept as authored", a.Kept)
	}
	return s
}

// BarProgress draws a live progress bar (github.com/vbauerster/mpb) on a
// terminal; failures and warnings are printed above it, and with
// Verbose every asset's line too. Beside the bar it shows what a file
// being made is decomposing and how far it has got, redrawn at the bar's
// refresh rate.
type BarProgress struct {
	W         *os.File
	Verbosity Verbosity
	// Lines keeps each asset's line above the bar at Normal verbosity
	// (for a run of one file, which ends with no summary table).
	Lines bool
	p     *mpb.Progress
	bar   *mpb.Bar

	mu    sync.Mutex
	steps map[int]step // job → its latest step, while it is made
	last  int          // the job stepped last
	shown int          // the job whose step was shown last
}

// step is a job's latest step.
type step struct {
	input string
	s     generate.Step
}

// Start implements Progress.
func (b *BarProgress) Start(total int) {
	b.p = mpb.New(mpb.WithOutput(b.W), mpb.WithWidth(40))
	b.bar = b.p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name("generate "), decor.CountersNoUnit("%d/%d")),
		mpb.AppendDecorators(decor.Percentage(decor.WCSyncSpace), decor.Name(" "), decor.AverageETA(decor.ET_STYLE_GO),
			decor.Any(func(decor.Statistics) string { return b.stepNow() })),
	)
}

// Step implements StepProgress.
func (b *BarProgress) Step(i int, input string, s generate.Step) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.steps == nil {
		b.steps = map[int]step{}
	}
	b.steps[i], b.last = step{input, s}, i
}

// Settled implements StepProgress.
func (b *BarProgress) Settled(i int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.steps, i)
}

// stepNow is the text beside the bar: the latest step of the file shown
// last while it is being made (so the text does not flicker between the
// files running at once), else of the file stepped last.
func (b *BarProgress) stepNow() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, ok := b.steps[b.shown]
	if !ok {
		b.shown = b.last
		st, ok = b.steps[b.shown]
	}
	if !ok {
		return ""
	}
	return "  " + stepText(filepath.Base(st.input), st.s)
}

// Done implements Progress.
func (b *BarProgress) Done(_ int, a Asset) {
	v := b.Verbosity
	if v == Normal && !b.Lines {
		v = Quiet // the bar replaces the per-asset lines
	}
	var sb strings.Builder
	writeAsset(&sb, &sb, a, v)
	if sb.Len() > 0 {
		b.p.Write([]byte(sb.String()))
	}
	b.bar.Increment()
}

// Finish implements Progress.
func (b *BarProgress) Finish() {
	b.bar.Abort(false)
	b.p.Wait()
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
