package generate_test

import (
	"context"
	"math"
	"testing"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/profiles"
)

// TestHolesStayOpenProduct runs testassets.HoleMeshes (a mug, a torus, a
// ring, a chair whose back has a gap, a cup, a teapot) through Colliders
// with the default profile's collider settings (auto, at most 8 colliders,
// the bulk search, gapSlack 0.2) and with method decompose at 8 colliders
// (the full search), and moves a probe sphere of 1.5 times the default
// concavity tolerance's radius along each probe path: it must touch no
// collider, hull or primitive (auto must not fill a hole with one
// primitive, nor a part's primitive bridge it), every vertex inside the
// colliders, at least two colliders for each mesh.
func TestHolesStayOpenProduct(t *testing.T) {
	p, err := profiles.Load("default")
	if err != nil {
		t.Fatal(err)
	}
	o, err := p.Options()
	if err != nil {
		t.Fatal(err)
	}
	set := o.Collider
	if set.Method != generate.Auto || set.MaxColliders != 8 {
		t.Fatalf("default profile: method %q, max colliders %d; this test expects auto and 8", set.Method, set.MaxColliders)
	}
	dec := set
	dec.Method, dec.MaxColliders = generate.Decompose, 8
	for _, s := range []struct {
		name string
		set  generate.ColliderSettings
	}{{"default", set}, {"decompose K=8", dec}} {
		for _, hm := range testassets.HoleMeshes() {
			t.Run(s.name+"/"+hm.Name, func(t *testing.T) {
				holesStayOpen(t, hm, s.set)
			})
		}
	}
}

// holesStayOpen checks one hole mesh's colliders under set (see
// TestHolesStayOpenProduct).
func holesStayOpen(t *testing.T, hm testassets.HoleMesh, set generate.ColliderSettings) {
	cs, notes, err := generate.Colliders(context.Background(), hm.V, hm.T, set, generate.Run{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) > set.MaxColliders {
		t.Errorf("%d colliders, budget %d", len(cs), set.MaxColliders)
	}
	if len(cs) < 2 {
		t.Errorf("%d collider for a mesh with a hole (%v)", len(cs), notes)
	}
	diag := geom.BoundsOf(hm.V).Diagonal()
	for i, v := range hm.V {
		in := false
		for _, c := range cs {
			if colliderDist(c, v) <= 1e-6*diag {
				in = true
				break
			}
		}
		if !in {
			t.Fatalf("vertex %d %v lies outside every collider (%v)", i, v, notes)
		}
	}
	rp := 1.5 * decompose.DefaultConcavity * diag
	for pi, pr := range hm.Probes {
	probe:
		for s := 0; s <= 200; s++ {
			x := pr.From.Add(pr.To.Sub(pr.From).Scale(float64(s) / 200))
			for ci, c := range cs {
				if d := colliderDist(c, x); d < rp {
					t.Errorf("probe %d %s (radius %.3g) touches collider %d (%s) at %v: %.3g away (%v)", pi, pr.What, rp, ci, c.Shape.Type, x, d, notes)
					break probe
				}
			}
		}
	}
}

// colliderDist returns a lower bound of the distance from x to collider c
// (0 or less inside): exact for the primitives, the largest face-plane
// distance for a hull.
func colliderDist(c generate.Collider, x geom.Vec3) float64 {
	if c.Hull != nil && c.Shape.Type == physics.Convex {
		d := math.Inf(-1)
		h := c.Hull
		for _, tr := range h.Triangles {
			a, b, cc := h.Vertices[tr[0]], h.Vertices[tr[1]], h.Vertices[tr[2]]
			n := b.Sub(a).Cross(cc.Sub(a))
			if l := n.Len(); l > 0 {
				d = math.Max(d, x.Sub(a).Dot(n)/l)
			}
		}
		return d
	}
	l := c.Rotation.Mat3().Transpose().MulVec(x.Sub(c.Translation))
	s := c.Shape
	switch s.Type {
	case physics.Sphere:
		return l.Len() - s.Radius
	case physics.Box:
		var out geom.Vec3
		in := math.Inf(-1)
		for k := 0; k < 3; k++ {
			e := math.Abs(l[k]) - s.Size[k]/2
			out[k] = math.Max(e, 0)
			in = math.Max(in, e)
		}
		return out.Len() + math.Min(in, 0)
	case physics.Capsule:
		y := math.Max(-s.Height/2, math.Min(s.Height/2, l[1]))
		return geom.Vec3{l[0], l[1] - y, l[2]}.Len() - math.Max(s.RadiusTop, s.RadiusBottom)
	case physics.Cylinder:
		r := math.Max(s.RadiusTop, s.RadiusBottom)
		dr, dy := math.Hypot(l[0], l[2])-r, math.Abs(l[1])-s.Height/2
		return math.Hypot(math.Max(dr, 0), math.Max(dy, 0)) + math.Min(math.Max(dr, dy), 0)
	}
	panic("unknown collider type " + string(s.Type))
}
