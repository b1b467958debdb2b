package decompose

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// parityInside reports whether x is inside the closed mesh m by the parity
// of the crossings of one generic ray with all its triangles (brute force,
// independent of the package's BVH and its median of three windings).
func parityInside(m testMesh, x geom.Vec3) bool {
	d := geom.Vec3{0.2672612419124244, 0.5345224838248488, 0.8017837257372732}
	n := 0
	for _, t := range m.t {
		if _, _, hit := rayHit(x, d, tri{m.v[t[0]], m.v[t[1]], m.v[t[2]]}); hit {
			n++
		}
	}
	return n%2 == 1
}

// pocketPoints returns the points, among n uniform samples of m's bounding
// box that lie inside m's solid, that no hull contains (the "pockets").
func pocketPoints(m testMesh, hs []*hull.Hull, n int) (pockets []geom.Vec3, solid int) {
	box := geom.BoundsOf(m.v)
	tol := containTol * box.Diagonal()
	var planes [][]plane
	for _, h := range hs {
		planes = append(planes, facePlanes(h))
	}
	rng := rand.New(rand.NewPCG(7, 11))
	s := box.Size()
	for i := 0; i < n; i++ {
		x := geom.Vec3{box.Min[0] + rng.Float64()*s[0], box.Min[1] + rng.Float64()*s[1], box.Min[2] + rng.Float64()*s[2]}
		if !parityInside(m, x) {
			continue
		}
		solid++
		in := false
		for _, pl := range planes {
			if -depth(pl, x) <= tol {
				in = true
				break
			}
		}
		if !in {
			pockets = append(pockets, x)
		}
	}
	return pockets, solid
}

// TestNoPockets: the union of the hulls contains the solid, not only the
// surface, when cuts leave a part with separate faces around one region
// of the interior (the top and bottom faces of a plate, the outer and
// inner walls of a tube with their rims cut off).
func TestNoPockets(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    testMesh
		opt  Options
	}{
		{"square tube", planar(frame(3, 3), 4), Options{Concavity: 0.01}},
		{"long square tube", planar(frame(4, 3), 6), Options{Concavity: 0.01}},
		{"plate with a window", planar(frame(5, 5), 1), Options{Concavity: 0.03}},
		{"plate with a window, finer", planar(frame(5, 5), 1), Options{Concavity: 0.02}},
		{"tube", hollowCylinder(1, 0.8, 1, 24), Options{Concavity: 0.02}},
		{"long tube", hollowCylinder(1, 0.7, 3, 24), Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.m, tc.opt)
			pk, solid := pocketPoints(tc.m, r.Hulls, 4000)
			if solid < 200 {
				t.Fatalf("only %d of 4000 samples inside the solid", solid)
			}
			if len(pk) > 0 {
				t.Errorf("%d of %d solid samples lie in no hull (%d hulls), e.g. %v", len(pk), solid, len(r.Hulls), pk[0])
			}
		})
	}
}

// frame returns the cells of a w×h rectangle's border (a plate with a
// window once extruded).
func frame(w, h int) [][2]int {
	var cs [][2]int
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				cs = append(cs, [2]int{x, y})
			}
		}
	}
	return cs
}

// hollowCylinder returns a closed tube along z: outer wall of radius ro,
// inner wall of radius ri, rims at z = 0 and z = h, n sides.
func hollowCylinder(ro, ri, h float64, n int) testMesh {
	var m testMesh
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		c, s := math.Cos(a), math.Sin(a)
		m.v = append(m.v, geom.Vec3{ro * c, ro * s, 0}, geom.Vec3{ro * c, ro * s, h}, geom.Vec3{ri * c, ri * s, 0}, geom.Vec3{ri * c, ri * s, h})
	}
	id := func(i, k int) uint32 { return uint32((i%n)*4 + k) }
	quad := func(a, b, c, d uint32) { m.t = append(m.t, [3]uint32{a, b, c}, [3]uint32{a, c, d}) }
	for i := 0; i < n; i++ {
		quad(id(i, 0), id(i+1, 0), id(i+1, 1), id(i, 1)) // outer, facing out
		quad(id(i, 2), id(i, 3), id(i+1, 3), id(i+1, 2)) // inner, facing the axis
		quad(id(i, 1), id(i+1, 1), id(i+1, 3), id(i, 3)) // top rim
		quad(id(i, 0), id(i, 2), id(i+1, 2), id(i+1, 0)) // bottom rim
	}
	return m
}

