package mesh

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

func near(a, b geom.Vec3, tol float64) bool { return a.Sub(b).Len() <= tol }

// normal returns the (unnormalized) normal of triangle t.
func normal(v []geom.Vec3, t [3]uint32) geom.Vec3 {
	return v[t[1]].Sub(v[t[0]]).Cross(v[t[2]].Sub(v[t[0]]))
}

// TestModes triangulates a convex polygon drawn counter-clockwise seen from
// +z as TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN, indexed and not: every
// triangle must face +z and the count must be right. Non-triangle modes
// are skipped with a note.
func TestModes(t *testing.T) {
	// A hexagon, CCW from +z.
	var ring [][3]float32
	for k := 0; k < 6; k++ {
		a := float64(k) * math.Pi / 3
		ring = append(ring, [3]float32{float32(math.Cos(a)), float32(math.Sin(a)), 0})
	}
	// Strip order zig-zags across the hexagon: 0,1,5,2,4,3.
	strip := []int{0, 1, 5, 2, 4, 3}
	tris := []int{0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5}
	cases := []struct {
		name    string
		mode    gltf.PrimitiveMode
		order   []int
		indexed bool
		want    int
	}{
		{"triangles", gltf.PrimitiveTriangles, tris, true, 4},
		{"triangles non-indexed", gltf.PrimitiveTriangles, tris, false, 4},
		{"strip", gltf.PrimitiveTriangleStrip, strip, true, 4},
		{"strip non-indexed", gltf.PrimitiveTriangleStrip, strip, false, 4},
		{"fan", gltf.PrimitiveTriangleFan, []int{0, 1, 2, 3, 4, 5}, true, 4},
		{"fan non-indexed", gltf.PrimitiveTriangleFan, []int{0, 1, 2, 3, 4, 5}, false, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture()
			prim := &gltf.Primitive{Mode: c.mode, Attributes: map[string]int{}}
			if c.indexed {
				prim.Attributes[gltf.POSITION] = f.vec3(ring...)
				prim.Indices = gltf.Index(f.scalars(gltf.ComponentUbyte, c.order...))
			} else {
				var pts [][3]float32
				for _, i := range c.order {
					pts = append(pts, ring[i])
				}
				prim.Attributes[gltf.POSITION] = f.vec3(pts...)
			}
			f.scene(f.node(&gltf.Node{Mesh: gltf.Index(f.mesh(prim))}))
			res, err := Extract(f.done())
			if err != nil {
				t.Fatal(err)
			}
			p := res.Parts[0]
			if len(p.Triangles) != c.want {
				t.Fatalf("%d triangles, want %d", len(p.Triangles), c.want)
			}
			area := 0.0
			for _, tri := range p.Triangles {
				n := normal(p.Vertices, tri)
				if n[2] <= 0 {
					t.Errorf("triangle %v faces %v, want +z", tri, n)
				}
				area += n.Len() / 2
			}
			if want := 3 * math.Sqrt(3) / 2; math.Abs(area-want) > 1e-6 {
				t.Errorf("area %g, want %g (the hexagon, covered once)", area, want)
			}
		})
	}
}

// TestSkippedModes: POINTS and LINES* primitives are noted, never output.
func TestSkippedModes(t *testing.T) {
	f := newFixture()
	pos := f.vec3(cubeCorners...)
	tri := f.cubeMesh()
	var prims []*gltf.Primitive
	for _, m := range []gltf.PrimitiveMode{gltf.PrimitivePoints, gltf.PrimitiveLines, gltf.PrimitiveLineLoop, gltf.PrimitiveLineStrip} {
		prims = append(prims, &gltf.Primitive{Mode: m, Attributes: map[string]int{gltf.POSITION: pos}})
	}
	mixed := f.mesh(append(prims, f.doc.Meshes[tri].Primitives[0])...)
	f.scene(f.node(&gltf.Node{Mesh: gltf.Index(mixed)}), f.node(&gltf.Node{Mesh: gltf.Index(mixed)}))
	res, err := Extract(f.done())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"mesh 1 primitive 0: mode POINTS skipped", "mesh 1 primitive 1: mode LINES skipped",
		"mesh 1 primitive 2: mode LINE_LOOP skipped", "mesh 1 primitive 3: mode LINE_STRIP skipped"}
	if !reflect.DeepEqual(res.Notes, want) {
		t.Errorf("notes %q, want %q (each once)", res.Notes, want)
	}
	if len(res.Parts) != 2 || len(res.Parts[0].Triangles) != 12 || len(res.Parts[0].Vertices) != 8 {
		t.Errorf("want 2 parts of 12 triangles on 8 vertices, got %d parts", len(res.Parts))
	}
}

