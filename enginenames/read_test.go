package enginenames

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// encodeDecode writes a and reads it back as a document with its buffers.
func encodeDecode(t *testing.T, a *gltfio.Asset) *gltf.Document {
	t.Helper()
	b, err := a.Encode(false)
	if err != nil {
		t.Fatal(err)
	}
	doc := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(b)).Decode(doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func fixture(t *testing.T, name string) *gltfio.Asset {
	t.Helper()
	a, err := gltfio.LoadRaw(filepath.Join(testassets.Repo(), "testdata", "naming", name), gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestReadUnreal: the artists' fixtures read as their collision shapes:
// UCX_Chair_01 a convex of Chair with its vertices in world space,
// UBX_Crate a box of Crate turned as its node is.
func TestReadUnreal(t *testing.T) {
	got, err := ReadUnreal(fixture(t, "ucx_hull.gltf").Doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Node != 1 || got[0].Render != 0 || got[0].Shape.Type != physics.Convex {
		t.Fatalf("ucx_hull: %+v", got)
	}
	if b := geom.BoundsOf(got[0].Vertices); b.Center()[0] < 0.5 {
		t.Errorf("ucx_hull: vertices not placed by the node's translation: %v", b)
	}
	got, err = ReadUnreal(fixture(t, "ubx_box.gltf").Doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Render != 0 || got[0].Shape.Type != physics.Box {
		t.Fatalf("ubx_box: %+v", got)
	}
	// The box's axes are the node's: its pose turns as the node does.
	q := geom.Quat{0, 0.24740395925452294, 0, 0.9689124217106447}.Mat3()
	lin := got[0].Pose.Linear()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(lin[i][j]-q[i][j]) > 1e-9 {
				t.Fatalf("ubx_box: pose %v, want the node's rotation", lin)
			}
		}
	}
}

// TestReadUnrealPrimitives: spheres and capsules written by this package
// read back exactly, a capsule along the node's longest axis; an Unreal
// name without a render mesh of that name is no collision mesh.
func TestReadUnrealPrimitives(t *testing.T) {
	r, h := 0.25, 0.8
	for _, c := range []struct {
		s    solid
		t    physics.ShapeType
		turn geom.Quat
	}{
		{sphereSolid(r, false), physics.Sphere, geom.IdentityQuat()},
		{capsuleSolid(r, h, false), physics.Capsule, geom.IdentityQuat()},
		{capsuleSolid(r, h, false), physics.Capsule, geom.Quat{0, 0, 0.70710678, 0.70710678}},
	} {
		a, err := gltfio.Parse("pole.gltf", []byte(`{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"name":"Pole"}]}`), gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		pts := make([]geom.Vec3, len(c.s.v))
		for i, v := range c.s.v {
			pts[i] = c.turn.Rotate(v).Add(geom.Vec3{1, 2, 3})
		}
		m, err := a.AppendMesh("Pole", pts, c.s.t, false)
		if err != nil {
			t.Fatal(err)
		}
		render, _ := a.Tree.Arr("nodes")[0].(*gltfio.Object)
		render.Set("mesh", gltfio.IntNum(m))
		col := gltfio.NewObject()
		col.Set("name", unrealName(c.t, "Pole", 0))
		col.Set("mesh", gltfio.IntNum(m))
		sc, _ := a.Tree.Arr("scenes")[0].(*gltfio.Object)
		sc.Set("nodes", []any{gltfio.IntNum(0), gltfio.IntNum(a.AppendOrphanNode(col))})
		doc := encodeDecode(t, a)
		got, err := ReadUnreal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Shape.Type != c.t {
			t.Fatalf("%s: %+v", c.t, got)
		}
		s := got[0].Shape
		if math.Abs(s.Radius+s.RadiusTop-r) > 1e-6 || math.Abs(s.Height-map[bool]float64{true: h, false: 0}[c.t == physics.Capsule]) > 1e-6 {
			t.Errorf("%s: %+v", c.t, s)
		}
		if d := got[0].Pose.Translation().Sub(geom.Vec3{1, 2, 3}).Len(); d > 1e-6 {
			t.Errorf("%s: centre off by %g", c.t, d)
		}
		if axis := got[0].Pose.Linear().MulVec(geom.Vec3{0, 1, 0}); c.t == physics.Capsule && math.Abs(math.Abs(axis.Dot(c.turn.Rotate(geom.Vec3{0, 1, 0})))-1) > 1e-6 {
			t.Errorf("capsule axis %v", axis)
		}
		doc.Nodes[0].Name, doc.Meshes[0].Name = "Other", "Other"
		if got, _ := ReadUnreal(doc); len(got) != 0 {
			t.Errorf("%s without its render mesh: %+v", c.t, got)
		}
	}
}

// TestReadGodot: a -convcolonly mesh is a convex collider of its root, a
// static body; a -rigid node is a dynamic body without colliders of its
// own.
func TestReadGodot(t *testing.T) {
	got, err := ReadGodot(fixture(t, "godot_convcolonly.gltf").Doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Node != 0 || got[0].Motion != physics.Static || len(got[0].Shapes) != 1 || got[0].Shapes[0].Node != 2 || got[0].Shapes[0].Shape.Type != physics.Convex {
		t.Fatalf("convcolonly: %+v", got)
	}
	got, err = ReadGodot(fixture(t, "godot_rigid.gltf").Doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Node != 2 || got[0].Motion != physics.Dynamic || len(got[0].Shapes) != 0 {
		t.Fatalf("rigid: %+v", got)
	}
}
