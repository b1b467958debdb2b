package validate

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// minFloat32 is the smallest normal float32: a positive mass or inertia
// below it is a denormal or zero to an engine.
const minFloat32 = 0x1p-126

// shapeSize warns about a shape whose largest extent is below
// physics.MinShapeSize (a 1e-41 m box from misread data) or whose extent
// along any axis is above physics.MaxShapeSize; negative and zero values
// are reported by shapeParams.
func (v *validator) shapeSize(sp string, extent []float64) {
	largest := 0.0
	for _, e := range extent {
		if e > physics.MaxShapeSize {
			v.add(Warning, sp, "%g m across, above the %g m maximum size of a collider", e, physics.MaxShapeSize)
			return
		}
		largest = max(largest, e)
	}
	if largest > 0 && largest < physics.MinShapeSize {
		v.add(Warning, sp, "%g m across, below the %g m minimum size of a collider", largest, physics.MinShapeSize)
	}
}

// float32Range warns about a positive value an engine storing float32
// cannot hold: above the largest float32 it is infinite, below the
// smallest normal one it is lost.
func (v *validator) float32Range(path string, x float64) {
	switch {
	case x > physics.MaxFloat32:
		v.add(Warning, path, "%g is beyond float32 range (engines read it as infinite)", x)
	case x > 0 && x < minFloat32:
		v.add(Warning, path, "%g is below the smallest normal float32 (engines read it as 0)", x)
	}
}

// nodeTransform warns about the transform of a node carrying physics that
// an engine cannot use: a zero scale or singular matrix flattens its
// shapes, and a translation beyond float32 range puts them at infinity.
func (v *validator) nodeTransform(i int, n *gltf.Node) {
	p := fmt.Sprintf("nodes[%d]", i)
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
		m := n.Matrix
		if geom.Mat4FromGLTF(m).Linear().Det() == 0 {
			v.add(Warning, p+".matrix", "singular matrix: it flattens the node's physics")
		}
		for k := 12; k < 15; k++ {
			v.float32Range(fmt.Sprintf("%s.matrix[%d]", p, k), math.Abs(m[k]))
		}
		return
	}
	if s := n.Scale; s != gltf.DefaultScale && (s[0] == 0 || s[1] == 0 || s[2] == 0) {
		v.add(Warning, p+".scale", "a zero scale flattens the node's physics")
	}
	for k, t := range n.Translation {
		v.float32Range(fmt.Sprintf("%s.translation[%d]", p, k), math.Abs(t))
	}
}

// misaligned describes how accessor i breaks glTF 2.0 §3.6.2.4 (offsets
// into its view and its buffer, and the view's stride, are multiples of
// the component size), or returns "".
func misaligned(doc *gltf.Document, i int) string {
	if i < 0 || i >= len(doc.Accessors) || doc.Accessors[i] == nil {
		return ""
	}
	a := doc.Accessors[i]
	cs := a.ComponentType.ByteSize()
	if a.BufferView == nil || cs == 0 || *a.BufferView < 0 || *a.BufferView >= len(doc.BufferViews) || doc.BufferViews[*a.BufferView] == nil {
		return ""
	}
	if err := mesh.CheckAlignment(a.ByteOffset, doc.BufferViews[*a.BufferView], cs); err != nil {
		return fmt.Sprintf("accessor %d (bufferView %d): %v", i, *a.BufferView, err)
	}
	return ""
}
