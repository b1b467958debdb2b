package generate

import (
	"encoding/json"
	"fmt"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// checkSizes refuses an asset with a mesh instance that would get
// colliders and whose world-space size (the largest side of its bounding
// box) is outside [physics.MinShapeSize, physics.MaxShapeSize]: fitting
// it would write a 1e-45 m box or a 1e39 m one. Instances under authored
// physics get nothing generated and are not checked. The message gives
// the limit, not the size: that is computed from values read from a
// buffer, which may be any file's bytes.
func checkSizes(ex *mesh.Result, authored map[int]bool) error {
	for _, p := range ex.Parts {
		if len(p.Triangles) == 0 || authored[p.Root] {
			continue
		}
		ext := geom.BoundsOf(p.Vertices).Size()
		size := max(ext[0], ext[1], ext[2])
		where := p.Name
		if p.Instance >= 0 {
			where = fmt.Sprintf("%s: instance %d", p.Name, p.Instance)
		}
		switch {
		case size < physics.MinShapeSize:
			return fmt.Errorf("%s: mesh %d is less than the %g m minimum across for a collider", where, p.Mesh, physics.MinShapeSize)
		case size > physics.MaxShapeSize:
			return fmt.Errorf("%s: mesh %d is more than the %g m maximum across for a collider", where, p.Mesh, physics.MaxShapeSize)
		}
	}
	return nil
}

// checkZeroTransforms refuses an asset where a mesh instance to get
// colliders lies under (or on) a node whose scale, rotation or matrix is
// all zeros. glTF readers, qmuntal/gltf among them, take such a value for
// an absent one, so the typed document shows a full-size instance where
// the file says it is flattened (and a zero rotation is no rotation at
// all); the JSON tree tells them apart.
func checkZeroTransforms(a *gltfio.Asset, ex *mesh.Result, authored map[int]bool) error {
	nodes := a.Tree.Arr("nodes")
	parent := physics.Parents(a.Doc) // Extract checked the hierarchy
	checked := make([]bool, len(nodes))
	for _, p := range ex.Parts {
		if len(p.Triangles) == 0 || authored[p.Root] || p.Skinned {
			continue
		}
		for n := p.Node; n >= 0 && n < len(nodes) && !checked[n]; n = parent[n] {
			checked[n] = true
			o, _ := nodes[n].(*gltfio.Object)
			for _, k := range []string{"scale", "rotation", "matrix"} {
				if !allZero(o.Arr(k)) {
					continue
				}
				what := "flattens its meshes"
				if k == "rotation" {
					what = "is not a unit quaternion"
				}
				return fmt.Errorf("%s: %s is all zeros, which %s (glTF readers take it for no %s)", mesh.NodeName(a.Doc, n), k, what, k)
			}
		}
	}
	return nil
}

func allZero(vs []any) bool {
	for _, v := range vs {
		n, ok := v.(json.Number)
		if f, err := n.Float64(); !ok || err != nil || f != 0 {
			return false
		}
	}
	return len(vs) > 0
}
