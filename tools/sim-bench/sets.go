package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/obj"
	"github.com/qmuntal/gltf"
)

// set is one collider set of an asset: a name, how it is made, and the
// file it is written to.
type set struct {
	name string
	// make writes the set's file at path from the asset (see asset).
	make func(a *asset, path string) error
}

// asset is one benchmark input prepared in its work folder: the mesh in
// world space (what the peers and the fidelity figures read) and the file
// autocollide reads.
type asset struct {
	name  string
	dir   string
	input string // the glTF autocollide reads (the original, or input.glb made from an OBJ)
	mesh  *obj.Mesh
}

// prepareAsset makes the work folder of an input file: mesh.obj, the whole
// default scene flattened in world space (every triangle primitive, node
// transforms applied), and for an OBJ input an input.glb holding it.
func prepareAsset(path, work string) (*asset, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	a := &asset{name: name, dir: filepath.Join(work, name), input: path}
	if err := os.MkdirAll(a.dir, 0o755); err != nil {
		return nil, err
	}
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".obj":
		a.mesh, err = obj.ReadFile(path)
		if err != nil {
			return nil, err
		}
		a.input = filepath.Join(a.dir, "input.glb")
		if err := writeAsset(a.input, a.mesh, nil); err != nil {
			return nil, err
		}
	case ".gltf", ".glb":
		var meshopt bool
		a.mesh, meshopt, err = flatten(path)
		if err != nil {
			return nil, err
		}
		if meshopt {
			// The piles' loader (tools/drop-test) does not decode
			// EXT_meshopt_compression: every set is made from the decoded
			// scene as a GLB of one node instead.
			a.input = filepath.Join(a.dir, "input.glb")
			if err := writeAsset(a.input, a.mesh, nil); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("%s: not a .gltf, .glb or .obj file", path)
	}
	if len(a.mesh.Triangles) == 0 {
		return nil, fmt.Errorf("%s: no triangles", path)
	}
	return a, writeOBJ(filepath.Join(a.dir, "mesh.obj"), a.mesh)
}

