package ragdoll

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// skeleton is the checked bone hierarchy.
type skeleton struct {
	bones    []Bone
	children [][]int     // by bone, ascending
	order    []int       // pre-order: roots ascending, children ascending
	frame    []geom.Mat4 // rigid rest frames
	head     []geom.Vec3 // joint positions (world)
}

// name is a bone's label for errors: `bone 3 "LeftHand"`.
func (sk *skeleton) name(b int) string { return boneName(sk.bones, b) }

func boneName(bones []Bone, b int) string {
	if bones[b].Name == "" {
		return fmt.Sprintf("bone %d", b)
	}
	return fmt.Sprintf("bone %d %q", b, bones[b].Name)
}

// newSkeleton checks the parent links (in range, acyclic) and the rest
// transforms (finite, invertible), and derives the rigid frames.
func newSkeleton(bones []Bone) (*skeleton, error) {
	n := len(bones)
	if n == 0 {
		return nil, ErrNoBones
	}
	sk := &skeleton{bones: bones, children: make([][]int, n), frame: make([]geom.Mat4, n), head: make([]geom.Vec3, n)}
	var roots []int
	for b, bone := range bones {
		switch p := bone.Parent; {
		case p == -1:
			roots = append(roots, b)
		case p < 0 || p >= n || p == b:
			return nil, fmt.Errorf("%w: %s: parent %d is not a bone", ErrSkeleton, sk.name(b), p)
		default:
			sk.children[p] = append(sk.children[p], b)
		}
		f, err := rigid(bone.World)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: rest transform %v", ErrSkeleton, sk.name(b), err)
		}
		sk.frame[b], sk.head[b] = f, f.Translation()
	}
	// Pre-order from the roots; a bone never reached sits on a cycle.
	seen := make([]bool, n)
	var visit func(int)
	visit = func(b int) {
		seen[b] = true
		sk.order = append(sk.order, b)
		for _, c := range sk.children[b] {
			visit(c)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	for b := range bones {
		if !seen[b] {
			return nil, fmt.Errorf("%w: %s: its parents form a cycle", ErrSkeleton, sk.name(b))
		}
	}
	return sk, nil
}

// rigid returns m's rigid frame (geom.Mat4.Rigid, as generate frames body
// nodes) as a transform: m without its scale.
func rigid(m geom.Mat4) (geom.Mat4, error) {
	for _, row := range m {
		for _, v := range row {
			if !finite(v) {
				return geom.Mat4{}, fmt.Errorf("is not finite")
			}
		}
	}
	if m[3] != [4]float64{0, 0, 0, 1} {
		return geom.Mat4{}, fmt.Errorf("is not affine")
	}
	t, q, _, err := m.Rigid()
	if err != nil {
		return geom.Mat4{}, fmt.Errorf("is singular (zero scale)")
	}
	return geom.TRS(t, q, geom.Vec3{1, 1, 1}), nil
}

// toLocal maps a world point into the rigid frame f.
func toLocal(f geom.Mat4, p geom.Vec3) geom.Vec3 {
	return f.Linear().Transpose().MulVec(p.Sub(f.Translation()))
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
