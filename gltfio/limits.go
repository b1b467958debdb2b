package gltfio

import (
	"fmt"

	"github.com/autocollide/autocollide/safefile"
)

// Defaults of the Limits fields. They keep the memory of loading and
// extracting one asset to a few hundred megabytes at most while leaving
// room for large real assets; raise them through Limits when needed.
const (
	// DefaultMaxFileSize bounds a file's size: 512 MiB. Loading a .gltf
	// holds a few copies of its data: URIs at once, so the bound on the
	// file bounds memory.
	DefaultMaxFileSize = 512 << 20
	// DefaultMaxTriangles bounds the triangles of the scene counted per
	// instance: 10 million.
	DefaultMaxTriangles = 10_000_000
	// DefaultMaxInstances bounds the mesh instances of the scene: each
	// becomes a collider.
	DefaultMaxInstances = 100_000
	// DefaultMaxElements bounds every JSON array: a node with a name and a
	// matrix costs about 3 kB while it is parsed and decoded, so the
	// largest node array loaded by default stays near 300 MB.
	DefaultMaxElements = 100_000
	// DefaultMaxValues bounds the values of a JSON document, each
	// object member's key counted as one more and a value inside an
	// "extensions" member ExtensionValueWeight times: a parsed value costs
	// about 200 bytes at the peak of a run (the ordered tree, the typed
	// document, the output), so 2.5 million keep a document's parsed
	// forms near 500 MB at worst (measured: 2.8 million values in 15 MB
	// peak at 588 MB), while a 100,000-node hierarchy with names and
	// matrices (about 2.2 million) still loads.
	DefaultMaxValues = 2_500_000
)

func (l Limits) maxFile() int64 { return orDefault(l.MaxFileSize, DefaultMaxFileSize) }

// FileSize returns the effective file size limit: MaxFileSize, or its
// default when zero.
func (l Limits) FileSize() int64 { return l.maxFile() }

func (l Limits) maxTriangles() int64 { return orDefault(l.MaxTriangles, DefaultMaxTriangles) }

func (l Limits) maxInstances() int64 { return orDefault(l.MaxInstances, DefaultMaxInstances) }

func (l Limits) maxElements() int { return int(orDefault(int64(l.MaxElements), DefaultMaxElements)) }

func (l Limits) maxValues() int { return int(orDefault(int64(l.MaxValues), DefaultMaxValues)) }

func orDefault(v, def int64) int64 {
	if v <= 0 {
		return def
	}
	return v
}

// checkScale counts the mesh instances and triangles of the scene Extract
// reads (the default scene, else scene 0, else every root node), from the
// declared accessor counts and before any geometry is decoded, and refuses
// a scene over the limits, naming the node that crosses them. The meshes
// no node of that scene draws (a physics collider's hull mesh, read by
// the physics readers, mass and previews) count once each against the
// same triangle limit: 40 physics-only Draco meshes declaring 9.9 million
// faces each were decoded past the memory bound. Malformed references
// are left to the readers that report them.
func checkScale(tree *Object, lim Limits) error {
	var instances, triangles int64
	drawn := map[int]bool{}
	err := sceneMeshes(tree, func(ni int, node *Object, mi int) error {
		drawn[mi] = true
		n := gpuInstances(tree, node)
		instances += n
		if instances > lim.maxInstances() {
			return fmt.Errorf("%s: the scene has at least %d mesh instances (GPU instances included), over the limit of %d", nodeLabel(node, ni), instances, lim.maxInstances())
		}
		if err := checkCompressedVertices(tree, mi); err != nil {
			return fmt.Errorf("%s: %w", nodeLabel(node, ni), err)
		}
		if t := meshTriangles(tree, mi); t > 0 && n > 0 {
			if t > lim.maxTriangles()/n {
				triangles = lim.maxTriangles() + 1
			} else {
				triangles += t * n
			}
		}
		if triangles > lim.maxTriangles() {
			return fmt.Errorf("%s: the scene has more than %d triangles counting every instance (the limit)", nodeLabel(node, ni), lim.maxTriangles())
		}
		return nil
	})
	if err != nil {
		return err
	}
	for mi := range tree.Arr("meshes") {
		if drawn[mi] {
			continue
		}
		if err := checkCompressedVertices(tree, mi); err != nil {
			return err
		}
		if t := meshTriangles(tree, mi); t > lim.maxTriangles()-triangles {
			return fmt.Errorf("meshes[%d]: the document has more than %d triangles, the limit, counting the scene's per instance and those of the meshes outside it (such as physics hull meshes) once", mi, lim.maxTriangles())
		} else {
			triangles += t
		}
	}
	return nil
}

// sceneMeshes calls f for each node of the scene Extract reads that has a
// mesh, once per node (depth first from the scene roots), and stops at
// the first error. Out-of-range references and cycles are skipped: the
// hierarchy check reports them.
func sceneMeshes(tree *Object, f func(ni int, node *Object, mi int) error) error {
	nodes := tree.Arr("nodes")
	seen := make([]bool, len(nodes))
	stack := sceneRoots(tree)
	for len(stack) > 0 {
		ni := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if ni < 0 || ni >= len(nodes) || seen[ni] {
			continue
		}
		seen[ni] = true
		node, _ := nodes[ni].(*Object)
		for _, c := range node.Arr("children") {
			if ci, ok := asInt(c); ok {
				stack = append(stack, ci)
			}
		}
		if mi, ok := node.Int("mesh"); ok {
			if err := f(ni, node, mi); err != nil {
				return err
			}
		}
	}
	return nil
}

