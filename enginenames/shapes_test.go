package enginenames

import (
	"fmt"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// closedConvex checks a solid: every edge shared by two faces wound
// oppositely, every face's normal pointing away from the origin, and no
// vertex outside a face's plane.
func closedConvex(s solid) error {
	edges := map[[2]uint32]int{}
	for i, t := range s.t {
		for k := 0; k < 3; k++ {
			edges[[2]uint32{t[k], t[(k+1)%3]}]++
		}
		a, b, c := s.v[t[0]], s.v[t[1]], s.v[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Len() == 0 {
			return fmt.Errorf("face %d is degenerate", i)
		}
		n = n.Normalize()
		if n.Dot(a) <= 0 {
			return fmt.Errorf("face %d faces the centre", i)
		}
		for vi, v := range s.v {
			if v.Sub(a).Dot(n) > 1e-12 {
				return fmt.Errorf("vertex %d outside face %d", vi, i)
			}
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]uint32{e[1], e[0]}] != 1 {
			return fmt.Errorf("edge %v: not closed", e)
		}
	}
	return nil
}

// minFace is the smallest distance from the origin to a face's plane.
func minFace(s solid) float64 {
	d := math.Inf(1)
	for _, t := range s.t {
		a, b, c := s.v[t[0]], s.v[t[1]], s.v[t[2]]
		d = math.Min(d, b.Sub(a).Cross(c.Sub(a)).Normalize().Dot(a))
	}
	return d
}

// TestSolids: every primitive mesh is closed, convex and outward; the
// on-surface ones have every vertex on the shape (as Unreal reads its
// primitives from them), the covering ones every face at least the
// radius away (so that they contain the shape) and no vertex more than
// 10% beyond it.
func TestSolids(t *testing.T) {
	const r, h = 0.3, 1.2
	box := boxSolid(geom.Vec3{1, 2, 3})
	sphere, cover := sphereSolid(r, false), sphereSolid(r, true)
	capsule, capCover := capsuleSolid(r, h, false), capsuleSolid(r, h, true)
	cyl := cylinderSolid(r, r, h)
	tapered := taperedSolid(0.2, 0.4, h)
	for name, s := range map[string]solid{"box": box, "sphere": sphere, "cover": cover, "capsule": capsule,
		"capsule cover": capCover, "cylinder": cyl, "tapered": tapered} {
		if err := closedConvex(s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if len(box.v) != 8 || len(box.t) != 12 {
		t.Errorf("box: %d vertices, %d triangles", len(box.v), len(box.t))
	}
	for _, v := range box.v {
		if math.Abs(v[0]) != 0.5 || math.Abs(v[1]) != 1 || math.Abs(v[2]) != 1.5 {
			t.Errorf("box vertex %v is not a corner", v)
		}
	}
	for _, v := range sphere.v {
		if math.Abs(v.Len()-r) > 1e-12 {
			t.Errorf("sphere vertex %v off the sphere", v)
		}
	}
	seg := func(v geom.Vec3) float64 {
		y := math.Max(-h/2, math.Min(h/2, v[1]))
		return v.Sub(geom.Vec3{0, y, 0}).Len()
	}
	for _, v := range capsule.v {
		if math.Abs(seg(v)-r) > 1e-12 {
			t.Errorf("capsule vertex %v off the capsule", v)
		}
	}
	if d := minFace(cover); d < r*(1-1e-12) {
		t.Errorf("sphere cover: a face %g from the centre, radius %g", d, r)
	}
	for _, v := range append(cover.v, capCover.v...) {
		if l := math.Min(v.Len(), seg(v)); l > 1.1*r {
			t.Errorf("cover vertex %v is %g from the shape", v, l)
		}
	}
	for i, tr := range capCover.t {
		a, b, c := capCover.v[tr[0]], capCover.v[tr[1]], capCover.v[tr[2]]
		n := b.Sub(a).Cross(c.Sub(a)).Normalize()
		// The capsule's support along n: its segment's, plus the radius.
		if support := math.Abs(n[1])*h/2 + r; n.Dot(a) < support*(1-1e-12) {
			t.Errorf("capsule cover face %d cuts the capsule: %g < %g", i, n.Dot(a), support)
		}
	}
	for i, tr := range cyl.t {
		a, b, c := cyl.v[tr[0]], cyl.v[tr[1]], cyl.v[tr[2]]
		n := b.Sub(a).Cross(c.Sub(a)).Normalize()
		if support := math.Abs(n[1])*h/2 + r*math.Hypot(n[0], n[2]); n.Dot(a) < support*(1-1e-9) {
			t.Errorf("cylinder face %d cuts the cylinder: %g < %g", i, n.Dot(a), support)
		}
	}
}

// TestDecompose: a TRS matrix splits back into its parts, a mirrored one
// into a negative scale, and a shear is refused.
func TestDecompose(t *testing.T) {
	q := geom.Quat{0.1, 0.7, -0.2, 0.6}.Normalize()
	for _, s := range []geom.Vec3{{1, 1, 1}, {2, 0.5, 3}, {-2, 0.5, 3}} {
		m := geom.TRS(geom.Vec3{1, 2, 3}, q, s)
		tr, gq, gs, ok := decompose(m)
		if !ok {
			t.Fatalf("%v: refused", s)
		}
		back := geom.TRS(tr, gq, gs)
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				if math.Abs(back[i][j]-m[i][j]) > 1e-12 {
					t.Fatalf("%v: %v, want %v", s, back, m)
				}
			}
		}
	}
	shear := geom.TRS(geom.Vec3{}, q, geom.Vec3{1, 2, 1}).Mul(geom.TRS(geom.Vec3{}, geom.Quat{0, 0, 0.38268343, 0.92387953}, geom.Vec3{1, 1, 1})).Mul(geom.TRS(geom.Vec3{}, geom.IdentityQuat(), geom.Vec3{3, 1, 1}))
	if _, _, _, ok := decompose(shear); ok {
		t.Error("a shear was decomposed")
	}
}
