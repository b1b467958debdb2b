package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// instancedFixture writes a .gltf (buffer embedded) whose scene has three
// roots, each a body under the default profile: "Crates", a node drawing
// a 1 m box at 4 instances (TRANSLATION only); "Cart", a box with a child
// "Wheels" drawing 2 instances; "Pillars", turned and scaled, drawing 3
// instances with TRANSLATION, ROTATION and SCALE (non-uniform). With lid,
// a fourth root "Lid", a box, sinks 0.1 m into the first crate.
func instancedFixture(t *testing.T, lid bool) string {
	t.Helper()
	var bin bytes.Buffer
	var views, accessors []map[string]any
	add := func(typ string, n int, vals []float32, minmax bool) int {
		off := bin.Len()
		for _, v := range vals {
			binary.Write(&bin, binary.LittleEndian, v)
		}
		views = append(views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": bin.Len() - off})
		a := map[string]any{"bufferView": len(views) - 1, "componentType": 5126, "count": n, "type": typ}
		if minmax {
			a["min"], a["max"] = []float32{-0.5, -0.5, -0.5}, []float32{0.5, 0.5, 0.5}
		}
		accessors = append(accessors, a)
		return len(accessors) - 1
	}
	var pos []float32
	for i := 0; i < 8; i++ {
		pos = append(pos, float32(i&1)-0.5, float32(i>>1&1)-0.5, float32(i>>2&1)-0.5)
	}
	posAcc := add("VEC3", 8, pos, true)
	off := bin.Len()
	for _, f := range [][4]uint16{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
		for _, k := range []int{0, 1, 2, 0, 2, 3} {
			binary.Write(&bin, binary.LittleEndian, f[k])
		}
	}
	views = append(views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": bin.Len() - off})
	accessors = append(accessors, map[string]any{"bufferView": len(views) - 1, "componentType": 5123, "count": 36, "type": "SCALAR"})
	idxAcc := len(accessors) - 1
	quat := func(yaw float64) []float32 {
		return []float32{0, float32(math.Sin(yaw / 2)), 0, float32(math.Cos(yaw / 2))}
	}
	inst := func(tr [][3]float32, rot, scale []float32) map[string]any {
		var flat []float32
		for _, p := range tr {
			flat = append(flat, p[:]...)
		}
		attrs := map[string]any{"TRANSLATION": add("VEC3", len(tr), flat, false)}
		if rot != nil {
			attrs["ROTATION"] = add("VEC4", len(tr), rot, false)
		}
		if scale != nil {
			attrs["SCALE"] = add("VEC3", len(tr), scale, false)
		}
		return map[string]any{"EXT_mesh_gpu_instancing": map[string]any{"attributes": attrs}}
	}
	rot3 := append(append(quat(0), quat(0.4)...), quat(-0.7)...)
	doc := map[string]any{
		"asset":          map[string]any{"version": "2.0"},
		"extensionsUsed": []string{"EXT_mesh_gpu_instancing"},
		"scene":          0,
		"scenes":         []any{map[string]any{"nodes": []int{0, 1, 3}}},
		"meshes":         []any{map[string]any{"name": "box", "primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": posAcc}, "indices": idxAcc}}}},
		"nodes": []any{
			map[string]any{"name": "Crates", "mesh": 0, "extensions": inst([][3]float32{{0, 0, 0}, {1.5, 0, 0}, {0, 0, 1.5}, {1.5, 0.2, 1.5}}, nil, nil)},
			map[string]any{"name": "Cart", "mesh": 0, "translation": []float64{6, 0, 0}, "children": []int{2}},
			map[string]any{"name": "Wheels", "mesh": 0, "translation": []float64{0, -0.3, 0}, "scale": []float64{0.5, 0.5, 0.5},
				"extensions": inst([][3]float32{{-1, 0, 1.2}, {1, 0, 1.2}}, nil, nil)},
			map[string]any{"name": "Pillars", "mesh": 0, "translation": []float64{0, 0, 6}, "rotation": quat(0.5), "scale": []float64{0.8, 0.8, 0.8},
				"extensions": inst([][3]float32{{0, 0, 0}, {2, 0, 0}, {4, 0.5, 0}}, rot3, []float32{1, 2, 1, 1, 1, 1, 0.5, 1, 2})},
		},
	}
	if lid {
		doc["nodes"] = append(doc["nodes"].([]any), map[string]any{"name": "Lid", "mesh": 0, "translation": []float64{0, 0.9, 0}})
		doc["scenes"] = []any{map[string]any{"nodes": []int{0, 1, 3, 4}}}
	}
	doc["bufferViews"], doc["accessors"] = views, accessors
	doc["buffers"] = []any{map[string]any{"byteLength": bin.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin.Bytes())}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "instanced.gltf")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// instancedBodies checks an output's JSON: no node carrying
