package preview

import (
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/physics"
)

// tess is the kinds table's tessellation of s, as the preview draws it.
func tess(s physics.Shape) solid {
	m, _ := shapeSolid(s)
	return m
}

// volume is the signed volume enclosed by s (divergence theorem).
func volume(s solid) float64 {
	v := 0.0
	for _, t := range s.tris {
		a, b, c := s.verts[t[0]], s.verts[t[1]], s.verts[t[2]]
		v += a.Dot(b.Cross(c)) / 6
	}
	return v
}

// closed reports whether every edge is used exactly twice, once in each
// direction (a watertight, consistently wound surface).
func closed(s solid) bool {
	dir := map[[2]uint32]int{}
	for _, t := range s.tris {
		for e := range 3 {
			dir[[2]uint32{t[e], t[(e+1)%3]}]++
		}
	}
	for e, n := range dir {
		if n != 1 || dir[[2]uint32{e[1], e[0]}] != 1 {
			return false
		}
	}
	return true
}

// TestSolids checks every tessellated primitive against its analytic
// volume and bounds, that it is closed and consistently wound, and how
// many crease edges it outlines.
func TestSolids(t *testing.T) {
	capsuleVol := func(r, h float64) float64 { return math.Pi*r*r*h + 4.0/3*math.Pi*r*r*r }
	cases := []struct {
		name    string
		s       solid
		vol     float64
		relTol  float64 // tessellation error allowed on the volume
		lo, hi  geom.Vec3
		creases int
	}{
		{"box", tess(physics.Shape{Type: physics.Box, Size: [3]float64{1, 2, 3}}), 6, 1e-12, geom.Vec3{-0.5, -1, -1.5}, geom.Vec3{0.5, 1, 1.5}, 12},
		{"sphere", tess(physics.Shape{Type: physics.Sphere, Radius: 2}), 4.0 / 3 * math.Pi * 8, 0.03, geom.Vec3{-2, -2, -2}, geom.Vec3{2, 2, 2}, 0},
		{"capsule", tess(physics.Shape{Type: physics.Capsule, RadiusTop: 0.5, RadiusBottom: 0.5, Height: 2}), capsuleVol(0.5, 2), 0.03, geom.Vec3{-0.5, -1.5, -0.5}, geom.Vec3{0.5, 1.5, 0.5}, 0},
		{"cylinder", tess(physics.Shape{Type: physics.Cylinder, RadiusTop: 1, RadiusBottom: 1, Height: 3}), math.Pi * 3, 0.01, geom.Vec3{-1, -1.5, -1}, geom.Vec3{1, 1.5, 1}, 2 * kinds.RoundSegments},
		// Frustum: V = πh/3 (R² + Rr + r²).
		{"cone frustum", tess(physics.Shape{Type: physics.Cylinder, RadiusTop: 0.5, RadiusBottom: 1, Height: 2}), math.Pi * 2 / 3 * (1 + 0.5 + 0.25), 0.01, geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1}, 2 * kinds.RoundSegments},
		{"cone", tess(physics.Shape{Type: physics.Cylinder, RadiusTop: 0, RadiusBottom: 1, Height: 2}), math.Pi * 2 / 3, 0.01, geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1}, kinds.RoundSegments},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !closed(c.s) {
				t.Error("not closed and consistently wound")
			}
			v := math.Abs(volume(c.s))
			if math.Abs(v-c.vol) > c.relTol*c.vol {
				t.Errorf("volume %.6g, want %.6g ± %.0f%%", v, c.vol, 100*c.relTol)
			}
			b := geom.BoundsOf(c.s.verts)
			for k := range 3 {
				if math.Abs(b.Min[k]-c.lo[k]) > 1e-9 || math.Abs(b.Max[k]-c.hi[k]) > 1e-9 {
					t.Fatalf("bounds %v, want %v–%v", b, c.lo, c.hi)
				}
			}
			if n := len(creases(c.s)); n != c.creases {
				t.Errorf("%d crease edges, want %d", n, c.creases)
			}
		})
	}
}

// TestTaperedCapsule: with unequal radii the capsule is the hull of its
// two end spheres: every vertex is on one of them or on the cone tangent
// to both, and the extremes along Y are the spheres' poles.
func TestTaperedCapsule(t *testing.T) {
	for _, c := range []struct{ top, bottom, h float64 }{{0.2, 0.6, 1}, {0.6, 0.2, 1}, {0.1, 2, 1}, {0.5, 0.5, 0}} {
		s := tess(physics.Shape{Type: physics.Capsule, RadiusTop: c.top, RadiusBottom: c.bottom, Height: c.h})
		if !closed(s) {
			t.Errorf("%+v: not closed", c)
		}
		b := geom.BoundsOf(s.verts)
		wantMax := math.Max(c.h/2+c.top, -c.h/2+c.bottom)
		wantMin := math.Min(-c.h/2-c.bottom, c.h/2-c.top)
		if math.Abs(b.Max[1]-wantMax) > 1e-9 || math.Abs(b.Min[1]-wantMin) > 1e-9 {
			t.Errorf("%+v: y range [%g, %g], want [%g, %g]", c, b.Min[1], b.Max[1], wantMin, wantMax)
		}
		// Every vertex is on an end sphere, and both spheres are inside
		// every face plane up to the chord error of the tessellation
		// (a wrong tangent latitude leaves a sphere bulging out by 4–8%).
		top, bottom := geom.Vec3{0, c.h / 2, 0}, geom.Vec3{0, -c.h / 2, 0}
		for _, v := range s.verts {
			dt, db := math.Abs(v.Sub(top).Len()-c.top), math.Abs(v.Sub(bottom).Len()-c.bottom)
			if dt > 1e-9 && db > 1e-9 {
				t.Fatalf("%+v: vertex %v on neither end sphere", c, v)
			}
		}
		out := 1.0
		if volume(s) < 0 {
			out = -1
		}
		const chordTol = 0.012
		for _, tri := range s.tris {
			a := s.verts[tri[0]]
			n := s.verts[tri[1]].Sub(a).Cross(s.verts[tri[2]].Sub(a)).Normalize().Scale(out)
			for _, sp := range []struct {
				c geom.Vec3
				r float64
			}{{top, c.top}, {bottom, c.bottom}} {
				if over := n.Dot(sp.c.Sub(a)) + sp.r; over > chordTol*sp.r+1e-12 {
					t.Fatalf("%+v: sphere at %v pokes %.3g out of a face", c, sp.c, over)
				}
			}
		}
	}
}

func TestPlane(t *testing.T) {
	s := tess(physics.Shape{Type: physics.Plane, PlaneSizeX: 4, PlaneSizeZ: 2})
	if n := len(creases(s)); n != 4 {
		t.Errorf("%d outline edges, want the 4 sides", n)
	}
	b := geom.BoundsOf(s.verts)
	if b.Min != (geom.Vec3{-2, 0, -1}) || b.Max != (geom.Vec3{2, 0, 1}) {
		t.Errorf("bounds %v", b)
	}
}
