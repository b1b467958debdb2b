package mass

import (
	"fmt"
	"math"
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

// unionPointwise is Union as it was before the row ranges: every lattice
// point of the overlap region tested against every pair box, part box and
// face plane.
func unionPointwise(parts []Convex, resolution int) (Properties, error) {
	if len(parts) == 0 {
		return Properties{}, fmt.Errorf("mass: union of no parts")
	}
	if resolution <= 0 {
		resolution = DefaultUnionResolution
	}
	resolution = min(resolution, maxUnionResolution)
	type solid struct {
		m      moments
		box    geom.Box
		planes []plane
	}
	solids := make([]solid, len(parts))
	all := geom.EmptyBox()
	for i, p := range parts {
		m, flipped, err := meshMoments(p.Vertices, p.Triangles)
		if err != nil {
			return Properties{}, fmt.Errorf("union part %d: %w", i, err)
		}
		box := geom.EmptyBox()
		for _, t := range p.Triangles {
			for _, k := range t {
				box = box.Extend(p.Vertices[k])
			}
		}
		solids[i] = solid{m: m, box: box, planes: facePlanes(p, flipped)}
		all = all.Union(box)
	}
	o := all.Center()
	var total moments
	total.o = o
	for _, s := range solids {
		total = total.add(s.m.about(o), 1)
	}

	// Boxes where at least two parts may overlap.
	var pairs []geom.Box
	for i := range solids {
		for j := i + 1; j < len(solids); j++ {
			b := geom.Box{Min: solids[i].box.Min.Max(solids[j].box.Min), Max: solids[i].box.Max.Min(solids[j].box.Max)}
			if !b.IsEmpty() {
				pairs = append(pairs, b)
			}
		}
	}
	if len(pairs) > 0 {
		size := all.Size()
		h := math.Max(size[0], math.Max(size[1], size[2])) / float64(resolution)
		region := geom.EmptyBox()
		for _, b := range pairs {
			region = region.Union(b)
		}
		// Lattice points all.Min + (k+½)·h inside region.
		var lo, hi [3]int
		for a := 0; a < 3; a++ {
			lo[a] = max(0, int(math.Floor((region.Min[a]-all.Min[a])/h-0.5)))
			hi[a] = min(resolution+1, int(math.Ceil((region.Max[a]-all.Min[a])/h-0.5)))
		}
		cell := h * h * h
		own := cell * h * h / 12 // ∫ x² over a cell about its centre
		var excess moments
		excess.o = o
		for ix := lo[0]; ix <= hi[0]; ix++ {
			for iy := lo[1]; iy <= hi[1]; iy++ {
				for iz := lo[2]; iz <= hi[2]; iz++ {
					p := geom.Vec3{
						all.Min[0] + (float64(ix)+0.5)*h,
						all.Min[1] + (float64(iy)+0.5)*h,
						all.Min[2] + (float64(iz)+0.5)*h,
					}
					if !inAny(pairs, p) {
						continue
					}
					k := 0
					for si := range solids {
						if inBox(solids[si].box, p) && inside(solids[si].planes, p) {
							k++
						}
					}
					if k < 2 {
						continue
					}
					w := float64(k-1) * cell
					d := p.Sub(o)
					excess.v += w
					excess.s = excess.s.Add(d.Scale(w))
					for i := 0; i < 3; i++ {
						for j := 0; j < 3; j++ {
							excess.c[i][j] += w * d[i] * d[j]
						}
						excess.c[i][i] += float64(k-1) * own
					}
				}
			}
		}
		total = total.add(excess, -1)
	}
	if !(total.v > 0) {
		return Properties{}, fmt.Errorf("mass: union has no volume (%g)", total.v)
	}
	return total.properties(), nil
}

func inside(planes []plane, p geom.Vec3) bool {
	for _, pl := range planes {
		if pl.n.Dot(p) > pl.d {
			return false
		}
	}
	return true
}

func inBox(b geom.Box, p geom.Vec3) bool {
	return p[0] >= b.Min[0] && p[0] <= b.Max[0] && p[1] >= b.Min[1] && p[1] <= b.Max[1] && p[2] >= b.Min[2] && p[2] <= b.Max[2]
}

func inAny(boxes []geom.Box, p geom.Vec3) bool {
	for _, b := range boxes {
		if inBox(b, p) {
			return true
		}
	}
	return false
}

// TestUnionRowRanges: Union's row ranges give the bits of testing every
// lattice point, on rotated boxes and tilted prisms that overlap in many
// pairs, at several resolutions.
func TestUnionRowRanges(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 12; trial++ {
		var parts []Convex
		n := 2 + rng.Intn(10)
		for i := 0; i < n; i++ {
			lo := geom.Vec3{rng.Float64(), rng.Float64(), rng.Float64()}
			hi := lo.Add(geom.Vec3{0.1 + rng.Float64(), 0.1 + rng.Float64(), 0.1 + rng.Float64()})
			q := geom.IdentityQuat()
			if i%3 != 0 {
				// Every third part stays axis-aligned: faces with n_z = 0 and ±1.
				q = geom.Quat{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
			}
			parts = append(parts, aabb{lo, hi}.convex(q, geom.Vec3{rng.Float64(), 0, rng.Float64()}))
		}
		for _, res := range []int{8, 33, 64, 128} {
			got, err := Union(parts, res)
			if err != nil {
				t.Fatal(err)
			}
			want, err := unionPointwise(parts, res)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("trial %d, %d parts, resolution %d: %+v, pointwise %+v", trial, n, res, got, want)
			}
		}
	}
}
