package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// results is everything one run measured.
type results struct {
	N, Steps, Repeat int
	Engines          []string
	// RatioTo is the set the per-asset tables' ratios are against;
	// RatiosTo every set the summaries' ratios are against (RatioTo first).
	RatioTo  string
	RatiosTo []string
	Assets   []assetResult
	// Summary is the whole population's, then each subset's.
	Summary []summaryTable
}

type assetResult struct {
	Name string
	// Subset is the name of the -subset the input's path falls in ("" for
	// none).
	Subset    string
	Triangles int
	Diagonal  float64
	Sets      []setResult
}

// setResult is one collider set of an asset: its fidelity and, per engine,
// its pile's cost.
type setResult struct {
	Name  string
	Error string `json:",omitempty"`
	// Colliders by shape type, and the hulls' vertices.
	Colliders    int
	Shapes       map[string]int
	HullVertices int
	// SurfaceDist is decompose.Metrics.SurfaceDistMean (fraction of the
	// mesh's diagonal); Uncovered its share of mesh surface samples
	// outside every collider; Coverage the share of mesh vertices inside
	// a collider (within decompose.UncoveredTol of the diagonal).
	// OuterDist is Metrics.OuterDistMean: the same leaving out the hull
	// faces inside another hull (where hulls meet), which no body touches.
	SurfaceDist, OuterDist, Uncovered, Coverage float64
	Engines                                     map[string]*engineResult
}

// engineResult is the medians over a set's runs in one engine.
type engineResult struct {
	Runs []pileRun
	// ActiveCPU, MedianCPU and MeanCPU are ms of CPU per step: the median
	// of the steps before rest, the median and the mean of the first
	// -steps steps; MedianWall the median wall time of those.
	ActiveCPU, MedianCPU, MeanCPU, MedianWall float64
	// Rest is the median time to rest in s, nil when a run did not rest.
	Rest    *float64
	Escaped int
	Error   string `json:",omitempty"`
}

type stats struct{ Median, Mean, P90 float64 }

// pileRun is pile.mjs's answer.
type pileRun struct {
	Colliders  int
	HullPoints int
	Cell       float64
	Steps      int
	Frames     int
	StepMs     stats
	StepCPUMs  stats `json:"stepCpuMs"`
	ActiveCPU  stats `json:"activeCpuMs"`
	RestTime   *float64
	Escaped    int
	Round, Set int `json:"-"`
}

// collidersets lists the sets of the run, in table order.
func collidersets(c config) []set {
	var out []set
	if c.baseline != "" {
		out = append(out, set{"base", autocollideSet(c.baseline)})
	}
	out = append(out, set{"default", autocollideSet(c.ac)})
	for _, v := range c.variants {
		out = append(out, set{v.name, autocollideSet(c.ac, v.flags...)})
	}
	if c.vhacd != "" && c.vhacdDefault > 0 && !slices.Contains(c.ks, c.vhacdDefault) {
		k := c.vhacdDefault
		out = append(out, set{"vhacd-default", peerSet(fmt.Sprintf("vhacd-h%d.obj", k), c.peersCached, vhacdCommand(c.vhacd, k))})
	}
	for _, k := range c.ks {
		out = append(out, set{fmt.Sprintf("ours-k%d", k), autocollideSet(c.ac, "--method", "decompose", c.budgetFlag, fmt.Sprint(k))})
		if c.vhacd != "" {
			name := fmt.Sprintf("vhacd-h%d", k)
			if k == c.vhacdDefault {
				name += " (default)"
			}
			out = append(out, set{name, peerSet(fmt.Sprintf("vhacd-h%d.obj", k), c.peersCached, vhacdCommand(c.vhacd, k))})
		}
		if c.coacd != "" {
			out = append(out, set{fmt.Sprintf("coacd-c%d", k), peerSet(fmt.Sprintf("coacd-c%d.obj", k), c.peersCached, coacdCommand(c.coacd, k))})
		}
	}
	if len(c.sets) > 0 {
		out = slices.DeleteFunc(out, func(s set) bool { return !slices.Contains(c.sets, s.name) })
	}
	return out
}

