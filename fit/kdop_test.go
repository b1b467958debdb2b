package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// kdopClouds are point sets of different shapes: a ball, a long rotated
// rod, a cube's corners, a flat sheet (z = 0) and a far-off cluster.
func kdopClouds() map[string][]geom.Vec3 {
	r := rand.New(rand.NewPCG(7, 26))
	ball, rod, sheet, far := make([]geom.Vec3, 400), make([]geom.Vec3, 300), make([]geom.Vec3, 200), make([]geom.Vec3, 200)
	for i := range ball {
		v := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		ball[i] = v.Scale(2 / v.Len())
	}
	q := geom.Quat{0.3, 0.2, 0.1, 0.93}
	q = q.Normalize()
	for i := range rod {
		rod[i] = q.Rotate(geom.Vec3{r.Float64() * 10, r.Float64() * 0.5, r.Float64() * 0.3})
	}
	for i := range sheet {
		sheet[i] = geom.Vec3{r.Float64(), r.Float64() * 2, 0}
	}
	for i := range far {
		far[i] = geom.Vec3{1e4 + r.Float64(), -2e4 + r.Float64(), 3e3 + r.Float64()}
	}
	var cube []geom.Vec3
	for i := range 8 {
		cube = append(cube, geom.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	return map[string][]geom.Vec3{"ball": ball, "rod": rod, "cube": cube, "sheet": sheet, "far": far}
}

// slabs are the test's own oracle: the 13 directions of {-1,0,1}³ (one
// of each ± pair) and the points' extent along each, relative to their
// bounding-box centre, grown by tol·|n|₁ and to at least minWidth.
func slabs(pts []geom.Vec3, tol, minWidth float64) (ns []geom.Vec3, lo, hi []float64) {
	o := geom.BoundsOf(pts).Center()
	for i := range 27 {
		d := geom.Vec3{float64(i%3 - 1), float64(i/3%3 - 1), float64(i/9 - 1)}
		if d.Len() == 0 || d[0] < 0 || d[0] == 0 && (d[1] < 0 || d[1] == 0 && d[2] < 0) {
			continue
		}
		n := d.Scale(1 / d.Len())
		l, h := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			l, h = math.Min(l, n.Dot(p.Sub(o))), math.Max(h, n.Dot(p.Sub(o)))
		}
		g := tol * (math.Abs(n[0]) + math.Abs(n[1]) + math.Abs(n[2]))
		l, h = l-g, h+g
		if w := h - l; w < minWidth {
			l, h = l-(minWidth-w)/2, h+(minWidth-w)/2
		}
		ns, lo, hi = append(ns, n), append(lo, l), append(hi, h)
	}
	return ns, lo, hi
}

// TestKDOP26 checks, on every cloud, that the polytope holds every point,
// that it is exactly the intersection of the 13 slabs (it reaches each
// slab's two planes, and the hull of the returned vertices agrees with the
// slabs on sample points), and that its volume lies between the points'
// hull's and their grown AABB's.
func TestKDOP26(t *testing.T) {
	for name, pts := range kdopClouds() {
		t.Run(name, func(t *testing.T) {
			minWidth := 0.0
			if name == "sheet" {
				minWidth = 0.05
			}
			vs, err := KDOP26(pts, minWidth, Options{})
			if err != nil {
				t.Fatal(err)
			}
			h, err := hull.Build(vs, hull.Options{MaxVertices: -1})
			if err != nil {
				t.Fatal(err)
			}
			b := geom.BoundsOf(pts)
			diag := b.Diagonal()
			eps := 1e-9 * (diag + b.Max.Len())
			inHull := func(p geom.Vec3, margin float64) bool {
				for _, tr := range h.Triangles {
					a, b, c := h.Vertices[tr[0]], h.Vertices[tr[1]], h.Vertices[tr[2]]
					n := b.Sub(a).Cross(c.Sub(a))
					if n.Dot(p.Sub(a)) > margin*n.Len() {
						return false
					}
				}
				return true
			}
			for i, p := range pts {
				if !inHull(p, eps) {
					t.Fatalf("point %d %v outside the 26-DOP", i, p)
				}
			}
			// The hull of the vertices is the slab intersection: sample
			// the grown AABB, skipping points near a slab boundary.
			tol := DefaultTolerance * diag
			ns, lo, hi := slabs(pts, tol, minWidth)
			if len(ns) != 13 {
				t.Fatalf("oracle has %d directions", len(ns))
			}
			o := b.Center()
			for k, n := range ns {
				l, h := math.Inf(1), math.Inf(-1)
				for _, v := range vs {
					l, h = math.Min(l, n.Dot(v.Sub(o))), math.Max(h, n.Dot(v.Sub(o)))
				}
				if math.Abs(l-lo[k]) > eps || math.Abs(h-hi[k]) > eps {
					t.Errorf("along %v the polytope spans [%g, %g], the slab [%g, %g]", n, l, h, lo[k], hi[k])
				}
			}
			r := rand.New(rand.NewPCG(1, 1))
			checked := 0
			for range 4000 {
				var p geom.Vec3
				for k := range 3 {
					p[k] = b.Min[k] - tol + r.Float64()*(b.Max[k]-b.Min[k]+2*tol)
				}
				inSlabs, near := true, false
				for k, n := range ns {
					s := n.Dot(p.Sub(o))
					near = near || math.Abs(s-lo[k]) < 1e-6*diag || math.Abs(s-hi[k]) < 1e-6*diag
					inSlabs = inSlabs && s >= lo[k] && s <= hi[k]
				}
				if near {
					continue
				}
				checked++
				if got := inHull(p, 0); got != inSlabs {
					t.Fatalf("sample %v: in hull of the vertices %v, in the slabs %v", p, got, inSlabs)
				}
			}
			if checked < 1000 {
				t.Fatalf("only %d samples checked", checked)
			}
			aabb, err := Fit(KindAABB, pts, Options{GapSamples: -1})
			if err != nil {
				t.Fatal(err)
			}
			v := h.Volume()
			if name != "sheet" {
				pin, _ := Prepare(pts)
				if v < pin.HullVolume()*(1-1e-9) {
					t.Errorf("volume %g below the points' hull %g", v, pin.HullVolume())
				}
				if v > aabb.Volume*(1+1e-9) {
					t.Errorf("volume %g above the AABB's %g", v, aabb.Volume)
				}
			} else if ext := geom.BoundsOf(vs).Size()[2]; ext < minWidth*(1-1e-9) {
				t.Errorf("flat sheet: thickness %g below the minimum width %g", ext, minWidth)
			}
			if name == "cube" && len(h.Vertices) != 8 {
				t.Errorf("cube: %d vertices, want its 8 corners", len(h.Vertices))
			}
			if name == "ball" && v > 0.75*aabb.Volume {
				t.Errorf("ball: volume %g not much below the AABB's %g: diagonal slabs unused?", v, aabb.Volume)
			}
			again, _ := KDOP26(pts, minWidth, Options{})
			if !slices.Equal(vs, again) {
				t.Error("two runs differ")
			}
		})
	}
}

func TestKDOP26BadInput(t *testing.T) {
	if _, err := KDOP26(nil, 0, Options{}); !errors.Is(err, ErrNoPoints) {
		t.Errorf("no points: %v", err)
	}
	if _, err := KDOP26([]geom.Vec3{{0, 0, 0}, {math.NaN(), 0, 0}}, 0, Options{}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
}
