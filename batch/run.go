package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/autocollide/autocollide/g4mf"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/autocollide/autocollide/safefile"
	"github.com/qmuntal/gltf"
	"golang.org/x/sync/errgroup"
)

// Mode says what a run does with each asset.
type Mode string

// Modes.
const (
	// Write generates and writes each output (unless it is current).
	Write Mode = "write"
	// DryRun generates each asset in memory (outputs found current in
	// the cache excepted), fails those that get no colliders or whose
	// result has physics errors, and says what would be written; it
	// writes nothing.
	DryRun Mode = "dry-run"
	// Check answers "would a run change these outputs?" from the files
	// themselves, writing nothing: an output fails when it lacks
	// physics, carries stale generated physics (its Fingerprint differs)
	// or has physics errors (see checkOne).
	Check Mode = "check"
)

// Options controls a run.
type Options struct {
	// Generate is the per-asset options; Binary is set per job from the
	// output name.
	Generate generate.Options
	Mode     Mode
	// Workers bounds the files processed at once (≤ 0: runtime.NumCPU()).
	Workers int
	// Cache skips assets whose output is current and records written
	// outputs in each output folder's CacheFileName. Meant for output
	// folders; not for writing in place (the input changes when written).
	Cache bool
	// Force redoes every asset (and still records the outputs).
	Force bool
	// InPlace allows outputs that are their inputs.
	InPlace bool
	// ToolVersion goes into the cache key, so a new tool redoes all.
	ToolVersion string
	// Release names the tool in each output's Fingerprint
	// ("autocollide v1.4.0"; empty: "autocollide"). Unlike ToolVersion
	// it is not a build's hash, so outputs do not change with every
	// development build.
	Release string
	// Limits bound what each load accepts.
	Limits gltfio.Limits
	// Timeout, if positive, bounds the generation of each asset; an asset
	// over it fails and the run goes on.
	Timeout time.Duration
	// FS is what outputs are written through (nil: the operating
	// system's); tests use it to fail writes.
	FS gltfio.FS
	// Progress, if set, hears about each asset, in job order.
	Progress Progress
	// Previews draws each written or cached output (Write mode only),
	// in the worker that made it.
	Previews Previews
}

// Progress receives a run's events. Done is called once per job, in job
// order, from one goroutine at a time.
type Progress interface {
	Start(total int)
	Done(i int, a Asset)
	Finish()
}

// StepProgress is a Progress that also hears how far the assets being
// made have got, so a long decomposition shows something before its
// file is done. Step is called from the goroutines making job i (several
// at once, for several jobs or parts) after each round of a
// decomposition; Settled(i) when job i's work is over, before its Done.
// Both must return quickly. What they show changes no output.
type StepProgress interface {
	Progress
	Step(i int, input string, s generate.Step)
	Settled(i int)
}

type result struct {
	job         Job
	asset       Asset
	interrupted bool        // not done because the context was cancelled
	entry       *cacheEntry // set when the output was written and can be cached
	forget      bool        // the job failed: drop any cache entry for its output
}