// testDecomposer is the decomposer Decompose would run on m with opt, set
// up as far as the search starts.
func testDecomposer(m testMesh, opt Options) *decomposer {
	ts := toTris(m)
	d := newDecomposer(context.Background(), opt, geom.BoundsOf(m.v).Diagonal())
	d.solid = newBVH(ts)
	d.closed = isClosed(ts)
	return d
}

// cutSeq cuts m by the planes in turn, keeping the given side of each,
// and splits the last side as the decomposition does.
func cutSeq(m testMesh, cuts []capCut) []*part {
	d := testDecomposer(m, Options{})
	s := soup{t: toTris(m)}
	var caps []capRef
	for _, c := range cuts {
		pos, neg, sec := cut(s.t, s.in, c.pl, planeTol*d.diag)
		s = pos
		if c.side < 0 {
			s = neg
		}
		caps = append(caps, capRef{sec, c.side})
	}
	return d.splitSide(s, caps)
}

type capCut struct {
	pl   plane
	side int8
}

func axisCut(ax int, at float64, side int8) capCut {
	var n geom.Vec3
	n[ax] = 1
	return capCut{plane{n, at}, side}
}

// TestSplitSideJoinsSolid: pieces of a side's surface that bound one solid
// region stay one part when hulling them apart would leave the solid
// between them out; pieces separated by empty space stay apart.
func TestSplitSideJoinsSolid(t *testing.T) {
	u := planar([][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {2, 1}, {2, 2}}, 1)
	for _, tc := range []struct {
		name  string
		m     testMesh
		cuts  []capCut
		parts int
		solid []geom.Vec3 // points of the solid the parts' hulls must hold
	}{
		// The middle of a thick plate keeps only its top and bottom faces.
		{"plate middle", box(geom.Vec3{0, 0, 0}, geom.Vec3{4, 4, 1}),
			[]capCut{axisCut(0, 1, 1), axisCut(0, 3, -1), axisCut(1, 1, 1), axisCut(1, 3, -1)}, 1,
			[]geom.Vec3{{2, 2, 0.5}, {1.1, 2.9, 0.1}}},
		// The top and bottom of a plate's corner: the plate's side walls
		// are cut off.
		{"plate strip", box(geom.Vec3{0, 0, 0}, geom.Vec3{4, 4, 1}),
			[]capCut{axisCut(0, 1, 1), axisCut(0, 3, -1)}, 1,
			[]geom.Vec3{{2, 2, 0.5}, {1.1, 3.9, 0.9}}},
		// A ring of a tube, rims cut off: the outer wall's hull holds the
		// inner wall and the solid between, so they need not be joined.
		{"tube ring", hollowCylinder(1, 0.8, 1, 24),
			[]capCut{axisCut(2, 0.25, 1), axisCut(2, 0.75, -1)}, 2,
			[]geom.Vec3{{0.9, 0, 0.5}, {0, -0.9, 0.3}}},
		// The U's arms above a cut under them: the notch is empty.
		{"U arms", u, []capCut{axisCut(1, 1.5, 1)}, 2, nil},
		{"U arms, floor cut off", u, []capCut{axisCut(1, 1.5, 1), axisCut(2, 0.5, -1)}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := cutSeq(tc.m, tc.cuts)
			if len(ps) != tc.parts {
				t.Errorf("%d parts, want %d", len(ps), tc.parts)
			}
			var hs [][]plane
			for _, p := range ps {
				h, err := buildHull(p.points(), -1, 1e-9)
				if err != nil {
					t.Fatal(err)
				}
				hs = append(hs, facePlanes(h))
			}
			for _, x := range tc.solid {
				best := math.Inf(1)
				for _, pl := range hs {
					best = math.Min(best, -depth(pl, x))
				}
				if best > 1e-9 {
					t.Errorf("solid point %v lies %g outside every part's hull", x, best)
				}
			}
		})
	}
}
