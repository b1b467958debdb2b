package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

// Asset generates colliders for a loaded asset, editing it in place.
func Asset(ctx context.Context, a *gltfio.Asset, opt Options) (*Report, error) {
	if opt.Encoding.Format == "" {
		opt.Encoding.Format = physics.OMI
	}
	if opt.Collider.Method == "" {
		opt.Collider.Method = AABB
	}
	if err := opt.Body.check(); err != nil {
		return nil, err
	}
	if err := checkAuthored(a.Doc); err != nil {
		return nil, err
	}
	// The family generated physics is written in; refused only when a
	// body is to be generated (a file left as it is holds one family).
	fam, famNote, famErr := outputFamily(a.Doc, opt.Encoding)
	opt.Encoding.Format = fam
	rep := &Report{Colliders: map[string]int{}}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		return nil, err
	}
	rep.Notes = append(rep.Notes, ex.Notes...)
	world, err := mesh.WorldTransforms(a.Doc)
	if err != nil {
		return nil, err
	}
	authored := authoredRoots(a.Doc, ex.Roots)
	if err := checkSizes(ex, authored); err != nil {
		return nil, err
	}
	if err := checkZeroTransforms(a, ex, authored); err != nil {
		return nil, err
	}
	pl, err := planAsset(ctx, a, ex, authored, opt)
	if err != nil {
		return nil, err
	}
	for _, r := range ex.Roots {
		if !authored[r] {
			continue
		}
		for _, p := range ex.Parts {
			if p.Root == r && len(p.Triangles) > 0 {
				rep.Kept++
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s: already has physics; kept as it is", mesh.NodeName(a.Doc, r)))
				break
			}
		}
	}
	if rep.Kept > 0 {
		// Counted before the document changes; a failure costs the
		// count only.
		if n, err := keptHullVertices(a.Doc); err == nil {
			rep.HullVertices = n
		} else {
			rep.Warnings = append(rep.Warnings, "counting hull vertices: "+err.Error())
		}
	}
	rep.Notes = append(rep.Notes, pl.notes...)
	rep.Warnings = append(rep.Warnings, pl.warnings...)
	if len(pl.bodies) == 0 && len(pl.ragdoll) == 0 {
		return rep, nil
	}
	if famErr != nil {
		return nil, famErr
	}
	var formNote string
	opt.Encoding, formNote = geometryForm(a.Doc, opt.Encoding)
	for _, n := range []string{famNote, formNote} {
		if n != "" {
			rep.Notes = append(rep.Notes, n)
		}
	}
	for _, b := range pl.bodies {
		switch {
		case b.node != groupNode:
			b.world = world[b.node]
		case b.gen.holder >= 0:
			b.world = world[b.gen.holder]
		default:
			b.world = geom.Identity4()
		}
	}
	j := newJob(a, opt, ex, world, pl, rep)
	if err := j.write(ctx); err != nil {
		return nil, err
	}
	return rep, nil
}

// carryOut makes the plan's changes to the node graph: meshes that
// become colliders only stop rendering, and the body nodes the plan
// generates are made (file mode's gathers the scene's roots), when their
// body gets a collider (else the node gen.stand stands for it in the
// reports). Both are journaled edits, so a re-run undoes them.
func (j *job) carryOut() error {
	a := j.a
	for _, n := range j.plan.hide {
		if err := hideMesh(a, n); err != nil {
			return err
		}
	}
	for _, b := range j.plan.bodies {
		if b.node != groupNode {
			continue
		}
		b.node = b.gen.stand
		for _, pp := range b.parts {
			if m := j.made[pp.part]; m != nil && len(m.cs) > 0 {
				g, err := placeNode(a, j.ex.Scene, b.gen)
				if err != nil {
					return err
				}
				b.node = g
				break
			}
		}
	}
	return nil
}