// Run processes the jobs and returns one Asset per job, in job order,
// and whether the context was cancelled before all of them ran. One
// file's failure never stops the others; on cancellation the files being
// processed finish or are abandoned (their outputs are written by atomic
// rename, so nothing partial remains) and the rest are reported as
// skipped. The cache files are updated after the workers stop.
func Run(ctx context.Context, jobs []Job, opt Options) ([]Asset, bool, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if opt.Mode == "" {
		opt.Mode = Write
	}
	if opt.Generate.Workers <= 0 {
		// A file's parts may use the pool's width too: when one big file
		// is left running alone, it still gets every worker.
		opt.Generate.Workers = workers
	}
	prog := opt.Progress
	if prog == nil {
		prog = nopProgress{}
	}
	prog.Start(len(jobs))

	results := make([]result, len(jobs))
	done := make([]bool, len(jobs))
	var mu sync.Mutex
	next := 0
	finish := func(i int, r result) {
		mu.Lock()
		defer mu.Unlock()
		results[i], done[i] = r, true
		for next < len(jobs) && done[next] {
			prog.Done(next, results[next].asset)
			next++
		}
	}

	if opt.Mode == Write {
		cleanOutputFolders(jobs, outputFS(opt.FS), opt.Limits)
	}
	c := &cache{}
	var pngs []string
	if opt.Previews.Dir != "" {
		pngs = previewPaths(jobs, opt.Previews.Dir)
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for _, i := range dispatchOrder(jobs, opt.Generate.Collider.Method, opt.Limits) {
		j := jobs[i]
		if ctx.Err() != nil {
			a := newAsset(j)
			a.Status = Skipped
			a.Notes = append(a.Notes, "interrupted before it started")
			finish(i, result{job: j, asset: a, interrupted: true})
			continue
		}
		g.Go(func() error {
			o := opt
			sp, steps := prog.(StepProgress)
			if steps {
				o.Generate.Progress = func(s generate.Step) { sp.Step(i, j.Input, s) }
			}
			r := runOne(ctx, j, o, c)
			if steps {
				sp.Settled(i)
			}
			if opt.Previews.enabled() && ctx.Err() == nil {
				png := ""
				if pngs != nil {
					png = pngs[i]
				}
				addPreview(&r, opt.Mode, opt.Previews, png)
			}
			finish(i, r)
			return nil
		})
	}
	g.Wait()
	prog.Finish()
	assets := make([]Asset, len(results))
	interrupted := false
	for i, r := range results {
		assets[i] = r.asset
		interrupted = interrupted || r.interrupted
	}
	var err error
	if opt.Mode == Write && opt.Cache {
		err = updateCache(outputFS(opt.FS), results)
	}
	return assets, interrupted, err
}

// dispatchOrder starts the costliest inputs first (JobCosts, from the
// triangles each file declares and method m), so one big file does not
// run alone at the end of a batch; results are still reported in job
// order. A file's size says little: a .gltf keeps its geometry in
// buffers beside it (ToyCar.gltf, 17 KB of JSON for 109k triangles, was
// started after ten smaller assets). Ties (and unreadable files) keep job
// order.
func dispatchOrder(jobs []Job, m generate.Method, lim gltfio.Limits) []int {
	methods := make([]generate.Method, len(jobs))
	for i := range methods {
		methods[i] = m
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	if len(jobs) < 2 {
		return order // nothing to rank: no file is read twice
	}
	cost := JobCosts(jobs, methods, lim)
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] > cost[order[b]] })
	return order
}

