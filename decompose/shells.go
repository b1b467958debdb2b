package decompose

import (
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// The solid behind a face is its own shell's. Where separately modelled
// shells interpenetrate (a cup's wall standing in its base, a limb in a
// torso), the input's solid is the union of theirs, and a ray from a face
// of one shell that runs on through another shell's solid is not in its
// own: the other shell's parts hold that solid. Pocket filling (and
// joinSolid) follow the solid of the shell they start on, so that a wall
// piece of a cup is not widened across the cup's inside to the far edge of
// the base it stands in.

// shellIndex labels the triangles of the solid's hierarchy by connected
// shell (corners welded by exact position).
type shellIndex struct {
	tree *bvh
	// label[i] is the shell of tree.tris[i].
	label []int32
}

// newShellIndex returns the shells of ts, which tree indexes; nil for a
// single shell, where the whole solid is the shell's.
func newShellIndex(ts []tri, tree *bvh) *shellIndex {
	label, n := componentLabels(ts)
	if n < 2 {
		return nil
	}
	s := &shellIndex{tree: tree, label: make([]int32, len(ts))}
	for i, l := range label {
		s.label[tree.slot[i]] = l
	}
	return s
}

// near returns the shells with a triangle within tol of p, in increasing
// order; none when no triangle is that near.
func (s *shellIndex) near(p geom.Vec3, tol float64) []int32 {
	b := s.tree
	if len(b.nodes) == 0 {
		return nil
	}
	var out []int32
	tol2 := tol * tol
	var stack [64]int32
	sp := 1
	for sp > 0 {
		sp--
		n := &b.nodes[stack[sp]]
		if boxDist2(n.box, p) > tol2 {
			continue
		}
		if n.count > 0 {
			for i := n.start; i < n.start+n.count; i++ {
				if l := s.label[i]; !slices.Contains(out, l) && pointTriDist2(p, b.tris[i]) <= tol2 {
					out = append(out, l)
				}
			}
			continue
		}
		if sp+2 <= len(stack) {
			stack[sp] = n.start
			stack[sp+1] = n.start + 1
			sp += 2
		}
	}
	slices.Sort(out)
	return out
}

// inside reports whether x is inside the whole solid and inside the solid
// of the shells own: the median winding number over rayDirs, counting all
// triangles and counting only theirs, is at least 1 (as bvh.insideSolid).
// One traversal per ray serves both counts.
func (s *shellIndex) inside(x geom.Vec3, own []int32) bool {
	var all, mine [3]int
	for k, d := range rayDirs {
		all[k], mine[k] = s.winding(x, d, own)
	}
	return median3(all) >= 1 && median3(mine) >= 1
}

// winding is bvh.winding over all triangles, and over the triangles of the
// shells own, in one traversal.
func (s *shellIndex) winding(o, d geom.Vec3, own []int32) (all, mine int) {
	s.tree.crossings(o, d, func(i int32, c int) {
		all += c
		if slices.Contains(own, s.label[i]) {
			mine += c
		}
	})
	return all, mine
}

// shellsAt returns the shells whose surface o lies on (within innerOffset
// of the diagonal): the solid behind o is theirs. It returns nil for a
// single-shell input, or when no shell is that near (then the whole
// solid is used).
func (d *decomposer) shellsAt(o geom.Vec3) []int32 {
	if d.shells == nil {
		return nil
	}
	return d.shells.near(o, innerOffset*d.diag)
}

// insideOwn reports whether x is inside the solid and, when own names
// shells (see shellsAt), inside theirs.
func (d *decomposer) insideOwn(x geom.Vec3, own []int32) bool {
	if len(own) == 0 {
		return d.solid.insideSolid(x)
	}
	return d.shells.inside(x, own)
}
