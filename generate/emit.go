package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/autocollide/autocollide/enginenames"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

// withPlaceholders returns a copy of gen whose shapes, materials,
// filters and joint descriptions come after the given numbers of
// placeholders standing for the document's existing ones, with every
// reference shifted to match.
func withPlaceholders(gen *physics.Model, shapes, materials, filters, joints int) *physics.Model {
	m := gen.Clone()
	ps := make([]physics.Shape, shapes)
	for i := range ps {
		ps[i] = physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}}
	}
	m.Shapes = append(ps, m.Shapes...)
	m.Materials = append(make([]physics.Material, materials), m.Materials...)
	m.Filters = append(make([]physics.Filter, filters), m.Filters...)
	m.Joints = append(make([]physics.JointDef, joints), m.Joints...)
	shift := func(i *int, by int) {
		if *i >= 0 {
			*i += by
		}
	}
	for _, n := range m.Nodes {
		if c := n.Collider; c != nil {
			shift(&c.Shape, shapes)
			shift(&c.Material, materials)
			shift(&c.Filter, filters)
		}
		if t := n.Trigger; t != nil {
			shift(&t.Shape, shapes)
			shift(&t.Filter, filters)
		}
		if j := n.Joint; j != nil {
			shift(&j.Def, joints)
		}
	}
	return m
}

// emit writes the generated model: as engine names (enginenames) when the
// format is one, else encoded in the requested family (encodeModel).
func (j *job) emit() ([]string, error) {
	opt := j.opt.Encoding
	if !enginenames.Handles(opt.Format) {
		return nil, encodeModel(j.a, j.model, opt)
	}
	bodies, err := j.namedBodies()
	if err != nil {
		return nil, err
	}
	return enginenames.Encode(j.a, bodies, opt.Format, opt.Binary)
}

// namedBodies pairs each generated collider node with the part and
// collider it was made from. body appended them in plan order (bodies,
// their parts, each part's colliders), one body after the other, and
// only for bodies that got a motion; the names are checked against it.
func (j *job) namedBodies() ([]enginenames.Body, error) {
	a, gen := j.a, j.model
	var nodes []int
	for _, i := range gen.NodeIndices() {
		if n := gen.Nodes[i]; n.Collider != nil || n.Trigger != nil {
			nodes = append(nodes, i)
		}
	}
	var out []enginenames.Body
	for _, b := range j.plan.bodies {
		bn := gen.Nodes[b.node]
		if bn == nil || bn.Motion == nil {
			continue
		}
		body := enginenames.Body{Node: b.node, Motion: bn.Motion}
		for _, pp := range b.parts {
			part := &j.ex.Parts[pp.part]
			m := j.made[pp.part]
			if m == nil {
				continue
			}
			for _, c := range m.cs {
				if len(nodes) == 0 {
					return nil, fmt.Errorf("internal: %s: fewer collider nodes than colliders", part.Name)
				}
				idx := nodes[0]
				nodes = nodes[1:]
				node, _ := a.Tree.Arr("nodes")[idx].(*gltfio.Object)
				name, _ := node.Get("name")
				if s, _ := name.(string); !strings.HasPrefix(s, partName(a.Doc, part)+".") {
					return nil, fmt.Errorf("internal: collider node %q is not %s's", s, part.Name)
				}
				n := gen.Nodes[idx]
				nc := enginenames.Collider{Node: idx, Render: part.Node, Trigger: n.Trigger != nil}
				if nc.Trigger {
					nc.Shape = gen.Shapes[n.Trigger.Shape]
				} else {
					nc.Shape = gen.Shapes[n.Collider.Shape]
				}
				if c.Hull != nil {
					nc.Vertices, nc.Triangles = c.Hull.Vertices, c.Hull.Triangles
				}
				if pp.handmade {
					_, _, nc.Artist = unrealName(a.Doc.Nodes[part.Node].Name)
					if !nc.Artist && part.Mesh >= 0 && part.Mesh < len(a.Doc.Meshes) {
						_, _, nc.Artist = unrealName(a.Doc.Meshes[part.Mesh].Name)
					}
				}
				body.Colliders = append(body.Colliders, nc)
			}
		}
		out = append(out, body)
	}
	if len(nodes) > 0 {
		return nil, fmt.Errorf("internal: %d collider nodes without a collider", len(nodes))
	}
	return out, nil
}