// benchmark prepares every asset's sets, measures their fidelity, then runs
// the piles: per round, every asset's every set in every engine, so that
// the load of the machine falls on all of them alike.
func benchmark(c config, files []string, log io.Writer) (*results, error) {
	res := &results{N: c.n, Steps: c.steps, Repeat: c.repeat, Engines: c.engines, RatioTo: c.ratioTo, RatiosTo: []string{c.ratioTo}}
	for _, r := range c.alsoRatioTo {
		if !slices.Contains(res.RatiosTo, r) {
			res.RatiosTo = append(res.RatiosTo, r)
		}
	}
	sets := collidersets(c)
	if len(sets) == 0 {
		return nil, fmt.Errorf("no sets to run (-sets %v)", c.sets)
	}
	type job struct {
		asset, set int
		engine     string
		round      int
		file       string
		unit       float64
		center     geom.Vec3
	}
	var jobs []job
	for ai, f := range files {
		a, err := prepareAsset(f, c.work)
		if err != nil {
			return nil, err
		}
		box := geom.BoundsOf(a.mesh.Vertices)
		ar := assetResult{Name: a.name, Subset: subsetOf(f, c.subsets), Triangles: len(a.mesh.Triangles), Diagonal: box.Diagonal()}
		if ar.Diagonal <= 0 {
			return nil, fmt.Errorf("%s: the mesh has no extent", f)
		}
		if err := os.MkdirAll(filepath.Join(a.dir, "sets"), 0o755); err != nil {
			return nil, err
		}
		for si, s := range sets {
			fmt.Fprintf(log, "sim-bench: %s: %s\n", a.name, s.name)
			sr := setResult{Name: s.name, Engines: map[string]*engineResult{}}
			path := filepath.Join(a.dir, "sets", s.name+".glb")
			if st, err := os.Stat(path); c.reuse && err == nil && st.Size() > 0 {
				// kept from a previous run
			} else if err := remake(s, a, path); err != nil {
				sr.Error = err.Error()
				fmt.Fprintf(log, "sim-bench: %s: %s: %v\n", a.name, s.name, err)
				ar.Sets = append(ar.Sets, sr)
				continue
			}
			if err := measure(&sr, a, path, c.samples); err != nil {
				return nil, err
			}
			for _, e := range c.engines {
				sr.Engines[e] = &engineResult{}
				for r := 0; r < c.repeat; r++ {
					jobs = append(jobs, job{ai, si, e, r, path, ar.Diagonal, box.Center()})
				}
			}
			ar.Sets = append(ar.Sets, sr)
		}
		res.Assets = append(res.Assets, ar)
	}
	// Interleave: round by round, every pile.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].round < jobs[j].round })
	var mu sync.Mutex
	queue := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < max(1, c.jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				run, err := runPile(c, j.file, j.engine, j.unit, j.center)
				mu.Lock()
				sr := &res.Assets[j.asset].Sets[j.set]
				er := sr.Engines[j.engine]
				if err != nil {
					er.Error = err.Error()
					fmt.Fprintf(log, "sim-bench: %s: %s: %s: %v\n", res.Assets[j.asset].Name, sr.Name, j.engine, err)
				} else {
					er.Runs = append(er.Runs, run)
					fmt.Fprintf(log, "sim-bench: round %d %s %s %s: active %.3f ms cpu/step, rest %s\n", j.round+1, res.Assets[j.asset].Name, sr.Name, j.engine, run.ActiveCPU.Median, restText(run.RestTime))
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	for ai := range res.Assets {
		for si := range res.Assets[ai].Sets {
			for _, er := range res.Assets[ai].Sets[si].Engines {
				summarize(er)
			}
		}
	}
	res.Summary = summaries(res, res.RatiosTo, c.subsets)
	return res, nil
}

// measure fills a set's fidelity figures from its file.
func measure(sr *setResult, a *asset, path string, samples int) error {
	cs, err := readColliders(path)
	if err != nil {
		return err
	}
	sr.Colliders = cs.count()
	sr.Shapes = map[string]int{}
	for t, n := range cs.shapes {
		sr.Shapes[string(t)] = n
	}
	sr.HullVertices = cs.convexVertices
	if samples <= 0 {
		samples = decompose.DefaultSamples
	}
	m := decompose.Measure(a.mesh.Vertices, a.mesh.Triangles, cs.hulls, samples, 1)
	sr.SurfaceDist, sr.OuterDist, sr.Uncovered = m.SurfaceDistMean, m.OuterDistMean, m.Uncovered
	sr.Coverage = coverage(a.mesh.Vertices, cs.hulls, decompose.UncoveredTol*geom.BoundsOf(a.mesh.Vertices).Diagonal())
	return nil
}

// coverage is the share of the points inside at least one hull, within
// tol of its every face plane.
func coverage(points []geom.Vec3, hulls []*hull.Hull, tol float64) float64 {
	type plane struct {
		n geom.Vec3
		d float64
	}
	planes := make([][]plane, len(hulls))
	boxes := make([]geom.Box, len(hulls))
	for i, h := range hulls {
		boxes[i] = geom.BoundsOf(h.Vertices)
		for _, t := range h.Triangles {
			a, b, c := h.Vertices[t[0]], h.Vertices[t[1]], h.Vertices[t[2]]
			n := b.Sub(a).Cross(c.Sub(a))
			if l := n.Len(); l > 0 {
				n = n.Scale(1 / l)
				planes[i] = append(planes[i], plane{n, n.Dot(a)})
			}
		}
	}
	inside := 0
	for _, p := range points {
		for i := range hulls {
			b := boxes[i]
			if p[0] < b.Min[0]-tol || p[1] < b.Min[1]-tol || p[2] < b.Min[2]-tol || p[0] > b.Max[0]+tol || p[1] > b.Max[1]+tol || p[2] > b.Max[2]+tol {
				continue
			}
			in := len(planes[i]) > 0
			for _, pl := range planes[i] {
				if pl.n.Dot(p)-pl.d > tol {
					in = false
					break
				}
			}
			if in {
				inside++
				break
			}
		}
	}
	if len(points) == 0 {
		return 0
	}
	return float64(inside) / float64(len(points))
}

// runPile runs pile.mjs on one file in one engine.
func runPile(c config, file, engine string, unit float64, center geom.Vec3) (pileRun, error) {
	var r pileRun
	cmd := exec.Command("node", filepath.Join(c.tools, "sim-bench", "pile.mjs"), "--engine", engine,
		"--n", fmt.Sprint(c.n), "--steps", fmt.Sprint(c.steps), "--max-steps", fmt.Sprint(c.maxSteps),
		"--unit", fmt.Sprint(unit), "--center", fmt.Sprintf("%g,%g,%g", center[0], center[1], center[2]),
		"--seed", fmt.Sprint(c.seed), file)
	cmd.Dir = c.tools
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return r, fmt.Errorf("pile.mjs %s: %w: %s", file, err, stderr.String())
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("pile.mjs %s: bad answer: %w", file, err)
	}
	return r, nil
}

// summarize takes the medians over an engine's runs.
func summarize(er *engineResult) {
	if len(er.Runs) == 0 {
		return
	}
	pick := func(f func(pileRun) float64) float64 {
		xs := make([]float64, len(er.Runs))
		for i, r := range er.Runs {
			xs[i] = f(r)
		}
		sort.Float64s(xs)
		return xs[len(xs)/2]
	}
	er.ActiveCPU = pick(func(r pileRun) float64 { return r.ActiveCPU.Median })
	er.MedianCPU = pick(func(r pileRun) float64 { return r.StepCPUMs.Median })
	er.MeanCPU = pick(func(r pileRun) float64 { return r.StepCPUMs.Mean })
	er.MedianWall = pick(func(r pileRun) float64 { return r.StepMs.Median })
	rested := true
	for _, r := range er.Runs {
		rested = rested && r.RestTime != nil
		er.Escaped = max(er.Escaped, r.Escaped)
	}
	if rested {
		v := pick(func(r pileRun) float64 { return *r.RestTime })
		er.Rest = &v
	}
}

func restText(t *float64) string {
	if t == nil {
		return "no"
	}
	return fmt.Sprintf("%.2f s", *t)
}

// geomean is the geometric mean of positive values (NaN when none).
func geomean(xs []float64) float64 {
	var s float64
	n := 0
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			s += math.Log(x)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Exp(s / float64(n))
}

// remake writes a set's file afresh.
func remake(s set, a *asset, path string) error {
	os.Remove(path)
	return s.make(a, path)
}