// TestDegenerate drops triangles with a repeated index or zero area,
// counts them, and keeps only the vertices still used.
func TestDegenerate(t *testing.T) {
	f := newFixture()
	pos := f.vec3([3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{0, 1, 0}, [3]float32{2, 0, 0}, [3]float32{0, 0, 0}, [3]float32{5, 5, 5})
	// kept; repeated index; collinear (0,1,3); coincident corners (0,4,2).
	idx := f.scalars(gltf.ComponentUshort, 0, 1, 2, 1, 1, 2, 0, 1, 3, 0, 4, 2)
	f.scene(f.node(&gltf.Node{Mesh: gltf.Index(f.mesh(&gltf.Primitive{Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(idx)}))}))
	res, err := Extract(f.done())
	if err != nil {
		t.Fatal(err)
	}
	p := res.Parts[0]
	if len(p.Triangles) != 1 || p.Dropped != 3 || res.DegenerateDropped != 3 {
		t.Fatalf("kept %d, dropped %d (result %d); want 1 and 3", len(p.Triangles), p.Dropped, res.DegenerateDropped)
	}
	if len(p.Vertices) != 3 {
		t.Errorf("%d vertices kept, want the 3 of the kept triangle", len(p.Vertices))
	}
}

// TestTransforms: matrix and TRS nodes in a hierarchy give the same world
// matrices, and a mirrored node's triangles are re-wound so the cube still
// encloses a positive volume.
func TestTransforms(t *testing.T) {
	rot := geom.Quat{0, math.Sin(0.3), 0, math.Cos(0.3)}
	trs := geom.TRS(geom.Vec3{1, 2, 3}, rot, geom.Vec3{2, 3, 4})
	cases := []struct {
		name   string
		scale  [3]float64
		mirror bool
	}{
		{"positive", [3]float64{1, 2, 3}, false},
		{"one negative axis", [3]float64{-1, 2, 3}, true},
		{"two negative axes", [3]float64{-1, -2, 3}, false},
		{"three negative axes", [3]float64{-1, -2, -3}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture()
			cube := f.cubeMesh()
			child := f.node(&gltf.Node{Mesh: gltf.Index(cube), Scale: c.scale, Rotation: [4]float64(rot), Translation: [3]float64{0, 1, 0}})
			parent := f.node(&gltf.Node{Matrix: trs.GLTF(), Children: []int{child}})
			f.scene(parent)
			doc := f.done()
			world, err := WorldTransforms(doc)
			if err != nil {
				t.Fatal(err)
			}
			want := trs.Mul(geom.TRS(geom.Vec3{0, 1, 0}, rot, geom.Vec3(c.scale)))
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					if math.Abs(world[child][i][j]-want[i][j]) > 1e-12 {
						t.Fatalf("world[child] = %v, want %v", world[child], want)
					}
				}
			}
			res, err := Extract(doc)
			if err != nil {
				t.Fatal(err)
			}
			p := res.Parts[0]
			if p.Mirrored != c.mirror || p.Root != parent || p.Node != child || p.World != world[child] {
				t.Errorf("part %+v: mirrored %v root %d node %d", p, p.Mirrored, p.Root, p.Node)
			}
			det := want.Linear().Det()
			if v := signedVolume(p.Vertices, p.Triangles); math.Abs(v-math.Abs(det)) > 1e-9 {
				t.Errorf("signed volume %g, want +%g (outward winding)", v, math.Abs(det))
			}
			if !near(p.Vertices[0], want.Point(geom.Vec3{}), 1e-12) {
				t.Errorf("vertex 0 at %v, want %v", p.Vertices[0], want.Point(geom.Vec3{}))
			}
		})
	}
}

