// Package testkit holds helpers shared by the physics tests: listing the
// physics example files, loading documents, and comparing the physics
// content of two documents as parsed JSON after filling each family's
// defaults. Tests find the shared folder with internal/testassets.
package testkit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/physics/schema"
	"github.com/qmuntal/gltf"
)

// PhysicsFiles lists the .gltf and .glb files of the specs examples and
// the physics corpus, sorted, relative to the shared folder.
func PhysicsFiles(shared string) ([]string, error) {
	var out []string
	for _, root := range []string{"specs", "corpus-physics"} {
		err := filepath.WalkDir(filepath.Join(shared, root), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (filepath.Ext(p) == ".gltf" || filepath.Ext(p) == ".glb") {
				rel, _ := filepath.Rel(shared, p)
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// Load parses a .gltf file's JSON (buffers are not loaded) or opens a
// .glb; it returns the document and the file's JSON.
func Load(path string) (*gltf.Document, []byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if filepath.Ext(path) == ".glb" {
		doc, err := gltf.Open(path)
		if err != nil {
			return nil, nil, err
		}
		js, err := schema.JSONChunk(b)
		return doc, js, err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(b, doc); err != nil {
		return nil, nil, err
	}
	return doc, b, nil
}

// Marshal writes doc as .gltf JSON.
func Marshal(doc *gltf.Document) ([]byte, error) {
	var buf bytes.Buffer
	enc := gltf.NewEncoder(&buf)
	enc.AsBinary = false
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Physics is the physics content of a document as parsed JSON, with
// defaults filled and default-valued optional members removed, so that two
// semantically equal documents give deeply equal values.
type Physics struct {
	Doc   map[string]any         // extension name -> value
	Nodes map[int]map[string]any // node -> extension name -> value
	Used  []string               // physics names in extensionsUsed, sorted
}

// Extract returns the canonical physics content of the glTF JSON b for
// the given extension names.
func Extract(b []byte, names []string) (*Physics, error) {
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		return nil, err
	}
	p := &Physics{Doc: map[string]any{}, Nodes: map[int]map[string]any{}}
	if exts, ok := root["extensions"].(map[string]any); ok {
		for _, n := range names {
			if v, ok := exts[n]; ok {
				p.Doc[n] = canonDoc(n, v)
			}
		}
	}
	nodes, _ := root["nodes"].([]any)
	for i, nd := range nodes {
		m, _ := nd.(map[string]any)
		exts, _ := m["extensions"].(map[string]any)
		for _, n := range names {
			if v, ok := exts[n]; ok {
				if p.Nodes[i] == nil {
					p.Nodes[i] = map[string]any{}
				}
				p.Nodes[i][n] = canonNode(n, v)
			}
		}
	}
	used, _ := root["extensionsUsed"].([]any)
	for _, u := range used {
		if s, ok := u.(string); ok && slices.Contains(names, s) {
			p.Used = append(p.Used, s)
		}
	}
	sort.Strings(p.Used)
	return p, nil
}

// Equal compares two canonical contents.
func Equal(a, b *Physics) bool { return reflect.DeepEqual(a, b) }

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func fill(m map[string]any, key string, def any) {
	if _, ok := m[key]; !ok {
		m[key] = def
	}
}

func dropIf(m map[string]any, key string, def any) {
	if v, ok := m[key]; ok && reflect.DeepEqual(v, def) {
		delete(m, key)
	}
}

func canonDoc(name string, v any) any {
	m := obj(v)
	if m == nil {
		return v
	}
	switch name {
	case "OMI_physics_shape", "KHR_implicit_shapes":
		shapes, _ := m["shapes"].([]any)
		for _, s := range shapes {
			canonShape(name, obj(s))
		}
	case "OMI_physics_body", "KHR_physics_rigid_bodies":
		joints, _ := m["physicsJoints"].([]any)
		for _, j := range joints {
			if jm := obj(j); jm != nil {
				for _, k := range []string{"limits", "drives"} {
					if a, ok := jm[k].([]any); ok && len(a) == 0 {
						delete(jm, k)
					}
				}
			}
		}
		for _, k := range []string{"physicsMaterials", "collisionFilters", "physicsJoints"} {
			if a, ok := m[k].([]any); ok && len(a) == 0 {
				delete(m, k)
			}
		}
	}
	return m
}

func canonShape(family string, s map[string]any) {
	if s == nil {
		return
	}
	t, _ := s["type"].(string)
	omi := family == "OMI_physics_shape"
	sub := obj(s[t])
	if sub == nil {
		sub = map[string]any{}
		s[t] = sub
	}
	for _, k := range []string{"box", "sphere", "capsule", "cylinder", "convex", "trimesh", "plane"} {
		if k != t {
			delete(s, k)
		}
	}
	rDef, hCap, hCyl := 0.25, 0.5, 0.5
	if omi {
		rDef, hCap, hCyl = 0.5, 1.0, 2.0
	}
	switch t {
	case "box":
		fill(sub, "size", []any{1.0, 1.0, 1.0})
	case "sphere":
		fill(sub, "radius", 0.5)
	case "capsule", "cylinder":
		if r, ok := sub["radius"]; ok && omi { // early OMI form
			fill(sub, "radiusTop", r)
			fill(sub, "radiusBottom", r)
			delete(sub, "radius")
		}
		h := hCap
		if t == "cylinder" {
			h = hCyl
		}
		fill(sub, "height", h)
		fill(sub, "radiusTop", rDef)
		fill(sub, "radiusBottom", rDef)
	case "plane":
		fill(sub, "doubleSided", false)
	}
}

func canonNode(name string, v any) any {
	m := obj(v)
	if m == nil {
		return v
	}
	switch name {
	case "OMI_physics_body":
		for _, k := range []string{"collider", "trigger"} {
			if c := obj(m[k]); c != nil {
				for _, f := range []string{"shape", "physicsMaterial", "collisionFilter"} {
					dropIf(c, f, -1.0)
				}
			}
		}
	case "OMI_physics_joint":
		dropIf(m, "enableCollision", false)
	case "KHR_physics_rigid_bodies":
		if mo := obj(m["motion"]); mo != nil {
			dropIf(mo, "isKinematic", false)
		}
		for _, k := range []string{"collider", "trigger"} {
			if c := obj(m[k]); c != nil {
				if g := obj(c["geometry"]); g != nil {
					dropIf(g, "convexHull", false)
					if _, ok := g["shape"]; ok {
						delete(g, "convexHull") // no effect on implicit shapes
					}
				}
			}
		}
		if j := obj(m["joint"]); j != nil {
			dropIf(j, "enableCollision", false)
		}
	}
	return m
}
