package generate

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/internal/testassets"
)

var update = flag.Bool("update", false, "rewrite testdata/naming from the fixture builders")

// fnode is one node of a fixture: a name, an optional mesh (closed,
// outward-wound triangles), a translation, a Y rotation, a scale and
// children.
type fnode struct {
	name     string
	meshName string
	v        []geom.Vec3
	t        [][3]uint32
	at       geom.Vec3
	yaw      float64   // radians about +Y
	scale    geom.Vec3 // none when zero
	extras   map[string]any
	children []int
}

// buildGLTF writes the nodes as a .gltf with one embedded buffer; roots
// are the scene's nodes.
func buildGLTF(t testing.TB, nodes []fnode, roots []int) []byte {
	t.Helper()
	var bin []byte
	var views, accessors, meshes []map[string]any
	jn := make([]map[string]any, len(nodes))
	for i, n := range nodes {
		o := map[string]any{"name": n.name}
		if n.at != (geom.Vec3{}) {
			o["translation"] = n.at[:]
		}
		if n.yaw != 0 {
			o["rotation"] = []float64{0, math.Sin(n.yaw / 2), 0, math.Cos(n.yaw / 2)}
		}
		if n.scale != (geom.Vec3{}) {
			o["scale"] = n.scale[:]
		}
		if len(n.children) > 0 {
			o["children"] = n.children
		}
		if n.extras != nil {
			o["extras"] = n.extras
		}
		if n.v != nil {
			lo, hi := [3]float32{1e30, 1e30, 1e30}, [3]float32{-1e30, -1e30, -1e30}
			off := len(bin)
			for _, p := range n.v {
				for c := 0; c < 3; c++ {
					f := float32(p[c])
					lo[c], hi[c] = min(lo[c], f), max(hi[c], f)
					bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(f))
				}
			}
			views = append(views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": len(bin) - off, "target": 34962})
			accessors = append(accessors, map[string]any{"bufferView": len(views) - 1, "componentType": 5126, "count": len(n.v), "type": "VEC3", "min": lo, "max": hi})
			off = len(bin)
			for _, tr := range n.t {
				for _, k := range tr {
					bin = binary.LittleEndian.AppendUint16(bin, uint16(k))
				}
			}
			views = append(views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": len(bin) - off, "target": 34963})
			accessors = append(accessors, map[string]any{"bufferView": len(views) - 1, "componentType": 5123, "count": 3 * len(n.t), "type": "SCALAR"})
			for len(bin)%4 != 0 {
				bin = append(bin, 0)
			}
			name := n.meshName
			if name == "" {
				name = n.name
			}
			meshes = append(meshes, map[string]any{"name": name, "primitives": []any{map[string]any{
				"attributes": map[string]any{"POSITION": len(accessors) - 2}, "indices": len(accessors) - 1, "mode": 4}}})
			o["mesh"] = len(meshes) - 1
		}
		jn[i] = o
	}
	doc := map[string]any{
		"asset":       map[string]any{"version": "2.0", "generator": "autocollide naming fixtures"},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": roots}},
		"nodes":       jn,
		"meshes":      meshes,
		"accessors":   accessors,
		"bufferViews": views,
		"buffers":     []any{map[string]any{"byteLength": len(bin), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)}},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// boxMesh is a closed box of the given size centred at c.
func boxMesh(c, size geom.Vec3) ([]geom.Vec3, [][3]uint32) {
	b := boxConvex(c, size)
	return b.Vertices, b.Triangles
}

// union puts several meshes in one (separate closed components).
func union(parts ...[]any) ([]geom.Vec3, [][3]uint32) {
	var v []geom.Vec3
	var t [][3]uint32
	for _, p := range parts {
		pv, pt := p[0].([]geom.Vec3), p[1].([][3]uint32)
		base := uint32(len(v))
		v = append(v, pv...)
		for _, tr := range pt {
			t = append(t, [3]uint32{tr[0] + base, tr[1] + base, tr[2] + base})
		}
	}
	return v, t
}

func mk(v []geom.Vec3, t [][3]uint32) []any { return []any{v, t} }

// hullMesh is the closed convex hull of points, as an artist's collision
// mesh.
func hullMesh(t testing.TB, pts []geom.Vec3) ([]geom.Vec3, [][3]uint32) {
	h, err := hull.Build(pts, hull.Options{MaxVertices: -1})
	if err != nil {
		t.Fatal(err)
	}
	return h.Vertices, h.Triangles
}

// chair is an L-shaped (concave) render mesh: a seat and a back, two
// closed boxes that share no vertex.
func chair() ([]geom.Vec3, [][3]uint32) {
	return union(mk(boxMesh(geom.Vec3{0, 0.225, 0}, geom.Vec3{0.5, 0.45, 0.5})), mk(boxMesh(geom.Vec3{0, 0.725, 0.225}, geom.Vec3{0.48, 0.55, 0.05})))
}

// namingFixtures builds the four naming-convention fixtures.
func namingFixtures(t testing.TB) map[string][]byte {
	cv, ct := chair()
	// UCX_: a wedge enclosing the chair, 1 cm clear of it.
	var wedge []geom.Vec3
	for _, x := range []float64{-0.26, 0.26} {
		wedge = append(wedge, geom.Vec3{x, -0.01, -0.26}, geom.Vec3{x, -0.01, 0.26}, geom.Vec3{x, 0.46, -0.26}, geom.Vec3{x, 1.01, 0.26}, geom.Vec3{x, 1.01, 0.19})
	}
	uv, ut := hullMesh(t, wedge)
	// UBX_: a crate (a box with a lid rim) and its collision box.
	crv, crt := union(mk(boxMesh(geom.Vec3{0, 0.3, 0}, geom.Vec3{0.6, 0.6, 0.4})), mk(boxMesh(geom.Vec3{0, 0.62, 0}, geom.Vec3{0.62, 0.04, 0.42})))
	bv, bt := boxMesh(geom.Vec3{0, 0.32, 0}, geom.Vec3{0.64, 0.66, 0.44})
	// -convcolonly: a rock and its convex collision mesh.
	var rock []geom.Vec3
	for i := 0; i < 40; i++ {
		a, z := 2.399963*float64(i), 1-2*(float64(i)+0.5)/40
		r := math.Sqrt(1 - z*z)
		s := 0.3 * (1 + 0.15*math.Sin(3*float64(i)))
		rock = append(rock, geom.Vec3{s * r * math.Cos(a), s*z + 0.3, s * r * math.Sin(a)})
	}
	rv, rt := hullMesh(t, rock)
	var rockCol []geom.Vec3
	for _, p := range rock {
		d := p.Sub(geom.Vec3{0, 0.3, 0})
		rockCol = append(rockCol, geom.Vec3{0, 0.3, 0}.Add(d.Scale(1.1)))
	}
	rcv, rct := hullMesh(t, rockCol)
	// -rigid: a barrel standing on a floor.
	var barrel []geom.Vec3
	for i := 0; i < 16; i++ {
		a := 2 * math.Pi * float64(i) / 16
		barrel = append(barrel, geom.Vec3{0.3 * math.Cos(a), 0, 0.3 * math.Sin(a)}, geom.Vec3{0.3 * math.Cos(a), 0.9, 0.3 * math.Sin(a)})
	}
	brv, brt := hullMesh(t, barrel)
	fv, ft := boxMesh(geom.Vec3{0, -0.05, 0}, geom.Vec3{4, 0.1, 4})
	return map[string][]byte{
		"ucx_hull.gltf": buildGLTF(t, []fnode{
			{name: "Chair", v: cv, t: ct, at: geom.Vec3{1, 0, 0}},
			{name: "UCX_Chair_01", v: uv, t: ut, at: geom.Vec3{1, 0, 0}},
		}, []int{0, 1}),
		"ubx_box.gltf": buildGLTF(t, []fnode{
			{name: "Crate", v: crv, t: crt, yaw: 0.5},
			{name: "UBX_Crate", v: bv, t: bt, yaw: 0.5},
		}, []int{0, 1}),
		"godot_convcolonly.gltf": buildGLTF(t, []fnode{
			{name: "Rock", children: []int{1, 2}, at: geom.Vec3{0, 0, 2}},
			{name: "RockMesh", meshName: "Rock", v: rv, t: rt},
			{name: "RockCollision-convcolonly", v: rcv, t: rct},
		}, []int{0}),
		"godot_rigid.gltf": buildGLTF(t, []fnode{
			{name: "Props", children: []int{1, 2}},
			{name: "Floor", v: fv, t: ft},
			{name: "Barrel-rigid", meshName: "Barrel", v: brv, t: brt, at: geom.Vec3{0.5, 0, 0.5}},
		}, []int{0}),
	}
}

// TestNamingFixtures: testdata/naming holds what the builders make (run
// with -update to rewrite it).
func TestNamingFixtures(t *testing.T) {
	dir := filepath.Join(testassets.Repo(), "testdata", "naming")
	for name, want := range namingFixtures(t) {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what its builder makes; run go test ./generate -run TestNamingFixtures -update", name)
		}
	}
}