// TestHierarchyErrors: cycles, shared children, excessive depth and bad
// indices are errors that name the node.
func TestHierarchyErrors(t *testing.T) {
	named := func(n int, name string) []*gltf.Node {
		nodes := make([]*gltf.Node, n)
		for i := range nodes {
			nodes[i] = &gltf.Node{}
		}
		nodes[n-1].Name = name
		return nodes
	}
	cases := []struct {
		name  string
		nodes func() []*gltf.Node
		want  string
	}{
		{"cycle", func() []*gltf.Node {
			n := named(13, "Wheel")
			n[11].Children = []int{12}
			n[12].Children = []int{11}
			return n
		}, `nodes[11]: cycle in the node hierarchy`},
		{"cycle through the named node", func() []*gltf.Node {
			n := named(13, "Wheel")
			n[12].Children = []int{10}
			n[10].Children = []int{12}
			return n
		}, `nodes[10]: cycle in the node hierarchy`},
		{"self child", func() []*gltf.Node {
			n := named(13, "Wheel")
			n[12].Children = []int{12}
			return n
		}, `nodes[12] "Wheel": cycle in the node hierarchy`},
		{"two parents", func() []*gltf.Node {
			n := named(5, "Wheel")
			n[0].Children = []int{4}
			n[1].Children = []int{4}
			return n
		}, `nodes[4] "Wheel": child of both nodes[0] and nodes[1]`},
		{"missing child", func() []*gltf.Node {
			n := named(2, "Axle")
			n[1].Children = []int{7}
			return n
		}, `nodes[1] "Axle": child 7 does not exist`},
		{"too deep", func() []*gltf.Node {
			n := named(MaxDepth+1, "Leaf")
			for i := 0; i < MaxDepth; i++ {
				n[i].Children = []int{i + 1}
			}
			return n
		}, fmt.Sprintf(`nodes[%d] "Leaf": node hierarchy deeper than %d`, MaxDepth, MaxDepth)},
		{"non-affine matrix", func() []*gltf.Node {
			n := named(1, "Cam")
			n[0].Matrix = [16]float64{1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
			return n
		}, `nodes[0] "Cam": matrix is not affine`},
		{"infinite scale", func() []*gltf.Node {
			n := named(2, "Big")
			n[0].Scale = [3]float64{1e200, 1, 1}
			n[0].Children = []int{1}
			n[1].Scale = [3]float64{1e200, 1, 1}
			return n
		}, `nodes[1] "Big": world transform is not finite`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := &gltf.Document{Nodes: c.nodes()}
			_, err := WorldTransforms(doc)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("WorldTransforms: got %v, want %q", err, c.want)
			}
			_, err = Extract(doc)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("Extract: got %v, want %q", err, c.want)
			}
		})
	}
	// A depth of exactly MaxDepth is fine.
	nodes := named(MaxDepth, "Leaf")
	for i := 0; i+1 < MaxDepth; i++ {
		nodes[i].Children = []int{i + 1}
	}
	if _, err := WorldTransforms(&gltf.Document{Nodes: nodes}); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
}

