package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/autocollide/autocollide/batch"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/safetext"
	"github.com/spf13/cobra"
)

type generateFlags struct {
	output, outDir, profile, material string
	inPlace                           bool
	density, mass                     float64

	include, exclude                []string
	jobs                            int
	quiet, verbose                  bool
	report, previewDir              string
	dryRun, check, force, noTimings bool
	shard, shardMode                string
	shardFromEnv                    int
	limits                          limitFlags
}

func newGenerate() *cobra.Command {
	var f generateFlags
	c := &cobra.Command{
		Use:   "generate INPUT... (-o OUT | --out-dir DIR | --in-place)",
		Short: "Generate colliders and rigid bodies for glTF files",
		Long: `generate reads each INPUT (.gltf or .glb, or a folder searched recursively
for them), makes rigid bodies and colliders as its profile says (the default
profile: every root node holding geometry becomes a dynamic body, with the
cheapest collider that fits each mesh instance), and writes the result.

Settings come from flags, then AUTOCOLLIDE_* environment variables
(AUTOCOLLIDE_PROFILE, AUTOCOLLIDE_MAX_HULL_VERTICES, ...), then the
autocollide.yaml nearest to each input (its folder or a parent), then the
profile (--profile: a preset, see 'autocollide profiles list', or a file).
Physics already in a file is kept as it is. Running generate on its own
output replaces what it generated before.

The output keeps the input's container unless the output name asks for the
other (.glb or .gltf). A .gltf written to another folder gets copies of the
buffers and images it references. A folder's files are written under
--out-dir at the same relative paths.

Files are processed in parallel (-j); results are printed and reported in
input order. Under --out-dir, an output that is already current (same input
bytes, resources, options and tool) is not redone (--force redoes it); the
record is the .autocollide-cache.json file in each output folder.

--include and --exclude take glob patterns matched against paths relative to
the folder argument: path.Match per segment, and ** for any number of
segments; a pattern without / matches the file name at any depth.`,
		Example: `  # OMI physics with the embedded default profile (auto: primitives, hulls or decompositions)
  autocollide generate crate.glb -o crate.physics.glb

  # Khronos extensions, boxes, several files into a folder
  autocollide generate --format khr --method aabb a.gltf b.glb --out-dir build/

  # A whole asset tree, 4 at a time, with a JSON report
  autocollide generate assets/ --out-dir build/ -j 4 --report build/report.json

  # CI gate: exit 1 listing the files generate --in-place would change
  autocollide generate assets/ --check --exclude 'wip/**'

  # Try the settings in memory: what would be written, and is it valid?
  autocollide generate assets/ --dry-run --profile vehicle --report try.json

  # Shard 2 of 8 (a CI matrix, or --shard-from-env 8 in a Kubernetes Indexed Job);
  # balanced: every pod splits the listing by expected cost the same way
  autocollide generate assets/ --out-dir build/ --shard 2/8
  autocollide generate assets/ --out-dir build/ --shard 2/8 --shard-mode balanced

  # Older KHR geometry.node form, in place
  autocollide generate --format khr --khr-geometry node --in-place level.glb

  # A profile file kept in the project, or a preset
  autocollide generate --profile props.yaml chair.glb -o out/chair.glb
  autocollide generate --profile static-level levels/ --out-dir build/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runGenerate(c, args, f) },
	}
	fl := c.Flags()
	fl.StringVarP(&f.output, "output", "o", "", "output file (one input only)")
	fl.StringVar(&f.outDir, "out-dir", "", "output folder (file names kept; a folder input's tree mirrored)")
	fl.BoolVar(&f.inPlace, "in-place", false, "overwrite each input")
	fl.StringVar(&f.profile, "profile", "default", "profile: a preset name or a YAML file (autocollide profiles list)")
	addSettingFlags(fl)
	fl.Float64Var(&f.density, "density", 0, "density of dynamic bodies in kg/m³ (default from the profile, else 1000)")
	fl.StringVar(&f.material, "material", "", "material whose density dynamic bodies have (oak, steel, plastic, ...)")
	fl.Float64Var(&f.mass, "mass", 0, "total mass of each dynamic body in kg, instead of a density")
	fl.StringArrayVar(&f.include, "include", nil, "glob of files to take from folder inputs (repeatable; default all .gltf and .glb)")
	fl.StringArrayVar(&f.exclude, "exclude", nil, "glob of files or folders to leave out of folder inputs (repeatable)")
	fl.IntVarP(&f.jobs, "jobs", "j", runtime.NumCPU(), "files processed at once")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print failures only")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "print each body and the time per file")
	fl.StringVar(&f.report, "report", "", "write a report: FILE.json (schema: batch/report.schema.json), FILE.md, or FILE.html (a page with a picture of each output, drawn under FILE-previews/ without --preview-dir)")
	fl.StringVar(&f.previewDir, "preview-dir", "", "draw each output's colliders in a PNG under this folder (the input's relative path, .png; an HTML report shows them)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "generate in memory and list what would be written; fail assets without colliders or with invalid physics; write nothing")
	fl.BoolVar(&f.check, "check", false, "CI gate: exit 1 listing the files a run would change (no physics, stale generated physics, physics errors); write nothing")
	fl.BoolVar(&f.force, "force", false, "redo outputs that are already current")
	fl.BoolVar(&f.noTimings, "no-timings", false, "leave timings out of the report (for comparing reports)")
	fl.StringVar(&f.shard, "shard", "", "process shard K/N of the inputs only (by a hash of each relative path)")
	fl.IntVar(&f.shardFromEnv, "shard-from-env", 0, "process shard JOB_COMPLETION_INDEX+1 of this many")
	fl.StringVar(&f.shardMode, "shard-mode", "hash", "how shards split the files: hash (by path: stable as files are added) or balanced (longest expected first, from declared triangles and method)")
	f.limits.register(fl)
	return c
}

// maxTableRows is the largest run whose summary table lists every file.
const maxTableRows = 40

func runGenerate(c *cobra.Command, inputs []string, f generateFlags) error {
	modes := 0
	for _, set := range []bool{f.output != "", f.outDir != "", f.inPlace} {
		if set {
			modes++
		}
	}
	switch {
	case f.check && f.dryRun:
		return usageError{fmt.Errorf("give only one of --check and --dry-run")}
	case (f.check || f.dryRun) && modes > 1, !f.check && !f.dryRun && modes != 1:
		return usageError{fmt.Errorf("give exactly one of -o, --out-dir or --in-place")}
	case f.quiet && f.verbose:
		return usageError{fmt.Errorf("give only one of --quiet and --verbose")}
	case f.jobs < 1:
		return usageError{fmt.Errorf("-j %d: want at least 1", f.jobs)}
	case f.shard != "" && f.shardFromEnv != 0:
		return usageError{fmt.Errorf("give only one of --shard and --shard-from-env")}
	case f.previewDir != "" && (f.check || f.dryRun):
		return usageError{fmt.Errorf("--preview-dir draws written outputs; --check and --dry-run write none")}
	}
	if f.previewDir == "" && !f.check && !f.dryRun {
		// An HTML report's pictures are files beside it, each read when
		// its row is scrolled to (embedded, 1,000 of them made the page
		// slow to open).
		f.previewDir = batch.PreviewsBeside(f.report)
	}
	if f.output != "" && len(inputs) > 1 {
		return usageError{fmt.Errorf("-o takes one input; use --out-dir for %d", len(inputs))}
	}
	var shard batch.Shard
	var err error
	switch {
	case f.shard != "":
		shard, err = batch.ParseShard(f.shard)
	case f.shardFromEnv < 0:
		err = fmt.Errorf("--shard-from-env %d: want a shard count of at least 1", f.shardFromEnv)
	case f.shardFromEnv > 0:
		shard, err = batch.ShardFromEnv(f.shardFromEnv, os.Getenv)
	}
	if err != nil {
		return usageError{err}
	}
	plan := batch.PlanOptions{Output: f.output, OutDir: f.outDir, InPlace: f.inPlace || modes == 0, Include: f.include, Exclude: f.exclude}
	jobs, err := batch.Plan(inputs, plan)
	if err != nil {
		return usageError{err}
	}
	if len(jobs) == 0 {
		return usageError{fmt.Errorf("no .gltf or .glb files in %v", inputs)}
	}
	if err := checkWrites(jobs, f); err != nil {
		return usageError{err}
	}
	jobs, err = shardJobs(c, jobs, shard, f)
	if err != nil {
		return usageError{err}
	}
	groups, err := groupBySettings(c, jobs)
	if err != nil {
		return usageError{err}
	}

	mode := batch.Write
	switch {
	case f.dryRun:
		mode = batch.DryRun
	case f.check:
		mode = batch.Check
	}
	verbosity := batch.Normal
	switch {
	case f.quiet:
		verbosity = batch.Quiet
	case f.verbose:
		verbosity = batch.Verbose
	}
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	var prog batch.Progress = &batch.LogProgress{Out: stdout, Err: stderr, Verbosity: verbosity}
	tty := false
	if ef, ok := stderr.(*os.File); ok && batch.IsTerminal(ef) && !f.quiet {
		// A lone file gets the bar too, for the steps of a long
		// decomposition beside it, and keeps its line (no table follows).
		tty = true
		prog = &batch.BarProgress{W: ef, Verbosity: verbosity, Lines: len(jobs) == 1}
	}

	ctx := c.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal, a second one ends the process at once.
		<-ctx.Done()
		stop()
	}()

	bopt := batch.Options{Mode: mode, Workers: f.jobs, Force: f.force, InPlace: plan.InPlace, Progress: prog,
		Release:  "autocollide " + toolVersion(),
		Previews: batch.Previews{Dir: f.previewDir, Thumbnails: batch.IsHTMLName(f.report) && f.previewDir == ""}}
	if err := f.limits.apply(&bopt); err != nil {
		return usageError{err}
	}
	if mode != batch.Check && f.outDir != "" {
		// Without a way to tell this build from another, nothing is reused.
		id, ok := buildIdentity()
		bopt.ToolVersion, bopt.Cache = id, ok
	}
	start := time.Now()
	assets, interrupted, cacheErr := runGroups(ctx, jobs, groups, bopt)
	rep := &batch.Report{
		Tool:    batch.Tool{Name: "autocollide", Version: toolVersion()},
		Profile: reportProfile(groups),
		Mode:    string(mode), Shard: shard.String(), Interrupted: interrupted,
		Summary: batch.Summarize(assets), Assets: assets,
		WallMS: float64(time.Since(start).Microseconds()) / 1000,
	}
	if f.noTimings {
		rep.StripTimings()
	}
	if len(jobs) > 1 && !f.quiet {
		// A long run's table lists only the files that need attention.
		rep.WriteTable(stdout, tty && os.Getenv("NO_COLOR") == "", len(jobs) <= maxTableRows || f.verbose)
	}
	failed := rep.Summary.Failed > 0 || interrupted
	if cacheErr != nil {
		fmt.Fprintln(stderr, safetext.Term(cacheErr.Error()))
		failed = true
	}
	if mode == batch.Check && rep.Summary.Failed > 0 {
		fmt.Fprintf(stderr, "autocollide: %d of %d files are not up to date (listed above; generate writes them)\n", rep.Summary.Failed, rep.Summary.Total)
	} else if mode == batch.Check && !f.quiet && !interrupted {
		fmt.Fprintf(stderr, "autocollide: all %d files are up to date\n", rep.Summary.Total)
	}
	if interrupted {
		fmt.Fprintf(stderr, "autocollide: interrupted; %d files not done (run again to finish them)\n", rep.Summary.Skipped)
	}
	if f.report != "" {
		if err := rep.WriteFile(f.report); err != nil {
			fmt.Fprintf(stderr, "%s: writing the report: %v\n", f.report, err)
			failed = true
		}
	}
	for _, a := range assets {
		if a.Internal {
			return errInternal
		}
	}
	if failed {
		return errFailed
	}
	return nil
}

// shardJobs keeps the jobs of shard (all of them for the zero Shard):
// by path hash, or balanced by estimated cost over the whole listing
// (each job's method from its own settings).
func shardJobs(c *cobra.Command, jobs []batch.Job, shard batch.Shard, f generateFlags) ([]batch.Job, error) {
	mode, err := batch.ParseShardMode(f.shardMode)
	if err != nil {
		return nil, err
	}
	if mode == batch.HashShards {
		return shard.Filter(jobs), nil
	}
	if shard.N <= 1 {
		return jobs, nil
	}
	groups, err := groupBySettings(c, jobs)
	if err != nil {
		return nil, err
	}
	methods := make([]generate.Method, len(jobs))
	for _, g := range groups {
		for _, i := range g.jobs {
			methods[i] = g.s.opt.Collider.Method
		}
	}
	var bopt batch.Options
	if err := f.limits.apply(&bopt); err != nil {
		return nil, err
	}
	return shard.FilterBalanced(jobs, batch.JobCosts(jobs, methods, bopt.Limits)), nil
}

// checkWrites refuses, before anything is written, a run that would
// write over an input, a resource of one, or another of its outputs (see
// batch.CheckWrites); it sees the whole listing, so every shard of it
// agrees.
func checkWrites(jobs []batch.Job, f generateFlags) error {
	var bopt batch.Options
	if err := f.limits.apply(&bopt); err != nil {
		return err
	}
	w := batch.Writes{Outputs: !f.check && !f.dryRun, PreviewDir: f.previewDir, Cache: f.outDir != "" && !f.check, Report: f.report}
	return batch.CheckWrites(jobs, w, bopt.Limits)
}

// buildIdentity names this build of the tool for the cache key: the
// release version when there is one, else the SHA-256 of the executable,
// so a rebuilt development binary never reuses outputs of another. It
// reports false when neither is available.
func buildIdentity() (string, bool) {
	v := toolVersion()
	if bi, ok := debug.ReadBuildInfo(); v != "devel" && ok {
		dirty := slices.ContainsFunc(bi.Settings, func(s debug.BuildSetting) bool { return s.Key == "vcs.modified" && s.Value == "true" })
		if !dirty {
			return v, true
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	fh, err := os.Open(exe)
	if err != nil {
		return "", false
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", false
	}
	return v + " " + hex.EncodeToString(h.Sum(nil)), true
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

// orList writes xs as "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
