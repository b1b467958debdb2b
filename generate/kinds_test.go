package generate

import (
	"context"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/physics"
)

// TestNamedMethodsAreKinds checks that every method generate's own logic
// names is a row of the kinds table, with the build that logic expects.
func TestNamedMethodsAreKinds(t *testing.T) {
	for m, b := range map[Method]kinds.Build{
		Auto: kinds.Choose, AABB: kinds.Fitted, Box: kinds.Fitted, Sphere: kinds.Fitted, Capsule: kinds.Fitted,
		Cylinder: kinds.Fitted, Hull: kinds.ConvexHull, Decompose: kinds.Decomposed, Trimesh: kinds.Mesh, None: kinds.Nothing,
	} {
		if k, ok := kinds.ByMethod(string(m)); !ok || k.Build != b {
			t.Errorf("method %q: row %+v (found %v), want build %d", m, k, ok, b)
		}
	}
	if len(Methods()) != len(kinds.All()) {
		t.Errorf("Methods() has %d methods, the table %d", len(Methods()), len(kinds.All()))
	}
}

// TestCollidersFollowTheTable makes one collider of a unit cube with every
// method and checks it writes the shape type its row names and reports
// its own method.
func TestCollidersFollowTheTable(t *testing.T) {
	var vs []geom.Vec3
	for i := range 8 {
		vs = append(vs, geom.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	tris := [][3]uint32{{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}}
	for _, k := range kinds.All() {
		cs, _, err := Colliders(context.Background(), vs, tris, ColliderSettings{Method: Method(k.Method)}, Run{})
		if err != nil {
			t.Fatalf("%s: %v", k.Method, err)
		}
		if k.Build == kinds.Nothing {
			if len(cs) != 0 {
				t.Errorf("%s made %d colliders", k.Method, len(cs))
			}
			continue
		}
		if len(cs) == 0 {
			t.Fatalf("%s made no collider", k.Method)
		}
		for _, c := range cs {
			want, method := k.Shape, Method(k.Method)
			if k.Build == kinds.Choose {
				want, method = physics.Box, Box // a cube: auto picks a box
			}
			if c.Shape.Type != want || c.Method != method {
				t.Errorf("%s: collider %q by %q, want %q by %q", k.Method, c.Shape.Type, c.Method, want, method)
			}
			if c.Mass.Volume < 1-1e-6 {
				t.Errorf("%s: volume %g below the cube's", k.Method, c.Mass.Volume)
			}
		}
	}
	if _, _, err := Colliders(context.Background(), vs, tris, ColliderSettings{Method: "no-such"}, Run{}); err == nil {
		t.Errorf("unknown method: %v", err)
	}
}
