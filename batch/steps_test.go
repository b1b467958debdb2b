package batch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
)

// stepRecorder is a StepProgress that records what it hears and passes
// everything on to a LogProgress.
type stepRecorder struct {
	*LogProgress
	mu      sync.Mutex
	steps   map[int][]generate.Step
	inputs  map[int]string
	settled map[int]bool
	errs    []string
}

func (r *stepRecorder) Step(i int, input string, s generate.Step) {
	r.mu.Lock()
	if r.settled[i] {
		r.errs = append(r.errs, "step after Settled")
	}
	r.steps[i] = append(r.steps[i], s)
	r.inputs[i] = input
	r.mu.Unlock()
	r.LogProgress.Step(i, input, s)
}

func (r *stepRecorder) Settled(i int) {
	r.mu.Lock()
	r.settled[i] = true
	r.mu.Unlock()
	r.LogProgress.Settled(i)
}

func (r *stepRecorder) Done(i int, a Asset) {
	r.mu.Lock()
	if !r.settled[i] {
		r.errs = append(r.errs, a.Input+": Done before Settled")
	}
	r.mu.Unlock()
	r.LogProgress.Done(i, a)
}

// TestDecompositionSteps runs a batch whose Duck needs a decomposition:
// its rounds reach the run's Progress named and counted, a log without
// -v prints no progress line, one with -v does, and the outputs are the
// same bytes with and without anyone listening, at any -j.
func TestDecompositionSteps(t *testing.T) {
	corpus := filepath.Join(testassets.Shared(t), "corpus")
	duck := filepath.Join(corpus, "Duck", "glTF-Binary", "Duck.glb")
	box := filepath.Join(corpus, "Box", "glTF-Binary", "Box.glb")
	gopt := generate.Options{Collider: generate.ColliderSettings{Method: generate.Decompose, SearchTriangles: 600}, Encoding: generate.Encoding{Format: physics.OMI}}
	runWith := func(name string, workers int, prog Progress) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), name)
		jobs := []Job{
			{Input: box, Output: filepath.Join(out, "Box.glb"), Rel: "Box.glb"},
			{Input: duck, Output: filepath.Join(out, "Duck.glb"), Rel: "Duck.glb"},
		}
		assets, _, err := Run(context.Background(), jobs, Options{Generate: gopt, Workers: workers, Progress: prog})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range assets {
			if a.Status != OK {
				t.Fatalf("%s: %s %s", a.Input, a.Status, a.Error)
			}
		}
		return out
	}

	var quiet bytes.Buffer
	rec := &stepRecorder{LogProgress: &LogProgress{Out: &quiet, Err: &quiet}, steps: map[int][]generate.Step{}, inputs: map[int]string{}, settled: map[int]bool{}}
	heard := runWith("heard", 2, rec)
	for _, e := range rec.errs {
		t.Error(e)
	}
	steps := rec.steps[1]
	if len(steps) < 2 || rec.inputs[1] != duck {
		t.Fatalf("Duck: %d steps from %q, want several from %s", len(steps), rec.inputs[1], duck)
	}
	for _, s := range steps {
		if s.Part == "" || s.Total < 1 || s.Done < 0 || s.Done > s.Total {
			t.Errorf("Duck: step %+v", s)
		}
	}
	first, last := steps[0], steps[len(steps)-1]
	if last.Done != last.Total || first.Done >= last.Done {
		t.Errorf("Duck: steps go from %d/%d to %d/%d, want done to grow to the total", first.Done, first.Total, last.Done, last.Total)
	}
	if lines := strings.Count(quiet.String(), "\n"); lines != 2 || strings.Contains(quiet.String(), "decompose") {
		t.Errorf("log without -v: want the 2 asset lines alone, got:\n%s", quiet.String())
	}

	var verbose bytes.Buffer
	told := runWith("told", 1, &LogProgress{Out: &verbose, Err: &verbose, Verbosity: Verbose, every: time.Nanosecond})
	if want := duck + `: decompose "`; !strings.Contains(verbose.String(), want) {
		t.Errorf("log with -v: no line starting %q in:\n%s", want, verbose.String())
	}
	plain := runWith("plain", 2, nil)
	for _, name := range []string{"Box.glb", "Duck.glb"} {
		want, err := os.ReadFile(filepath.Join(plain, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range []string{heard, told} {
			if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: output differs when progress is heard (%v)", name, err)
			}
		}
	}
}

// TestLogStepsThrottled: at -v a log prints an asset's progress at most
// once per interval, none before the first interval is over, and nothing
// at all without -v.
func TestLogStepsThrottled(t *testing.T) {
	for _, v := range []Verbosity{Quiet, Normal, Verbose} {
		var b bytes.Buffer
		l := &LogProgress{Out: &b, Err: &b, Verbosity: v, every: time.Hour}
		for k := range 100 {
			l.Step(0, "a.glb", generate.Step{Part: "Body", Done: k, Total: 100})
		}
		if b.Len() != 0 {
			t.Errorf("verbosity %d: printed within the interval:\n%s", v, b.String())
		}
		l.every = time.Nanosecond
		time.Sleep(time.Millisecond)
		l.Step(0, "a.glb", generate.Step{Part: "Body", Done: 12, Total: 20})
		want := ""
		if v == Verbose {
			want = "a.glb: decompose \"Body\" 12/20 parts\n"
		}
		if b.String() != want {
			t.Errorf("verbosity %d: printed %q, want %q", v, b.String(), want)
		}
	}
}