// TestSceneChoice: doc.Scene, else scene 0, else every root node; roots
// must be roots.
func TestSceneChoice(t *testing.T) {
	build := func() *fixture {
		f := newFixture()
		m := f.cubeMesh()
		a := f.node(&gltf.Node{Mesh: gltf.Index(m), Name: "A"})
		b := f.node(&gltf.Node{Mesh: gltf.Index(m), Name: "B"})
		c := f.node(&gltf.Node{Mesh: gltf.Index(m), Name: "C", Children: []int{a}})
		_ = b
		_ = c
		return f
	}
	cases := []struct {
		name      string
		setup     func(f *fixture)
		wantScene int
		wantNodes []int
		wantErr   string
	}{
		{"no scenes: every root", func(f *fixture) {}, -1, []int{1, 2, 0}, ""},
		{"scene 0 by default", func(f *fixture) { f.scene(1); f.scene(2) }, 0, []int{1}, ""},
		{"doc.Scene", func(f *fixture) { f.scene(1); f.scene(2); f.doc.Scene = gltf.Index(1) }, 1, []int{2, 0}, ""},
		{"missing scene", func(f *fixture) { f.scene(1); f.doc.Scene = gltf.Index(3) }, 0, nil, "scene 3 does not exist"},
		{"child listed as root", func(f *fixture) { f.scene(0) }, 0, nil, `scenes[0]: nodes[0] "A" is listed as a root but is a child of nodes[2] "C"`},
		{"root listed twice", func(f *fixture) { f.scene(1, 1) }, 0, nil, `scenes[0]: nodes[1] "B" listed twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := build()
			c.setup(f)
			res, err := Extract(f.done())
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var nodes []int
			for _, p := range res.Parts {
				nodes = append(nodes, p.Node)
			}
			if res.Scene != c.wantScene || !reflect.DeepEqual(nodes, c.wantNodes) {
				t.Errorf("scene %d nodes %v, want %d %v", res.Scene, nodes, c.wantScene, c.wantNodes)
			}
		})
	}
}

// TestInstancing: every EXT_mesh_gpu_instancing instance becomes a part
// placed at node world × instance T·R·S, with FLOAT or normalized SHORT
// rotations; mismatched counts are errors.
func TestInstancing(t *testing.T) {
	f := newFixture()
	cube := f.cubeMesh()
	tr := f.vec3([3]float32{0, 0, 0}, [3]float32{10, 0, 0}, [3]float32{0, 10, 0})
	sc := f.vec3([3]float32{1, 1, 1}, [3]float32{2, 2, 2}, [3]float32{-1, 1, 1})
	// 90° about z as normalized SHORT: (0, 0, √½, √½) → 23170.
	q := int(math.Round(math.Sqrt(0.5) * 32767))
	rot := f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(u16s(0, 0, 0, 32767, 0, 0, q, q, 0, 0, 0, 32767), 0)),
		ComponentType: gltf.ComponentShort, Normalized: true, Type: gltf.AccessorVec4, Count: 3})
	node := f.node(&gltf.Node{Mesh: gltf.Index(cube), Translation: [3]float64{0, 0, 5}, Extensions: gltf.Extensions{
		extInstancing: map[string]any{"attributes": map[string]int{"TRANSLATION": tr, "ROTATION": rot, "SCALE": sc}}}})
	f.scene(node)
	doc := f.done()
	res, err := Extract(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 3 {
		t.Fatalf("%d parts, want 3", len(res.Parts))
	}
	// Corner (1,0,0) of the cube under each instance, then the node's +5 z.
	want := []geom.Vec3{{1, 0, 5}, {10, 2, 5}, {-1, 10, 5}}
	for k, p := range res.Parts {
		if p.Instance != k || p.Node != node {
			t.Errorf("part %d: instance %d node %d", k, p.Instance, p.Node)
		}
		if got := p.World.Point(geom.Vec3{1, 0, 0}); !near(got, want[k], 1e-4) {
			t.Errorf("instance %d: corner at %v, want %v", k, got, want[k])
		}
		if !near(p.Vertices[1], want[k], 1e-4) {
			t.Errorf("instance %d: vertex 1 at %v, want %v", k, p.Vertices[1], want[k])
		}
		if v := signedVolume(p.Vertices, p.Triangles); v <= 0 {
			t.Errorf("instance %d: signed volume %g, want positive", k, v)
		}
	}
	if !res.Parts[2].Mirrored || res.Parts[1].Mirrored {
		t.Errorf("only instance 2 (scale −1) is mirrored")
	}

	// Counts that differ are an error.
	short := f.vec3([3]float32{0, 0, 0})
	doc.Nodes[node].Extensions[extInstancing] = map[string]any{"attributes": map[string]int{"TRANSLATION": tr, "SCALE": short}}
	_, err = Extract(f.done())
	if err == nil || !strings.Contains(err.Error(), "EXT_mesh_gpu_instancing: SCALE count 1 differs from TRANSLATION count 3") {
		t.Errorf("mismatched counts: got %v", err)
	}
	// UNSIGNED_BYTE rotations are not allowed.
	ub := f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(u8s(0, 0, 0, 255), 0)), ComponentType: gltf.ComponentUbyte, Normalized: true, Type: gltf.AccessorVec4, Count: 1})
	doc.Nodes[node].Extensions[extInstancing] = json.RawMessage(fmt.Sprintf(`{"attributes":{"ROTATION":%d}}`, ub))
	_, err = Extract(f.done())
	if err == nil || !strings.Contains(err.Error(), "ROTATION: accessor") {
		t.Errorf("UNSIGNED_BYTE rotation: got %v", err)
	}
}

// skinFixture builds a two-vertex-column strip skinned to two joints. The
// inverse bind matrices are those of joints at x = 0 and x = 2; joint 1 is
// then moved to x = 2 + move.
func skinFixture(move float64, weights [][4]float64, secondSet bool) *gltf.Document {
	f := newFixture()
	pos := f.vec3([3]float32{0, 0, 0}, [3]float32{2, 0, 0}, [3]float32{1, 1, 0}, [3]float32{1, 0, 1})
	idx := f.scalars(gltf.ComponentUbyte, 0, 2, 1, 0, 3, 2, 0, 1, 3, 1, 2, 3)
	var jv, wv []byte
	var wflat []float32
	for i, w := range weights {
		j := []int{0, 1, 0, 0}
		if i == 3 {
			j = []int{1, 0, 0, 0}
		}
		jv = append(jv, u8s(j...)...)
		for _, x := range w {
			wflat = append(wflat, float32(x))
		}
	}
	wv = f32s(wflat...)
	prim := &gltf.Primitive{Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(idx)}
	prim.Attributes["JOINTS_0"] = f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(jv, 0)), ComponentType: gltf.ComponentUbyte, Type: gltf.AccessorVec4, Count: 4})
	prim.Attributes["WEIGHTS_0"] = f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(wv, 0)), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec4, Count: 4})
	if secondSet {
		// A second set that names joint 1 with zero weight everywhere
		// except vertex 2, which it pulls fully to joint 1.
		j1 := u8s(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
		w1 := f32s(0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0)
		prim.Attributes["JOINTS_1"] = f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(j1, 0)), ComponentType: gltf.ComponentUbyte, Type: gltf.AccessorVec4, Count: 4})
		prim.Attributes["WEIGHTS_1"] = f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(w1, 0)), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec4, Count: 4})
	}
	ibm0 := geom.Identity4()
	ibm1 := geom.TRS(geom.Vec3{-2, 0, 0}, geom.IdentityQuat(), geom.Vec3{1, 1, 1})
	g0, g1 := ibm0.GLTF(), ibm1.GLTF()
	var m []float32
	for _, x := range append(g0[:], g1[:]...) {
		m = append(m, float32(x))
	}
	ibm := f.accessor(&gltf.Accessor{BufferView: gltf.Index(f.view(f32s(m...), 0)), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorMat4, Count: 2})
	mesh := f.mesh(prim)
	j0 := f.node(&gltf.Node{Name: "hip"})
	j1 := f.node(&gltf.Node{Name: "knee", Translation: [3]float64{2 + move, 0, 0}})
	f.doc.Nodes[j0].Children = []int{j1}
	f.doc.Skins = []*gltf.Skin{{Joints: []int{j0, j1}, InverseBindMatrices: gltf.Index(ibm)}}
	// The skinned node's own transform must be ignored.
	skinned := f.node(&gltf.Node{Name: "body", Mesh: gltf.Index(mesh), Skin: gltf.Index(0), Translation: [3]float64{100, 100, 100}})
	f.scene(j0, skinned)
	return f.done()
}

// TestSkinning: linear-blend skinning at rest with the joints' world
// transforms and inverse bind matrices; weights are normalized, second
// sets count, and the bind pose gives the raw positions.
func TestSkinning(t *testing.T) {
	w := [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0.25, 0.25, 0, 0}, {0.5, 0, 0, 0}}
	raw := []geom.Vec3{{0, 0, 0}, {2, 0, 0}, {1, 1, 0}, {1, 0, 1}}
	cases := []struct {
		name   string
		move   float64
		second bool
		mutate func(doc *gltf.Document)
		want   []geom.Vec3
	}{
		{"bind pose", 0, false, nil, raw},
		{"joint moved", 3, false, nil, []geom.Vec3{{0, 0, 0}, {5, 0, 0}, {2.5, 1, 0}, {4, 0, 1}}},
		{"second set", 3, true, nil, []geom.Vec3{{0, 0, 0}, {5, 0, 0}, {1 + 3*(0.25+100)/100.5, 1, 0}, {4, 0, 1}}},
		{"mirrored skeleton", 0, false, func(doc *gltf.Document) { doc.Nodes[0].Scale = [3]float64{-1, 1, 1} },
			[]geom.Vec3{{0, 0, 0}, {-2, 0, 0}, {-1, 1, 0}, {-1, 0, 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := skinFixture(c.move, w, c.second)
			if c.mutate != nil {
				c.mutate(doc)
			}
			res, err := Extract(doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Parts) != 1 || !res.Parts[0].Skinned || res.Parts[0].World != geom.Identity4() {
				t.Fatalf("want one skinned part with identity World: %+v", res.Parts)
			}
			p := res.Parts[0]
			for k, v := range c.want {
				if !near(p.Vertices[k], v, 1e-6) {
					t.Errorf("vertex %d at %v, want %v", k, p.Vertices[k], v)
				}
			}
			if v := signedVolume(p.Vertices, p.Triangles); v <= 0 {
				t.Errorf("signed volume %g, want positive", v)
			}
		})
	}
	t.Run("joint out of range", func(t *testing.T) {
		doc := skinFixture(0, w, false)
		doc.Skins[0].Joints = doc.Skins[0].Joints[:1]
		doc.Accessors[*doc.Skins[0].InverseBindMatrices].Count = 2
		_, err := Extract(doc)
		if err == nil || !strings.Contains(err.Error(), `nodes[2] "body": mesh 0 primitive 0: vertex 1: a joint index is not below the skin's 1 joints`) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("unweighted vertex", func(t *testing.T) {
		doc := skinFixture(3, [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0.5, 0, 0, 0}}, false)
		res, err := Extract(doc)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "1 skinned vertices have no weight") {
			t.Errorf("notes %q", res.Notes)
		}
	})
}