// hideMesh stops node n from rendering its mesh: the node is replaced by
// a copy without mesh, skin, weights and GPU instancing (which need a
// mesh), so the journal keeps the original node, member order included.
func hideMesh(a *gltfio.Asset, n int) error {
	old, ok := a.Tree.Arr("nodes")[n].(*gltfio.Object)
	if !ok {
		return fmt.Errorf("nodes[%d]: not an object", n)
	}
	node := gltfio.NewObject()
	for _, k := range old.Keys() {
		v, _ := old.Get(k)
		switch k {
		case "mesh", "skin", "weights":
			continue
		case "extensions":
			if e, ok := v.(*gltfio.Object); ok {
				if _, inst := e.Get("EXT_mesh_gpu_instancing"); inst {
					ne := gltfio.NewObject()
					for _, ek := range e.Keys() {
						if ek != "EXT_mesh_gpu_instancing" {
							ev, _ := e.Get(ek)
							ne.Set(ek, ev)
						}
					}
					if ne.Len() == 0 {
						continue
					}
					v = ne
				}
			}
		}
		node.Set(k, v)
	}
	return a.Set(node, "nodes", n)
}

// placeNode makes a generated body node: among the scene's roots
// (n.holder -1) or holder's children, in the place of the first of
// n.children, which it adopts, or last when it adopts none. It is named
// n.name, or after the scene, and its index is returned.
func placeNode(a *gltfio.Asset, scene int, n *newNode) (int, error) {
	path := []any{"nodes", n.holder, "children"}
	list := a.Tree.Arr("nodes")
	name := n.name
	if n.holder < 0 {
		path = []any{"scenes", scene, "nodes"}
		sc, ok := a.Tree.Arr("scenes")[scene].(*gltfio.Object)
		if !ok {
			return 0, fmt.Errorf("scenes[%d]: not an object", scene)
		}
		list = sc.Arr("nodes")
		if name == "" {
			name = "scene"
			if s, ok := sc.Get("name"); ok {
				if s, ok := s.(string); ok && s != "" {
					name = s
				}
			}
			name += ".body"
		}
	} else {
		h, ok := list[n.holder].(*gltfio.Object)
		if !ok {
			return 0, fmt.Errorf("nodes[%d]: not an object", n.holder)
		}
		list = h.Arr("children")
	}
	g := gltfio.NewObject()
	g.Set("name", name)
	in := map[int]bool{}
	if len(n.children) > 0 {
		children := make([]any, len(n.children))
		for i, r := range n.children {
			children[i] = gltfio.IntNum(r)
			in[r] = true
		}
		g.Set("children", children)
	}
	idx := a.AppendOrphanNode(g)
	var nodes []any
	placed := false
	for _, v := range list {
		if r, ok := v.(json.Number); ok {
			if k, err := r.Int64(); err == nil && in[int(k)] {
				if !placed {
					nodes = append(nodes, gltfio.IntNum(idx))
					placed = true
				}
				continue
			}
		}
		nodes = append(nodes, v)
	}
	if !placed {
		nodes = append(nodes, gltfio.IntNum(idx))
	}
	return idx, a.Set(nodes, path...)
}

// authoredRoots returns the roots whose subtree already carries physics.
func authoredRoots(doc *gltf.Document, roots []int) map[int]bool {
	out := map[int]bool{}
	keys := codecs.Extensions()
	for _, r := range roots {
		seen := map[int]bool{}
		stack := []int{r}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n < 0 || n >= len(doc.Nodes) || seen[n] {
				continue
			}
			seen[n] = true
			for _, k := range keys {
				if _, ok := doc.Nodes[n].Extensions[k]; ok {
					out[r] = true
				}
			}
			for _, c := range doc.Nodes[n].Children {
				stack = append(stack, c)
			}
		}
	}
	return out
}

// frame is m's rigid frame (geom.Mat4.Rigid) as a transform, and the
// scale that remains: m = frame · diag(scale).
func frame(m geom.Mat4) (geom.Mat4, geom.Vec3, error) {
	t, q, s, err := m.Rigid()
	if err != nil {
		return geom.Mat4{}, s, err
	}
	return geom.TRS(t, q, geom.Vec3{1, 1, 1}), s, nil
}

func isOne(s geom.Vec3) bool {
	for _, c := range s {
		if math.Abs(c-1) > 1e-9 {
			return false
		}
	}
	return true
}
