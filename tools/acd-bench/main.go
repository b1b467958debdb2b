// Command acd-bench runs decompose.Decompose on OBJ meshes, measures its
// hulls and (optionally) V-HACD's hulls from vhacd-js with the same
// decompose.Measure, and prints a Markdown table.
//
//	go run ./tools/acd-bench -vhacd vhacd.json mesh1.obj mesh2.obj ...
//
// The vhacd.json file is written by vhacd.mjs: for each mesh file name, the
// hulls (vertex arrays) and the seconds taken. run.sh runs both. Times are
// medians of -repeat runs, wall clock and process CPU (the CPU figure is the
// fairer one on a shared machine; ours uses every core, vhacd-js one).
//
// With -orientations it decomposes each mesh turned four ways instead and
// prints hull counts and surface distances: a tuning that helps one
// orientation only is noise.
//
// With -budget it decomposes each mesh at the hull budgets of -budget-k with
// decompose (MaxHulls), native V-HACD (-h) and CoACD (-c) from -peers, in one
// run, and prints the frontier table (see budget.go).
//
// With -scale it times the decomposition of bench meshes subdivided to 1k,
// 10k, 100k and 1M triangles, each in a child process for its peak RSS,
// and prints the log-log slopes of time and RSS (see scale.go).
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/obj"
)

type vhacdMesh struct {
	Seconds    float64        `json:"seconds"`
	CPUSeconds float64        `json:"cpuSeconds"`
	Hulls      [][][3]float64 `json:"hulls"`
	Error      string         `json:"error"`
}