// TestMorph applies default weights (node.weights over mesh.weights) to
// POSITION targets, one of them sparse without a bufferView.
func TestMorph(t *testing.T) {
	build := func(nodeWeights, meshWeights []float64) *gltf.Document {
		f := newFixture()
		pos := f.vec3(cubeCorners...)
		dense := f.vec3([3]float32{0, 0, 1}, [3]float32{0, 0, 1}, [3]float32{0, 0, 1}, [3]float32{0, 0, 1},
			[3]float32{0, 0, 1}, [3]float32{0, 0, 1}, [3]float32{0, 0, 1}, [3]float32{0, 0, 1})
		sparse := f.accessor(&gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 8, Sparse: &gltf.Sparse{
			Count:   1,
			Indices: gltf.SparseIndices{BufferView: f.view(u8s(6), 0), ComponentType: gltf.ComponentUbyte},
			Values:  gltf.SparseValues{BufferView: f.view(f32s(1, 1, 1), 0)}}})
		idx := f.scalars(gltf.ComponentUshort, cubeTriangles...)
		m := f.mesh(&gltf.Primitive{Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(idx),
			Targets: []map[string]int{{gltf.POSITION: dense}, {gltf.POSITION: sparse}}})
		f.doc.Meshes[m].Weights = meshWeights
		f.scene(f.node(&gltf.Node{Mesh: gltf.Index(m), Weights: nodeWeights}))
		return f.done()
	}
	cases := []struct {
		name       string
		node, mesh []float64
		v0, v6     geom.Vec3
	}{
		{"no weights", nil, nil, geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}},
		{"mesh weights", nil, []float64{0.5, 0}, geom.Vec3{0, 0, 0.5}, geom.Vec3{1, 1, 1.5}},
		{"node weights win", []float64{1, 2}, []float64{0.5, 0}, geom.Vec3{0, 0, 1}, geom.Vec3{3, 3, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Extract(build(c.node, c.mesh))
			if err != nil {
				t.Fatal(err)
			}
			p := res.Parts[0]
			if !near(p.Vertices[0], c.v0, 1e-9) || !near(p.Vertices[6], c.v6, 1e-9) {
				t.Errorf("vertices 0 and 6 at %v %v, want %v %v", p.Vertices[0], p.Vertices[6], c.v0, c.v6)
			}
		})
	}
}

