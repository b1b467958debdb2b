package validate

import (
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// meshShape checks mesh mi used as a collision mesh, once per (mesh, hull).
func (v *validator) meshShape(mi int, hull bool) {
	key := fmt.Sprint(mi, hull)
	if v.meshChecked[key] {
		return
	}
	v.meshChecked[key] = true
	mesh := v.doc.Meshes[mi]
	mp := fmt.Sprintf("meshes[%d]", mi)
	if mesh == nil || len(mesh.Primitives) == 0 {
		v.add(Error, mp+".primitives", "a collision mesh needs a triangle primitive")
		return
	}
	if len(mesh.Primitives) > 1 {
		v.add(Warning, mp+".primitives", "a collision mesh should have one primitive (has %d)", len(mesh.Primitives))
	}
	var pts []geom.Vec3
	var tris [][3]uint32
	for pi, prim := range mesh.Primitives {
		pp := fmt.Sprintf("%s.primitives[%d]", mp, pi)
		if prim == nil {
			continue
		}
		if prim.Mode != gltf.PrimitiveTriangles {
			v.add(Error, pp+".mode", "a collision mesh must be made of triangles (mode 4)")
			return
		}
		pos, ok := prim.Attributes[gltf.POSITION]
		if !ok || pos < 0 || pos >= len(v.doc.Accessors) {
			v.add(Error, pp+".attributes.POSITION", "missing or out of range")
			return
		}
		if msg := misaligned(v.doc, pos); msg != "" {
			v.add(Error, pp+".attributes.POSITION", "%s", msg)
			return
		}
		if prim.Indices != nil {
			if msg := misaligned(v.doc, *prim.Indices); msg != "" {
				v.add(Error, pp+".indices", "%s", msg)
				return
			}
		}
		if v.opt.SkipMeshData {
			continue
		}
		p, t, err := v.readPrimitive(prim, pos)
		if err != nil {
			v.add(Info, pp, "mesh data not checked: %v", err)
			return
		}
		for _, tr := range t {
			tris = append(tris, [3]uint32{tr[0] + uint32(len(pts)), tr[1] + uint32(len(pts)), tr[2] + uint32(len(pts))})
		}
		pts = append(pts, p...)
	}
	if v.opt.SkipMeshData {
		return
	}
	if len(tris) == 0 {
		v.add(Error, mp, "a collision mesh needs at least one triangle")
		return
	}
	if !hull {
		return
	}
	// Weld by exact position: hull meshes often repeat vertices per face.
	id := map[geom.Vec3]uint32{}
	var uniq []geom.Vec3
	for _, p := range pts {
		if _, ok := id[p]; !ok {
			id[p] = uint32(len(uniq))
			uniq = append(uniq, p)
		}
	}
	if len(uniq) > v.opt.MaxHullVertices {
		v.add(Warning, mp, "convex hull has %d vertices, above the limit %d (engines will simplify it)", len(uniq), v.opt.MaxHullVertices)
	}
	if len(uniq) < 4 {
		v.add(Warning, mp, "convex hull has %d distinct vertices: no volume", len(uniq))
		return
	}
	edges := map[[2]uint32]int{}
	for _, t := range tris {
		a, b, c := id[pts[t[0]]], id[pts[t[1]]], id[pts[t[2]]]
		for _, e := range [][2]uint32{{a, b}, {b, c}, {c, a}} {
			if e[0] > e[1] {
				e[0], e[1] = e[1], e[0]
			}
			edges[e]++
		}
	}
	open := 0
	for _, n := range edges {
		if n != 2 {
			open++
		}
	}
	if open > 0 {
		v.add(Info, mp, "convex hull mesh is not closed (%d edges not shared by exactly two triangles): the engine uses the convex hull of its vertices", open)
	}
	box := geom.BoundsOf(uniq)
	tol := ConvexTolerance * math.Max(box.Diagonal(), 1e-12)
	for ti, t := range tris {
		a, b, c := pts[t[0]], pts[t[1]], pts[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Len() == 0 {
			continue
		}
		n = n.Normalize()
		above, below := false, false
		for _, p := range uniq {
			d := p.Sub(a).Dot(n)
			if d > tol {
				above = true
			} else if d < -tol {
				below = true
			}
		}
		if above && below {
			v.add(Info, mp, "convex hull mesh is not convex (vertices on both sides of triangle %d): the engine uses the convex hull of its vertices", ti)
			return
		}
	}
}

func (v *validator) readPrimitive(prim *gltf.Primitive, pos int) ([]geom.Vec3, [][3]uint32, error) {
	if _, ok := prim.Extensions["KHR_draco_mesh_compression"]; ok {
		// A hull compressed after generation: package mesh decodes it.
		pts, idx, err := mesh.Primitive(v.doc, prim)
		if err != nil {
			return nil, nil, err
		}
		var tris [][3]uint32
		for i := 0; i+2 < len(idx); i += 3 {
			tris = append(tris, [3]uint32{idx[i], idx[i+1], idx[i+2]})
		}
		return pts, tris, nil
	}
	acc := v.doc.Accessors[pos]
	if acc == nil || acc.BufferView == nil || *acc.BufferView < 0 || *acc.BufferView >= len(v.doc.BufferViews) {
		return nil, nil, fmt.Errorf("POSITION has no buffer view")
	}
	bv := v.doc.BufferViews[*acc.BufferView]
	if bv == nil || bv.Buffer < 0 || bv.Buffer >= len(v.doc.Buffers) || v.doc.Buffers[bv.Buffer] == nil || len(v.doc.Buffers[bv.Buffer].Data) == 0 {
		return nil, nil, fmt.Errorf("buffer data not loaded")
	}
	raw, err := modeler.ReadPosition(v.doc, acc, nil)
	if err != nil {
		return nil, nil, err
	}
	pts := make([]geom.Vec3, len(raw))
	for i, p := range raw {
		pts[i] = geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
		if !pts[i].IsFinite() {
			return nil, nil, fmt.Errorf("POSITION %d is not finite", i)
		}
	}
	var idx []uint32
	if prim.Indices != nil {
		if *prim.Indices < 0 || *prim.Indices >= len(v.doc.Accessors) || v.doc.Accessors[*prim.Indices] == nil {
			return nil, nil, fmt.Errorf("indices accessor out of range")
		}
		idx, err = modeler.ReadIndices(v.doc, v.doc.Accessors[*prim.Indices], nil)
		if err != nil {
			return nil, nil, err
		}
	} else {
		idx = make([]uint32, len(pts))
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	var tris [][3]uint32
	for i := 0; i+2 < len(idx); i += 3 {
		t := [3]uint32{idx[i], idx[i+1], idx[i+2]}
		for _, k := range t {
			if int(k) >= len(pts) {
				return nil, nil, fmt.Errorf("index %d out of range", k)
			}
		}
		tris = append(tris, t)
	}
	return pts, tris, nil
}
