package decompose

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// errDegenerate is returned by buildHull when even the thickened points
// and their bounding box give no hull.
var errDegenerate = errors.New("decompose: cannot hull a part")

// buildHull hulls pts. Flat or line-like point sets (a planar patch of an
// open mesh, a sliver left by a cut) have no volume; they are thickened by
// flatThickness (a fraction of the part's size, see Options) along the
// directions in which they are flat, which keeps every point inside.
func buildHull(pts []geom.Vec3, maxV int, thick float64) (*hull.Hull, error) {
	return buildHullChecked(pts, maxV, thick, true)
}

// scoutHull is buildHull without checking that the hull holds every point
// (O(points × faces), most of the time on large parts) and with the hull
// package's local convexity check only: for candidate cuts, whose hulls
// only score them. A part kept is checked by capHull.
func scoutHull(pts []geom.Vec3, thick float64) (*hull.Hull, error) {
	return buildHullChecked(pts, -1, thick, false)
}

func buildHullChecked(pts []geom.Vec3, maxV int, thick float64, check bool) (*hull.Hull, error) {
	h, err := checkedHull(pts, maxV, check)
	if err == nil {
		return h, nil
	}
	if errors.Is(err, errBadHull) {
		return boxHull(pts, thick)
	}
	// Thicken along the principal axes of the points' spread.
	axes := principalAxes(pts)
	for _, ax := range [][]geom.Vec3{{axes[2]}, {axes[1], axes[2]}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}} {
		th := make([]geom.Vec3, 0, len(pts)*(2*len(ax)+1))
		for _, p := range pts {
			th = append(th, p)
			for _, a := range ax {
				th = append(th, p.Add(a.Scale(thick)), p.Sub(a.Scale(thick)))
			}
		}
		h, err = checkedHull(th, maxV, check)
		if err == nil {
			return h, nil
		}
		if errors.Is(err, errBadHull) {
			return boxHull(th, thick)
		}
	}
	// Last resort: the points' bounding box is a valid hull that contains
	// them all. It only bloats this one part.
	if h, berr := boxHull(pts, thick); berr == nil {
		return h, nil
	}
	return nil, fmt.Errorf("%w (%d points): %v", errDegenerate, len(pts), err)
}

// boxHull is the last resort when no correct hull comes back: the points'
// bounding box (thickened where flat), which contains them by construction.
func boxHull(pts []geom.Vec3, thick float64) (*hull.Hull, error) {
	b := geom.BoundsOf(pts)
	for i := 0; i < 3; i++ {
		if b.Max[i]-b.Min[i] < thick {
			b.Min[i] -= thick
			b.Max[i] += thick
		}
	}
	var c []geom.Vec3
	for i := 0; i < 8; i++ {
		c = append(c, geom.Vec3{pick(i&1, b.Min[0], b.Max[0]), pick(i&2, b.Min[1], b.Max[1]), pick(i&4, b.Min[2], b.Max[2])})
	}
	h, err := hull.Build(c, hull.Options{})
	if err != nil {
		return nil, fmt.Errorf("decompose: bounding-box hull: %w", err)
	}
	return h, nil
}

func pick(bit int, lo, hi float64) float64 {
	if bit != 0 {
		return hi
	}
	return lo
}

// principalAxes returns the eigenvectors of the points' covariance, largest
// spread first (equal spreads in a fixed order).
func principalAxes(pts []geom.Vec3) [3]geom.Vec3 {
	vals, v := geom.SymEigen(geom.Scatter(pts), 1e-30)
	order := [3]int{0, 1, 2}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if vals[order[j]] > vals[order[i]] {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	var out [3]geom.Vec3
	for i, k := range order {
		out[i] = v.Col(k)
	}
	return out
}

// hullTol is how far (relative to the points' box diagonal) a point may
// lie outside the hull built for it before the hull is rejected. quickhull-go
// routinely leaves points ~3e-8 outside after merging nearly coplanar
// faces, and occasionally returns a non-convex hull on inputs with many
// coplanar points (a cut face): up to half the part's size off.
const hullTol = 1e-7

// hullRetries is how many deterministic reshuffles of the points are tried
// when quickhull-go returns a bad hull.
const hullRetries = 8

// errBadHull: no attempt gave a hull containing the points.
var errBadHull = errors.New("hull package returned hulls not containing their points")

// checkedHull calls hull.Build and verifies that the result is convex and
// contains pts, retrying with reshuffled input order when it is not (see
// hullTol). A flat set gives an error.
func checkedHull(pts []geom.Vec3, maxV int, check bool) (*hull.Hull, error) {
	in := pts
	var rng *rand.Rand
	for try := 0; ; try++ {
		h, err := hull.Build(in, hull.Options{MaxVertices: maxV, LocalCheck: !check})
		if err != nil {
			return nil, err
		}
		if h.Volume() <= 0 {
			return nil, errors.New("zero volume")
		}
		if !check || hullViolation(h, pts) <= hullTol {
			return h, nil
		}
		if try == hullRetries {
			return nil, errBadHull
		}
		if rng == nil {
			rng = rand.New(rand.NewPCG(uint64(len(pts)), 1))
			in = append([]geom.Vec3(nil), pts...)
		}
		rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
	}
}

// hullViolation returns how far the worst of pts lies outside h's face
// planes, relative to the size of the points' box.
func hullViolation(h *hull.Hull, pts []geom.Vec3) float64 {
	pl := facePlanes(h)
	var worst float64
	for _, p := range pts {
		if d := -depth(pl, p); d > worst {
			worst = d
		}
	}
	for _, p := range h.Vertices {
		if d := -depth(pl, p); d > worst {
			worst = d
		}
	}
	return worst / geom.BoundsOf(pts).Diagonal()
}