// TestDraco: a Draco primitive whose bufferView holds no valid stream is
// an error naming the node, mesh, primitive and view, never zeros.
func TestDraco(t *testing.T) {
	f := newFixture()
	m := f.cubeMesh()
	f.doc.Meshes[m].Primitives[0].Extensions = gltf.Extensions{extDraco: json.RawMessage(`{"bufferView":0,"attributes":{"POSITION":0}}`)}
	f.scene(f.node(&gltf.Node{Name: "Box", Mesh: gltf.Index(m)}))
	_, err := Extract(f.done())
	want := `nodes[0] "Box": mesh 0 primitive 0: KHR_draco_mesh_compression: bufferView 0: `
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("got %v, want one line starting %q", err, want)
	}
}

// TestErrorContext: an accessor error names the node, mesh, primitive,
// accessor and the arithmetic that failed.
func TestErrorContext(t *testing.T) {
	f := newFixture()
	for i := 0; i < 3; i++ {
		f.view(make([]byte, 4), 0)
	}
	v := f.view(make([]byte, 400), 0)
	for i := 0; i < 7; i++ {
		f.accessor(&gltf.Accessor{})
	}
	a := f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ByteOffset: 120, ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 36})
	f.mesh()
	f.mesh()
	m := f.mesh(&gltf.Primitive{Attributes: map[string]int{gltf.POSITION: a}})
	for i := 0; i < 4; i++ {
		f.node(&gltf.Node{})
	}
	f.node(&gltf.Node{Name: "Wheel", Mesh: gltf.Index(m)})
	_, err := Extract(f.done())
	want := `nodes[4] "Wheel": mesh 2 primitive 0: accessor 7: byteOffset 120 + 36×12 exceeds bufferView 3 length 400`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestMeshopt checks the EXT_meshopt_compression plumbing with a fake
