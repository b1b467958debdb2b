// Command budget-bench measures what the default profile's collider
// settings (auto, its gapSlack; -gap-slack overrides it) give each mesh
// instance of glTF assets (and each OBJ mesh) at several collider budgets: colliders per instance, how many
// parts became which primitive, the mean surface distance of the colliders
// to the mesh (decompose.Measure's SurfaceDistMean, as tools/acd-bench
// reports it, primitives measured as fine polytopes) and the coverage of
// the mesh's surface, with the CPU time of the choice.
//
//	go run ./tools/budget-bench -budgets 0,4,8,16 ../shared/corpus
//
// Budget 0 is no maxColliders (decompose's default cap, 64). Each mesh
// instance is measured in world space on its own, as generate's auto sees
// it (no naming conventions, no merging of identical instances), so the
// figures choose defaults; generate's report gives the exact counts.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/obj"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/profiles"
)

func main() {
	budgets := flag.String("budgets", "0,4,8,16", "comma-separated maxColliders values (0: none)")
	samples := flag.Int("samples", 4000, "surface samples per instance for the distance")
	perAsset := flag.Bool("assets", false, "print one row per asset and budget")
	slack := flag.Float64("gap-slack", -1, "colliders.gapSlack (-1: the default profile's)")
	flag.Parse()
	def, err := defaultSettings(*slack)
	if err != nil {
		fmt.Fprintln(os.Stderr, "budget-bench:", err)
		os.Exit(1)
	}
	var ks []int
	for _, s := range strings.Split(*budgets, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 0 {
			fmt.Fprintf(os.Stderr, "budget-bench: -budgets: %q is not a budget\n", s)
			os.Exit(2)
		}
		ks = append(ks, k)
	}
	files, err := inputs(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "budget-bench:", err)
		os.Exit(1)
	}
	fmt.Println("| budget | instances | colliders | max per instance | decomposed instances | their parts | primitive parts | mean surface distance (% diag) | uncovered (%) | CPU s |")
	fmt.Println("| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
	var rows []string
	for _, k := range ks {
		var t total
		for _, f := range files {
			set := def
			set.MaxColliders = k
			a, err := measureFile(f, set, *samples)
			if err != nil {
				fmt.Fprintln(os.Stderr, "budget-bench:", err)
				continue
			}
			t.add(a)
			if *perAsset {
				rows = append(rows, fmt.Sprintf("| %d | %s | %d | %d | %s | %.3f |", k, filepath.Base(f), a.instances, a.colliders, a.prims(), a.dist/math.Max(1, float64(a.measured))*100))
			}
		}
		fmt.Printf("| %d | %d | %d | %d | %d | %d | %s | %.3f | %.3f | %.1f |\n", k, t.instances, t.colliders, t.most, t.decomposed, t.parts, t.prims(),
			100*t.dist/math.Max(1, float64(t.measured)), 100*t.uncovered/math.Max(1, float64(t.measured)), t.cpu.Seconds())
	}
	if *perAsset {
		fmt.Println("\n| budget | asset | instances | colliders | primitive parts | mean surface distance (% diag) |\n| ---: | --- | ---: | ---: | --- | ---: |")
		for _, r := range rows {
			fmt.Println(r)
		}
	}
}

// total sums the figures of instances.
type total struct {
	instances, colliders, most, decomposed, parts, measured int
	primitives                                              map[physics.ShapeType]int
	dist, uncovered                                         float64
	cpu                                                     time.Duration
	err                                                     error
}

func (t *total) add(a total) {
	t.instances += a.instances
	t.colliders += a.colliders
	t.most = max(t.most, a.most)
	t.decomposed += a.decomposed
	t.parts += a.parts
	t.measured += a.measured
	t.dist += a.dist
	t.uncovered += a.uncovered
	t.cpu += a.cpu
	for s, n := range a.primitives {
		if t.primitives == nil {
			t.primitives = map[physics.ShapeType]int{}
		}
		t.primitives[s] += n
	}
}

// prims is "12 of 40 (30%): 4 box, 8 cylinder".
func (t total) prims() string {
	n := 0
	var kinds []string
	for s, c := range t.primitives {
		n += c
		kinds = append(kinds, fmt.Sprintf("%d %s", c, s))
	}
	sort.Strings(kinds)
	s := fmt.Sprintf("%d of %d (%.0f%%)", n, t.parts, 100*float64(n)/math.Max(1, float64(t.parts)))
	if len(kinds) > 0 {
		s += ": " + strings.Join(kinds, ", ")
	}
	return s
}

// inputs are the .gltf, .glb and .obj files of the arguments, folders walked,
// sorted.
func inputs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		err := filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".gltf" || ext == ".glb" || ext == ".obj") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// defaultSettings returns the default profile's collider settings, with
// gapSlack slack unless slack is negative.
func defaultSettings(slack float64) (generate.ColliderSettings, error) {
	p, err := profiles.Load("default")
	if err != nil {
		return generate.ColliderSettings{}, err
	}
	o, err := p.Options()
	if err != nil {
		return generate.ColliderSettings{}, err
	}
	set := o.Collider
	if slack >= 0 {
		set.GapSlack = slack
	}
	return set, nil
}

