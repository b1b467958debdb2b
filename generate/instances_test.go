package generate

import (
	"context"
	"math"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
)

// TestDedupKey: instances of one geometry share their colliders only when
// their ColliderSettings are equal. A part whose hull cap differs is made
// for itself (and honours its cap); one with equal settings gets a hull
// of the first one's size.
func TestDedupKey(t *testing.T) {
	v, tris := chair()
	moved := func(off geom.Vec3) mesh.Part {
		p := mesh.Part{Mesh: 0, Triangles: tris}
		for _, x := range v {
			p.Vertices = append(p.Vertices, x.Add(off))
		}
		return p
	}
	ex := &mesh.Result{Parts: []mesh.Part{moved(geom.Vec3{}), moved(geom.Vec3{3, 0, 0}), moved(geom.Vec3{0, 0, 3})}}
	b := &bodyPlan{world: geom.Identity4()}
	settings := []ColliderSettings{{Method: Hull}, {Method: Hull, MaxHullVertices: 8}, {Method: Hull}}
	var parts []*partPlan
	for i, s := range settings {
		parts = append(parts, &partPlan{part: i, body: b, collider: s})
	}
	out := makeColliders(context.Background(), nil, ex, parts, Run{Workers: 1})
	for i := range settings {
		if m := out[i]; m.err != nil || len(m.cs) != 1 || m.cs[0].Hull == nil {
			t.Fatalf("part %d: %d colliders, %v", i, len(m.cs), m.err)
		}
	}
	full := len(out[0].cs[0].Hull.Vertices)
	if full <= 8 {
		t.Fatalf("the uncapped hull has %d vertices; the test needs more than 8", full)
	}
	if n := len(out[1].cs[0].Hull.Vertices); n > 8 {
		t.Errorf("capped instance has %d hull vertices: it shared the uncapped one's colliders", n)
	}
	third := out[2].cs[0].Hull.Vertices
	if len(third) != full {
		t.Fatalf("equal settings: %d hull vertices, want the first's %d", len(third), full)
	}
	if a, b := out[0].cs[0].Mass.Volume, out[2].cs[0].Mass.Volume; math.Abs(a-b) > 1e-6*a {
		t.Errorf("equal settings: hull volume %g, the first's %g", b, a)
	}
}
