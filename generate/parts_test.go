package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// piece is one primitive a generated assembly is built of: its closed
// mesh and the shape it is.
type piece struct {
	v    []geom.Vec3
	t    [][3]uint32
	want physics.ShapeType
}

// boxPiece is a closed box of size centred at c, its edges and corners
// chamfered by bevel (0: sharp).
func boxPiece(t testing.TB, c, size geom.Vec3, bevel float64) piece {
	h := size.Scale(0.5)
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		s := geom.Vec3{float64(i&1)*2 - 1, float64(i>>1&1)*2 - 1, float64(i>>2&1)*2 - 1}
		for k := 0; k < 3; k++ {
			// The corner pulled in by bevel along the two axes other than k.
			var p geom.Vec3
			for j := 0; j < 3; j++ {
				p[j] = s[j] * h[j]
				if j != k {
					p[j] = s[j] * (h[j] - bevel)
				}
			}
			pts = append(pts, c.Add(p))
		}
	}
	v, tr := hullMesh(t, pts)
	return piece{v, tr, physics.Box}
}

// axis names the direction a cylinder's axis takes.
type axis int

const (
	alongX axis = iota
	alongY
	alongZ
)

// place maps a point of a +Y-axis shape to the axis a, then moves it to c.
func place(p geom.Vec3, a axis, c geom.Vec3) geom.Vec3 {
	switch a {
	case alongX:
		p = geom.Vec3{p[1], -p[0], p[2]}
	case alongZ:
		p = geom.Vec3{p[0], -p[2], p[1]}
	}
	return c.Add(p)
}

// cylinderPiece is a closed 32-sided cylinder of radius r and height h
// along a, centred at c, its rims chamfered by bevel (0: sharp).
func cylinderPiece(t testing.TB, c geom.Vec3, a axis, r, h, bevel float64) piece {
	const sides = 32
	var pts []geom.Vec3
	for i := 0; i < sides; i++ {
		th := 2 * math.Pi * float64(i) / sides
		x, z := math.Cos(th), math.Sin(th)
		for _, y := range []float64{-1, 1} {
			pts = append(pts, place(geom.Vec3{(r - bevel) * x, y * h / 2, (r - bevel) * z}, a, c))
			if bevel > 0 {
				pts = append(pts, place(geom.Vec3{r * x, y * (h/2 - bevel), r * z}, a, c))
			}
		}
	}
	v, tr := hullMesh(t, pts)
	return piece{v, tr, physics.Cylinder}
}

// spherePiece is a closed UV sphere of radius r centred at c.
func spherePiece(c geom.Vec3, r float64) piece {
	v, tr := sphereMesh(r, 24)
	for i := range v {
		v[i] = v[i].Add(c)
	}
	return piece{v, tr, physics.Sphere}
}

// assemblies are furniture and toys built of primitives, with bevel on
// every edge of the boxes and cylinders.
func assemblies(t testing.TB, bevel float64) map[string][]piece {
	b, y, z := bevel, alongY, alongZ
	table := []piece{boxPiece(t, geom.Vec3{0, 0.73, 0}, geom.Vec3{1.2, 0.04, 0.8}, b)}
	chair := []piece{
		boxPiece(t, geom.Vec3{0, 0.45, 0}, geom.Vec3{0.45, 0.04, 0.45}, b),
		boxPiece(t, geom.Vec3{0, 0.72, -0.21}, geom.Vec3{0.45, 0.4, 0.03}, b),
	}
	for _, sx := range []float64{-1, 1} {
		for _, sz := range []float64{-1, 1} {
			table = append(table, cylinderPiece(t, geom.Vec3{sx * 0.55, 0.355, sz * 0.35}, y, 0.03, 0.71, b))
			chair = append(chair, cylinderPiece(t, geom.Vec3{sx * 0.19, 0.215, sz * 0.19}, y, 0.02, 0.43, b))
		}
	}
	bench := []piece{
		boxPiece(t, geom.Vec3{0, 0.425, 0}, geom.Vec3{1.5, 0.05, 0.35}, b),
		boxPiece(t, geom.Vec3{-0.65, 0.2, 0}, geom.Vec3{0.05, 0.4, 0.35}, b),
		boxPiece(t, geom.Vec3{0.65, 0.2, 0}, geom.Vec3{0.05, 0.4, 0.35}, b),
		cylinderPiece(t, geom.Vec3{0, 0.15, 0}, alongX, 0.02, 1.25, b),
	}
	dumbbell := []piece{
		cylinderPiece(t, geom.Vec3{}, alongX, 0.015, 0.36, b), // its ends inside the balls
		spherePiece(geom.Vec3{-0.21, 0, 0}, 0.06),
		spherePiece(geom.Vec3{0.21, 0, 0}, 0.06),
	}
	truck := []piece{
		boxPiece(t, geom.Vec3{0, 0.45, 0}, geom.Vec3{4, 0.3, 1.6}, b),      // chassis
		boxPiece(t, geom.Vec3{1.4, 1.1, 0}, geom.Vec3{1.2, 1, 1.6}, b),     // cab
		boxPiece(t, geom.Vec3{-0.6, 1.35, 0}, geom.Vec3{2.6, 1.5, 1.7}, b), // cargo
	}
	for _, wx := range []float64{-1.3, 1.4} {
		for _, wz := range []float64{-0.9, 0.9} {
			truck = append(truck, cylinderPiece(t, geom.Vec3{wx, 0.4, wz}, z, 0.4, 0.25, b))
		}
	}
	return map[string][]piece{"table": table, "chair": chair, "bench": bench, "dumbbell": dumbbell, "truck": truck}
}

