package ragdoll

import (
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
)

// MassRatio bounds the mass ratio of a jointed child body to its parent
// (and its inverse) after StabilizeMasses, and MaxInertiaGain how many
// times its largest principal moment a parent's moments may be raised to.
// These are the values of Jolt's RagdollSettings::Stabilize.
const (
	MassRatio      = 1.2
	MaxInertiaGain = 2.0
)

// StabilizeMasses applies to a ragdoll's bodies (parent[i] the index of
// body i's parent, -1 for a root, parents before children) the rule real
// ragdoll tools apply before simulating (Jolt's RagdollSettings::Stabilize,
// after Oliver Strunk, "Stop my Constraints from Blowing Up!", Havok, GDC
// 2013): an iterative joint solver fails to hold a joint between bodies
// whose masses or inertias differ much, so a light hand pulled by a heavy
// torso leaves its joint. Within each tree of bodies with a mass (ok),
// each child's mass relative to its parent is clamped to
// [1/MassRatio, MassRatio] and the masses rescaled to the tree's total (so
// the ragdoll weighs what its colliders do, its mass spread more evenly),
// inertias scaled with their body's mass; then every parent's principal
// moments are raised to at least the smaller of MaxInertiaGain times its
// largest and the sum of its descendants' largest moments. Centres of
// mass and principal axes do not move.
func StabilizeMasses(bodies []mass.Body, parent []int, ok []bool) {
	n := len(bodies)
	root := make([]int, n)
	ratio := make([]float64, n)
	for i := range bodies {
		p := parent[i]
		if !ok[i] || p < 0 || !ok[p] {
			root[i], ratio[i] = i, 1
			continue
		}
		r := bodies[i].Mass / bodies[p].Mass
		root[i], ratio[i] = root[p], ratio[p]*min(max(r, 1/MassRatio), MassRatio)
	}
	total := make([]float64, n)
	sum := make([]float64, n)
	for i := range bodies {
		if ok[i] {
			total[root[i]] += bodies[i].Mass
			sum[root[i]] += ratio[i]
		}
	}
	changed := make([]bool, n)
	for i := range bodies {
		if !ok[i] {
			continue
		}
		b := &bodies[i]
		m := ratio[i] * total[root[i]] / sum[root[i]]
		k := m / b.Mass
		b.Mass, changed[i] = m, k != 1
		for a := range 3 {
			b.InertiaDiagonal[a] *= k
		}
	}
	largest := func(b mass.Body) float64 {
		return max(b.InertiaDiagonal[0], b.InertiaDiagonal[1], b.InertiaDiagonal[2])
	}
	below := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		if p := parent[i]; ok[i] && p >= 0 && ok[p] {
			below[p] += largest(bodies[i]) + below[i]
		}
	}
	for i := range bodies {
		b := &bodies[i]
		if !ok[i] || below[i] == 0 {
			continue
		}
		floor := min(MaxInertiaGain*largest(*b), below[i])
		for a := range 3 {
			if b.InertiaDiagonal[a] < floor {
				b.InertiaDiagonal[a], changed[i] = floor, true
			}
		}
	}
	for i := range bodies {
		if changed[i] {
			b := &bodies[i]
			r := b.InertiaOrientation.Mat3()
			d := geom.Mat3{{b.InertiaDiagonal[0], 0, 0}, {0, b.InertiaDiagonal[1], 0}, {0, 0, b.InertiaDiagonal[2]}}
			b.Inertia = r.Mul(d).Mul(r.Transpose())
		}
	}
}
