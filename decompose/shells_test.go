package decompose

import (
	"context"
	"slices"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// tris returns the triangles of m.
func (m testMesh) tris() []tri {
	ts := make([]tri, len(m.t))
	for i, t := range m.t {
		ts[i] = tri{m.v[t[0]], m.v[t[1]], m.v[t[2]]}
	}
	return ts
}

// TestShellsOwnSolid: two boxes modelled apart and pushed into each other
// (A = [0,2]³, B = [1,3]×[0,2]×[0,2]): a point on A's face lies on shell A
// only, the overlap is inside both, and the part of B beyond A is in the
// input's solid but not in A's. One box alone has no shell index.
func TestShellsOwnSolid(t *testing.T) {
	ts := concat(box(geom.Vec3{0, 0, 0}, geom.Vec3{2, 2, 2}), box(geom.Vec3{1, 0, 0}, geom.Vec3{3, 2, 2})).tris()
	d := newDecomposer(context.Background(), Options{}, geom.Vec3{3, 2, 2}.Len())
	d.solid = newBVH(ts)
	d.shells = newShellIndex(ts, d.solid)
	if d.shells == nil {
		t.Fatal("two shells: no shell index")
	}
	onA := d.shellsAt(geom.Vec3{0, 1, 1})
	onB := d.shellsAt(geom.Vec3{3, 1, 1})
	if len(onA) != 1 || len(onB) != 1 || onA[0] == onB[0] {
		t.Fatalf("shells at A's left face %v, at B's right face %v: want one each, different", onA, onB)
	}
	both := append(slices.Clone(onA), onB...)
	slices.Sort(both)
	if got := d.shellsAt(geom.Vec3{1.5, 2, 1}); !slices.Equal(got, both) {
		t.Errorf("shells at the top of the overlap %v, want %v", got, both)
	}
	for _, c := range []struct {
		x        geom.Vec3
		own      []int32
		solid, w bool
	}{
		{geom.Vec3{0.5, 1, 1}, onA, true, true},
		{geom.Vec3{1.5, 1, 1}, onA, true, true},
		{geom.Vec3{2.5, 1, 1}, onA, true, false}, // B's solid only
		{geom.Vec3{2.5, 1, 1}, onB, true, true},
		{geom.Vec3{0.5, 1, 1}, onB, true, false},
		{geom.Vec3{3.5, 1, 1}, onB, false, false},
		{geom.Vec3{2.5, 1, 1}, nil, true, true}, // no shells named: the whole solid
	} {
		if got := d.solid.insideSolid(c.x); got != c.solid {
			t.Errorf("%v inside the solid: %v, want %v", c.x, got, c.solid)
		}
		if got := d.insideOwn(c.x, c.own); got != c.w {
			t.Errorf("%v inside the solid of shells %v: %v, want %v", c.x, c.own, got, c.w)
		}
	}
	one := box(geom.Vec3{0, 0, 0}, geom.Vec3{2, 2, 2}).tris()
	if s := newShellIndex(one, newBVH(one)); s != nil {
		t.Error("one shell: got a shell index")
	}
}
