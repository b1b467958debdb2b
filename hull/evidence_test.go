package hull

import (
	"fmt"
	"os"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/golang/geo/r3"
	qhgo "github.com/markus-wa/quickhull-go/v2"
)

// libraryHull runs quickhull-go v2.2.0 (outward winding: ccw=false) and
// converts its output, turning a panic into an error.
func libraryHull(pts []geom.Vec3) (h *Hull, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	in := make([]r3.Vector, len(pts))
	for i, p := range pts {
		in[i] = r3.Vector{X: p[0], Y: p[1], Z: p[2]}
	}
	var qh qhgo.QuickHull
	ch := qh.ConvexHull(in, false, false, 0)
	h = &Hull{}
	for _, v := range ch.Vertices {
		h.Vertices = append(h.Vertices, geom.Vec3{v.X, v.Y, v.Z})
	}
	for i := 0; i+2 < len(ch.Indices); i += 3 {
		h.Triangles = append(h.Triangles, [3]uint32{uint32(ch.Indices[i]), uint32(ch.Indices[i+1]), uint32(ch.Indices[i+2])})
	}
	return h, nil
}

// TestAgainstQuickhullGo runs the replaced library and Build on the same
// inputs. Build must give a valid hull containing every point in each
// case; the library's failures are the reason it was replaced and are
// printed with AUTOCOLLIDE_HULL_EVIDENCE=1.
func TestAgainstQuickhullGo(t *testing.T) {
	type row struct{ name, lib string }
	var rows []row
	for _, c := range clouds() {
		for _, v := range variants {
			pts := transform(c.pts, v.scale, v.offset)
			name := c.name + v.name
			h, err := Build(pts, Options{MaxVertices: -1})
			if err == nil {
				err = Validate(h, pts)
			}
			if err != nil {
				t.Errorf("%s: Build: %v", name, err)
			}
			lib := "ok"
			lh, err := libraryHull(pts)
			if err == nil {
				err = Validate(lh, pts)
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
