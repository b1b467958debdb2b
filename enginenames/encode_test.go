package enginenames

import (
	"fmt"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// twoLegs is a scene root "Table" (body) with a sheared child "Frame"
// holding two render nodes named "Leg", and a mesh for them.
const twoLegs = `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"name":"Table","children":[1]},
{"name":"Frame","children":[2,3],"scale":[1,3,1],"rotation":[0,0,0.38268343,0.92387953]},
{"name":"Leg","mesh":0,"translation":[1,0,0]},{"name":"Leg","mesh":0,"translation":[-1,0,0],"scale":[1,0.5,1]}],
"meshes":[{"name":"LegMesh","primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}]}`

// TestEncodeUnreal: two render nodes sharing a name are renamed apart,
// each box is named after its own and read back onto it; a parent whose
// transform shears a box gets the box's vertices placed in its space
// (with a warning), still exact in world space; the body's mass goes
// into its extras.
func TestEncodeUnreal(t *testing.T) {
	a, err := gltfio.Parse("legs.gltf", []byte(twoLegs), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []Body
	mass := 3.0
	b := Body{Node: 0, Motion: &physics.Motion{Type: physics.Dynamic, Mass: &mass}}
	for _, r := range []int{2, 3} {
		n := gltfio.NewObject()
		n.Set("name", "Leg.collider")
		n.Set("translation", []any{gltfio.Num(float64(r)), gltfio.Num(0.5), gltfio.Num(0)})
		idx, err := a.AppendNode(0, n)
		if err != nil {
			t.Fatal(err)
		}
		b.Colliders = append(b.Colliders, Collider{Node: idx, Render: r, Shape: physics.Shape{Type: physics.Box, Size: [3]float64{0.2, 1, 0.4}}})
	}
	bodies = append(bodies, b)
	before, err := a.TypedCopy()
	if err != nil {
		t.Fatal(err)
	}
	wBefore, _ := mesh.WorldTransforms(before)
	warn, err := Encode(a, bodies, Unreal, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(warn) != 2 || !strings.Contains(warn[0], "sheared") {
		t.Errorf("warnings %q, want one per sheared box", warn)
	}
	doc := encodeDecode(t, a)
	if doc.Nodes[2].Name == doc.Nodes[3].Name || !strings.HasPrefix(doc.Nodes[2].Name, "Leg.") {
		t.Errorf("render nodes named %q and %q", doc.Nodes[2].Name, doc.Nodes[3].Name)
	}
	if !strings.Contains(fmt.Sprint(doc.Nodes[0].Extras), "mass:3") {
		t.Errorf("body extras %s", doc.Nodes[0].Extras)
	}
	got, err := ReadUnreal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d collision meshes", len(got))
	}
	world, _ := mesh.WorldTransforms(doc)
	for _, g := range got {
		c := g.Node
		want := map[int]int{4: 2, 5: 3}[c]
		if g.Render != want {
			t.Errorf("nodes[%d] belongs to %d, want %d", c, g.Render, want)
		}
		if p := doc.Nodes[1]; !containsInt(p.Children, c) {
			t.Errorf("nodes[%d] is not beside its render node", c)
		}
		// Every vertex, in world space, is a corner of the box as posed.
		pos, _, err := mesh.Primitive(doc, doc.Meshes[*doc.Nodes[c].Mesh].Primitives[0])
		if err != nil {
			t.Fatal(err)
		}
		inv, _ := wBefore[c].Inverse()
		for _, v := range pos {
			l := inv.Point(world[c].Point(v))
			if abs(abs(l[0])-0.1) > 1e-6 || abs(abs(l[1])-0.5) > 1e-6 || abs(abs(l[2])-0.2) > 1e-6 {
				t.Errorf("nodes[%d]: vertex %v is no corner of the box", c, l)
			}
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