// decoder (the identity codec): the bytes come from the extension's
// buffer range, the fallback buffer is never read, each view is decoded
// once per extraction, and errors carry context.
func TestMeshopt(t *testing.T) {
	build := func() *gltf.Document {
		f := newFixture()
		var pos []float32
		for _, c := range cubeCorners {
			pos = append(pos, c[:]...)
		}
		// "Compressed" data in buffer 0; views point at an empty fallback buffer 1.
		src := f.view(f32s(pos...), 0)
		isrc := f.view(u16s(cubeTriangles...), 0)
		doc := f.done()
		doc.Buffers = append(doc.Buffers, &gltf.Buffer{ByteLength: 96 + 72, Extensions: gltf.Extensions{extMeshopt: json.RawMessage(`{"fallback":true}`)}})
		ext := func(v, stride, count int, mode string) gltf.Extensions {
			bv := doc.BufferViews[v]
			return gltf.Extensions{extMeshopt: json.RawMessage(fmt.Sprintf(`{"buffer":0,"byteOffset":%d,"byteLength":%d,"byteStride":%d,"count":%d,"mode":%q}`, bv.ByteOffset, bv.ByteLength, stride, count, mode))}
		}
		doc.BufferViews = append(doc.BufferViews,
			&gltf.BufferView{Buffer: 1, ByteLength: 96, ByteStride: 12, Extensions: ext(src, 12, 8, "ATTRIBUTES")},
			&gltf.BufferView{Buffer: 1, ByteOffset: 96, ByteLength: 72, Extensions: ext(isrc, 2, 36, "TRIANGLES")})
		doc.Accessors = append(doc.Accessors,
			&gltf.Accessor{BufferView: gltf.Index(2), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 8},
			&gltf.Accessor{BufferView: gltf.Index(2), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 4, ByteOffset: 48},
			&gltf.Accessor{BufferView: gltf.Index(3), ComponentType: gltf.ComponentUshort, Type: gltf.AccessorScalar, Count: 36})
		doc.Meshes = []*gltf.Mesh{{Primitives: []*gltf.Primitive{
			{Attributes: map[string]int{gltf.POSITION: 0}, Indices: gltf.Index(2)},
			{Attributes: map[string]int{gltf.POSITION: 1}, Mode: gltf.PrimitivePoints},
		}}}
		doc.Meshes[0].Primitives[0].Attributes[gltf.POSITION] = 0
		doc.Meshes[0].Primitives[1].Attributes[gltf.POSITION] = 1
		doc.Nodes = []*gltf.Node{{Mesh: gltf.Index(0)}}
		return doc
	}
	calls := map[string]int{}
	identity := func(dst []byte, count, stride int, src []byte, mode, filter string) error {
		calls[mode]++
		if len(dst) != count*stride || len(src) != len(dst) || filter != "NONE" {
			return fmt.Errorf("fake: unexpected call (%d, %d, %d, %d, %s)", len(dst), count, stride, len(src), filter)
		}
		copy(dst, src)
		return nil
	}
	doc := build()
	// Accessors 0 and 1 index into the same bufferView 2 (VEC3 stride 12);
	// fix them to the decoded layout.
	doc.Accessors[0].BufferView, doc.Accessors[1].BufferView, doc.Accessors[2].BufferView = gltf.Index(2), gltf.Index(2), gltf.Index(3)
	res, err := extract(doc, &decoder{doc: doc, meshoptDecode: identity})
	if err != nil {
		t.Fatal(err)
	}
	if calls["ATTRIBUTES"] != 1 || calls["TRIANGLES"] != 1 {
		t.Errorf("decoder calls %v, want one per view", calls)
	}
	if p := res.Parts[0]; len(p.Triangles) != 12 || math.Abs(signedVolume(p.Vertices, p.Triangles)-1) > 1e-12 {
		t.Errorf("decoded cube: %d triangles, volume %g", len(p.Triangles), signedVolume(p.Vertices, p.Triangles))
	}

	failing := func(dst []byte, count, stride int, src []byte, mode, filter string) error {
		return errors.New("corrupt stream")
	}
	_, err = extract(doc, &decoder{doc: doc, meshoptDecode: failing})
	if want := "nodes[0]: mesh 0 primitive 0: accessor 0: bufferView 2: EXT_meshopt_compression: corrupt stream"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}

	bad := []struct{ ext, want string }{
		{`{"buffer":0,"byteLength":96,"byteStride":12,"count":7,"mode":"ATTRIBUTES"}`, "count 7 × byteStride 12 does not equal the bufferView byteLength 96"},
		{`{"buffer":0,"byteLength":96,"byteStride":12,"mode":"ATTRIBUTES"}`, "are required"},
		{`{"buffer":0,"byteLength":96,"byteStride":12,"count":8,"mode":"PIXELS"}`, `unknown mode "PIXELS"`},
		{`{"buffer":0,"byteLength":9600,"byteStride":12,"count":8,"mode":"ATTRIBUTES"}`, "exceeds buffer 0 length"},
		{`{"buffer":5,"byteLength":96,"byteStride":12,"count":8,"mode":"ATTRIBUTES"}`, "buffer 5 does not exist"},
		{`{"buffer":0,"byteLength":1,"byteStride":12,"count":8,"mode":"ATTRIBUTES"}`, "cannot hold the 8 elements"},
		{`[1,2]`, "cannot unmarshal"},
	}
	for _, b := range bad {
		doc := build()
		doc.BufferViews[2].Extensions[extMeshopt] = json.RawMessage(b.ext)
		_, err := extract(doc, &decoder{doc: doc, meshoptDecode: identity})
		if b.want == "" {
			b.want = "fake: unexpected call"
		}
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: got %v, want %q", b.ext, err, b.want)
		}
	}

	// A view declaring far more bytes than its compressed data can
	// produce is refused before allocation.
	doc = build()
	doc.BufferViews[2].ByteLength = 96 * MaxMeshoptExpansion * 2
	doc.BufferViews[2].Extensions[extMeshopt] = json.RawMessage(fmt.Sprintf(`{"buffer":0,"byteLength":96,"byteStride":4,"count":%d,"mode":"ATTRIBUTES"}`, 96*MaxMeshoptExpansion/2))
	if _, err := extract(doc, &decoder{doc: doc, meshoptDecode: identity}); err == nil || !strings.Contains(err.Error(), "cannot expand") {
		t.Errorf("expansion bound: got %v", err)
	}
}

