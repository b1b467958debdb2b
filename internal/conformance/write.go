package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// Mesh indices of the geometry every document carries.
const (
	// MeshCube is a closed, convex cube of side CubeSide centred on the
	// origin: the render mesh of every body and the source of hulls.
	MeshCube = 0
	// MeshL is a closed L-shaped prism (not convex): the source of
	// triangle-mesh colliders and of a hull of a concave mesh.
	MeshL = 1
)

// CubeSide is the side of MeshCube in metres.
const CubeSide = 0.5

// buffers returns the buffer of the two meshes and the bufferViews,
// accessors and meshes that describe it.
func buffers() (bin []byte, views, accessors, meshes []any) {
	h := float32(CubeSide / 2)
	cube := [][3]float32{
		{-h, -h, -h}, {h, -h, -h}, {h, h, -h}, {-h, h, -h},
		{-h, -h, h}, {h, -h, h}, {h, h, h}, {-h, h, h},
	}
	// Counter-clockwise seen from outside.
	cubeIdx := []uint16{
		0, 2, 1, 0, 3, 2, // -z
		4, 5, 6, 4, 6, 7, // +z
		0, 1, 5, 0, 5, 4, // -y
		3, 7, 6, 3, 6, 2, // +y
		0, 4, 7, 0, 7, 3, // -x
		1, 2, 6, 1, 6, 5, // +x
	}
	// The L in the xy plane (counter-clockwise seen from +z), extruded
	// along z from -h to +h.
	l := [][2]float32{{-h, -h}, {h, -h}, {h, 0}, {0, 0}, {0, h}, {-h, h}}
	var lPos [][3]float32
	for _, z := range []float32{-h, h} {
		for _, p := range l {
			lPos = append(lPos, [3]float32{p[0], p[1], z})
		}
	}
	// Caps: the L split into the triangles (0,1,2) (0,2,3) (0,3,4) (0,4,5).
	var lIdx []uint16
	for _, t := range [][3]uint16{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 5}} {
		lIdx = append(lIdx, t[0]+6, t[1]+6, t[2]+6) // front (+z): as listed
		lIdx = append(lIdx, t[0], t[2], t[1])       // back (-z): reversed
	}
	for i := uint16(0); i < 6; i++ { // sides
		j := (i + 1) % 6
		lIdx = append(lIdx, i, j, j+6, i, j+6, i+6)
	}
	var buf bytes.Buffer
	put := func(data any, target int, count int, typ, compType string, minMax bool, pts [][3]float32) {
		for buf.Len()%4 != 0 {
			buf.WriteByte(0)
		}
		off := buf.Len()
		binary.Write(&buf, binary.LittleEndian, data)
		views = append(views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": buf.Len() - off, "target": target})
		acc := map[string]any{"bufferView": len(views) - 1, "componentType": map[string]int{"float": 5126, "u16": 5123}[compType], "count": count, "type": typ}
		if minMax {
			lo := [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
			hi := [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
			for _, p := range pts {
				for k := range 3 {
					lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
				}
			}
			acc["min"], acc["max"] = lo[:], hi[:]
		}
		accessors = append(accessors, acc)
	}
	put(cube, 34962, len(cube), "VEC3", "float", true, cube)
	put(cubeIdx, 34963, len(cubeIdx), "SCALAR", "u16", false, nil)
	put(lPos, 34962, len(lPos), "VEC3", "float", true, lPos)
	put(lIdx, 34963, len(lIdx), "SCALAR", "u16", false, nil)
	for buf.Len()%4 != 0 {
		buf.WriteByte(0)
	}
	prim := func(pos, idx int) []any {
		return []any{map[string]any{"attributes": map[string]any{"POSITION": pos}, "indices": idx, "mode": 4}}
	}
	meshes = []any{
		map[string]any{"name": "Cube", "primitives": prim(0, 1)},
		map[string]any{"name": "LPrism", "primitives": prim(2, 3)},
	}
	return buf.Bytes(), views, accessors, meshes
}

// Files are the paths a Case was written to.
type Files struct {
	GLTF, GLB string
}

// Write writes c into dir as NAME.gltf (+ NAME.bin unless Embedded) and
// NAME.glb, where NAME is c.Name.
func (c *Case) Write(dir string) (Files, error) {
	return writeDoc(dir, c.Name, c.JSON, c.bin, c.Embedded)
}

// Write writes the broken variant b of c into dir, named after both.
func (b *Broken) Write(dir string, c *Case) (Files, error) {
	return writeDoc(dir, c.Name+"--"+b.Name, b.JSON, c.bin, false)
}

func writeDoc(dir, name string, doc map[string]any, bin []byte, embedded bool) (Files, error) {
	f := Files{GLTF: filepath.Join(dir, name+".gltf"), GLB: filepath.Join(dir, name+".glb")}
	// .gltf: the buffer beside it, or embedded.
	j := clone(doc)
	buf := obj(arr(j["buffers"])[0])
	if embedded {
		buf["uri"] = "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)
	} else {
		buf["uri"] = name + ".bin"
		if err := os.WriteFile(filepath.Join(dir, name+".bin"), bin, 0o644); err != nil {
			return f, err
		}
	}
	js, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	if err := os.WriteFile(f.GLTF, append(js, '\n'), 0o644); err != nil {
		return f, err
	}
	// .glb: JSON and BIN chunks, the buffer without a uri.
	j = clone(doc)
	delete(obj(arr(j["buffers"])[0]), "uri")
	js, err = json.Marshal(j)
	if err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	return f, os.WriteFile(f.GLB, glb(js, bin), 0o644)
}

// glb assembles a binary glTF: the 12-byte header, the JSON chunk padded
// with spaces and the BIN chunk padded with zeros, each to 4 bytes.
func glb(js, bin []byte) []byte {
	pad := func(b []byte, with byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, with)
		}
		return b
	}
	js, bin = pad(append([]byte(nil), js...), ' '), pad(append([]byte(nil), bin...), 0)
	var out bytes.Buffer
	le := func(v uint32) { binary.Write(&out, binary.LittleEndian, v) }
	le(0x46546C67) // "glTF"
	le(2)
	le(uint32(12 + 8 + len(js) + 8 + len(bin)))
	le(uint32(len(js)))
	le(0x4E4F534A) // "JSON"
	out.Write(js)
	le(uint32(len(bin)))
	le(0x004E4942) // "BIN\0"
	out.Write(bin)
	return out.Bytes()
}

// clone deep-copies a JSON value through encoding/json.
func clone(doc map[string]any) map[string]any {
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err) // the generator builds only marshalable values
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func arr(v any) []any          { a, _ := v.([]any); return a }
