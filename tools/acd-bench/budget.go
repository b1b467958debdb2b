package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/obj"
)

// budgetTool is one decomposer of the -budget table.
type budgetTool struct {
	name string
	// run decomposes the mesh at path within k hulls and returns the
	// hulls' point sets.
	run func(path string, m *obj.Mesh, k int) ([][]geom.Vec3, error)
}

// peerRun is a cached peer result (see -budget-cache).
type peerRun struct {
	Seconds float64        `json:"seconds"`
	Hulls   [][][3]float64 `json:"hulls"`
}

// budgetCell is one tool's figures for one mesh at one K.
type budgetCell struct {
	m    decompose.Metrics
	secs float64
	err  error
}

// budgetTable decomposes every mesh at each K with decompose (opt with
// MaxHulls=K),
// native V-HACD (TestVHACD -h K) and CoACD (coacd -c K), interleaved mesh by
// mesh and K by K in one run, scores every result with decompose.Measure and
// prints per mesh and per set the surface distance (the set's definition,
// see benchSet), hull counts, coverage and wall time, with the ratios the
// issue's targets are stated in. cache, if set, is a JSON file of peer
// results reused when present (keyed tool/mesh/K) and extended as runs
// finish, so that an interrupted run resumes; its times are then from the
// run that made them.
func budgetTable(paths []string, ks []int, peers, cache string, samples int, opt decompose.Options) error {
	cached := map[string]peerRun{}
	if cache != "" {
		if b, err := os.ReadFile(cache); err == nil {
			if err := json.Unmarshal(b, &cached); err != nil {
				return fmt.Errorf("%s: %w", cache, err)
			}
		}
	}
	save := func() error {
		if cache == "" {
			return nil
		}
		b, err := json.Marshal(cached)
		if err != nil {
			return err
		}
		return os.WriteFile(cache, b, 0o644)
	}
	tools := []budgetTool{
		{"decompose", func(path string, m *obj.Mesh, k int) ([][]geom.Vec3, error) {
			o := opt
			o.MaxHulls = k
			res, err := decompose.Decompose(context.Background(), m.Vertices, m.Triangles, o)
			if err != nil {
				return nil, err
			}
			var out [][]geom.Vec3
			for _, h := range res.Hulls {
				out = append(out, h.Vertices)
			}
			return out, nil
		}},
		{"V-HACD", func(path string, m *obj.Mesh, k int) ([][]geom.Vec3, error) {
			return runPeer(filepath.Join(peers, "TestVHACD"), "decomp.obj", path, "-h", strconv.Itoa(k), "-g", "false")
		}},
		{"CoACD", func(path string, m *obj.Mesh, k int) ([][]geom.Vec3, error) {
			return runPeer(filepath.Join(peers, "coacd"), "out.obj", "-i", path, "-o", "out.obj", "-c", strconv.Itoa(k), "-s", "1234", "-ro", "remesh.obj")
		}},
	}
	fmt.Printf("Budget table: K = %v, %d samples per surface, one run per tool, mesh and K, interleaved. Distances in %% of the bounding-box diagonal (acd meshes: every hull's whole surface, SurfaceDistMean; real meshes: faces inside another hull left out, OuterDistMean). The other measure (the real meshes' for the acd meshes and the other way round) is shown beside it, not judged. Wall ratio: ours / V-HACD.\n\n", ks, samples)
	fmt.Println("| mesh | K | hulls ours / V-HACD / CoACD | surface dist % ours / V-HACD / CoACD | ours / better peer | other measure % ours / V-HACD / CoACD | uncovered % ours / V-HACD / CoACD | wall s ours / V-HACD / CoACD | wall ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	type row struct {
		name  string
		set   int
		k     int
		cells []budgetCell
	}
	var rows []row
	meshes := make([]*obj.Mesh, len(paths))
	for i, path := range paths {
		m, err := obj.ReadFile(path)
		if err != nil {
			return err
		}
		meshes[i] = m
	}
	// Budget by budget, so that an interrupted run has every mesh at the
	// first budgets.
	for _, k := range ks {
		for pi, path := range paths {
			m := meshes[pi]
			abs, err := filepath.Abs(path)
			if err != nil {
				return err
			}
			name := strings.TrimSuffix(filepath.Base(path), ".obj")
			set := setOf(name)
			r := row{name: name, set: set, k: k}
			for _, t := range tools {
				key := fmt.Sprintf("%s/%s/%d", t.name, name, k)
				var c budgetCell
				var pts [][]geom.Vec3
				if pr, ok := cached[key]; ok && t.name != "decompose" {
					c.secs = pr.Seconds
					for _, h := range pr.Hulls {
						ps := make([]geom.Vec3, len(h))
						for i, p := range h {
							ps[i] = geom.Vec3(p)
						}
						pts = append(pts, ps)
					}
				} else {
					t0 := time.Now()
					pts, c.err = t.run(abs, m, k)
					c.secs = time.Since(t0).Seconds()
					if c.err == nil && t.name != "decompose" {
						pr := peerRun{Seconds: c.secs}
						for _, ps := range pts {
							h := make([][3]float64, len(ps))
							for i, p := range ps {
								h[i] = p
							}
							pr.Hulls = append(pr.Hulls, h)
						}
						cached[key] = pr
						if err := save(); err != nil {
							return err
						}
					}
				}
				if c.err == nil {
					var hs []*hull.Hull
					for _, ps := range pts {
						h, err := hull.Build(ps, hull.Options{MaxVertices: 1 << 20})
						if err != nil {
							continue
						}
						hs = append(hs, h)
					}
					c.m = decompose.Measure(m.Vertices, m.Triangles, hs, samples, 1)
				}
				r.cells = append(r.cells, c)
			}
			rows = append(rows, r)
			outer := benchSets[set].outer
			var hs, ds, os2, us, ws []string
			for _, c := range r.cells {
				if c.err != nil {
					hs, ds, os2, us = append(hs, "error"), append(ds, "–"), append(os2, "–"), append(us, "–")
					ws = append(ws, fmt.Sprintf("%.2f", c.secs))
					fmt.Fprintf(os.Stderr, "acd-bench: %s K=%d: %v\n", name, k, c.err)
					continue
				}
				h := strconv.Itoa(c.m.Hulls)
				if len(hs) == 0 && c.m.Hulls > k {
					h += " ✗"
				}
				hs = append(hs, h)
				ds = append(ds, fmt.Sprintf("%.3f", 100*dist(c.m, outer)))
				os2 = append(os2, fmt.Sprintf("%.3f", 100*dist(c.m, !outer)))
				us = append(us, fmt.Sprintf("%.2f", 100*c.m.Uncovered))
				ws = append(ws, fmt.Sprintf("%.2f", c.secs))
			}
			fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", name, k, strings.Join(hs, " / "), strings.Join(ds, " / "),
				ratioToBetter(r.cells, outer), strings.Join(os2, " / "), strings.Join(us, " / "), strings.Join(ws, " / "), wallRatio(r.cells))
		}
	}
	// Per set and K: means of the three tools over the meshes every tool
	// finished, the worst mesh against the better peer, and the median
	// wall ratio.
	fmt.Println("\n| set | K | meshes | mean surface dist % ours / V-HACD / CoACD | ours <= both | worst mesh ours / better peer | max hulls ours (≤ K) | median wall ratio ours / V-HACD (max) | sum wall s ours / V-HACD / CoACD |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for si, s := range benchSets {
		for _, k := range ks {
			var n, maxH int
			var sum [3]float64
			var secs [3]float64
			var ratios []float64
			worst, worstName := 0.0, ""
			for _, r := range rows {
				if r.set != si || r.k != k || r.cells[0].err != nil || r.cells[1].err != nil || r.cells[2].err != nil {
					continue
				}
				n++
				for i, c := range r.cells {
					sum[i] += 100 * dist(c.m, s.outer)
					secs[i] += c.secs
				}
				maxH = max(maxH, r.cells[0].m.Hulls)
				ratios = append(ratios, r.cells[0].secs/r.cells[1].secs)
				if q := betterRatio(r.cells, s.outer); q > worst {
					worst, worstName = q, r.name
				}
			}
			if n == 0 {
				continue
			}
			f := float64(n)
			fmt.Printf("| %s | %d | %d | %.3f / %.3f / %.3f | %s | %.2f (%s) | %d %s | %.3f (%.3f) | %.1f / %.1f / %.1f |\n", s.name, k, n,
				sum[0]/f, sum[1]/f, sum[2]/f, mark(sum[0] <= sum[1]+5e-4 && sum[0] <= sum[2]+5e-4), worst, worstName, maxH, mark(maxH <= k),
				median(ratios), maxOf(ratios), secs[0], secs[1], secs[2])
		}
	}
	return nil
}

