package decompose

import (
	"github.com/autocollide/autocollide/geom"
)

// componentLabels labels the triangles by edge- or vertex-connected
// component (corners welded by exact position), numbered in order of first
// triangle, and returns the labels and the count.
func componentLabels(ts []tri) ([]int32, int) {
	label, n, _, _ := componentNumbers(soup{t: ts})
	return label, n
}

// componentNumbers is componentLabels for s's triangles, and the numbering
// of their corners it worked out (as part.points and part.cornerIDs do it;
// from s.pid when s is a numbered cut's side, see numberFrom).
func componentNumbers(s soup) (label []int32, n int, pts []geom.Vec3, ids [][3]uint32) {
	ts := s.t
	sets := newDisjointSets(len(ts))
	if s.pid != nil {
		pts, ids = numberFrom(ts, s.pid, s.npid)
	} else {
		ix := newPointIndex(3 * len(ts))
		ids = make([][3]uint32, len(ts))
		for i, t := range ts {
			for k, v := range t {
				ids[i][k] = ix.id(v)
			}
		}
		pts = ix.pts
	}
	// The first triangle seen at each corner (corners are numbered in
	// order of first sight, so a new corner is the next number).
	owner := make([]int32, 0, len(pts))
	for i, id := range ids {
		for _, g := range id {
			if int(g) < len(owner) {
				sets.union(owner[g], int32(i))
			} else {
				owner = append(owner, int32(i))
			}
		}
	}
	label = make([]int32, len(ts))
	root := make([]int32, len(ts)) // 1 + label of a root; 0: none yet
	for i := range ts {
		r := sets.find(int32(i))
		if root[r] == 0 {
			n++
			root[r] = int32(n)
		}
		label[i] = root[r] - 1
	}
	return label, n, pts, ids
}

// disjointSets is a union-find over 0..n-1; the smaller root wins, so the
// sets' roots do not depend on the order of unions.
type disjointSets []int32

func newDisjointSets(n int) disjointSets {
	s := make(disjointSets, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

func (s disjointSets) find(x int32) int32 {
	for s[x] != x {
		s[x] = s[s[x]]
		x = s[x]
	}
	return x
}

func (s disjointSets) union(a, b int32) {
	a, b = s.find(a), s.find(b)
	if a < b {
		s[b] = a
	} else if b < a {
		s[a] = b
	}
}