// TestDeterminism: two extractions of the same document are identical.
func TestDeterminism(t *testing.T) {
	doc := skinFixture(3, [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0.25, 0.25, 0, 0}, {0.5, 0, 0, 0}}, true)
	a, err := Extract(doc)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Extract(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two extractions differ")
	}
}

// TestBudget: node reuse of a mesh over a free (unbacked) accessor cannot
// make the extraction allocate without bound.
func TestBudget(t *testing.T) {
	f := newFixture()
	pos := f.accessor(&gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: MaxUnbackedCount})
	idx := f.scalars(gltf.ComponentUbyte, 0, 1, 2)
	m := f.mesh(&gltf.Primitive{Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(idx)})
	var roots []int
	for i := 0; i <= MaxVertices/MaxUnbackedCount; i++ {
		roots = append(roots, f.node(&gltf.Node{Mesh: gltf.Index(m)}))
	}
	f.scene(roots...)
	_, err := Extract(f.done())
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d vertices", MaxVertices)) {
		t.Errorf("got %v", err)
	}
}

// TestExtractErrors: malformed meshes, primitives and skins are errors
// with their context; odd index counts are noted.
func TestExtractErrors(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(f *fixture, node *gltf.Node)
		want   string
	}{
		{"missing mesh", func(f *fixture, n *gltf.Node) { n.Mesh = gltf.Index(9) }, `nodes[0] "N": mesh 9 does not exist`},
		{"no POSITION", func(f *fixture, n *gltf.Node) { delete(f.doc.Meshes[0].Primitives[0].Attributes, gltf.POSITION) },
			`nodes[0] "N": mesh 0 primitive 0: no POSITION attribute`},
		{"null primitive", func(f *fixture, n *gltf.Node) { f.doc.Meshes[0].Primitives[0] = nil }, `nodes[0] "N": mesh 0 primitive 0: null primitive`},
		{"missing skin", func(f *fixture, n *gltf.Node) { n.Skin = gltf.Index(2) }, `nodes[0] "N": skin 2 does not exist`},
		{"skin without weights", func(f *fixture, n *gltf.Node) {
			f.doc.Skins = []*gltf.Skin{{Joints: []int{0}}}
			n.Skin = gltf.Index(0)
		}, `nodes[0] "N": mesh 0 primitive 0: skinned mesh without JOINTS_0/WEIGHTS_0`},
		{"target count", func(f *fixture, n *gltf.Node) {
			f.doc.Meshes[0].Primitives[0].Targets = []map[string]int{{gltf.POSITION: f.vec3([3]float32{1, 1, 1})}}
			n.Weights = []float64{1}
		}, `nodes[0] "N": mesh 0 primitive 0: target 0: accessor 2 has 1 displacements for 8 positions`},
		{"instancing without attributes", func(f *fixture, n *gltf.Node) {
			n.Extensions = gltf.Extensions{extInstancing: json.RawMessage(`{"attributes":{}}`)}
		}, `nodes[0] "N": EXT_mesh_gpu_instancing: no TRANSLATION, ROTATION or SCALE attribute`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture()
			n := &gltf.Node{Name: "N", Mesh: gltf.Index(f.cubeMesh())}
			f.scene(f.node(n))
			c.mutate(f, n)
			_, err := Extract(f.done())
			if err == nil || err.Error() != c.want {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}

	f := newFixture()
	pos := f.vec3(cubeCorners...)
	idx := f.scalars(gltf.ComponentUshort, append(append([]int{}, cubeTriangles...), 0, 1)...)
	f.scene(f.node(&gltf.Node{Mesh: gltf.Index(f.mesh(&gltf.Primitive{Attributes: map[string]int{gltf.POSITION: pos}, Indices: gltf.Index(idx)}))}))
	res, err := Extract(f.done())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts[0].Triangles) != 12 || !reflect.DeepEqual(res.Notes, []string{"mesh 0 primitive 0: 2 trailing indices ignored"}) {
		t.Errorf("%d triangles, notes %q", len(res.Parts[0].Triangles), res.Notes)
	}
}
