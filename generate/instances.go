package generate

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/mesh"
	"github.com/qmuntal/gltf"
	"golang.org/x/sync/errgroup"
)

// made is what makeColliders made for one part.
type made struct {
	local []geom.Vec3 // the part's vertices in its body's frame
	cs    []Collider
	notes []string
	err   error
}

// makeColliders makes the colliders of the planned parts, in their
// bodies' frames, up to run.Workers parts at once, largest first, the
// largest with run.Workers workers of its own (run.Progress steps name
// them from doc); each result goes to its own slot, so the outcome does
// not depend on the worker count. Parts whose body frame is
// degenerate are left out (body warns about them).
// Parts with the same geometry up to a translation in their body frames
// (instances of a mesh, or meshes differing only in material, placed
// with the same rotation and scale) and equal collider settings (a
// comparable struct: every field of it is part of the key) are made once:
// the first in plan order is made, the others get its colliders moved.
func makeColliders(ctx context.Context, doc *gltf.Document, ex *mesh.Result, parts []*partPlan, run Run) map[int]*made {
	out := make(map[int]*made, len(parts))
	var live []*partPlan
	for _, pp := range parts {
		f, _, err := frame(pp.body.world)
		if err != nil {
			continue
		}
		inv, _ := f.Inverse()
		p := &ex.Parts[pp.part]
		m := &made{local: make([]geom.Vec3, len(p.Vertices))}
		for i, v := range p.Vertices {
			m.local[i] = inv.Point(v)
		}
		out[pp.part] = m
		live = append(live, pp)
	}
	// leader[i] is the index in live of the part whose colliders part i
	// gets moved by shift[i] (itself for the parts that are made, listed
	// in leaders).
	leader := make([]int, len(live))
	shift := make([]geom.Vec3, len(live))
	var leaders []int
	buckets := map[[2]int][]int{}
	for i, pp := range live {
		leader[i] = i
		p := &ex.Parts[pp.part]
		key := [2]int{len(p.Vertices), len(p.Triangles)}
		for _, j := range buckets[key] {
			if pp.collider != live[j].collider {
				continue
			}
			if t, ok := sameGeometry(out[live[j].part].local, out[pp.part].local, ex.Parts[live[j].part].Triangles, p.Triangles); ok {
				leader[i], shift[i] = j, t
				break
			}
		}
		if leader[i] == i {
			buckets[key] = append(buckets[key], i)
			leaders = append(leaders, i)
		}
	}
	workers := max(run.Workers, 1)
	// The largest part starts first and may use the pool's width inside
	// (a decomposition's candidates): it is the one left running when the
	// others are done, so it must not be left on one worker while the
	// rest of the pool idles (ToyCar: the 88,837-triangle body ran alone
	// on one core after the fabric and glass). The others get one worker
	// each, so at most 2·workers−1 goroutines compute at once; with fewer
	// parts than workers every part gets the width.
	slices.SortStableFunc(leaders, func(a, b int) int {
		return len(ex.Parts[live[b].part].Triangles) - len(ex.Parts[live[a].part].Triangles)
	})
	var g errgroup.Group
	g.SetLimit(workers)
	for k, i := range leaders {
		pp := live[i]
		p := &ex.Parts[pp.part]
		m := out[pp.part]
		r := run
		if r.Progress != nil {
			r = r.ForPart(partName(doc, p))
		}
		r.Workers = 1
		if k == 0 || len(leaders) < workers {
			r.Workers = workers
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				m.err = err
				return nil
			}
			m.cs, m.notes, m.err = Colliders(ctx, m.local, p.Triangles, pp.collider, r)
			return nil
		})
	}
	g.Wait()
	for i, pp := range live {
		j := leader[i]
		if j == i {
			continue
		}
		m, l := out[pp.part], out[live[j].part]
		m.notes, m.err = l.notes, l.err
		for _, c := range l.cs {
			m.cs = append(m.cs, moved(c, shift[i]))
		}
	}
	return out
}

// moved returns c moved by t: what Colliders makes of the points moved by
// t, but for rounding.
func moved(c Collider, t geom.Vec3) Collider {
	switch {
	case c.Hull != nil:
		m := convexCollider(&hull.Hull{Vertices: translated(c.Hull.Vertices, t), Triangles: c.Hull.Triangles}, c.Method, c.Capped)
		m.overshoot = c.overshoot
		return m
	case c.soup != nil:
		c.soup = &soup{translated(c.soup.vertices, t), c.soup.triangles}
	default:
		c.Translation = c.Translation.Add(t)
	}
	c.Mass.CenterOfMass = c.Mass.CenterOfMass.Add(t)
	if c.Convex != nil {
		c.Convex = &mass.Convex{Vertices: translated(c.Convex.Vertices, t), Triangles: c.Convex.Triangles}
	}
	return c
}

// translated returns a copy of vs moved by t.
func translated(vs []geom.Vec3, t geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		out[i] = v.Add(t)
	}
	return out
}

// sameTol: two parts' vertices this close, relative to the bounding-box
// diagonal, count as the same geometry (instances differ by the rounding
// of their transforms, some 1e-16).
const sameTol = 1e-9

// sameGeometry reports whether mesh (b, tb) is mesh (a, ta) moved by t:
// the same triangles, over vertices b[i] within sameTol of a[i]+t, so
// that the colliders of a moved by t hold b's vertices too.
func sameGeometry(a, b []geom.Vec3, ta, tb [][3]uint32) (t geom.Vec3, ok bool) {
	if len(a) != len(b) || len(a) == 0 || !slices.Equal(ta, tb) {
		return t, false
	}
	t = b[0].Sub(a[0])
	tol := sameTol * geom.BoundsOf(a).Diagonal()
	for i := range a {
		d := b[i].Sub(a[i]).Sub(t)
		if math.Abs(d[0]) > tol || math.Abs(d[1]) > tol || math.Abs(d[2]) > tol {
			return t, false
		}
	}
	return t, true
}

// MaxAssetColliders bounds the colliders generated for one asset (all
// its mesh instances together; ColliderSettings.MaxColliders is the
// budget of one instance). Each costs
// its node, shape and (hulls) mesh, accessor and buffer view in the
// document and the output, some 15 kB for a box and 40 kB for a small
// hull at the peak of a run (25,000 hulls on GPU instances of a cube
// peaked at 954 MB), so that the memory bound of README holds for a file
// of a few kilobytes declaring many instances.
const MaxAssetColliders = 10_000

// checkColliderCount refuses an asset whose parts got more than
// MaxAssetColliders colliders in all, before any is written into the document.
func checkColliderCount(done map[int]*made) error {
	n := 0
	for _, m := range done {
		n += len(m.cs)
	}
	if n > MaxAssetColliders {
		return fmt.Errorf("%d colliders to generate, over the limit of %d (fewer mesh instances, or a method making fewer colliders per instance)", n, MaxAssetColliders)
	}
	return nil
}
