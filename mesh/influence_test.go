package mesh

import (
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
)

// TestInfluences skins two primitives, one with a normalized
// UNSIGNED_BYTE set and an unused vertex, one with two FLOAT sets, and
// checks the part's influences: aligned with the kept vertices, padded
// to the widest primitive, dequantized, and what the vertices were posed
// with.
func TestInfluences(t *testing.T) {
	f := newFixture()
	j0 := f.node(&gltf.Node{Name: "j0", Translation: [3]float64{1, 0, 0}})
	j1 := f.node(&gltf.Node{Name: "j1", Translation: [3]float64{0, 2, 0}})
	ubyte := func(vals ...int) int {
		v := f.view(u8s(vals...), 0)
		return f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentUbyte, Type: gltf.AccessorVec4, Count: len(vals) / 4})
	}
	nweights := func(vals ...int) int {
		v := f.view(u8s(vals...), 0)
		return f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentUbyte, Normalized: true, Type: gltf.AccessorVec4, Count: len(vals) / 4})
	}
	fweights := func(vals ...float32) int {
		v := f.view(f32s(vals...), 0)
		return f.accessor(&gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec4, Count: len(vals) / 4})
	}
	// Primitive A: vertices 0..3, vertex 3 unused by the triangle.
	a := &gltf.Primitive{
		Attributes: map[string]int{
			gltf.POSITION: f.vec3([3]float32{0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{0, 1, 0}, [3]float32{9, 9, 9}),
			"JOINTS_0":    ubyte(0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0),
			"WEIGHTS_0":   nweights(255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0, 255, 0, 0, 0),
		},
		Indices: gltf.Index(f.scalars(gltf.ComponentUshort, 0, 1, 2)),
	}
	// Primitive B: three vertices, two sets.
	b := &gltf.Primitive{
		Attributes: map[string]int{
			gltf.POSITION: f.vec3([3]float32{0, 0, 1}, [3]float32{1, 0, 1}, [3]float32{0, 1, 1}),
			"JOINTS_0":    ubyte(0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0),
			"WEIGHTS_0":   fweights(0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0),
			"JOINTS_1":    ubyte(1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0),
			"WEIGHTS_1":   fweights(0.5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0),
		},
		Indices: gltf.Index(f.scalars(gltf.ComponentUshort, 0, 1, 2)),
	}
	m := f.mesh(a, b)
	f.doc.Skins = []*gltf.Skin{{Joints: []int{j0, j1}}}
	skinned := f.node(&gltf.Node{Name: "body", Mesh: gltf.Index(m), Skin: gltf.Index(0)})
	root := f.node(&gltf.Node{Name: "root", Children: []int{j0, j1, skinned}})
	f.scene(root)
	res, err := Extract(f.done())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 1 {
		t.Fatalf("%d parts, want 1", len(res.Parts))
	}
	p := res.Parts[0]
	in := p.Influences
	if in == nil || in.Skin != 0 || in.PerVertex != 8 {
		t.Fatalf("influences %+v, want skin 0 with 8 pairs per vertex", in)
	}
	if len(p.Vertices) != 6 || len(in.Joints) != 6*8 || len(in.Weights) != 6*8 {
		t.Fatalf("%d vertices, %d joints, %d weights: want 6, 48, 48", len(p.Vertices), len(in.Joints), len(in.Weights))
	}
	offsets := []geom.Vec3{{1, 0, 0}, {0, 2, 0}} // joint matrices: the joints' translations
	for v, pos := range p.Vertices {
		if v < 3 {
			for k := 4; k < 8; k++ {
				if in.Weights[v*8+k] != 0 {
					t.Errorf("vertex %d: pair %d not padded with a zero weight", v, k)
				}
			}
		}
		// Re-skin from the influences and the source position.
		src := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}[v]
		var sum float64
		var off geom.Vec3
		for k := 0; k < 8; k++ {
			w := in.Weights[v*8+k]
			sum += w
			off = off.Add(offsets[in.Joints[v*8+k]].Scale(w))
		}
		want := src.Add(off.Scale(1 / sum))
		if pos.Sub(want).Len() > 1e-12 {
			t.Errorf("vertex %d at %v, its influences pose it at %v", v, pos, want)
		}
	}
	if w := in.Weights[2*8]; math.Abs(w-128.0/255) > 1e-15 {
		t.Errorf("normalized weight 128 read as %v, want 128/255", w)
	}
}

// TestInfluencesDraco compresses a skinned corpus asset with the pinned
// glTF-Transform (draco3dgltf) and compares the decoded influences with
// the plain file's: same vertex count, each vertex's weights summing to
// one, and each compressed vertex dominated by the joint that dominates
// the nearest plain vertex (Draco reorders and splits vertices and
// quantizes weights, so vertices are matched by position, and 1% may
// differ at near-ties).
func TestInfluencesDraco(t *testing.T) {
	src := filepath.Join(testassets.Shared(t), "corpus", "CesiumMan", "glTF-Embedded", "CesiumMan.gltf")
	out := filepath.Join(t.TempDir(), "CesiumMan.draco.glb")
	cli := filepath.Join(testassets.Tools(t), "node_modules", ".bin", "gltf-transform")
	if msg, err := exec.Command(cli, "draco", src, out).CombinedOutput(); err != nil {
		t.Fatalf("gltf-transform draco: %v\n%s", err, msg)
	}
	type vertex struct {
		pos   geom.Vec3
		joint int
	}
	dominant := func(path string, wantDraco bool) []vertex {
		doc, err := gltf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		draco := false
		for _, m := range doc.Meshes {
			for _, p := range m.Primitives {
				_, ok := p.Extensions[extDraco]
				draco = draco || ok
			}
		}
		if draco != wantDraco {
			t.Fatalf("%s: Draco-compressed %v, want %v", path, draco, wantDraco)
		}
		res, err := Extract(doc)
		if err != nil {
			t.Fatal(err)
		}
		var out []vertex
		for _, p := range res.Parts {
			in := p.Influences
			if in == nil || len(in.Weights) != len(p.Vertices)*in.PerVertex {
				t.Fatalf("%s: part %s has no aligned influences", path, p.Name)
			}
			for v, pos := range p.Vertices {
				best, bw, sum := -1, 0.0, 0.0
				for k := 0; k < in.PerVertex; k++ {
					w := in.Weights[v*in.PerVertex+k]
					sum += w
					if w > bw {
						best, bw = in.Joints[v*in.PerVertex+k], w
					}
				}
				if math.Abs(sum-1) > 0.01 {
					t.Fatalf("%s: vertex %d weights sum to %v", path, v, sum)
				}
				out = append(out, vertex{pos, best})
			}
		}
		return out
	}
	plain := dominant(src, false)
	packed := dominant(out, true)
	if len(plain) == 0 || len(packed) < len(plain)/2 {
		t.Fatalf("%d vertices plain, %d after Draco", len(plain), len(packed))
	}
	diff := 0
	for _, v := range packed {
		near, d := -1, math.Inf(1)
		for _, w := range plain {
			if l := w.pos.Sub(v.pos).Len2(); l < d {
				near, d = w.joint, l
			}
		}
		if near != v.joint {
			diff++
		}
	}
	if diff > len(packed)/100 {
		t.Errorf("dominant joints differ on %d of %d vertices after Draco", diff, len(packed))
	}
	t.Logf("%d vertices (%d plain), %d dominant-joint differences after Draco", len(packed), len(plain), diff)
}