// EXT_mesh_gpu_instancing carries physics or has a child that does, each
// such node still draws its mesh, and wantParents of them (the inputs'
// instanced roots) have a new body node (".body") for parent.
func instancedBodies(t *testing.T, out string, wantParents int) {
	t.Helper()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	nodes := arr(doc["nodes"])
	physical := func(n any) bool {
		e := obj(obj(n)["extensions"])
		return e["OMI_physics_body"] != nil || e["KHR_physics_rigid_bodies"] != nil
	}
	parent := map[int]int{}
	for i, n := range nodes {
		for _, c := range arr(obj(n)["children"]) {
			parent[num(c)] = i
		}
	}
	seen, onParent := 0, 0
	for i, n := range nodes {
		if jget(n, "extensions", "EXT_mesh_gpu_instancing") == nil {
			continue
		}
		seen++
		if physical(n) {
			t.Errorf("%s: nodes[%d] %v carries EXT_mesh_gpu_instancing and physics", out, i, obj(n)["name"])
		}
		if _, ok := obj(n)["mesh"]; !ok {
			t.Errorf("%s: nodes[%d] lost its mesh", out, i)
		}
		for _, c := range arr(obj(n)["children"]) {
			if physical(nodes[num(c)]) {
				t.Errorf("%s: nodes[%d] %v, a collider or body, hangs on the instanced nodes[%d]", out, num(c), jget(nodes[num(c)], "name"), i)
			}
		}
		p, ok := parent[i]
		if !ok {
			continue
		}
		name, _ := jget(nodes[p], "name").(string)
		motion := jget(nodes[p], "extensions", "OMI_physics_body", "motion") != nil || jget(nodes[p], "extensions", "KHR_physics_rigid_bodies", "motion") != nil
		if motion && strings.HasSuffix(name, ".body") {
			onParent++
		}
	}
	if seen == 0 || onParent != wantParents {
		t.Errorf("%s: %d instanced nodes, %d of them under a new body node; want %d", out, seen, onParent, wantParents)
	}
}

// TestInstancedNodesCarryNoBody: with the default profile, SimpleInstancing
// (one root drawing 125 boxes) and a fixture with instanced nodes under
// three bodies get no body or collider on a node with
// EXT_mesh_gpu_instancing (Babylon.js makes a body per instance with all
// the node's colliders: 125 × 125 boxes, and Havok ran out of memory);
// the body goes on a new parent. The outputs, OMI and KHR, pass the drop
// test whole and alone in Rapier, Jolt and Havok, and the Khronos
// validator reports nothing the inputs lacked.
func TestInstancedNodesCarryNoBody(t *testing.T) {
	var simple string
	for _, f := range testassets.Corpus(t) {
		if strings.HasSuffix(f, "/SimpleInstancing.glb") {
			simple = f
		}
	}
	if simple == "" {
		t.Fatal("corpus has no SimpleInstancing.glb")
	}
	fixture := instancedFixture(t, false)
	dir := t.TempDir()
	var outs []string
	inputOf := map[string]string{}
	for _, in := range []struct {
		path    string
		parents int // instanced roots: their bodies go on new parents
	}{{simple, 1}, {fixture, 2}} {
		for _, format := range []string{"omi", "khr"} {
			out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(in.path), filepath.Ext(in.path))+"-"+format+".gltf")
			if code, _, stderr := runCLI("generate", in.path, "-o", out, "--format", format, "-q"); code != 0 {
				t.Fatalf("generate %s: exit %d: %s", in.path, code, stderr)
			}
			instancedBodies(t, out, in.parents)
			outs = append(outs, out)
			inputOf[out] = in.path
		}
	}
	code, report, res := runDropTest(t, outs)
	t.Logf("drop test report:\n%s", report)
	if code != 0 {
		t.Errorf("drop test exit %d", code)
	}
	for _, out := range outs {
		for _, engine := range dropEngines {
			r := res[out][engine]
			if !r.OK || r.Whole == nil || !r.Whole.OK {
				t.Errorf("%s (%s): alone %v, whole %+v", filepath.Base(out), engine, r.Failures, r.Whole)
			}
		}
	}
	vres := runValidator(t, append(outs, simple, fixture))
	for _, out := range outs {
		in, got := vres[inputOf[out]], vres[out]
		if got.Errors != in.Errors || got.Warnings > in.Warnings || len(got.Codes) != len(in.Codes) {
			t.Errorf("%s: Khronos validator: %d errors, %d warnings %v; the input %d, %d %v", filepath.Base(out), got.Errors, got.Warnings, got.Codes, in.Errors, in.Warnings, in.Codes)
		}
	}
}

// TestInstancedBodyOverlap: a body on a new node above an instanced node
// still takes part in the overlap check (named after the instanced node)
// but is never merged: a box sunk into one of the instances draws one
// warning naming both, and both bodies stay, none on the instanced node.
func TestInstancedBodyOverlap(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lid.gltf")
	code, _, stderr := runCLI("generate", instancedFixture(t, true), "-o", out)
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	var warned []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "overlap at rest") {
			warned = append(warned, l)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], `"Crates"`) || !strings.Contains(warned[0], `"Lid"`) || !strings.Contains(warned[0], "not merged") {
		t.Errorf("overlap warnings %q, want one naming Crates and Lid, not merged", warned)
	}
	instancedBodies(t, out, 2)
}
