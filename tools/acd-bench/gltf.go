package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/obj"
	"github.com/qmuntal/gltf"
)

// namedMesh is a flattened mesh and the name its OBJ file gets.
type namedMesh struct {
	name string
	mesh *obj.Mesh
}

// readGLTF flattens the triangle primitives of a glTF file's default scene
// (positions as mesh.Primitive reads them, Draco and quantized included;
// node transforms applied) into one mesh named
// base. With parts, each glTF mesh becomes its own mesh instead (its first
// instance, named base-meshname), as generate decomposes each mesh
// instance on its own; a file with one mesh keeps the name base.
func readGLTF(path, base string, parts bool) ([]namedMesh, error) {
	doc, err := gltf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []namedMesh
	m := &obj.Mesh{}
	seen := map[int]bool{}
	var roots []int
	if doc.Scene != nil && *doc.Scene < len(doc.Scenes) {
		roots = doc.Scenes[*doc.Scene].Nodes
	} else if len(doc.Scenes) > 0 {
		roots = doc.Scenes[0].Nodes
	}
	var walk func(n int, parent geom.Mat4, depth int) error
	walk = func(n int, parent geom.Mat4, depth int) error {
		if n < 0 || n >= len(doc.Nodes) || depth > 64 {
			return fmt.Errorf("%s: bad node %d", path, n)
		}
		node := doc.Nodes[n]
		local := geom.Mat4FromGLTF(node.MatrixOrDefault())
		if node.Matrix == gltf.DefaultMatrix || node.Matrix == [16]float64{} {
			r := node.RotationOrDefault()
			local = geom.TRS(geom.Vec3(node.Translation), geom.Quat{r[0], r[1], r[2], r[3]}, geom.Vec3(node.Scale))
		}
		world := parent.Mul(local)
		if node.Mesh != nil && *node.Mesh < len(doc.Meshes) && !(parts && seen[*node.Mesh]) {
			if parts {
				seen[*node.Mesh] = true
				m = &obj.Mesh{}
				name := doc.Meshes[*node.Mesh].Name
				if name == "" {
					name = fmt.Sprint("mesh", *node.Mesh)
				}
				out = append(out, namedMesh{base + "-" + name, m})
			}
			for _, p := range doc.Meshes[*node.Mesh].Primitives {
				if p.Mode != gltf.PrimitiveTriangles {
					continue
				}
				if _, ok := p.Attributes[gltf.POSITION]; !ok {
					continue
				}
				pos, idx, err := mesh.Primitive(doc, p)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				off := uint32(len(m.Vertices))
				for _, q := range pos {
					m.Vertices = append(m.Vertices, world.Point(q))
				}
				for i := 0; i+2 < len(idx); i += 3 {
					m.Triangles = append(m.Triangles, [3]uint32{idx[i] + off, idx[i+1] + off, idx[i+2] + off})
				}
			}
		}
		for _, c := range node.Children {
			if err := walk(c, world, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := walk(r, geom.Identity4(), 0); err != nil {
			return nil, err
		}
	}
	switch {
	case !parts:
		out = []namedMesh{{base, m}}
	case len(out) == 1:
		out[0].name = base
	}
	for _, nm := range out {
		if len(nm.mesh.Triangles) == 0 {
			return nil, fmt.Errorf("%s: %s: no triangles", path, nm.name)
		}
	}
	return out, nil
}

// writeOBJ writes a mesh as OBJ (for vhacd.mjs, which reads only OBJ).
func writeOBJ(path string, m *obj.Mesh) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, v := range m.Vertices {
		fmt.Fprintf(w, "v %.9g %.9g %.9g\n", v[0], v[1], v[2])
	}
	for _, t := range m.Triangles {
		fmt.Fprintf(w, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