func main() {
	vhacdPath := flag.String("vhacd", "", "JSON results of vhacd.mjs (optional)")
	samples := flag.Int("samples", decompose.DefaultSamples, "samples per surface for the metrics")
	repeat := flag.Int("repeat", 3, "runs per mesh; the median time is reported")
	workers := flag.Int("workers", 0, "Options.Workers (0 = all cores)")
	concavity := flag.Float64("concavity", 0, "Options.Concavity (0 = default); with -budget too")
	coacdUnits := flag.Bool("coacd-units", false, "read -concavity (default 0.05) as CoACD does: a fraction of half the longest side of the bounding box, not of its diagonal (CoACD scales its input to [-1,1] along the longest side)")
	gapSlack := flag.Float64("gap-slack", 0, "with -budget, Options.GapSlack (0 = the library's default, none; the default profile sets 0.2)")
	search := flag.Int("search", 0, "Options.SearchTriangles (0 = default)")
	skipRelax := flag.Bool("skip-relax", false, "Options.SkipRelax (what the default profile's auto sets, with -search 1500 and -skip-tighten)")
	skipTighten := flag.Bool("skip-tighten", false, "Options.SkipTighten (what the default profile's auto sets, with -search 1500 and -skip-relax)")
	export := flag.String("export", "", "convert the glTF arguments to OBJ files in this folder and exit")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the decompose runs to this file")
	parts := flag.Bool("parts", false, "with -export, one OBJ per glTF mesh instead of one per file")
	orient := flag.Bool("orientations", false, "decompose each mesh in four orientations and print hulls and surface distance for each, instead of the table")
	scaleMode := flag.Bool("scale", false, "time and peak RSS of torus1, cup and ob_chair_gothic (in the -meshes folder) subdivided to 1k-1M triangles, each in a child process, and their log-log slopes")
	meshDir := flag.String("meshes", "", "with -scale, the folder of the bench meshes (default: shared/bench/acd-meshes found above the working directory)")
	child := flag.String("scale-child", "", "internal: decompose this OBJ subdivided -k times and print JSON")
	k := flag.Int("k", 1, "with -scale-child, the subdivision")
	timeout := flag.Duration("timeout", 10*time.Minute, "with -scale, the time limit of one child")
	scaleHulls := flag.Int("scale-hulls", 0, "with -scale, Options.MaxHulls of every run (0: none, one search; K: a budget of K without a slack, the target's two searches)")
	budget := flag.Bool("budget", false, "decompose each mesh at each of -budget-k hulls with decompose, native V-HACD and CoACD (from -peers) and print the frontier table, instead of the table")
	budgetK := flag.String("budget-k", "4,8,16,32", "with -budget, the hull budgets")
	peers := flag.String("peers", "/tmp/peers/bin", "with -budget, the folder of the native TestVHACD and coacd programs (shared/peers/build.sh)")
	budgetCache := flag.String("budget-cache", "", "with -budget, a JSON file caching the peers' results (reused when present, extended as they finish)")
	flag.Parse()
	if *child != "" {
		if err := scaleChild(*child, *k, *workers, *scaleHulls, *cpuProfile); err != nil {
			fail(err)
		}
		return
	}
	if *scaleMode {
		if err := scale(*meshDir, *workers, *scaleHulls, *timeout); err != nil {
			fail(err)
		}
		return
	}
	if *budget {
		ks, err := parseKs(*budgetK)
		if err != nil {
			fail(err)
		}
		opt := decompose.Options{Workers: *workers, Concavity: *concavity, GapSlack: *gapSlack}
		if err := budgetTable(flag.Args(), ks, *peers, *budgetCache, *samples, opt); err != nil {
			fail(err)
		}
		return
	}
	if *orient {
		if err := orientations(flag.Args(), *samples, *workers, *concavity); err != nil {
			fail(err)
		}
		return
	}
	if *export != "" {
		for _, path := range flag.Args() {
			ms, err := readGLTF(path, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), *parts)
			if err != nil {
				fail(err)
			}
			for _, m := range ms {
				if err := writeOBJ(filepath.Join(*export, m.name+".obj"), m.mesh); err != nil {
					fail(err)
				}
			}
		}
		return
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	var vh map[string]vhacdMesh
	if *vhacdPath != "" {
		b, err := os.ReadFile(*vhacdPath)
		if err != nil {
			fail(err)
		}
		if err := json.Unmarshal(b, &vh); err != nil {
			fail(fmt.Errorf("%s: %w", *vhacdPath, err))
		}
	}
	fmt.Printf("GOMAXPROCS=%d, %d samples per surface, median of %d runs. Distances in %% of the bounding-box diagonal.\n\n", runtime.GOMAXPROCS(0), *samples, *repeat)
	if *coacdUnits {
		fmt.Printf("Threshold in CoACD's units (-coacd-units): Options.Concavity = c·L/2/diagonal per mesh, c = %g.\n\n", cmp.Or(*concavity, decompose.DefaultConcavity))
	}
	fmt.Println("| mesh | tris | tool | hulls | verts (max) | uncovered % | vertex outside % | bloat mean / max % | surface dist % | outer dist % | concavity % | wall s | cpu s | wall ratio ours/vhacd | cpu ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var results []result
	for _, path := range flag.Args() {
		m, err := obj.ReadFile(path)
		if err != nil {
			fail(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".obj")
		conc := *concavity
		if *coacdUnits {
			conc = coacdConcavity(m.Vertices, conc)
		}
		var res *decompose.Result
		var times, cpus []float64
		for r := 0; r < *repeat; r++ {
			c0 := cpuSeconds()
			t0 := time.Now()
			res, err = decompose.Decompose(context.Background(), m.Vertices, m.Triangles, decompose.Options{Workers: *workers, Concavity: conc, SearchTriangles: *search, SkipRelax: *skipRelax, SkipTighten: *skipTighten})
			times = append(times, time.Since(t0).Seconds())
			cpus = append(cpus, cpuSeconds()-c0)
			if err != nil {
				fail(fmt.Errorf("%s: %w", path, err))
			}
		}
		ours, oursCPU := median(times), median(cpus)
		mt := decompose.Measure(m.Vertices, m.Triangles, res.Hulls, *samples, 1)
		ratio, cpuRatio := "–", "–"
		v, ok := vh[name]
		if ok && v.Error == "" && v.Seconds > 0 {
			ratio = fmt.Sprintf("%.3f", ours/v.Seconds)
			cpuRatio = fmt.Sprintf("%.3f", oursCPU/v.CPUSeconds)
		}
		row(name, len(m.Triangles), "decompose", mt, ours, oursCPU, ratio, cpuRatio)
		r := result{name: name, ours: mt, secs: ours}
		if ok {
			if v.Error != "" {
				fmt.Printf("| %s | %d | vhacd-js | error: %s | | | | | | | | | | | |\n", name, len(m.Triangles), v.Error)
				results = append(results, r)
				continue
			}
			var hs []*hull.Hull
			for _, pts := range v.Hulls {
				ps := make([]geom.Vec3, len(pts))
				for i, p := range pts {
					ps[i] = geom.Vec3(p)
				}
				h, err := hull.Build(ps, hull.Options{MaxVertices: 1 << 20})
				if err != nil {
					continue
				}
				hs = append(hs, h)
			}
			vm := decompose.Measure(m.Vertices, m.Triangles, hs, *samples, 1)
			row(name, len(m.Triangles), "vhacd-js", vm, v.Seconds, v.CPUSeconds, "", "")
			r.vhacd, r.vhacdSecs = &vm, v.Seconds
		}
		results = append(results, r)
	}
	summary(results)
}

// turns are the orientations of -orientations: as given, the two cyclic
// permutations of the axes and a half turn about y (all proper rotations,
// so windings stay outward). Axis-aligned cuts see the same shape in each;
// only the order in which ties are met and the rounding change.
var turns = []struct {
	name string
	f    func(geom.Vec3) geom.Vec3
}{
	{"as given", func(v geom.Vec3) geom.Vec3 { return v }},
	{"(y,z,x)", func(v geom.Vec3) geom.Vec3 { return geom.Vec3{v[1], v[2], v[0]} }},
	{"(z,x,y)", func(v geom.Vec3) geom.Vec3 { return geom.Vec3{v[2], v[0], v[1]} }},
	{"(-x,y,-z)", func(v geom.Vec3) geom.Vec3 { return geom.Vec3{-v[0], v[1], -v[2]} }},
}

// orientations prints, per mesh, the hull count and surface distance of
// decompose's result in each of turns: how much a figure owes to the
// mesh's orientation rather than to its shape.
func orientations(paths []string, samples, workers int, concavity float64) error {
	fmt.Print("| mesh |")
	for _, t := range turns {
		fmt.Printf(" %s hulls / surface dist %% |", t.name)
	}
	fmt.Println(" worst surface dist % |")
	fmt.Println("|---|" + strings.Repeat("---|", len(turns)+1))
	for _, path := range paths {
		m, err := obj.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Printf("| %s |", strings.TrimSuffix(filepath.Base(path), ".obj"))
		var worst float64
		for _, t := range turns {
			vs := make([]geom.Vec3, len(m.Vertices))
			for i, v := range m.Vertices {
				vs[i] = t.f(v)
			}
			res, err := decompose.Decompose(context.Background(), vs, m.Triangles, decompose.Options{Workers: workers, Concavity: concavity})
			if err != nil {
				return fmt.Errorf("%s %s: %w", path, t.name, err)
			}
			mt := decompose.Measure(vs, m.Triangles, res.Hulls, samples, 1)
			worst = max(worst, mt.SurfaceDistMean)
			fmt.Printf(" %d / %.3f |", mt.Hulls, 100*mt.SurfaceDistMean)
		}
		fmt.Printf(" %.3f |\n", 100*worst)
	}
	return nil
}

func row(name string, tris int, tool string, m decompose.Metrics, secs, cpu float64, ratio, cpuRatio string) {
	fmt.Printf("| %s | %d | %s | %d | %d (%d) | %.2f | %.2g | %.2f / %.2f | %.3f | %.3f | %.2f | %.3f | %.3f | %s | %s |\n",
		name, tris, tool, m.Hulls, m.Vertices, m.MaxVertices, 100*m.Uncovered, 100*m.MaxVertexOutside,
		100*m.BloatMean, 100*m.BloatMax, 100*m.SurfaceDistMean, 100*m.OuterDistMean, 100*m.Concavity, secs, cpu, ratio, cpuRatio)
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// cpuSeconds is the process's user+system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "acd-bench:", err)
	os.Exit(1)
}

// coacdConcavity returns the Options.Concavity (a fraction of the bounding
// box's diagonal) of CoACD's threshold c (default 0.05) on vs: CoACD scales
// its input so that the longest side of the box spans [-1,1] and compares
// its concavity with c in those units, c·L/2 for a longest side L.
func coacdConcavity(vs []geom.Vec3, c float64) float64 {
	if c <= 0 {
		c = decompose.DefaultConcavity
	}
	box := geom.BoundsOf(vs)
	s := box.Size()
	l := max(s[0], s[1], s[2])
	if d := box.Diagonal(); d > 0 {
		return c * l / 2 / d
	}
	return c
}
