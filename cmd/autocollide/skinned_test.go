package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/qmuntal/gltf"
)

// skinnedNodes returns the nodes of doc that are, or lie under, a skinned
// mesh node, each mapped to that skinned node.
func skinnedNodes(doc *gltf.Document) map[int]int {
	out := map[int]int{}
	var walk func(n, under int)
	walk = func(n, under int) {
		if _, seen := out[n]; seen || n < 0 || n >= len(doc.Nodes) {
			return
		}
		if nd := doc.Nodes[n]; nd.Skin != nil && nd.Mesh != nil && under < 0 {
			under = n
		}
		if under >= 0 {
			out[n] = under
		}
		for _, c := range doc.Nodes[n].Children {
			walk(c, under)
		}
	}
	for i := range doc.Nodes {
		if nd := doc.Nodes[i]; nd.Skin != nil && nd.Mesh != nil {
			walk(i, -1)
		}
	}
	return out
}

// TestNoBodyOnSkinnedMesh: no generated body, collider or trigger is, or
// lies under, a skinned mesh node (glTF ignores that node's transform for
// its mesh, and importers re-parent skinned meshes, leaving such colliders
// behind; #29 item 4), in every output made from a skinned corpus asset:
// the hull outputs in OMI, KHR and KHR geometry.node, and the default
// profile's with one body per scene root, per mesh node and per file, in
// OMI and KHR. Every output has a dynamic body.
func TestNoBodyOnSkinnedMesh(t *testing.T) {
	skinned := map[string]bool{}
	for _, in := range testassets.Corpus(t) {
		a, err := gltfio.Load(in, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if len(skinnedNodes(a.Doc)) > 0 {
			skinned[in] = true
		}
	}
	if len(skinned) < 2 {
		t.Fatalf("%d skinned corpus assets, want Fox, RecursiveSkeletons and more", len(skinned))
	}
	outputs := map[string]string{} // output → what made it
	for _, r := range generateCorpus(t) {
		if skinned[r.in] {
			outputs[r.out] = r.in + " (" + r.format + ", --method hull)"
		}
	}
	dir := t.TempDir()
	for _, per := range []string{"root", "node", "file"} {
		profile := filepath.Join(dir, per+".yaml")
		if err := os.WriteFile(profile, []byte("bodies:\n  per: "+per+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"omi", "khr"} {
			for in := range skinned {
				out := filepath.Join(dir, per, format, filepath.Base(in))
				if code, _, stderr := runCLI("generate", in, "-o", out, "--format", format, "--profile", profile, "-q"); code != 0 {
					t.Fatalf("%s (%s, per %s): exit %d: %s", in, format, per, code, stderr)
				}
				outputs[out] = in + " (" + format + ", default profile, bodies per " + per + ")"
			}
		}
	}
	for out, what := range outputs {
		a, err := gltfio.LoadRaw(out, gltfio.Limits{}) // Load would strip what generate made
		if err != nil {
			t.Fatal(err)
		}
		m, _, _, err := codecs.Decode(a.Doc)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		under := skinnedNodes(a.Doc)
		dynamic := 0
		for _, i := range m.NodeIndices() {
			n := m.Nodes[i]
			if n.Motion != nil && n.Motion.Type == physics.Dynamic {
				dynamic++
			}
			if n.Motion == nil && n.Collider == nil && n.Trigger == nil {
				continue
			}
			if s, ok := under[i]; ok {
				t.Errorf("%s: the body or collider nodes[%d] %q is or lies under the skinned mesh node nodes[%d] %q", what, i, a.Doc.Nodes[i].Name, s, a.Doc.Nodes[s].Name)
			}
		}
		if dynamic == 0 {
			t.Errorf("%s: no dynamic body", what)
		}
	}
}
