package gltfio

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/qmuntal/gltf"
)

// ReplaceExtensions makes the tree carry exactly what doc carries for the
// named extensions, at document and node level, and nothing else changes:
// nodes doc has beyond the tree's are appended, children lists that doc
// changed are taken over, and the names are added to or removed from
// extensionsUsed (and removed from extensionsRequired) to match doc.
// It is for whole-file rewrites such as converting physics between
// families; the edit is not journaled, and any undo record of an earlier
// generate run is dropped, since it would describe the old family.
func (a *Asset) ReplaceExtensions(doc *gltf.Document, names []string) error {
	set := func(o *Object, exts gltf.Extensions) error {
		for _, k := range names {
			v, ok := exts[k]
			if !ok {
				if o.Obj("extensions") != nil {
					o.Obj("extensions").Delete(k)
					if o.Obj("extensions").Len() == 0 {
						o.Delete("extensions")
					}
				}
				continue
			}
			tv, err := FromGo(v)
			if err != nil {
				return err
			}
			if o.Obj("extensions") == nil {
				o.Set("extensions", NewObject())
			}
			o.Obj("extensions").Set(k, tv)
		}
		return nil
	}
	if err := set(a.Tree, doc.Extensions); err != nil {
		return err
	}
	nodes := a.Tree.Arr("nodes")
	if len(doc.Nodes) < len(nodes) {
		return fmt.Errorf("the rewrite removed nodes (%d → %d)", len(nodes), len(doc.Nodes))
	}
	for i, n := range doc.Nodes {
		if i >= len(nodes) {
			tv, err := FromGo(n)
			if err != nil {
				return err
			}
			nodes = append(nodes, tv)
			continue
		}
		o, ok := nodes[i].(*Object)
		if !ok {
			return fmt.Errorf("nodes[%d]: not an object", i)
		}
		if u := o.Obj("extras").Obj(MarkKey); u != nil {
			u.Delete("undo")
		}
		if err := set(o, n.Extensions); err != nil {
			return err
		}
		var old []int
		for _, c := range o.Arr("children") {
			ci, _ := asInt(c)
			old = append(old, ci)
		}
		if !slices.Equal(old, n.Children) {
			var ch []any
			for _, c := range n.Children {
				ch = append(ch, IntNum(c))
			}
			o.Set("children", ch)
		}
	}
	a.Tree.Set("nodes", nodes)
	inDoc := map[string]bool{}
	for _, u := range doc.ExtensionsUsed {
		inDoc[u] = true
	}
	managed := map[string]bool{}
	for _, k := range names {
		managed[k] = true
	}
	var used []any
	have := map[string]bool{}
	for _, u := range a.Tree.Arr("extensionsUsed") {
		s, _ := u.(string)
		if managed[s] && !inDoc[s] {
			continue
		}
		used = append(used, u)
		have[s] = true
	}
	for _, k := range names {
		if inDoc[k] && !have[k] {
			used = append(used, k)
		}
	}
	if len(used) > 0 {
		a.Tree.Set("extensionsUsed", used)
	} else {
		a.Tree.Delete("extensionsUsed")
	}
	var req []any
	for _, u := range a.Tree.Arr("extensionsRequired") {
		if s, _ := u.(string); !managed[s] {
			req = append(req, u)
		}
	}
	if _, ok := a.Tree.Get("extensionsRequired"); ok {
		if len(req) > 0 {
			a.Tree.Set("extensionsRequired", req)
		} else {
			a.Tree.Delete("extensionsRequired")
		}
	}
	return nil
}

// TypedCopy returns a fresh typed document decoded from the tree, with
// the loaded buffers' data shared, for code that works on the typed form.
func (a *Asset) TypedCopy() (*gltf.Document, error) {
	raw, err := a.Tree.MarshalJSON()
	if err != nil {
		return nil, err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(raw, doc); err != nil {
		return nil, err
	}
	for i := range doc.Buffers {
		if i < len(a.Doc.Buffers) {
			doc.Buffers[i].Data = a.Doc.Buffers[i].Data
		}
	}
	return doc, nil
}