// sceneRoots returns the root nodes of the scene Extract reads.
func sceneRoots(tree *Object) []int {
	scenes := tree.Arr("scenes")
	var roots []int
	if len(scenes) == 0 {
		nodes := tree.Arr("nodes")
		child := make([]bool, len(nodes))
		for _, n := range nodes {
			o, _ := n.(*Object)
			for _, c := range o.Arr("children") {
				if ci, ok := asInt(c); ok && ci >= 0 && ci < len(nodes) {
					child[ci] = true
				}
			}
		}
		for i := range nodes {
			if !child[i] {
				roots = append(roots, i)
			}
		}
		return roots
	}
	si, ok := tree.Int("scene")
	if !ok || si < 0 || si >= len(scenes) {
		si = 0
	}
	s, _ := scenes[si].(*Object)
	for _, n := range s.Arr("nodes") {
		if ni, ok := asInt(n); ok {
			roots = append(roots, ni)
		}
	}
	return roots
}

// gpuInstances returns the instance count EXT_mesh_gpu_instancing declares
// on a node (the largest of its attribute accessors' counts), else 1.
func gpuInstances(tree *Object, node *Object) int64 {
	attrs := node.Obj("extensions").Obj("EXT_mesh_gpu_instancing").Obj("attributes")
	if attrs == nil {
		return 1
	}
	var n int64
	for _, k := range attrs.Keys() {
		v, _ := attrs.Get(k)
		if c := accessorCount(tree, v); c > n {
			n = c
		}
	}
	return max(n, 1)
}

// meshTriangles returns the triangles mesh mi declares: per primitive, its
// index (else POSITION) count by mode; points and lines have none.
func meshTriangles(tree *Object, mi int) int64 {
	meshes := tree.Arr("meshes")
	if mi < 0 || mi >= len(meshes) {
		return 0
	}
	m, _ := meshes[mi].(*Object)
	var total int64
	for _, p := range m.Arr("primitives") {
		po, _ := p.(*Object)
		mode, ok := po.Int("mode")
		if !ok {
			mode = 4
		}
		idx, hasIdx := po.Get("indices")
		var n int64
		if hasIdx {
			n = accessorCount(tree, idx)
		} else {
			pos, _ := po.Obj("attributes").Get("POSITION")
			n = accessorCount(tree, pos)
		}
		switch mode {
		case 4:
			total += n / 3
		case 5, 6:
			total += max(n-2, 0)
		}
	}
	return total
}

// checkCompressedVertices refuses a mesh whose compressed positions
// declare more vertices than its triangles can use (3 each, counted over
// the whole mesh, since its primitives may share a vertex buffer): a
// meshopt stream can declare ten million vertices in a hundred kilobytes,
// and decoding them costs memory the file does not hold. Uncompressed
// vertices are paid for by the file's own bytes and are not counted.
func checkCompressedVertices(tree *Object, mi int) error {
	meshes := tree.Arr("meshes")
	if mi < 0 || mi >= len(meshes) {
		return nil
	}
	m, _ := meshes[mi].(*Object)
	usable := 3 * meshTriangles(tree, mi)
	for pi, p := range m.Arr("primitives") {
		po, _ := p.(*Object)
		pos, _ := po.Obj("attributes").Get("POSITION")
		if !compressed(tree, pos) {
			continue
		}
		if n := accessorCount(tree, pos); n > usable {
			return fmt.Errorf("mesh %d primitive %d: compressed POSITION declares %d vertices, more than the mesh's %d triangles can use (%d)", mi, pi, n, usable/3, usable)
		}
	}
	return nil
}

// compressed reports whether accessor v reads a bufferView carrying
// EXT_meshopt_compression (or its KHR name).
func compressed(tree *Object, v any) bool {
	i, ok := asInt(v)
	accs := tree.Arr("accessors")
	if !ok || i < 0 || i >= len(accs) {
		return false
	}
	a, _ := accs[i].(*Object)
	bi, ok := a.Int("bufferView")
	views := tree.Arr("bufferViews")
	if !ok || bi < 0 || bi >= len(views) {
		return false
	}
	bv, _ := views[bi].(*Object)
	ext := bv.Obj("extensions")
	return ext.Obj("EXT_meshopt_compression") != nil || ext.Obj("KHR_meshopt_compression") != nil
}

// accessorCount returns the declared count of the accessor index v, or 0.
func accessorCount(tree *Object, v any) int64 {
	i, ok := asInt(v)
	accs := tree.Arr("accessors")
	if !ok || i < 0 || i >= len(accs) {
		return 0
	}
	a, _ := accs[i].(*Object)
	c, ok := a.Int("count")
	if !ok || c < 0 {
		return 0
	}
	return int64(c)
}

// nodeLabel names a node as errors do: nodes[3] "Chair".
func nodeLabel(node *Object, i int) string {
	if v, ok := node.Get("name"); ok {
		if s, ok := v.(string); ok && s != "" {
			return fmt.Sprintf("nodes[%d] %q", i, s)
		}
	}
	return fmt.Sprintf("nodes[%d]", i)
}

// checkResource refuses an image file that copying, embedding or hashing
// it could not bound: outside the asset's folder once links are resolved,
// not a regular file (a pipe, a device) or over the file size limit.
func checkResource(dir safefile.Dir, name string, lim Limits) error {
	_, err := dir.Check(name, lim.maxFile())
	return err
}