func runOne(ctx context.Context, j Job, opt Options, c *cache) (r result) {
	start := time.Now()
	r = result{job: j, asset: newAsset(j)}
	defer func() {
		if p := recover(); p != nil {
			// A bug fails this file alone; the run ends with the
			// internal exit code.
			r.asset = newAsset(j)
			r.asset.Status, r.asset.Internal = Failed, true
			r.asset.Error = fmt.Sprintf("%s: internal error (a bug; please report it): %v", j.Input, p)
		}
		r.asset.TimeMS = float64(time.Since(start).Microseconds()) / 1000
		if r.asset.Status == Failed {
			r.forget = true
		}
	}()
	fail := func(err error) result {
		r.asset.Status = Failed
		r.asset.Error = err.Error()
		r.asset.Internal = errors.Is(err, generate.ErrInternal)
		return r
	}
	if j.Unreadable != "" {
		return fail(errors.New(j.Unreadable))
	}
	if j.Skip != "" {
		r.asset.Status = Skipped
		r.asset.Notes = append(r.asset.Notes, j.Skip)
		return r
	}
	stop := func(when string) result {
		r.asset = newAsset(j)
		r.asset.Status = Skipped
		r.asset.Notes = append(r.asset.Notes, "interrupted "+when)
		r.interrupted = true
		return r
	}
	if ctx.Err() != nil {
		return stop("before it started")
	}
	if opt.Mode != Check && !opt.InPlace && sameFile(j.Input, j.Output) {
		return fail(fmt.Errorf("%s: output is the input; use --in-place to overwrite it", j.Input))
	}
	if g4mf.IsName(j.Input) {
		// G4MF has its own container; no cache, check or dry run yet.
		if opt.Mode != Write {
			return fail(fmt.Errorf("%s: --check and --dry-run do not support G4MF files yet", j.Input))
		}
		if err := os.MkdirAll(filepath.Dir(j.Output), 0o755); err != nil {
			return fail(err)
		}
		actx, cancel := assetContext(ctx, opt.Timeout)
		rep, err := g4mf.Generate(actx, j.Input, j.Output, opt.Generate)
		cancel()
		if err != nil && timedOut(ctx, actx) {
			return fail(fmt.Errorf("%s: not done within the time limit of %v (--timeout)", j.Input, opt.Timeout))
		}
		if err != nil {
			return fail(err)
		}
		r.asset = newAsset(j)
		fillReport(&r.asset, rep)
		r.asset.Status = OK
		return r
	}
	if opt.Mode == Check {
		return checkOne(ctx, j, opt, r)
	}
	// Read once: the cache key hashes the very bytes generation uses.
	raw, err := safefile.ReadFile(j.Input, opt.Limits.FileSize())
	if err != nil {
		return fail(fmt.Errorf("%s: %w", j.Input, err))
	}
	a, err := gltfio.Parse(j.Input, raw, opt.Limits)
	if err != nil {
		return fail(err)
	}
	if err := j.unchanged(raw); err != nil {
		return fail(err)
	}
	r.asset.Warnings = append(r.asset.Warnings, a.Warnings...)
	gopt := opt.Generate
	gopt.Encoding.Binary = gltfio.IsBinaryName(j.Output)

	useCache := opt.Cache && !opt.InPlace
	var key string
	if useCache {
		key, err = cacheKey(opt.ToolVersion, gopt, gopt.Encoding.Binary, raw, a)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", j.Input, err))
		}
		if !opt.Force {
			if e, ok := c.lookup(j.Output); ok && e.Key == key && current(j, e) {
				r.asset = e.Asset
				r.asset.Input, r.asset.Output, r.asset.Status = j.Input, j.Output, Cached
				return r
			}
		}
	}
	// The fingerprint hashes the source before generation adds to it;
	// a dry run writes none.
	var fp Fingerprint
	if opt.Mode == Write {
		if fp, err = newFingerprint(opt.Release, gopt, a); err != nil {
			return fail(fmt.Errorf("%s: %w", j.Input, err))
		}
	}

	actx, cancel := assetContext(ctx, opt.Timeout)
	rep, err := generate.Asset(actx, a, gopt)
	cancel()
	if err != nil && timedOut(ctx, actx) {
		return fail(fmt.Errorf("%s: not done within the time limit of %v (--timeout)", j.Input, opt.Timeout))
	}
	if err != nil && ctx.Err() != nil {
		return stop("while it was generated")
	}
	if err != nil {
		return fail(fmt.Errorf("%s: %w", j.Input, err))
	}
	if rep.Bodies == 0 && rep.Kept == 0 && len(rep.Parts) == 0 && codecs.Family(a.Doc) == physics.None {
		// No part at all (method none, or rules saying so, still report
		// their parts).
		return fail(fmt.Errorf("%s: no triangle geometry in the scene; nothing to collide with", j.Input))
	}
	fillReport(&r.asset, rep)
	r.asset.HullVertices = rep.HullVertices

	if opt.Mode == DryRun {
		if err := validateResult(a, gopt); err != nil {
			return fail(fmt.Errorf("%s: %w", j.Input, err))
		}
		r.asset.Status = Skipped
		r.asset.Notes = append(r.asset.Notes, "dry run: would write "+j.Output)
		return r
	}
	if err := stamp(a, fp); err != nil {
		return fail(fmt.Errorf("%s: recording the fingerprint: %w", j.Input, err))
	}
	if ctx.Err() != nil {
		return stop("before it was written")
	}
	if err := os.MkdirAll(filepath.Dir(j.Output), 0o755); err != nil {
		return fail(err)
	}
	files, err := a.SaveFiles(outputFS(opt.FS), j.Output)
	if err != nil {
		return fail(err)
	}
	r.asset.Status = OK
	if useCache {
		r.entry = newCacheEntry(key, files, r.asset)
	}
	return r
}