// measureFile runs the collider settings set on every mesh instance of the file.
func measureFile(path string, set generate.ColliderSettings, samples int) (total, error) {
	var t total
	if strings.EqualFold(filepath.Ext(path), ".obj") {
		m, err := obj.ReadFile(path)
		if err != nil {
			return t, err
		}
		t.measureInstance(mesh.Part{Name: filepath.Base(path), Vertices: m.Vertices, Triangles: m.Triangles}, set, samples)
		return t, t.err
	}
	a, err := gltfio.Load(path, gltfio.Limits{})
	if err != nil {
		return t, err
	}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		return t, fmt.Errorf("%s: %w", path, err)
	}
	type key struct {
		mesh   int
		linear [9]float64
	}
	seen := map[key]total{}
	for _, p := range ex.Parts {
		if len(p.Triangles) == 0 {
			continue
		}
		// Copies of a mesh moved, not turned or scaled, get the same
		// colliders moved (as generate makes them once): measured once.
		kk := key{mesh: p.Mesh}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				kk.linear[3*i+j] = p.World[i][j]
			}
		}
		if p.Skinned {
			kk.mesh = -1 - len(seen) // posed: its own
		}
		if one, ok := seen[kk]; ok {
			one.cpu = 0
			t.add(one)
			continue
		}
		var one total
		one.measureInstance(p, set, samples)
		if one.err != nil {
			return t, fmt.Errorf("%s: %s: %w", path, p.Name, one.err)
		}
		seen[kk] = one
		t.add(one)
	}
	return t, nil
}

// measureInstance runs the collider settings set on one mesh instance.
func (t *total) measureInstance(p mesh.Part, set generate.ColliderSettings, samples int) {
	{
		start := time.Now()
		cs, _, err := generate.Colliders(context.Background(), p.Vertices, p.Triangles, set, generate.Run{Workers: 1})
		t.cpu += time.Since(start)
		if err != nil {
			t.err = err
			return
		}
		t.instances++
		t.colliders += len(cs)
		t.most = max(t.most, len(cs))
		if len(cs) > 1 {
			t.decomposed++
			t.parts += len(cs)
			for _, c := range cs {
				if c.Shape.Type != physics.Convex {
					if t.primitives == nil {
						t.primitives = map[physics.ShapeType]int{}
					}
					t.primitives[c.Shape.Type]++
				}
			}
		}
		var hs []*hull.Hull
		for _, c := range cs {
			if h := polytope(c); h != nil {
				hs = append(hs, h)
			}
		}
		if len(hs) == 0 {
			return
		}
		m := decompose.Measure(p.Vertices, p.Triangles, hs, samples, 1)
		t.measured++
		t.dist += m.SurfaceDistMean
		t.uncovered += m.Uncovered
	}
}

// polytope is a collider as a convex polytope in the points' frame: a
// hull or box as it is, a sphere, capsule or cylinder through 64 points a
// ring and 32 rings a ball, pushed out by 0.62% of the radius so that the
// polytope holds the round shape (a vertex of a round mesh on it is not
// counted as uncovered).
func polytope(c generate.Collider) *hull.Hull {
	if c.Hull != nil {
		return c.Hull
	}
	var local []geom.Vec3
	s := c.Shape
	grow := 1 / (math.Cos(math.Pi/64) * math.Cos(math.Pi/32))
	ring := func(y, r float64) {
		r *= grow
		for i := 0; i < 64; i++ {
			a := 2 * math.Pi * float64(i) / 64
			local = append(local, geom.Vec3{r * math.Cos(a), y, r * math.Sin(a)})
		}
	}
	ball := func(y, r float64) {
		for j := 0; j <= 32; j++ {
			th := math.Pi * float64(j) / 32
			ring(y+grow*r*math.Cos(th), r*math.Sin(th))
		}
	}
	switch s.Type {
	case physics.Box:
		if c.Convex != nil {
			h, _ := hull.Build(c.Convex.Vertices, hull.Options{MaxVertices: -1})
			return h
		}
		return nil
	case physics.Sphere:
		ball(0, s.Radius)
	case physics.Capsule:
		ball(-s.Height/2, s.RadiusTop)
		ball(s.Height/2, s.RadiusTop)
	case physics.Cylinder:
		ring(-s.Height/2, s.RadiusBottom)
		ring(s.Height/2, s.RadiusTop)
	default:
		return nil
	}
	m := c.Rotation.Mat3()
	for i, v := range local {
		local[i] = m.MulVec(v).Add(c.Translation)
	}
	h, err := hull.Build(local, hull.Options{MaxVertices: -1})
	if err != nil {
		return nil
	}
	return h
}
