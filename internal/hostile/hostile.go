// Package hostile builds, for tests and tools/hostile only, small inputs
// that cost far more memory than their size: deeply nested or very wide
// JSON, many values, long names, meshopt streams declaring many vertices,
// large profiles. They are the amplifiers the command's memory bound is
// measured against; each is built by code so that no large fixture is
// committed.
package hostile

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// triangle is three float32 positions: (0,0,0), (1,0,0), (0,1,0).
func triangle() []byte {
	var b bytes.Buffer
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		binary.Write(&b, binary.LittleEndian, math.Float32bits(v))
	}
	return b.Bytes()
}

// gltf returns a one-triangle .gltf document with extra top-level JSON
// members, mesh name and node count.
func gltf(meshName string, nodes int, extras string) []byte {
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(triangle())
	name, _ := json.Marshal(meshName)
	var ns, roots []string
	for i := range nodes {
		ns = append(ns, fmt.Sprintf(`{"mesh":0,"translation":[%d,0,0]}`, 2*i))
		roots = append(roots, fmt.Sprint(i))
	}
	if extras == "" {
		extras = "{}"
	}
	return []byte(fmt.Sprintf(`{"asset":{"version":"2.0","extras":%s},"scene":0,"scenes":[{"nodes":[%s]}],"nodes":[%s],
"meshes":[{"name":%s,"primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"byteLength":36,"uri":%q}]}`,
		extras, strings.Join(roots, ","), strings.Join(ns, ","), name, uri))
}

// NestedExtras is a .gltf of about size bytes whose asset extras hold
// arrays nested depth levels deep, over and over: indentation of the
// output grows with the depth.
func NestedExtras(depth, size int) []byte {
	one := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	var b strings.Builder
	b.WriteString("[")
	for b.Len() < size {
		if b.Len() > 1 {
			b.WriteString(",")
		}
		b.WriteString(one)
	}
	b.WriteString("]")
	return gltf("Mesh", 1, b.String())
}

// WideExtras is a .gltf whose asset extras are one object of n keys.
func WideExtras(n int) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":0`, i)
	}
	b.WriteString("}")
	return gltf("Mesh", 1, b.String())
}

// ManyValues is a .gltf whose asset extras hold objects of 99,999 keys
// each, at most n JSON values in all (keys counted): near the value budget,
// it is the largest parsed document a load accepts.
func ManyValues(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for v := 0; v+2*99_999 <= n; v += 2 * 99_999 {
		if v > 0 {
			b.WriteString(",")
		}
		b.WriteString("{")
		for i := range 99_999 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":0`, i)
		}
		b.WriteString("}")
	}
	b.WriteString("]")
	return gltf("Mesh", 1, b.String())
}

// LongName is a .gltf whose one mesh, named with nameLen bytes, is used
// by the given number of nodes: each collider node is named after it.
func LongName(nameLen, nodes int) []byte {
	return gltf(strings.Repeat("n", nameLen), nodes, "")
}

