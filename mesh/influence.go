package mesh

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

// Influences are the skin weights of a skinned Part's vertices, aligned
// with Part.Vertices: vertex v's (joint, weight) pairs are
// Joints[v*PerVertex : (v+1)*PerVertex] and Weights likewise. They are the
// JOINTS_n/WEIGHTS_n values the posed vertices were skinned with, decoded
// as Extract decodes positions (plain, sparse, meshopt or Draco;
// normalized integer weights dequantized), not renormalized.
type Influences struct {
	// Skin is the index of the node's skin; Joints index its joints.
	Skin int
	// PerVertex is four per JOINTS_n/WEIGHTS_n set, the most any
	// primitive of the mesh has (the others pad with zero weights).
	PerVertex int
	Joints    []int
	Weights   []float64
}

// weightSet is one JOINTS_n/WEIGHTS_n pair of a primitive: four joint
// indices and four weights per vertex.
type weightSet struct{ j, w []float64 }

// primInfluences are the weight sets of the primitive whose vertices
// start at first in a skinned geometry.
type primInfluences struct {
	first, count int
	sets         []weightSet
}

// weightSets reads and checks the JOINTS_n/WEIGHTS_n sets of a skinned
// primitive of n vertices (at least one set).
func (x *extractor) weightSets(prim *gltf.Primitive, n int) ([]weightSet, error) {
	var sets []weightSet
	for s := 0; ; s++ {
		ja, jok := prim.Attributes[fmt.Sprintf("JOINTS_%d", s)]
		wa, wok := prim.Attributes[fmt.Sprintf("WEIGHTS_%d", s)]
		if !jok && !wok {
			break
		}
		if jok != wok {
			return nil, fmt.Errorf("JOINTS_%d and WEIGHTS_%d must come together", s, s)
		}
		jv, a, _, err := x.d.read(ja)
		if err != nil {
			return nil, fmt.Errorf("JOINTS_%d: %w", s, err)
		}
		if a.Type != gltf.AccessorVec4 || a.Normalized || (a.ComponentType != gltf.ComponentUbyte && a.ComponentType != gltf.ComponentUshort) {
			return nil, fmt.Errorf("JOINTS_%d: accessor %d must be VEC4 UNSIGNED_BYTE or UNSIGNED_SHORT", s, ja)
		}
		wv, b, _, err := x.d.read(wa)
		if err != nil {
			return nil, fmt.Errorf("WEIGHTS_%d: %w", s, err)
		}
		if b.Type != gltf.AccessorVec4 || !(b.ComponentType == gltf.ComponentFloat || b.Normalized && (b.ComponentType == gltf.ComponentUbyte || b.ComponentType == gltf.ComponentUshort)) {
			return nil, fmt.Errorf("WEIGHTS_%d: accessor %d must be VEC4 FLOAT or normalized UNSIGNED_BYTE/UNSIGNED_SHORT", s, wa)
		}
		if a.Count != n || b.Count != n {
			return nil, fmt.Errorf("JOINTS_%d/WEIGHTS_%d counts %d/%d differ from the %d positions", s, s, a.Count, b.Count, n)
		}
		sets = append(sets, weightSet{jv, wv})
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("skinned mesh without JOINTS_0/WEIGHTS_0")
	}
	return sets, nil
}

// influences gathers the weights of the geometry's vertices kept by emit
// (keep[i] != 0, in order), for the part of node ni.
func (x *extractor) influences(ni int, g *geometry, keep []int32) *Influences {
	width := 0
	for _, p := range g.influences {
		width = max(width, 4*len(p.sets))
	}
	kept := 0
	for _, k := range keep {
		if k != 0 {
			kept++
		}
	}
	in := &Influences{Skin: *x.doc.Nodes[ni].Skin, PerVertex: width,
		Joints: make([]int, 0, kept*width), Weights: make([]float64, 0, kept*width)}
	for _, p := range g.influences {
		for v := 0; v < p.count; v++ {
			if keep[p.first+v] == 0 {
				continue
			}
			pairs := 0
			for _, s := range p.sets {
				for k := 0; k < 4; k++ {
					in.Joints = append(in.Joints, int(s.j[4*v+k]))
					in.Weights = append(in.Weights, s.w[4*v+k])
					pairs++
				}
			}
			for ; pairs < width; pairs++ {
				in.Joints, in.Weights = append(in.Joints, 0), append(in.Weights, 0)
			}
		}
	}
	return in
}
