package generate_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/profiles"
)

// knownBridged are the hole meshes whose probes the default profile's
// colliders still touch, and why. The budget's merges keep them open
// (decompose.TestHolesStayOpen); what closes them comes before and after:
// auto's bulk search (no tightening) leaves wall parts whose pocket
// filling spans the cup's inside (hulls 6 to 8 thresholds concave), and
// the mug's wall part that becomes a box (primitiveParts: within 15 % of
// its hull's volume) reaches 0.343 from the mouth's probe line, the probe
// being 0.349. The test fails when one of them opens, so that the list
// only shrinks. Under the default gapSlack the cup, its inside already
// spanned, ends as one hull.
var knownBridged = map[string]string{
	"mug": "a primitive part (box) over the mouth",
	"cup": "the bulk search's pocket filling spans the inside",
}

// TestHolesStayOpenProduct runs testassets.HoleMeshes (a mug, a torus, a
// ring, a chair whose back has a gap, a cup, a teapot) through Colliders
// with the default profile's collider settings (auto, at most 8 colliders)
// and moves a probe sphere of 1.5 times the default concavity tolerance's
// radius along each probe path: it must touch no collider, hull or
// primitive (auto must not fill a hole with one primitive, nor a part's
// primitive bridge it), every vertex inside the colliders; but for
// knownBridged, whose probes must still be touched.
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
	for _, hm := range testassets.HoleMeshes() {
		t.Run(hm.Name, func(t *testing.T) {
			cs, notes, err := generate.Colliders(context.Background(), hm.V, hm.T, set, generate.Run{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) > set.MaxColliders {
				t.Errorf("%d colliders, budget %d", len(cs), set.MaxColliders)
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
			why, known := knownBridged[hm.Name]
			// A known-bridged mesh may end as one hull: once its parts
			// span the hole, merging them below the budget (gapSlack)
			// closes no passage that was open.
			if len(cs) < 2 && !known {
				t.Errorf("auto made %d collider for a mesh with a hole (%v)", len(cs), notes)
			}
			rp := 1.5 * decompose.DefaultConcavity * diag
			var touched []string
			for pi, pr := range hm.Probes {
			probe:
				for s := 0; s <= 200; s++ {
					x := pr.From.Add(pr.To.Sub(pr.From).Scale(float64(s) / 200))
					for ci, c := range cs {
						if d := colliderDist(c, x); d < rp {
							touched = append(touched, fmt.Sprintf("probe %d %s (radius %.3g) touches collider %d (%s) at %v: %.3g away", pi, pr.What, rp, ci, c.Shape.Type, x, d))
							break probe
						}
					}
				}
			}
			switch {
			case known && len(touched) == 0:
				t.Errorf("every probe passes now (known: %s): remove it from knownBridged", why)
			case !known && len(touched) > 0:
				t.Errorf("%s (%v)", strings.Join(touched, "; "), notes)
			}
		})
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
