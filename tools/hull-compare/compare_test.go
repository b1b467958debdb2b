// Package hullcompare runs the convex hull library that package hull
// replaced, github.com/markus-wa/quickhull-go/v2 v2.2.0, next to hull.Build
// on the same inputs. It is a module of its own so that the product module
// does not require the library; see README.md.
package hullcompare

import (
	"fmt"
	"os"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/internal/pointcloud"
	"github.com/golang/geo/r3"
	qhgo "github.com/markus-wa/quickhull-go/v2"
)

func vectors(pts []geom.Vec3) []r3.Vector {
	in := make([]r3.Vector, len(pts))
	for i, p := range pts {
		in[i] = r3.Vector{X: p[0], Y: p[1], Z: p[2]}
	}
	return in
}

// libraryHull runs quickhull-go (outward winding: ccw=false) and converts
// its output, turning a panic into an error.
func libraryHull(pts []geom.Vec3) (h *hull.Hull, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	var qh qhgo.QuickHull
	ch := qh.ConvexHull(vectors(pts), false, false, 0)
	h = &hull.Hull{}
	for _, v := range ch.Vertices {
		h.Vertices = append(h.Vertices, geom.Vec3{v.X, v.Y, v.Z})
	}
	for i := 0; i+2 < len(ch.Indices); i += 3 {
		h.Triangles = append(h.Triangles, [3]uint32{uint32(ch.Indices[i]), uint32(ch.Indices[i+1]), uint32(ch.Indices[i+2])})
	}
	return h, nil
}

// TestAgainstQuickhullGo runs the replaced library and hull.Build on every
// test cloud in every placement. Build must give a valid hull containing
// every point in each case; the library's failures are the reason it was
// replaced and are printed with AUTOCOLLIDE_HULL_EVIDENCE=1.
func TestAgainstQuickhullGo(t *testing.T) {
	type row struct{ name, lib string }
	var rows []row
	for _, c := range pointcloud.Cases() {
		for _, v := range pointcloud.Placements() {
			pts := v.Apply(c.Points)
			name := c.Name + v.Name
			h, err := hull.Build(pts, hull.Options{MaxVertices: -1})
			if err == nil {
				err = hull.Validate(h, pts)
			}
			if err != nil {
				t.Errorf("%s: Build: %v", name, err)
			}
			lib := "ok"
			lh, err := libraryHull(pts)
			if err == nil {
				err = hull.Validate(lh, pts)
			}
			if err != nil {
				lib = err.Error()
				if len(lib) > 150 {
					lib = lib[:150] + "…"
				}
			}
			rows = append(rows, row{name, lib})
		}
	}
	if os.Getenv("AUTOCOLLIDE_HULL_EVIDENCE") == "" {
		return
	}
	failed := 0
	for _, r := range rows {
		if r.lib != "ok" {
			failed++
		}
		fmt.Printf("| %s | %s |\n", r.name, r.lib)
	}
	fmt.Printf("quickhull-go failed %d of %d cases; Build failed none\n", failed, len(rows))
}

// BenchmarkHull times the exact hull by hull.Build and by quickhull-go on
// the same uniform and on-sphere clouds (on-sphere input is the library's
// worst case), side by side.
func BenchmarkHull(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		for _, c := range []struct {
			name string
			pts  []geom.Vec3
		}{{"uniform", pointcloud.UniformCube(n, 21)}, {"sphere", pointcloud.OnSphere(n, 22)}} {
			b.Run(fmt.Sprintf("%s/%d/Build", c.name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := hull.Build(c.pts, hull.Options{MaxVertices: -1}); err != nil {
						b.Fatal(err)
					}
				}
			})
			in := vectors(c.pts)
			b.Run(fmt.Sprintf("%s/%d/quickhull-go", c.name, n), func(b *testing.B) {
				for b.Loop() {
					var qh qhgo.QuickHull
					qh.ConvexHull(in, false, false, 0)
				}
			})
		}
	}
}