// MeshoptVertices is a GLB of one triangle whose EXT_meshopt_compression
// POSITION stream declares the given number of vertices, in the shortest
// valid encoding (version 1, every block "all zero": 3 bytes per 256
// vertices), so that a few hundred kilobytes declare millions.
func MeshoptVertices(vertices int) []byte {
	const stride = 12
	stream := []byte{0xa1}
	for base := 0; base < vertices; base += 256 {
		stream = append(stream, 0xaa, 0xaa, 0xaa)
	}
	stream = append(stream, make([]byte, 24)...) // tail: baseline zeros, channel modes 0
	bin := append([]byte(nil), stream...)
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	idxAt := len(bin)
	bin = append(bin, 0, 0, 1, 0, 2, 0, 0, 0) // u16 0, 1, 2 and padding
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},"extensionsUsed":["EXT_meshopt_compression"],"extensionsRequired":["EXT_meshopt_compression"],
"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},
 {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
"bufferViews":[{"buffer":1,"byteLength":%d,"byteStride":12,"extensions":{"EXT_meshopt_compression":{"buffer":0,"byteLength":%d,"byteStride":12,"count":%d,"mode":"ATTRIBUTES"}}},
 {"buffer":0,"byteOffset":%d,"byteLength":6}],
"buffers":[{"byteLength":%d},{"byteLength":%d,"extensions":{"EXT_meshopt_compression":{"fallback":true}}}]}`,
		vertices, vertices*stride, len(stream), vertices, idxAt, len(bin), vertices*stride)
	return glb([]byte(doc), bin)
}

// glb packs a JSON and a BIN chunk into a GLB container.
func glb(js, bin []byte) []byte {
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	var b bytes.Buffer
	le := binary.LittleEndian
	binary.Write(&b, le, [3]uint32{0x46546C67, 2, uint32(12 + 8 + len(js) + 8 + len(bin))})
	binary.Write(&b, le, [2]uint32{uint32(len(js)), 0x4E4F534A})
	b.Write(js)
	binary.Write(&b, le, [2]uint32{uint32(len(bin)), 0x004E4942})
	b.Write(bin)
	return b.Bytes()
}

// Profile is a profile YAML of n rules (about 40 bytes each).
func Profile(n int) []byte {
	var b strings.Builder
	b.WriteString("rules:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - match: {name: \"Part%d*\"}\n    method: box\n", i)
	}
	return []byte(b.String())
}

// Instanced is a .gltf of one unit cube on one node carrying n
// EXT_mesh_gpu_instancing instances (a TRANSLATION accessor only), all
// at the origin when spacing is 0 (an accessor without a buffer view,
// all zeros: the file is under 1 kB whatever n), else spacing metres
// apart along X. It makes n mesh instances of one dynamic body.
func Instanced(n int, spacing float64) []byte {
	var geo bytes.Buffer
	le := binary.LittleEndian
	for i := range 8 {
		binary.Write(&geo, le, [3]float32{float32(i & 1), float32(i >> 1 & 1), float32(i >> 2 & 1)})
	}
	for _, t := range [][3]uint16{
		{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
		{0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
		{0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5},
	} {
		binary.Write(&geo, le, t)
	}
	uri := func(b []byte) string {
		return "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b)
	}
	views := `{"buffer":0,"byteLength":96},{"buffer":0,"byteOffset":96,"byteLength":72}`
	buffers := fmt.Sprintf(`{"byteLength":%d,"uri":%q}`, geo.Len(), uri(geo.Bytes()))
	view := ""
	if spacing != 0 {
		var tr bytes.Buffer
		for i := range n {
			binary.Write(&tr, le, [3]float32{float32(float64(i) * spacing), 0, 0})
		}
		views += fmt.Sprintf(`,{"buffer":1,"byteLength":%d}`, tr.Len())
		buffers += fmt.Sprintf(`,{"byteLength":%d,"uri":%q}`, tr.Len(), uri(tr.Bytes()))
		view = `"bufferView":2,`
	}
	return []byte(fmt.Sprintf(`{"asset":{"version":"2.0"},"extensionsUsed":["EXT_mesh_gpu_instancing"],
"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"mesh":0,"extensions":{"EXT_mesh_gpu_instancing":{"attributes":{"TRANSLATION":2}}}}],
"meshes":[{"name":"Cube","primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":8,"type":"VEC3","min":[0,0,0],"max":[1,1,1]},
 {"bufferView":1,"componentType":5123,"count":36,"type":"SCALAR"},
 {%s"componentType":5126,"count":%d,"type":"VEC3","min":[0,0,0],"max":[%g,0,0]}],
"bufferViews":[%s],"buffers":[%s]}`, view, n, float64(n-1)*spacing, views, buffers))
}

// Colliders is a .gltf of one dynamic OMI body carrying n box colliders,
// each on its own child node with its own shape and no mesh (about 135
// bytes each): a file of authored physics whose objects the physics
// readers and the validator decode again.
func Colliders(n int) []byte {
	var nodes, shapes, children strings.Builder
	for i := range n {
		if i > 0 {
			nodes.WriteString(",")
			shapes.WriteString(",")
			children.WriteString(",")
		}
		fmt.Fprintf(&nodes, `{"translation":[%d,%d,0],"extensions":{"OMI_physics_body":{"collider":{"shape":%d}}}}`, i%100*2, i/100*2, i)
		shapes.WriteString(`{"type":"box","box":{"size":[1,1,1]}}`)
		fmt.Fprint(&children, i+1)
	}
	return []byte(fmt.Sprintf(`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_body","OMI_physics_shape"],
"extensions":{"OMI_physics_shape":{"shapes":[%s]}},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"children":[%s],"extensions":{"OMI_physics_body":{"motion":{"type":"dynamic"}}}},%s]}`,
		shapes.String(), children.String(), nodes.String()))
}

// PhysicsOnlyDraco is a GLB of one dynamic OMI body whose n convex
// colliders each use a mesh no scene node draws, a
// KHR_draco_mesh_compression primitive declaring faces faces (its
// indices accessor) over a stream of streamBytes bytes: the meshes only
// the physics readers, mass and previews read.
func PhysicsOnlyDraco(n, faces, streamBytes int) []byte {
	stream := append([]byte("DRACO\x02\x02\x01\x01\x00\x00"), make([]byte, max(streamBytes-11, 0))...)
	for len(stream)%4 != 0 {
		stream = append(stream, 0)
	}
	var bin []byte
	var meshes, accessors, views, shapes, nodes, children []string
	for i := range n {
		views = append(views, fmt.Sprintf(`{"buffer":0,"byteOffset":%d,"byteLength":%d}`, len(bin), len(stream)))
		bin = append(bin, stream...)
		accessors = append(accessors,
			fmt.Sprintf(`{"componentType":5126,"count":%d,"type":"VEC3","min":[0,0,0],"max":[1,1,1]}`, faces),
			fmt.Sprintf(`{"componentType":5125,"count":%d,"type":"SCALAR"}`, 3*faces))
		meshes = append(meshes, fmt.Sprintf(`{"primitives":[{"attributes":{"POSITION":%d},"indices":%d,"extensions":{"KHR_draco_mesh_compression":{"bufferView":%d,"attributes":{"POSITION":0}}}}]}`, 2*i, 2*i+1, i))
		shapes = append(shapes, fmt.Sprintf(`{"type":"convex","convex":{"mesh":%d}}`, i))
		nodes = append(nodes, fmt.Sprintf(`{"translation":[%d,0,0],"extensions":{"OMI_physics_body":{"collider":{"shape":%d}}}}`, 2*i, i))
		children = append(children, fmt.Sprint(i+1))
	}
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_body","OMI_physics_shape","KHR_draco_mesh_compression"],
"extensionsRequired":["KHR_draco_mesh_compression"],
"extensions":{"OMI_physics_shape":{"shapes":[%s]}},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"children":[%s],"extensions":{"OMI_physics_body":{"motion":{"type":"dynamic"}}}},%s],
"meshes":[%s],"accessors":[%s],"bufferViews":[%s],"buffers":[{"byteLength":%d}]}`,
		strings.Join(shapes, ","), strings.Join(children, ","), strings.Join(nodes, ","),
		strings.Join(meshes, ","), strings.Join(accessors, ","), strings.Join(views, ","), len(bin))
	return glb([]byte(doc), bin)
}