// flatten returns the triangles of a glTF file's default scene in world
// space as one mesh, and whether the file uses EXT_meshopt_compression
// (decoded here, as autocollide decodes it).
func flatten(path string) (*obj.Mesh, bool, error) {
	ga, err := gltfio.Load(path, gltfio.Limits{})
	if err != nil {
		return nil, false, err
	}
	doc := ga.Doc
	meshopt := slices.Contains(doc.ExtensionsUsed, "EXT_meshopt_compression") || slices.Contains(doc.ExtensionsUsed, "KHR_meshopt_compression")
	m := &obj.Mesh{}
	var walk func(n int, parent geom.Mat4, depth int) error
	walk = func(n int, parent geom.Mat4, depth int) error {
		if n < 0 || n >= len(doc.Nodes) || depth > 64 {
			return fmt.Errorf("%s: nodes[%d]: missing or too deep", path, n)
		}
		node := doc.Nodes[n]
		world := parent.Mul(localMatrix(node))
		if node.Mesh != nil && *node.Mesh < len(doc.Meshes) {
			for pi, p := range doc.Meshes[*node.Mesh].Primitives {
				if _, ok := p.Attributes[gltf.POSITION]; !ok || p.Mode != gltf.PrimitiveTriangles {
					continue
				}
				pos, idx, err := mesh.Primitive(doc, p)
				if err != nil {
					return fmt.Errorf("%s: meshes[%d].primitives[%d]: %w", path, *node.Mesh, pi, err)
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
	for _, r := range sceneRoots(doc) {
		if err := walk(r, geom.Identity4(), 0); err != nil {
			return nil, false, err
		}
	}
	return m, meshopt, nil
}

// writeOBJ writes a mesh as OBJ, the peers' input.
func writeOBJ(path string, m *obj.Mesh) error {
	var b bytes.Buffer
	for _, v := range m.Vertices {
		fmt.Fprintf(&b, "v %.9g %.9g %.9g\n", v[0], v[1], v[2])
	}
	for _, t := range m.Triangles {
		fmt.Fprintf(&b, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// autocollideSet runs an autocollide binary's generate on the asset with
// extra flags (none: the default profile).
func autocollideSet(bin string, flags ...string) func(a *asset, path string) error {
	return func(a *asset, path string) error {
		args := append([]string{"generate", a.input, "-o", path, "-j", "1"}, flags...)
		return run(exec.Command(bin, args...))
	}
}

// peerSet runs a peer decomposer on mesh.obj (through the cached OBJ of
// its hulls in the asset's folder, named cache) and writes its hulls as
// the asset's colliders.
// With cachedOnly, a missing OBJ is an error instead of a peer run.
func peerSet(cache string, cachedOnly bool, command func(a *asset, out string) *exec.Cmd) func(a *asset, path string) error {
	return func(a *asset, path string) error {
		objPath := filepath.Join(a.dir, cache)
		if st, err := os.Stat(objPath); err != nil || st.Size() == 0 {
			if cachedOnly {
				return fmt.Errorf("%s not run (-peers-cached and no %s)", cache, objPath)
			}
			tmp, err := os.MkdirTemp(a.dir, "peer-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			out := filepath.Join(tmp, "hulls.obj")
			cmd := command(a, out)
			cmd.Dir = tmp
			if err := run(cmd); err != nil {
				return err
			}
			if st, err := os.Stat(out); err != nil || st.Size() == 0 {
				return fmt.Errorf("%s wrote no hulls for %s", filepath.Base(cmd.Path), a.name)
			}
			if err := os.Rename(out, objPath); err != nil {
				return err
			}
		}
		hulls, err := readHullsOBJ(objPath)
		if err != nil {
			return err
		}
		return writeAsset(path, a.mesh, hulls)
	}
}

// vhacdCommand runs V-HACD's TestVHACD with a hull budget; it writes
// decomp.obj in its working folder, moved to out.
func vhacdCommand(bin string, k int) func(a *asset, out string) *exec.Cmd {
	return func(a *asset, out string) *exec.Cmd {
		return exec.Command("sh", "-c", `"$0" "$1" -h "$2" -g false >/dev/null && mv decomp.obj "$3"`,
			bin, filepath.Join(a.dir, "mesh.obj"), fmt.Sprint(k), out)
	}
}

// coacdCommand runs CoACD with a hull budget and a fixed seed.
func coacdCommand(bin string, k int) func(a *asset, out string) *exec.Cmd {
	return func(a *asset, out string) *exec.Cmd {
		return exec.Command(bin, "-i", filepath.Join(a.dir, "mesh.obj"), "-o", out, "-c", fmt.Sprint(k), "-s", "1234", "-ro", "remesh.obj")
	}
}

func run(cmd *exec.Cmd) error {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := out.String()
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
	return nil
}

// readHullsOBJ reads a peer's OBJ of hulls: each connected set of faces
// (faces sharing vertex indices; V-HACD and CoACD write each hull's
// vertices of its own) is one hull, rebuilt as the convex hull of its
// points within Jolt's limit (255 vertices, hull.DefaultMaxVertices).
func readHullsOBJ(path string) ([]*hull.Hull, error) {
	m, err := obj.ReadFile(path)
	if err != nil {
		return nil, err
	}
	parent := make([]int, len(m.Vertices))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, t := range m.Triangles {
		a, b, c := find(int(t[0])), find(int(t[1])), find(int(t[2]))
		parent[b] = a
		parent[find(c)] = a
	}
	groups := map[int][]geom.Vec3{}
	var order []int
	used := make([]bool, len(m.Vertices))
	for _, t := range m.Triangles {
		for _, v := range t {
			if used[v] {
				continue
			}
			used[v] = true
			r := find(int(v))
			if _, ok := groups[r]; !ok {
				order = append(order, r)
			}
			groups[r] = append(groups[r], m.Vertices[v])
		}
	}
	var hulls []*hull.Hull
	for _, r := range order {
		h, err := hull.Build(groups[r], hull.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: hull %d: %w", path, len(hulls), err)
		}
		hulls = append(hulls, h)
	}
	if len(hulls) == 0 {
		return nil, fmt.Errorf("%s: no hulls", path)
	}
	return hulls, nil
}