// encodeModel encodes the generated model in the requested family and grafts it
// into the tree without touching what was there: the document-level
// shapes, physics materials, collision filters and joint descriptions
// are appended after any existing ones (the encoder is given placeholders in their places so
// that the generated references come out right), and only the generated model's nodes get extensions.
// Every change is journaled, so a re-run can undo it.
func encodeModel(a *gltfio.Asset, gen *physics.Model, opt Encoding) error {
	codec, err := codecs.For(opt.Format)
	if err != nil {
		return err
	}
	layout := codec.Layout()
	arr := layout.Arrays()
	raw, err := a.Tree.MarshalJSON()
	if err != nil {
		return err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(raw, doc); err != nil {
		return err
	}
	// Existing document-level arrays: generated references must point
	// past them.
	exts := a.Tree.Obj("extensions")
	existing := map[physics.DocArray]int{}
	for _, d := range arr {
		existing[d] = len(exts.Obj(d.Extension).Arr(d.Name))
	}
	m := gen
	if existing[arr[0]]+existing[arr[1]]+existing[arr[2]]+existing[arr[3]] > 0 {
		m = withPlaceholders(gen, existing[arr[0]], existing[arr[1]], existing[arr[2]], existing[arr[3]])
	}
	nodesBefore := len(doc.Nodes)
	if err := codec.Encode(doc, m, physics.EncodeOptions{GeometryNode: opt.KHRGeometryNode}); err != nil {
		return err
	}
	for k := nodesBefore; k < len(doc.Nodes); k++ {
		// Mesh-holder nodes of KHR's geometry.node form.
		tv, err := gltfio.FromGo(doc.Nodes[k])
		if err != nil {
			return err
		}
		o, ok := tv.(*gltfio.Object)
		if !ok {
			return errors.New("internal: encoded node is not an object")
		}
		if got := a.AppendOrphanNode(o); got != k {
			return fmt.Errorf("internal: encoder node %d landed at %d", k, got)
		}
	}
	for _, k := range layout.Extensions {
		v, ok := doc.Extensions[k]
		if !ok {
			continue
		}
		tv, err := gltfio.FromGo(v)
		if err != nil {
			return err
		}
		if _, had := exts.Get(k); !had {
			if err := a.Set(tv, "extensions", k); err != nil {
				return err
			}
			continue
		}
		enc, _ := tv.(*gltfio.Object)
		for _, d := range arr {
			if d.Extension != k {
				continue
			}
			items := enc.Arr(d.Name)
			n := existing[d]
			if len(items) < n {
				return fmt.Errorf("internal: encoder dropped placeholder %s", d.Name)
			}
			if len(items) == n {
				continue
			}
			merged := append(append([]any{}, exts.Obj(k).Arr(d.Name)...), items[n:]...)
			if err := a.Set(merged, "extensions", k, d.Name); err != nil {
				return err
			}
		}
	}
	for _, i := range gen.NodeIndices() {
		for _, k := range layout.Extensions {
			if v, ok := doc.Nodes[i].Extensions[k]; ok {
				tv, err := gltfio.FromGo(v)
				if err != nil {
					return err
				}
				if err := a.Set(tv, "nodes", i, "extensions", k); err != nil {
					return err
				}
			}
		}
	}
	used := append([]any{}, a.Tree.Arr("extensionsUsed")...)
	have := map[string]bool{}
	for _, u := range used {
		if s, ok := u.(string); ok {
			have[s] = true
		}
	}
	changed := false
	for _, u := range doc.ExtensionsUsed {
		if !have[u] {
			used = append(used, u)
			have[u] = true
			changed = true
		}
	}
	if changed {
		return a.Set(used, "extensionsUsed")
	}
	return nil
}
