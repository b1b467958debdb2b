// Command sim-bench measures what a game pays for an asset's colliders: a
// pile of N copies dropped into a walled box in Jolt and Rapier (pile.mjs,
// with tools/drop-test's loader and engines), per collider set of the same
// asset, beside the set's fidelity (decompose.Measure, as tools/acd-bench
// measures), every figure also as a ratio to one set measured in the same
// run.
//
//	go run ./tools/sim-bench -ac BIN [-baseline BIN] [-vhacd TestVHACD] [-coacd coacd] ASSET...
//
// See README.md for the sets, the flags and what is measured.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// config is the benchmark's settings, from the flags.
type config struct {
	ac, baseline       string
	budgetFlag         string
	ks                 []int
	vhacd, coacd       string
	vhacdDefault       int
	peersCached        bool
	reuse              bool
	engines            []string
	n, steps, maxSteps int
	repeat, jobs, seed int
	samples            int
	work               string
	ratioTo            string
	alsoRatioTo        []string // more sets the summary's ratios are against
	subsets            []subset // groups of assets the summary also gives
	sets               []string // when not empty, only these sets
	variants           []variant
	tools              string // the tools folder (pile.mjs, node_modules)
}

func main() {
	var c config
	var ks, engines, sets string
	flag.StringVar(&c.ac, "ac", "", "autocollide binary under test (required)")
	flag.StringVar(&c.baseline, "baseline", "", "a second autocollide binary: its default-profile output is the set \"base\" (e.g. main at 7919010)")
	flag.StringVar(&c.budgetFlag, "budget-flag", "--max-hulls", "the flag giving -ac a budget of K colliders per mesh instance, with --method decompose (--max-colliders once it exists)")
	flag.StringVar(&ks, "k", "4,8,16", "budgets K: ours and the peers at each")
	flag.StringVar(&c.vhacd, "vhacd", "", "V-HACD's TestVHACD binary (empty: no V-HACD sets)")
	flag.StringVar(&c.coacd, "coacd", "", "CoACD's coacd binary (empty: no CoACD sets)")
	flag.BoolVar(&c.peersCached, "peers-cached", false, "use only the peers' hulls already in the work folder (vhacd-hK.obj, coacd-cK.obj): a set without them is reported as not run")
	flag.BoolVar(&c.reuse, "reuse", false, "reuse the collider files a previous run left in the work folder (ASSET/sets/SET.glb; only for the same binaries and settings)")
	flag.IntVar(&c.vhacdDefault, "vhacd-default", 32, "V-HACD's default hull budget, the set vhacd-default (0: left out)")
	flag.StringVar(&engines, "engines", "jolt,rapier", "engines (empty: the fidelity figures only, no pile)")
	flag.IntVar(&c.n, "n", 64, "copies in the pile")
	flag.IntVar(&c.steps, "steps", 300, "steps timed (60 Hz)")
	flag.IntVar(&c.maxSteps, "max-steps", 900, "steps at most while waiting for rest")
	flag.IntVar(&c.repeat, "repeat", 1, "runs of each pile (interleaved: every set and engine before the next round); medians are reported")
	flag.IntVar(&c.jobs, "j", 1, "piles run at once (figures are per-process CPU time)")
	flag.IntVar(&c.seed, "seed", 1, "seed of the copies' rotations")
	flag.IntVar(&c.samples, "samples", 0, "surface samples for the fidelity figures (0: decompose.DefaultSamples)")
	flag.StringVar(&c.work, "work", "", "work folder: meshes, peers' hulls and collider files are kept there and reused (default: a temporary folder, removed)")
	flag.StringVar(&c.ratioTo, "ratio-to", "", "set the ratios are against (default: base with -baseline, else default)")
	alsoRatioTo := flag.String("also-ratio-to", "", "comma-separated sets the summary also gives ratios to, beside -ratio-to's (e.g. vhacd-default)")
	flag.Func("subset", "NAME=SUBSTRING: the summary also gives the assets whose path contains SUBSTRING as a group NAME (the first match wins); repeatable", func(s string) error {
		g, err := parseSubset(s)
		if err == nil {
			c.subsets = append(c.subsets, g)
		}
		return err
	})
	flag.StringVar(&sets, "sets", "", "comma-separated sets to run (default: all)")
	flag.Func("variant", "NAME=FLAGS: a set NAME made by -ac generate with these space-separated flags (e.g. v32=\"--max-hull-vertices 32\"); repeatable, listed after default", func(s string) error {
		v, err := parseVariant(s)
		if err == nil {
			c.variants = append(c.variants, v)
		}
		return err
	})
	jsonOut := flag.String("json", "", "write every figure as JSON to this file")
	fromJSON := flag.String("from-json", "", "print the tables of a previous run's -json file (its summary made again, with -also-ratio-to's sets too) instead of running")
	flag.Parse()
	if *fromJSON != "" {
		var also []string
		if *alsoRatioTo != "" {
			also = strings.Split(*alsoRatioTo, ",")
		}
		res, err := readResults(*fromJSON, also)
		if err != nil {
			fail(err)
		}
		printMarkdown(os.Stdout, c, res)
		return
	}
	if c.ac == "" || flag.NArg() == 0 {
		fail(fmt.Errorf("usage: sim-bench -ac BIN [flags] ASSET... (see -h)"))
	}
	var err error
	if c.ks, err = ints(ks); err != nil {
		fail(fmt.Errorf("-k: %w", err))
	}
	if engines != "" {
		c.engines = strings.Split(engines, ",")
	}
	if sets != "" {
		c.sets = strings.Split(sets, ",")
	}
	if *alsoRatioTo != "" {
		c.alsoRatioTo = strings.Split(*alsoRatioTo, ",")
	}
	if c.ratioTo == "" {
		c.ratioTo = "default"
		if c.baseline != "" {
			c.ratioTo = "base"
		}
	}
	_, file, _, _ := runtime.Caller(0)
	c.tools = filepath.Join(filepath.Dir(file), "..")
	if c.work == "" {
		if c.work, err = os.MkdirTemp("", "sim-bench-"); err != nil {
			fail(err)
		}
		defer os.RemoveAll(c.work)
	}
	res, err := benchmark(c, flag.Args(), os.Stderr)
	if err != nil {
		fail(err)
	}
	printMarkdown(os.Stdout, c, res)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(res, "", " ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			fail(err)
		}
	}
}

// variant is an extra set of -ac's output with its own flags.
type variant struct {
	name  string
	flags []string
}

// parseVariant reads -variant's NAME=FLAGS.
func parseVariant(s string) (variant, error) {
	name, flags, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, "/\\ ,") {
		return variant{}, fmt.Errorf("%q is not NAME=FLAGS with a NAME of no spaces, commas or slashes", s)
	}
	return variant{name: name, flags: strings.Fields(flags)}, nil
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, k)
	}
	return out, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sim-bench:", err)
	os.Exit(1)
}
