package mass

import (
	"math/rand"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// aabb is an axis-aligned box [lo, hi].
type aabb struct{ lo, hi geom.Vec3 }

func (b aabb) props() Properties {
	return Box(b.hi.Sub(b.lo)).Transform(geom.IdentityQuat(), b.lo.Add(b.hi).Scale(0.5))
}

func (b aabb) convex(q geom.Quat, t geom.Vec3) Convex {
	v, tr := boxMesh(b.hi.Sub(b.lo), 1)
	c := b.lo.Add(b.hi).Scale(0.5)
	return Convex{Vertices: transformVerts(v, func(p geom.Vec3) geom.Vec3 { return q.Rotate(p.Add(c)).Add(t) }), Triangles: tr}
}

// exactUnion computes the union of axis-aligned boxes by inclusion–exclusion
// (the intersection of boxes is a box), with raw moments.
func exactUnion(boxes []aabb) Properties {
	total := moments{}
	for mask := 1; mask < 1<<len(boxes); mask++ {
		in := aabb{geom.Vec3{-1e300, -1e300, -1e300}, geom.Vec3{1e300, 1e300, 1e300}}
		n := 0
		for i, b := range boxes {
			if mask&(1<<i) != 0 {
				in = aabb{in.lo.Max(b.lo), in.hi.Min(b.hi)}
				n++
			}
		}
		if in.lo[0] >= in.hi[0] || in.lo[1] >= in.hi[1] || in.lo[2] >= in.hi[2] {
			continue
		}
		sign := 1.0
		if n%2 == 0 {
			sign = -1
		}
		total = total.add(in.props().momentsAbout(geom.Vec3{}), sign)
	}
	return total.properties()
}

func TestUnionAccuracy(t *testing.T) {
	boxes := []aabb{
		{geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 1}},
		{geom.Vec3{1, 0.5, 0.2}, geom.Vec3{3, 1.5, 0.8}},
		{geom.Vec3{1.5, -0.5, 0}, geom.Vec3{2.5, 0.8, 1.5}},
	}
	q := geom.Quat{0.3, -0.2, 0.5, 0.8}.Normalize()
	off := geom.Vec3{10, -4, 7}
	var parts []Convex
	var sum []Properties
	for _, b := range boxes {
		parts = append(parts, b.convex(q, off))
		sum = append(sum, b.props())
	}
	want := exactUnion(boxes).Transform(q, off)
	overlap := Sum(sum...).Volume/want.Volume - 1
	t.Logf("overlap counted twice by Sum: %.1f %% of the union", 100*overlap)
	for _, c := range []struct {
		res int
		tol float64
	}{{16, 2e-2}, {32, 5e-3}, {64, 2e-3}, {128, 1e-3}} {
		got, err := Union(parts, c.res)
		if err != nil {
			t.Fatal(err)
		}
		e := propErr(got, want, 3)
		t.Logf("resolution %d: relative error %.2g (volume %.2g)", c.res, e, relErr(got.Volume, want.Volume))
		if e > c.tol {
			t.Fatalf("resolution %d: error %g > %g", c.res, e, c.tol)
		}
	}
}

func TestUnionExactCases(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	// Disjoint parts whose bounding boxes overlap: exactly Sum.
	var parts []Convex
	var props []Properties
	for i := 0; i < 4; i++ {
		v, tr := icosphere(1, 0.4)
		q, off := randQuat(r), geom.Vec3{float64(i), 0.1 * float64(i), 0}
		v = transformVerts(v, func(p geom.Vec3) geom.Vec3 { return q.Rotate(p).Add(off) })
		parts = append(parts, Convex{Vertices: v, Triangles: tr})
		p, err := Mesh(v, tr)
		if err != nil {
			t.Fatal(err)
		}
		props = append(props, p)
	}
	got, err := Union(parts, 32)
	if err != nil {
		t.Fatal(err)
	}
	if e := propErr(got, Sum(props...), 1); e > exactTol {
		t.Fatalf("disjoint union differs from Sum by %g", e)
	}
	// The same part twice (one inside-out): the union is the part.
	inv := make([][3]uint32, len(parts[0].Triangles))
	for i, tr := range parts[0].Triangles {
		inv[i] = [3]uint32{tr[0], tr[2], tr[1]}
	}
	twice, err := Union([]Convex{parts[0], {Vertices: parts[0].Vertices, Triangles: inv}}, 64)
	if err != nil {
		t.Fatal(err)
	}
	e := propErr(twice, props[0], 1)
	t.Logf("part twice at resolution 64: error %.2g", e)
	if e > 1e-2 {
		t.Fatalf("part twice: error %g", e)
	}
	// Deterministic bit for bit.
	again, _ := Union(parts, 32)
	if again != got {
		t.Fatal("Union not deterministic")
	}
	if _, err := Union(nil, 0); err == nil {
		t.Fatal("no error for no parts")
	}
	if _, err := Union([]Convex{{Vertices: parts[0].Vertices}}, 0); err == nil {
		t.Fatal("no error for a part without triangles")
	}
}
