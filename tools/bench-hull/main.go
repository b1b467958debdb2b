// Command bench-hull compares hull.Build with qhull's qconvex on the same
// point sets: it writes each set as a qhull input file, times qconvex on
// it and Build on the same points (in process, and including parsing the
// same text file), and prints the medians and ratios. Run it through
// run.sh.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

func main() {
	runs := flag.Int("runs", 5, "timed runs per case (the median is reported)")
	sizes := flag.String("sizes", "100000,1000000", "comma-separated point counts")
	qconvex := flag.String("qconvex", "qconvex", "qconvex binary")
	dir := flag.String("dir", "", "where to write the point files (default: a temporary directory)")
	flag.Parse()
	if err := run(*runs, *sizes, *qconvex, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "bench-hull:", err)
		os.Exit(1)
	}
}

func run(runs int, sizes, qconvex, dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "bench-hull")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	fmt.Printf("| points | qconvex Qt i (ms) | Build exact (ms) | ratio | Build + parse text (ms) | ratio | Build max 255 (ms) | hull vertices qhull / ours |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("size %q: %w", s, err)
		}
		for _, kind := range []string{"uniform", "sphere"} {
			pts := cloud(kind, n)
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.txt", kind, n))
			if err := writeQhull(file, pts); err != nil {
				return err
			}
			var qv int
			tq, err := median(runs, func() error {
				out, err := exec.Command(qconvex, "Qt", "i", "TI", file).Output()
				if err != nil {
					return fmt.Errorf("qconvex: %w", err)
				}
				qv = countVertices(out)
				return nil
			})
			if err != nil {
				return err
			}
			var ov int
			tb, err := median(runs, func() error {
				h, err := hull.Build(pts, hull.Options{MaxVertices: -1})
				if h != nil {
					ov = len(h.Vertices)
				}
				return err
			})
			if err != nil {
				return err
			}
			tp, err := median(runs, func() error {
				p, err := readQhull(file)
				if err != nil {
					return err
				}
				_, err = hull.Build(p, hull.Options{MaxVertices: -1})
				return err
			})
			if err != nil {
				return err
			}
			tl, err := median(runs, func() error {
				_, err := hull.Build(pts, hull.Options{})
				return err
			})
			if err != nil {
				return err
			}
			fmt.Printf("| %d %s | %.0f | %.0f | %.2f | %.0f | %.2f | %.0f | %d / %d |\n", n, kind,
				ms(tq), ms(tb), ms(tb)/ms(tq), ms(tp), ms(tp)/ms(tq), ms(tl), qv, ov)
		}
	}
	fmt.Println("ratio = our time / qconvex time (below 1: faster than qhull); medians of", runs, "runs")
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(runs int, f func() error) (time.Duration, error) {
	var ts []time.Duration
	for i := 0; i < runs; i++ {
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ts = append(ts, time.Since(t0))
	}
	slices.Sort(ts)
	return ts[len(ts)/2], nil
}

func cloud(kind string, n int) []geom.Vec3 {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	p := make([]geom.Vec3, n)
	for i := range p {
		if kind == "sphere" {
			p[i] = geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		} else {
			p[i] = geom.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}
		}
	}
	return p
}

// writeQhull writes points in qhull's input format: dimension, count,
// then one point a line.
func writeQhull(name string, pts []geom.Vec3) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "3\n%d\n", len(pts))
	for _, p := range pts {
		fmt.Fprintf(w, "%.17g %.17g %.17g\n", p[0], p[1], p[2])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readQhull(name string) ([]geom.Vec3, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	fields := bytes.Fields(data)
	if len(fields) < 2 {
		return nil, fmt.Errorf("%s: too short", name)
	}
	n, err := strconv.Atoi(string(fields[1]))
	if err != nil || len(fields) < 2+3*n {
		return nil, fmt.Errorf("%s: bad header", name)
	}
	pts := make([]geom.Vec3, n)
	for i := range pts {
		for k := 0; k < 3; k++ {
			v, err := strconv.ParseFloat(string(fields[2+3*i+k]), 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			pts[i][k] = v
		}
	}
	return pts, nil
}

// countVertices counts the distinct vertex indices in qconvex's "i"
// output (first line: facet count, then one facet's indices a line).
func countVertices(out []byte) int {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	seen := map[string]bool{}
	for _, l := range lines[1:] {
		for _, f := range strings.Fields(l) {
			seen[f] = true
		}
	}
	return len(seen)
}
