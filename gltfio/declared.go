package gltfio

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/autocollide/autocollide/safefile"
)

// Declared is what a file's JSON declares about the scene generation
// reads, before any geometry is decoded.
type Declared struct {
	// Triangles counts every instance (nodes and GPU instances), as the
	// triangle limit does; Instances counts the mesh instances.
	Triangles, Instances int64
	// Geometries holds the triangles of each distinct geometry the scene
	// instances, once: meshes drawing the same POSITION accessors (copies
	// differing only in material) count as one, as generation fits such
	// copies once.
	Geometries []int64
}

// Summary is what a file's JSON says before the file is loaded, from
// one read of it: what its scene declares, the external files it names,
// and the SHA-256 of the JSON text (JSONSum), by which a later load of
// the file can tell it is still what was summarized.
type Summary struct {
	Declared   Declared
	References []Reference
	JSON       [sha256.Size]byte
}

// Summarize reads and parses the JSON of the file at path once (a GLB's
// BIN chunk and external buffers are not read, so it is cheap enough to
// ask of every file of a large listing) within the limits; errors name
// the file.
func Summarize(path string, lim Limits) (Summary, error) {
	js, err := readJSONChunk(path, lim)
	if err != nil {
		return Summary{}, fmt.Errorf("%s: %w", path, err)
	}
	tree, err := parseJSON(js, lim.maxElements(), lim.maxValues())
	if err != nil {
		return Summary{}, fmt.Errorf("%s: %w", path, err)
	}
	return Summary{Declared: declare(tree, lim), References: references(tree), JSON: sha256.Sum256(js)}, nil
}

// JSONSum is the SHA-256 of the JSON text of a file's bytes (a GLB's
// JSON chunk), as Summary.JSON records it; ok is false for a GLB whose
// chunks cannot be split.
func JSONSum(raw []byte) (sum [sha256.Size]byte, ok bool) {
	if len(raw) >= 4 && binary.LittleEndian.Uint32(raw) == glbMagic {
		js, _, err := splitGLB(raw)
		if err != nil {
			return sum, false
		}
		raw = js
	}
	return sha256.Sum256(raw), true
}

// declare reads what the scene generation reads declares from a parsed
// JSON tree.
func declare(tree *Object, lim Limits) Declared {
	var d Declared
	geometries := map[string]bool{}
	sceneMeshes(tree, func(_ int, node *Object, mi int) error {
		n := gpuInstances(tree, node)
		t := meshTriangles(tree, mi)
		d.Instances += n
		d.Triangles = min(d.Triangles+t*n, lim.maxTriangles()+1)
		if key := geometryKey(tree, mi); !geometries[key] {
			geometries[key] = true
			d.Geometries = append(d.Geometries, t)
		}
		return nil
	})
	return d
}

// geometryKey names mesh mi's geometry by its primitives' POSITION
// accessors.
func geometryKey(tree *Object, mi int) string {
	meshes := tree.Arr("meshes")
	if mi < 0 || mi >= len(meshes) {
		return ""
	}
	m, _ := meshes[mi].(*Object)
	key := ""
	for _, p := range m.Arr("primitives") {
		po, _ := p.(*Object)
		pos, _ := po.Obj("attributes").Get("POSITION")
		key += fmt.Sprintf("%v/", pos)
	}
	return key
}

// readJSONTree parses the JSON of the file at path (readJSONChunk) within
// the limits; errors name the file.
func readJSONTree(path string, lim Limits) (*Object, error) {
	js, err := readJSONChunk(path, lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tree, err := parseJSON(js, lim.maxElements(), lim.maxValues())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tree, nil
}

// readJSONChunk reads a .gltf file's text, or only the JSON chunk of a GLB.
func readJSONChunk(path string, lim Limits) ([]byte, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [20]byte
	n, err := io.ReadFull(f, head[:])
	if n < 4 || binary.LittleEndian.Uint32(head[:]) != glbMagic {
		// A .gltf is all JSON: refused unread when it is over the file
		// limit, as the loader refuses it (a 2 GB data: URI must not be
		// read to rank it in a batch).
		return safefile.ReadFile(path, lim.maxFile())
	}
	if err != nil {
		return nil, errors.New("GLB: truncated header")
	}
	size := int64(binary.LittleEndian.Uint32(head[12:]))
	if binary.LittleEndian.Uint32(head[16:]) != glbChunkJSON || size > lim.maxFile() {
		return nil, errors.New("GLB: first chunk is not JSON or is too large")
	}
	js := make([]byte, size)
	if _, err := io.ReadFull(f, js); err != nil {
		return nil, fmt.Errorf("GLB: JSON chunk: %w", err)
	}
	return js, nil
}

// Reference is an external file a glTF file's JSON names.
type Reference struct {
	// Where is the JSON path of the URI ("buffers[0].uri").
	Where string
	// Rel is the file's path relative to the referring file's folder,
	// decoded, with forward slashes (see LocalURI).
	Rel string
}

// References lists the external files the JSON of the file at path names
// as buffers and images, from its JSON alone (a GLB's BIN chunk is not
// read). URIs that LocalURI refuses are left out: loading fails on them.
func References(path string, lim Limits) ([]Reference, error) {
	tree, err := readJSONTree(path, lim)
	if err != nil {
		return nil, err
	}
	return references(tree), nil
}

// references lists the external files a parsed JSON tree names.
func references(tree *Object) []Reference {
	var refs []Reference
	for _, k := range []string{"buffers", "images"} {
		for i, v := range tree.Arr(k) {
			o, _ := v.(*Object)
			u, _ := o.Get("uri")
			s, _ := u.(string)
			if s == "" || strings.HasPrefix(s, "data:") {
				continue
			}
			if rel, err := LocalURI(s); err == nil {
				refs = append(refs, Reference{Where: fmt.Sprintf("%s[%d].uri", k, i), Rel: rel})
			}
		}
	}
	return refs
}
