package mass

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/autocollide/autocollide/geom"
)

// unionWithin runs Union on parts and fails the test when it takes longer
// than limit: a union whose cost grows with the pairs of parts takes hours
// on the inputs below.
func unionWithin(t *testing.T, parts []Convex, limit time.Duration) Properties {
	t.Helper()
	type result struct {
		p   Properties
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := Union(parts, 0)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.p
	case <-time.After(limit):
		t.Fatalf("Union of %d parts not done in %v", len(parts), limit)
	}
	return Properties{}
}

func closeTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// TestUnionManyInstances (issue 41, defect 1): the cost of a union grows
// with its distinct parts, not with their pairs. 3,000 copies of a unit
// cube at one place are one cube (exactly); 3,000 cubes side by side
// weigh 3,000 (exactly); 3,000 cubes each shifted by a tenth of a
// millimetre, all overlapping, give the volume of their union within the
// lattice's error, on a lattice coarsened to the row budget. Before, the
// first and last took hours (4.5 million pair boxes crossed by every
// lattice row) and 8,000 copies ran out of memory.
func TestUnionManyInstances(t *testing.T) {
	const n = 3000
	cube := aabb{geom.Vec3{}, geom.Vec3{1, 1, 1}}
	one, err := Union([]Convex{cube.convex(geom.IdentityQuat(), geom.Vec3{})}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var same, apart, shifted []Convex
	for i := range n {
		same = append(same, cube.convex(geom.IdentityQuat(), geom.Vec3{}))
		apart = append(apart, cube.convex(geom.IdentityQuat(), geom.Vec3{2 * float64(i), 0, 0}))
		shifted = append(shifted, cube.convex(geom.IdentityQuat(), geom.Vec3{1e-4 * float64(i), 0, 0}))
	}
	if got := unionWithin(t, same, time.Minute); got != one {
		t.Errorf("%d copies of a cube: %+v, want one cube %+v", n, got, one)
	}
	if got := unionWithin(t, apart, time.Minute); !closeTo(got.Volume, n, 1e-12) {
		t.Errorf("%d cubes apart: volume %g, want %d", n, got.Volume, n)
	}
	got := unionWithin(t, shifted, time.Minute)
	want := exactUnion([]aabb{{geom.Vec3{}, geom.Vec3{1 + 1e-4*(n-1), 1, 1}}})
	if !closeTo(got.Volume, want.Volume, 0.05) || !closeTo(got.CenterOfMass[0], want.CenterOfMass[0], 0.05) {
		t.Errorf("%d shifted cubes: volume %g, centre %v; want %g, %v", n, got.Volume, got.CenterOfMass, want.Volume, want.CenterOfMass)
	}
	t.Logf("%d shifted cubes: volume %g (exact %g), inertia %v (exact %v)", n, got.Volume, want.Volume, got.Inertia, want.Inertia)

	// The deadline is checked inside: a done context stops it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := UnionContext(ctx, shifted, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("UnionContext with a cancelled context: %v, want context.Canceled", err)
	}
}