// dist is the set's surface distance figure of m.
func dist(m decompose.Metrics, outer bool) float64 {
	if outer {
		return m.OuterDistMean
	}
	return m.SurfaceDistMean
}

// betterRatio is ours over the better peer's distance; distances below
// 1e-5 of the diagonal (a convex mesh's exact hull, sampled) count as 0,
// and 0 against 0 is 1.
func betterRatio(cs []budgetCell, outer bool) float64 {
	const zero = 1e-5
	ours := dist(cs[0].m, outer)
	peer := min(dist(cs[1].m, outer), dist(cs[2].m, outer))
	switch {
	case ours < zero && peer < zero:
		return 1
	case peer < zero:
		return ours / zero
	}
	return ours / peer
}

func ratioToBetter(cs []budgetCell, outer bool) string {
	if cs[0].err != nil || cs[1].err != nil || cs[2].err != nil {
		return "–"
	}
	q := betterRatio(cs, outer)
	return fmt.Sprintf("%.2f %s", q, mark(q <= 1.25))
}

func wallRatio(cs []budgetCell) string {
	if cs[0].err != nil || cs[1].err != nil || cs[1].secs == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", cs[0].secs/cs[1].secs)
}

func maxOf(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// runPeer runs a peer's program in a fresh temporary folder (both write
// their output, and CoACD a remeshed copy, into the current folder) and
// reads the hulls of the OBJ it writes there: one `o` group per hull.
// CoACD exits 0 on errors too, so a missing or empty output is an error.
func runPeer(prog, out string, args ...string) ([][]geom.Vec3, error) {
	dir, err := os.MkdirTemp("", "acd-bench-peer-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	log, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", filepath.Base(prog), err, tail(log))
	}
	hs, err := readGroups(filepath.Join(dir, out))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", filepath.Base(prog), err, tail(log))
	}
	if len(hs) == 0 {
		return nil, fmt.Errorf("%s: no hulls in its output: %s", filepath.Base(prog), tail(log))
	}
	return hs, nil
}

// readGroups returns the vertices of each `o` group of an OBJ file (the
// vertices before the first group form one of their own).
func readGroups(path string) ([][]geom.Vec3, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]geom.Vec3
	var cur []geom.Vec3
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "o", "g":
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
		case "v":
			if len(fs) < 4 {
				return nil, fmt.Errorf("%s:%d: short vertex", path, line)
			}
			var p geom.Vec3
			for i := 0; i < 3; i++ {
				x, err := strconv.ParseFloat(fs[i+1], 64)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", path, line, err)
				}
				p[i] = x
			}
			cur = append(cur, p)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, sc.Err()
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// parseKs reads a comma-separated list of budgets.
func parseKs(s string) ([]int, error) {
	var ks []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, errors.New("-budget-k: want budgets of at least 1, comma-separated: " + s)
		}
		ks = append(ks, k)
	}
	return ks, nil
}
