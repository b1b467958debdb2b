package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/obj"
)

// scaleMeshes are the bench meshes of -scale, and scaleTargets the
// triangle counts each is subdivided to (about: every triangle is split
// into k² by a regular grid, k the nearest integer).
var (
	scaleMeshes  = []string{"torus1", "cup", "ob_chair_gothic"}
	scaleTargets = []int{1000, 10000, 100000, 1000000}
)

// scaleRun is what a -scale child reports.
type scaleRun struct {
	Tris    int     `json:"tris"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the process's CPU time (user + system) in Decompose.
	CPUSeconds float64 `json:"cpuSeconds"`
	Hulls      int     `json:"hulls"`
	// Uncovered is Metrics.Uncovered of the result (the share of the
	// surface outside every hull).
	Uncovered float64 `json:"uncovered"`
	Error     string  `json:"error,omitempty"`
}

// scale prints, for each of scaleMeshes (OBJ files in dir) subdivided to
// each of scaleTargets triangles, the decomposition's wall time and the
// child process's peak RSS, and the log-log slopes of both against the
// triangle count. Each size runs in its own child process (this program
// with -scale-child), so that its peak RSS is its own.
func scale(dir string, workers, maxHulls int, timeout time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = benchMeshDir(); err != nil {
			return err
		}
	}
	fmt.Printf("GOMAXPROCS=%d, Workers=%d, MaxHulls=%d. Each size a child process; time = Decompose's wall clock, RSS = the child's peak (rusage Maxrss).\n\n", runtime.GOMAXPROCS(0), workers, maxHulls)
	fmt.Println("| mesh | k | tris | wall s | cpu s | peak RSS MB | hulls | uncovered % |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	type point struct{ n, t, cpu, rss float64 }
	slopes := map[string][3]float64{}
	for _, name := range scaleMeshes {
		path := filepath.Join(dir, name+".obj")
		m, err := obj.ReadFile(path)
		if err != nil {
			return err
		}
		var pts []point
		for _, target := range scaleTargets {
			k := max(1, int(math.Round(math.Sqrt(float64(target)/float64(len(m.Triangles))))))
			cmd := exec.Command(self, "-scale-child", path, "-k", strconv.Itoa(k), "-workers", strconv.Itoa(workers), "-scale-hulls", strconv.Itoa(maxHulls))
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, os.Stderr
			if err := cmd.Start(); err != nil {
				return err
			}
			timer := time.AfterFunc(timeout, func() { _ = cmd.Process.Kill() })
			err := cmd.Wait()
			timer.Stop()
			rss := 0.0
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rss = float64(ru.Maxrss) / 1024 // KiB on Linux
			}
			var r scaleRun
			if err != nil {
				fmt.Printf("| %s | %d | %d×k² | failed: %v | | %.0f | | |\n", name, k, len(m.Triangles), err, rss)
				continue
			}
			if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil || r.Error != "" {
				fmt.Printf("| %s | %d | | error: %v%s | | %.0f | | |\n", name, k, jerr, r.Error, rss)
				continue
			}
			fmt.Printf("| %s | %d | %d | %.3f | %.3f | %.0f | %d | %.2f |\n", name, k, r.Tris, r.Seconds, r.CPUSeconds, rss, r.Hulls, 100*r.Uncovered)
			pts = append(pts, point{float64(r.Tris), r.Seconds, r.CPUSeconds, rss})
		}
		var xs, ts, cs, rs []float64
		for _, p := range pts {
			xs = append(xs, math.Log(p.n))
			ts = append(ts, math.Log(p.t))
			cs = append(cs, math.Log(p.cpu))
			rs = append(rs, math.Log(p.rss))
		}
		slopes[name] = [3]float64{fitSlope(xs, ts), fitSlope(xs, cs), fitSlope(xs, rs)}
	}
	fmt.Println("\nLog-log least-squares slopes against the triangle count (1 = linear):")
	fmt.Println("\n| mesh | wall time slope | cpu time slope | peak RSS slope |")
	fmt.Println("|---|---|---|---|")
	for _, name := range scaleMeshes {
		s := slopes[name]
		fmt.Printf("| %s | %.2f | %.2f | %.2f |\n", name, s[0], s[1], s[2])
	}
	return nil
}

// scaleChild subdivides the mesh at path k×k per triangle, decomposes it and
// prints a scaleRun as JSON.
func scaleChild(path string, k, workers, maxHulls int, profile string) error {
	m, err := obj.ReadFile(path)
	if err != nil {
		return err
	}
	vs, ts := subdivide(m.Vertices, m.Triangles, k)
	m = nil
	r := scaleRun{Tris: len(ts)}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	c0 := cpuSeconds()
	res, err := decompose.Decompose(context.Background(), vs, ts, decompose.Options{Workers: workers, MaxHulls: maxHulls})
	r.Seconds = time.Since(t0).Seconds()
	r.CPUSeconds = cpuSeconds() - c0
	if err != nil {
		r.Error = err.Error()
	} else {
		r.Hulls = len(res.Hulls)
		r.Uncovered = decompose.Measure(vs, ts, res.Hulls, 2000, 1).Uncovered
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// subdivide splits every triangle into k² by a regular grid in its plane
// (the surface does not move). Points on an edge are computed from the
// edge's ends in a canonical order and shared, so a closed mesh stays
// closed.
func subdivide(vs []geom.Vec3, ts [][3]uint32, k int) ([]geom.Vec3, [][3]uint32) {
	if k <= 1 {
		return vs, ts
	}
	out := append([]geom.Vec3(nil), vs...)
	outT := make([][3]uint32, 0, len(ts)*k*k)
	type edgeKey struct{ a, b uint32 }
	edges := map[edgeKey][]uint32{} // k-1 inner points, from a to b (a < b)
	edgePts := func(a, b uint32) []uint32 {
		lo, hi := min(a, b), max(a, b)
		e, ok := edges[edgeKey{lo, hi}]
		if !ok {
			e = make([]uint32, k-1)
			for i := 1; i < k; i++ {
				e[i-1] = uint32(len(out))
				f := float64(i) / float64(k)
				out = append(out, vs[lo].Add(vs[hi].Sub(vs[lo]).Scale(f)))
			}
			edges[edgeKey{lo, hi}] = e
		}
		if lo == a {
			return e
		}
		r := make([]uint32, len(e))
		for i := range e {
			r[i] = e[len(e)-1-i]
		}
		return r
	}
	grid := make([]uint32, (k+1)*(k+2)/2)
	// at(i, j): the grid point i steps from a towards b and j towards c.
	at := func(i, j int) *uint32 { return &grid[i*(2*k+3-i)/2+j] }
	for _, t := range ts {
		a, b, c := t[0], t[1], t[2]
		ab, ac, bc := edgePts(a, b), edgePts(a, c), edgePts(b, c)
		for i := 0; i <= k; i++ {
			for j := 0; i+j <= k; j++ {
				var v uint32
				switch {
				case i == 0 && j == 0:
					v = a
				case i == k:
					v = b
				case j == k:
					v = c
				case j == 0:
					v = ab[i-1]
				case i == 0:
					v = ac[j-1]
				case i+j == k:
					v = bc[j-1]
				default:
					v = uint32(len(out))
					fi, fj := float64(i)/float64(k), float64(j)/float64(k)
					out = append(out, vs[a].Add(vs[b].Sub(vs[a]).Scale(fi)).Add(vs[c].Sub(vs[a]).Scale(fj)))
				}
				*at(i, j) = v
			}
		}
		for i := 0; i < k; i++ {
			for j := 0; i+j < k; j++ {
				outT = append(outT, [3]uint32{*at(i, j), *at(i+1, j), *at(i, j+1)})
				if i+j+1 < k {
					outT = append(outT, [3]uint32{*at(i+1, j), *at(i+1, j+1), *at(i, j+1)})
				}
			}
		}
	}
	return out, outT
}

// benchMeshDir returns shared/bench/acd-meshes: under $AUTOCOLLIDE_SHARED,
// else in the first shared/ folder found walking up from the working
// directory (as run.sh does).
func benchMeshDir() (string, error) {
	if d := os.Getenv("AUTOCOLLIDE_SHARED"); d != "" {
		return filepath.Join(d, "bench", "acd-meshes"), nil
	}
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(d, "shared", "bench", "acd-meshes")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("shared/bench/acd-meshes not found above the working directory (set AUTOCOLLIDE_SHARED or -meshes)")
		}
		d = parent
	}
}

// fitSlope is the least-squares slope of ys against xs.
func fitSlope(xs, ys []float64) float64 {
	n := float64(len(xs))
	if n < 2 {
		return math.NaN()
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}
