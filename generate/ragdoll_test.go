package generate

import (
	"fmt"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/ragdoll"
)

// TestRagdollFilters: bodies whose colliders overlap at rest, and only
// those that are not jointed, get filters naming each other; a profile
// filter's systems are kept, and one with collideWithSystems is left
// alone with a warning.
func TestRagdollFilters(t *testing.T) {
	at := func(x, y, z float64) geom.Mat4 {
		m := geom.Identity4()
		m[0][3], m[1][3], m[2][3] = x, y, z
		return m
	}
	sphere := func(r float64) Collider {
		return Collider{Shape: physics.Shape{Type: physics.Sphere, Radius: r}, Rotation: geom.IdentityQuat()}
	}
	capsule := func(r, h float64) Collider {
		return Collider{Shape: physics.Shape{Type: physics.Capsule, RadiusTop: r, RadiusBottom: r, Height: h}, Rotation: geom.IdentityQuat()}
	}
	box := Collider{Shape: physics.Shape{Type: physics.Box, Size: geom.Vec3{0.2, 0.2, 0.2}}, Rotation: geom.IdentityQuat()}
	cv := boxConvex(geom.Vec3{}, geom.Vec3{0.2, 0.2, 0.2})
	box.Convex = &cv
	rd := &ragdoll.Ragdoll{Bodies: []ragdoll.Body{
		{Name: "pelvis", Bone: 0, Parent: -1, Frame: at(0, 0, 0)},
		{Name: "spine", Bone: 1, Parent: 0, Frame: at(0, 0.3, 0)},  // overlaps the pelvis: jointed
		{Name: "chest", Bone: 2, Parent: 1, Frame: at(0, 0.15, 0)}, // overlaps the pelvis: not jointed
		{Name: "arm", Bone: 3, Parent: 0, Frame: at(1, 0, 0)},
		{Name: "hand", Bone: 4, Parent: 2, Frame: at(1.15, 0, 0)}, // box overlapping the arm
		{Name: "foot", Bone: 5, Parent: 0, Frame: at(1.36, 0, 0)}, // a box 0.01 clear of the hand's
	}}
	cs := []Collider{sphere(0.2), capsule(0.1, 0.2), sphere(0.1), capsule(0.1, 0.1), box, box}
	joints := []int{10, 11, 12, 13, 14, 15}
	want := [][]int{{2}, nil, {0}, {4}, {3}, nil}
	got := restOverlaps(rd, cs)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("body %d overlaps %v, want %v", i, got[i], want[i])
		}
	}
	model := physics.NewModel()
	model.Filters = append(model.Filters, physics.Filter{Name: "profile", CollisionSystems: []string{"ragdoll"}})
	idx, warn := ragdollFilters(model, rd, cs, joints, 0)
	if warn != "" {
		t.Errorf("warning %q", warn)
	}
	for i, others := range want {
		if len(others) == 0 {
			if idx[i] != 0 {
				t.Errorf("body %d: filter %d, want the profile's", i, idx[i])
			}
			continue
		}
		f := model.Filters[idx[i]]
		self := fmt.Sprintf("%s.ragdoll%d", rd.Bodies[i].Name, joints[i])
		var not []string
		for _, o := range others {
			not = append(not, fmt.Sprintf("%s.ragdoll%d", rd.Bodies[o].Name, joints[o]))
		}
		if !slices.Equal(f.CollisionSystems, []string{"ragdoll", self}) || !slices.Equal(f.NotCollideWithSystems, not) {
			t.Errorf("body %d: filter %+v, want systems [ragdoll %s], not colliding with %v", i, f, self, not)
		}
	}
	only := physics.NewModel()
	only.Filters = append(only.Filters, physics.Filter{CollisionSystems: []string{"a"}, CollideWithSystems: []string{"b"}})
	idx, warn = ragdollFilters(only, rd, cs, joints, 0)
	if warn == "" || len(only.Filters) != 1 || slices.ContainsFunc(idx, func(i int) bool { return i != 0 }) {
		t.Errorf("collideWithSystems profile filter: filters %v, warning %q", idx, warn)
	}
}