// current reports whether the output recorded in e is still on disk as
// written: the output file and every other file of it (a .gltf's .bin,
// the resources copied beside it). Anything missing or different means
// it is redone.
func current(j Job, e cacheEntry) bool {
	if sum, ok := fileSHA256(j.Output); !ok || sum != e.Output {
		return false
	}
	outDir := filepath.Dir(j.Output)
	for rel, want := range e.Files {
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			return false
		}
		if sum, ok := fileSHA256(filepath.Join(outDir, filepath.FromSlash(rel))); !ok || sum != want {
			return false
		}
	}
	return true
}

// cleanOutputFolders repairs, before anything is written, what a killed
// run left in the output folders (see gltfio.CleanOutputFolder): its
// temporary files and the .bin files no .gltf output references. A
// folder that cannot be listed is left to fail its jobs' writes.
func cleanOutputFolders(jobs []Job, fsys gltfio.FS, lim gltfio.Limits) {
	byDir := map[string][]string{}
	var dirs []string
	for _, j := range jobs {
		if j.Skip != "" || j.Unreadable != "" {
			continue
		}
		d := filepath.Dir(j.Output)
		if _, ok := byDir[d]; !ok {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], filepath.Base(j.Output))
	}
	for _, d := range dirs {
		gltfio.CleanOutputFolder(fsys, d, byDir[d], lim)
	}
}

func fillReport(a *Asset, rep *generate.Report) {
	a.Bodies, a.Kept = rep.Bodies, rep.Kept
	for k, v := range rep.Colliders {
		a.Colliders[k] = v
	}
	for _, b := range rep.BodyList {
		a.BodyList = append(a.BodyList, Body{Node: b.Node, Name: b.Name, Colliders: b.Colliders, Mass: b.Mass, Volume: b.Volume, MassSource: b.MassSource,
			InertiaSource: b.InertiaSource, CollidersVolume: b.CollidersVolume, Size: b.Size, Merged: b.Merged})
	}
	a.Ragdolls = rep.Ragdolls
	for _, pr := range rep.Parts {
		a.Parts = append(a.Parts, pr)
		if pr.HullVertices > 0 {
			a.Hulls += pr.Colliders
		}
		a.CappedHulls += pr.CappedHulls
	}
	a.Notes = append(a.Notes, rep.Notes...)
	a.Warnings = append(a.Warnings, rep.Warnings...)
}

// validateResult validates the generated result as it would be written: the
// result encoded as a GLB (every buffer from the bytes loaded, none read
// again from disk) is decoded again and run through physics/validate.
// Errors fail the asset; warnings do not.
func validateResult(a *gltfio.Asset, opt generate.Options) error {
	data, err := a.Encode(true)
	if err != nil {
		return err
	}
	doc := new(gltf.Document)
	dec := gltf.NewDecoderFS(bytes.NewReader(data), os.DirFS(filepath.Dir(a.Path)))
	if err := dec.Decode(doc); err != nil {
		return fmt.Errorf("decoding the result: %w", err)
	}
	if codecs.Family(doc) == physics.None {
		return fmt.Errorf("no colliders in the result")
	}
	probs := validate.Validate(doc, validate.Options{MaxHullVertices: opt.Collider.MaxHullVertices})
	if validate.HasErrors(probs) {
		for _, p := range probs {
			if p.Severity == validate.Error {
				return fmt.Errorf("invalid physics: %s", p)
			}
		}
	}
	return nil
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

type nopProgress struct{}

func (nopProgress) Start(int)       {}
func (nopProgress) Done(int, Asset) {}
func (nopProgress) Finish()         {}
