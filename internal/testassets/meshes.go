package testassets

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/autocollide/autocollide/geom"
)

// CorpusMesh is the vertex positions of one mesh of a corpus file: every
// triangle primitive's float POSITION data together, in mesh space (no
// node transform). Skip, when set, says why the mesh could not be read
// this simply (Draco or meshopt compression, quantized positions, a file
// the plain glTF reader refuses); Points is then empty.
type CorpusMesh struct {
	Name   string // "Sample/mesh name", or "Sample/mesh index" when unnamed
	Points []geom.Vec3
	Skip   string
}

// CorpusMeshes reads every mesh with positions of every glTF file of
// shared/corpus, in file then mesh order. It is the geometry packages'
// corpus input (they import no glTF themselves); the extraction proper is
// package mesh's and is tested there.
func CorpusMeshes(t testing.TB) []CorpusMesh {
	t.Helper()
	root := filepath.Join(Shared(t), "corpus")
	var out []CorpusMesh
	for _, f := range Corpus(t) {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		sample := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		doc, err := gltf.Open(f)
		if err != nil {
			out = append(out, CorpusMesh{Name: rel, Skip: "open: " + err.Error()})
			continue
		}
		for mi, m := range doc.Meshes {
			cm := CorpusMesh{Name: fmt.Sprintf("%s/%d", sample, mi)}
			if m.Name != "" {
				cm.Name = sample + "/" + m.Name
			}
			cm.Points, cm.Skip = meshPoints(doc, m)
			if cm.Skip != "" {
				cm.Points = nil
			}
			if len(cm.Points) > 0 || cm.Skip != "" {
				out = append(out, cm)
			}
		}
	}
	return out
}

// meshPoints gathers the float positions of m's primitives, or says why
// it cannot.
func meshPoints(doc *gltf.Document, m *gltf.Mesh) ([]geom.Vec3, string) {
	var pts []geom.Vec3
	for _, prim := range m.Primitives {
		if _, ok := prim.Extensions["KHR_draco_mesh_compression"]; ok {
			return nil, "Draco-compressed"
		}
		ai, ok := prim.Attributes[gltf.POSITION]
		if !ok {
			continue
		}
		if ai >= len(doc.Accessors) {
			return nil, fmt.Sprintf("POSITION accessor %d out of range", ai)
		}
		acr := doc.Accessors[ai]
		if acr.ComponentType != gltf.ComponentFloat {
			return nil, "quantized positions"
		}
		if bv := acr.BufferView; bv != nil && *bv < len(doc.BufferViews) {
			if _, ok := doc.BufferViews[*bv].Extensions["EXT_meshopt_compression"]; ok {
				return nil, "meshopt-compressed"
			}
		}
		pos, err := modeler.ReadPosition(doc, acr, nil)
		if err != nil {
			return nil, "read: " + err.Error()
		}
		for _, p := range pos {
			pts = append(pts, geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])})
		}
	}
	return pts, ""
}

// CorpusTriangles reads every triangle-list primitive of the corpus file
// rel (relative to shared/corpus) into one triangle mesh in mesh space
// (no node transform), for the geometry packages' tests. Only plain float
// positions are read, as CorpusMeshes reads them: a compressed or
// quantized file fails the test.
func CorpusTriangles(t testing.TB, rel string) ([]geom.Vec3, [][3]uint32) {
	t.Helper()
	doc, err := gltf.Open(filepath.Join(Shared(t), "corpus", rel))
	if err != nil {
		t.Fatal(err)
	}
	var pts []geom.Vec3
	var tris [][3]uint32
	for mi, m := range doc.Meshes {
		for pi, prim := range m.Primitives {
			if prim.Mode != gltf.PrimitiveTriangles {
				continue
			}
			one := &gltf.Mesh{Primitives: []*gltf.Primitive{prim}}
			pos, skip := meshPoints(doc, one)
			if skip != "" {
				t.Fatalf("%s: meshes[%d].primitives[%d]: %s", rel, mi, pi, skip)
			}
			idx := make([]uint32, len(pos))
			for i := range idx {
				idx[i] = uint32(i)
			}
			if prim.Indices != nil {
				if idx, err = modeler.ReadIndices(doc, doc.Accessors[*prim.Indices], nil); err != nil {
					t.Fatalf("%s: meshes[%d].primitives[%d]: indices: %v", rel, mi, pi, err)
				}
			}
			off := uint32(len(pts))
			pts = append(pts, pos...)
			for i := 0; i+2 < len(idx); i += 3 {
				tris = append(tris, [3]uint32{idx[i] + off, idx[i+1] + off, idx[i+2] + off})
			}
		}
	}
	return pts, tris
}