// insideBy returns how far x lies outside collider c (≤ 0: inside).
func insideBy(t *testing.T, c Collider, x geom.Vec3) float64 {
	t.Helper()
	l := c.Rotation.Mat3().Transpose().MulVec(x.Sub(c.Translation))
	switch c.Shape.Type {
	case physics.Capsule:
		y := math.Max(-c.Shape.Height/2, math.Min(c.Shape.Height/2, l[1]))
		return geom.Vec3{l[0], l[1] - y, l[2]}.Len() - c.Shape.RadiusTop
	case physics.Cylinder:
		return math.Max(math.Abs(l[1])-c.Shape.Height/2, math.Hypot(l[0], l[2])-c.Shape.RadiusTop)
	}
	return outside(t, c, x)
}

// TestPrimitiveParts: a mesh made of primitives, as separate pieces of one
// mesh, comes back from auto and from decompose as those primitives, one
// per piece, each containing every vertex of its piece and within 2% of its
// volume, with and without 1 mm bevels.
func TestPrimitiveParts(t *testing.T) {
	for _, m := range []Method{Auto, Decompose} {
		for _, bevel := range []float64{0, 0.001} {
			for name, pieces := range assemblies(t, bevel) {
				t.Run(fmt.Sprintf("%s/%s/bevel%gmm", m, name, bevel*1000), func(t *testing.T) {
					testPrimitiveParts(t, m, pieces)
				})
			}
		}
	}
}

