package mesh

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

// morph adds the weighted POSITION displacements of the primitive's morph
// targets (weights beyond the list count as 0). pos is not modified; the
// result is a new slice when some weight applies.
func (x *extractor) morph(pos []geom.Vec3, prim *gltf.Primitive, weights []float64) ([]geom.Vec3, error) {
	out, copied := pos, false
	for t, target := range prim.Targets {
		if t >= len(weights) || weights[t] == 0 {
			continue
		}
		w := weights[t]
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("morph weight %d is not finite", t)
		}
		acc, ok := target[gltf.POSITION]
		if !ok {
			continue
		}
		// Check the count first: it also bounds an unbacked sparse target.
		if acc < 0 || acc >= len(x.doc.Accessors) || x.doc.Accessors[acc] == nil {
			return nil, fmt.Errorf("target %d: accessor %d does not exist", t, acc)
		}
		if n := x.doc.Accessors[acc].Count; n != len(pos) {
			return nil, fmt.Errorf("target %d: accessor %d has %d displacements for %d positions", t, acc, n, len(pos))
		}
		delta, err := x.d.vec3s(acc, "morph target POSITION", len(pos), targetTypes)
		if err != nil {
			return nil, fmt.Errorf("target %d: %w", t, err)
		}
		if !copied {
			out, copied = append([]geom.Vec3(nil), pos...), true
		}
		for v := range out {
			out[v] = out[v].Add(delta[v].Scale(w))
		}
	}
	return out, nil
}

// skin returns the joint matrices of skin si at rest: the joint nodes'
// world transforms times the inverse bind matrices (identity when absent).
func (x *extractor) skin(si int) ([]geom.Mat4, error) {
	if j, ok := x.skins[si]; ok {
		return j, nil
	}
	if si < 0 || si >= len(x.doc.Skins) || x.doc.Skins[si] == nil {
		return nil, fmt.Errorf("skin %d does not exist", si)
	}
	s := x.doc.Skins[si]
	if len(s.Joints) == 0 {
		return nil, fmt.Errorf("skin %d has no joints", si)
	}
	var ibm []float64
	if s.InverseBindMatrices != nil {
		vals, a, _, err := x.d.read(*s.InverseBindMatrices)
		if err != nil {
			return nil, fmt.Errorf("skin %d: inverseBindMatrices: %w", si, err)
		}
		if a.Type != gltf.AccessorMat4 || a.ComponentType != gltf.ComponentFloat {
			return nil, fmt.Errorf("skin %d: inverseBindMatrices accessor %d must be FLOAT MAT4", si, *s.InverseBindMatrices)
		}
		if a.Count < len(s.Joints) {
			return nil, fmt.Errorf("skin %d: %d inverse bind matrices for %d joints", si, a.Count, len(s.Joints))
		}
		ibm = vals
	}
	joints := make([]geom.Mat4, len(s.Joints))
	for k, j := range s.Joints {
		if j < 0 || j >= len(x.doc.Nodes) {
			return nil, fmt.Errorf("skin %d: joint %d is node %d, which does not exist", si, k, j)
		}
		inv := geom.Identity4()
		if ibm != nil {
			var c [16]float64
			copy(c[:], ibm[16*k:16*k+16])
			inv = geom.Mat4FromGLTF(c)
		}
		joints[k] = x.h.world[j].Mul(inv)
		if !finiteMat(joints[k]) {
			return nil, fmt.Errorf("skin %d: joint %d matrix is not finite", si, k)
		}
	}
	x.skins[si] = joints
	return joints, nil
}

// pose applies linear-blend skinning: each vertex is Σ wᵢ·J[jᵢ]·p over the
// JOINTS_n/WEIGHTS_n sets, weights divided by their sum. A vertex whose
// weights are all zero keeps its position (noted). It also reports, per
// vertex, whether the blended matrix mirrors. sets are the primitive's
// JOINTS_n/WEIGHTS_n (weightSets).
func (x *extractor) pose(pos []geom.Vec3, sets []weightSet, joints []geom.Mat4, where string) ([]geom.Vec3, []bool, error) {
	out := make([]geom.Vec3, len(pos))
	flips := make([]bool, len(pos))
	unweighted := 0
	for v, p := range pos {
		var sum float64
		var m geom.Mat4
		for _, s := range sets {
			for k := 0; k < 4; k++ {
				w := s.w[4*v+k]
				if math.IsNaN(w) || w < 0 || math.IsInf(w, 0) {
					return nil, nil, fmt.Errorf("vertex %d: a weight is not a finite non-negative number", v)
				}
				if w == 0 {
					continue
				}
				j := int(s.j[4*v+k])
				if j >= len(joints) {
					return nil, nil, fmt.Errorf("vertex %d: a joint index is not below the skin's %d joints", v, len(joints))
				}
				sum += w
				addScaled(&m, joints[j], w)
			}
		}
		if sum == 0 {
			unweighted++
			out[v] = p
			continue
		}
		scaleMat(&m, 1/sum)
		out[v] = m.Point(p)
		flips[v] = m.Linear().Det() < 0
	}
	if unweighted > 0 {
		x.note(fmt.Sprintf("%s: %d skinned vertices have no weight and stay unposed", where, unweighted))
	}
	return out, flips, nil
}

func addScaled(m *geom.Mat4, n geom.Mat4, w float64) {
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			m[i][j] += w * n[i][j]
		}
	}
	m[3] = [4]float64{0, 0, 0, 1}
}

func scaleMat(m *geom.Mat4, s float64) {
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			m[i][j] *= s
		}
	}
}