func testPrimitiveParts(t *testing.T, m Method, pieces []piece) {
	{
		{
			{
				var parts [][]any
				for _, p := range pieces {
					parts = append(parts, mk(p.v, p.t))
				}
				v, tris := union(parts...)
				cs, notes, err := Colliders(context.Background(), v, tris, ColliderSettings{Method: m}, Run{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				if len(cs) != len(pieces) {
					t.Fatalf("%d colliders for %d pieces (%v)", len(cs), len(pieces), notes)
				}
				used := make([]bool, len(cs))
				for i, p := range pieces {
					mp, err := mass.Mesh(p.v, p.t)
					if err != nil {
						t.Fatal(err)
					}
					tol := 1e-6 * geom.BoundsOf(v).Diagonal()
					match := -1
					for j, c := range cs {
						in := true
						for _, x := range p.v {
							if insideBy(t, c, x) > tol {
								in = false
								break
							}
						}
						if in && !used[j] && (match < 0 || c.Mass.Volume < cs[match].Mass.Volume) {
							match = j
						}
					}
					if match < 0 {
						t.Fatalf("piece %d (%s): no collider contains every vertex (%v)", i, p.want, notes)
					}
					used[match] = true
					c := cs[match]
					if c.Shape.Type != p.want {
						t.Errorf("piece %d: got a %s, want a %s (%v)", i, c.Shape.Type, p.want, notes)
					}
					if r := c.Mass.Volume / mp.Volume; r < 1 || r > 1.02 {
						t.Errorf("piece %d (%s): collider volume %.4g m³ is %.4f× the piece's %.4g m³", i, p.want, c.Mass.Volume, r, mp.Volume)
					}
				}
			}
		}
	}
}

// torusMesh is a closed torus around +Y: ring radius R, tube radius r.
func torusMesh(R, r float64, nu, nv int) ([]geom.Vec3, [][3]uint32) {
	var v []geom.Vec3
	var tris [][3]uint32
	for i := 0; i < nu; i++ {
		a := 2 * math.Pi * float64(i) / float64(nu)
		for j := 0; j < nv; j++ {
			b := 2 * math.Pi * float64(j) / float64(nv)
			q := R + r*math.Cos(b)
			v = append(v, geom.Vec3{q * math.Cos(a), r * math.Sin(b), q * math.Sin(a)})
		}
	}
	for i := 0; i < nu; i++ {
		for j := 0; j < nv; j++ {
			p, q := uint32(i*nv+j), uint32((i+1)%nu*nv+j)
			p1, q1 := uint32(i*nv+(j+1)%nv), uint32((i+1)%nu*nv+(j+1)%nv)
			tris = append(tris, [3]uint32{p, p1, q}, [3]uint32{q, p1, q1})
		}
	}
	return v, tris
}

// TestAutoJudgesTheMesh: auto chooses one primitive only where the mesh
// fills it, closed or open. A torus (its hull is a cylinder within 1.03×,
// and a cylinder was what auto gave it) keeps its hole; a table made as one
// mesh keeps the room under its top, closed or as open shells (each piece
// missing a face); every vertex stays inside a collider.
func TestAutoJudgesTheMesh(t *testing.T) {
	tv, tt := torusMesh(1, 0.25, 32, 12)
	var table [][]any
	var open [][]any
	for _, p := range assemblies(t, 0)["table"] {
		table = append(table, mk(p.v, p.t))
		open = append(open, mk(p.v, p.t[2:])) // a shell with a hole
	}
	tableV, tableT := union(table...)
	openV, openT := union(open...)
	openTV, openTT := tv, tt[2*12:] // a torus missing a ring of quads
	for _, c := range []struct {
		name  string
		v     []geom.Vec3
		t     [][3]uint32
		empty geom.Vec3 // a point of the empty space the mesh encloses
	}{
		{"torus", tv, tt, geom.Vec3{}},
		{"open torus", openTV, openTT, geom.Vec3{}},
		{"table", tableV, tableT, geom.Vec3{0, 0.3, 0}},
		{"open table", openV, openT, geom.Vec3{0, 0.3, 0}},
	} {
		cs, notes, err := Colliders(context.Background(), c.v, c.t, ColliderSettings{Method: Auto}, Run{Workers: 2})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(cs) < 2 {
			t.Errorf("%s: one %s for a concave mesh (%v)", c.name, cs[0].Shape.Type, notes)
		}
		for i, col := range cs {
			if insideBy(t, col, c.empty) <= 0 {
				t.Errorf("%s: collider %d (%s) fills the empty space at %v", c.name, i, col.Shape.Type, c.empty)
			}
		}
		tol := 1e-6 * geom.BoundsOf(c.v).Diagonal()
		for _, tr := range c.t {
			for _, k := range tr {
				x, in := c.v[k], false
				for _, col := range cs {
					if insideBy(t, col, x) <= tol {
						in = true
						break
					}
				}
				if !in {
					t.Fatalf("%s: vertex %d at %v lies in no collider", c.name, k, x)
				}
			}
		}
	}
}

// TestPrimitivePartsWritten: a table made as one mesh is written, in every
// format, as its top's box and its legs' cylinders, one collider a piece:
// OMI and KHR shapes (gen checks the schemas and the undo contract),
// Unreal's UBX_ for the box and UCX_ hulls for the cylinders (Unreal has no
// cylinder), Godot's -convcolonly nodes; the report says the budget, what
// was kept and which primitives, and the node names say which part is
// which shape.
func TestPrimitivePartsWritten(t *testing.T) {
	var parts [][]any
	for _, p := range assemblies(t, 0.001)["table"] {
		parts = append(parts, mk(p.v, p.t))
	}
	v, tris := union(parts...)
	data := buildGLTF(t, []fnode{{name: "Table", v: v, t: tris}}, []int{0})
	opt := Options{Collider: ColliderSettings{Method: Auto, MaxColliders: 8}}
	for _, f := range []physics.Family{physics.OMI, physics.KHR} {
		opt.Encoding.Format = f
		g := gen(t, data, opt)
		n := map[physics.ShapeType]int{}
		for _, s := range g.model.Shapes {
			n[s.Type]++
		}
		if n[physics.Box] != 1 || n[physics.Cylinder] != 4 || len(g.model.Shapes) != 5 {
			t.Errorf("%s: shapes %v, want 1 box and 4 cylinders", f, n)
		}
		p := g.rep.Parts[0]
		if p.Budget != 8 || p.Colliders != 5 || p.Primitives["box"] != 1 || p.Primitives["cylinder"] != 4 || p.Kept() != "5 of 8: 1 box, 4 cylinders" {
			t.Errorf("%s: part report %+v (%q)", f, p, p.Kept())
		}
		names := map[string]bool{}
		for _, nd := range g.file.Doc.Nodes {
			names[nd.Name] = true
		}
		if !names["Table.collider0.box0"] && !names["Table.collider0.box4"] {
			t.Errorf("%s: no node named for the top's box: %v", f, names)
		}
	}
	for _, c := range []struct {
		f    physics.Family
		want map[string]int
	}{
		{"unreal", map[string]int{"UBX_": 1, "UCX_": 4}},
		{"godot-names", map[string]int{"-convcolonly": 5}},
	} {
		dir := t.TempDir()
		in := dir + "/in.gltf"
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := gltfio.Load(in, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		o := opt
		o.Encoding.Format = c.f
		if _, err := Asset(context.Background(), a, o); err != nil {
			t.Fatalf("%s: %v", c.f, err)
		}
		b, err := a.Encode(false)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Nodes []struct{ Name string } }
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, nd := range doc.Nodes {
			for k := range c.want {
				if strings.Contains(nd.Name, k) {
					got[k]++
				}
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: names %v, want %v", c.f, got, c.want)
		}
	}
}

// TestBudgetKept: auto gives a mesh instance at most its budget of
// colliders, of whatever type, and every vertex stays inside them: a
// torus (one piece) at 1, 4 and 8; a table of five pieces at 1, 4 and 8;
// 50 separate balls and 200 hair strands, each one mesh, at 1, 4, 8, 16
// and 32 (more pieces than the budget: pieces must share colliders).
func TestBudgetKept(t *testing.T) {
	type mesh struct {
		v  []geom.Vec3
		t  [][3]uint32
		ks []int
	}
	tv, tt := torusMesh(1, 0.25, 32, 12)
	var table, balls, hair [][]any
	for _, p := range assemblies(t, 0)["table"] {
		table = append(table, mk(p.v, p.t))
	}
	for i := 0; i < 50; i++ {
		v, tr := sphereMesh(0.1, 6)
		for j := range v {
			v[j] = v[j].Add(geom.Vec3{float64(i%10) * 0.3, float64(i/10) * 0.3, 0})
		}
		balls = append(balls, mk(v, tr))
	}
	for i := 0; i < 200; i++ {
		// A strand: a thin bent ribbon of 8 quads hanging from a scalp.
		a := 2 * math.Pi * float64(i) / 200
		var v []geom.Vec3
		var tr [][3]uint32
		for j := 0; j <= 8; j++ {
			r := 0.1 + 0.01*float64(j)
			y := -0.03 * float64(j)
			v = append(v, geom.Vec3{r * math.Cos(a), y, r * math.Sin(a)}, geom.Vec3{r * math.Cos(a+0.01), y, r * math.Sin(a+0.01)})
			if j > 0 {
				k := uint32(2 * j)
				tr = append(tr, [3]uint32{k - 2, k - 1, k}, [3]uint32{k - 1, k + 1, k})
			}
		}
		hair = append(hair, mk(v, tr))
	}
	tableV, tableT := union(table...)
	ballsV, ballsT := union(balls...)
	hairV, hairT := union(hair...)
	cases := map[string]mesh{
		"torus":       {tv, tt, []int{1, 4, 8}},
		"table":       {tableV, tableT, []int{1, 4, 8}},
		"50 balls":    {ballsV, ballsT, []int{1, 4, 8, 16, 32}},
		"200 strands": {hairV, hairT, []int{1, 4, 8, 16, 32}},
	}
	for name, c := range cases {
		for _, k := range c.ks {
			cs, notes, err := Colliders(context.Background(), c.v, c.t, ColliderSettings{Method: Auto, MaxColliders: k}, Run{Workers: 2})
			if err != nil {
				t.Fatalf("%s at %d: %v", name, k, err)
			}
			if len(cs) == 0 || len(cs) > k {
				t.Errorf("%s: %d colliders over the budget of %d (%v)", name, len(cs), k, notes[0])
			}
			tol := 1e-6 * geom.BoundsOf(c.v).Diagonal()
			for _, tr := range c.t {
				for _, vi := range tr {
					in := false
					for _, col := range cs {
						if insideBy(t, col, c.v[vi]) <= tol {
							in = true
							break
						}
					}
					if !in {
						t.Fatalf("%s at %d: vertex %d lies in no collider", name, k, vi)
					}
				}
			}
		}
	}
}
