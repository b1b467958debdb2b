package generate

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/schema"
	"github.com/autocollide/autocollide/physics/validate"
)

// furniture is a small scene: a table (top, two legs) and a ball, the
// table moved and its legs tagged in extras.
func furniture(t testing.TB) []byte {
	top, topT := boxMesh(geom.Vec3{0, 0.75, 0}, geom.Vec3{1.2, 0.05, 0.8})
	leg, legT := boxMesh(geom.Vec3{0, 0.36, 0}, geom.Vec3{0.05, 0.72, 0.05})
	ball, ballT := sphereMesh(0.2, 8)
	return buildGLTF(t, []fnode{
		{name: "Table", v: top, t: topT, children: []int{1, 2}, at: geom.Vec3{2, 0, 0}},
		{name: "Leg0", meshName: "LegMesh", v: leg, t: legT, at: geom.Vec3{-0.5, 0, 0}, extras: map[string]any{"collide": "sphere"}},
		{name: "Leg1", meshName: "LegMesh", v: leg, t: legT, at: geom.Vec3{0.5, 0, 0}},
		{name: "Ball", v: ball, t: ballT, at: geom.Vec3{0, 0.2, 1}},
	}, []int{0, 3})
}

// genResult is one generation of a fixture, read back from its bytes.
type genResult struct {
	rep   *Report
	file  *gltfio.Asset
	model *physics.Model
}

// gen generates data with opt and checks on the way that the output has
// no physics errors and passes the schemas, and the undo contract:
// generating again from the output gives the same bytes, and stripping
// the output gives the input back.
func gen(t *testing.T, data []byte, opt Options) genResult {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.gltf")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	once := func(path string) ([]byte, *Report) {
		a, err := gltfio.Load(path, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Asset(context.Background(), a, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := a.Encode(false)
		if err != nil {
			t.Fatal(err)
		}
		return b, rep
	}
	first, rep := once(in)
	out := filepath.Join(dir, "out.gltf")
	if err := os.WriteFile(out, first, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := once(out); !bytes.Equal(again, first) {
		t.Error("generating again from the output gives other bytes")
	}
	orig, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	stripped, err := gltfio.Load(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ob, _ := orig.Encode(false)
	sb, _ := stripped.Encode(false)
	if !bytes.Equal(ob, sb) {
		t.Error("stripping the output does not give the input back")
	}
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if probs := validate.Validate(a.Doc, validate.Options{}); validate.HasErrors(probs) {
		t.Errorf("physics errors: %v", probs)
	}
	if err := schema.CheckDocument(first); err != nil {
		t.Errorf("schema: %v", err)
	}
	var m *physics.Model
	if opt.Encoding.Format == physics.KHR {
		m, _, err = khr.Decode(a.Doc)
	} else {
		m, _, err = omi.Decode(a.Doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return genResult{rep, a, m}
}

// bodies returns the nodes with a motion, and for KHR also the static
// ones (generated bodies' nodes from the report).
func (g genResult) bodyNodes() []int {
	var out []int
	for _, b := range g.rep.BodyList {
		out = append(out, b.Node)
	}
	return out
}

// colliderParents maps each collider's (or trigger's) node to its parent.
func (g genResult) colliderParents() map[int]int {
	parent := map[int]int{}
	for i, n := range g.file.Doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	out := map[int]int{}
	for _, i := range g.model.NodeIndices() {
		if n := g.model.Nodes[i]; n.Collider != nil || (n.Trigger != nil && n.Trigger.Shape >= 0) {
			out[i] = parent[i]
		}
	}
	return out
}

// TestBodyModes: root, node, file and pattern make the bodies they say,
// with every collider under its body node.
func TestBodyModes(t *testing.T) {
	data := furniture(t)
	for _, c := range []struct {
		mode    BodyMode
		pattern string
		want    []int
	}{
		{BodiesPerRoot, "", []int{0, 3}},
		{BodiesPerNode, "", []int{0, 1, 2, 3}},
		{BodiesByPattern, "^Leg", []int{0, 1, 2, 3}},
		{BodiesByPattern, "^Ball$", []int{0, 3}},
		{BodiesPerFile, "", []int{4}},
	} {
		opt := Options{Collider: ColliderSettings{Method: AABB}, Body: BodySettings{Mode: c.mode}}
		if c.pattern != "" {
			opt.Body.Pattern = regexp.MustCompile(c.pattern)
		}
		g := gen(t, data, opt)
		if got := g.bodyNodes(); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: bodies %v, want %v", c.mode, c.pattern, got, c.want)
		}
		for col, parent := range g.colliderParents() {
			if !slices.Contains(c.want, parent) {
				t.Errorf("%s: collider nodes[%d] is under nodes[%d], not a body", c.mode, col, parent)
			}
		}
		if len(g.colliderParents()) != 4 {
			t.Errorf("%s: %d colliders, want one per mesh instance", c.mode, len(g.colliderParents()))
		}
	}
	// File mode gathers the roots under one body node, without moving
	// anything: the table's world transform is kept.
	g := gen(t, data, Options{Collider: ColliderSettings{Method: AABB}, Body: BodySettings{Mode: BodiesPerFile}})
	if s := g.file.Doc.Scenes[0].Nodes; !slices.Equal(s, []int{4}) || !slices.Equal(g.file.Doc.Nodes[4].Children[:2], []int{0, 3}) {
		t.Errorf("file mode: scene nodes %v, body children %v", s, g.file.Doc.Nodes[4].Children)
	}
	if tr := g.file.Doc.Nodes[0].Translation; tr != [3]float64{2, 0, 0} {
		t.Errorf("file mode moved the table to %v", tr)
	}
}

// TestMotionTypes: static and kinematic bodies carry no mass in either
// family (KHR: static is no motion, kinematic isKinematic); dynamic ones
// carry their mass.
func TestMotionTypes(t *testing.T) {
	data := furniture(t)
	for _, f := range []physics.Family{physics.OMI, physics.KHR} {
		for _, mt := range []physics.MotionType{physics.Static, physics.Kinematic, physics.Dynamic} {
			g := gen(t, data, Options{Collider: ColliderSettings{Method: Box}, Body: BodySettings{Motion: mt}, Encoding: Encoding{Format: f}})
			for _, b := range []int{0, 3} {
				var mo *physics.Motion
				if n := g.model.Nodes[b]; n != nil {
					mo = n.Motion
				}
				switch {
				case f == physics.KHR && mt == physics.Static:
					if mo != nil {
						t.Errorf("%s %s: nodes[%d] has motion %+v", f, mt, b, mo)
					}
				case mo == nil || mo.Type != mt:
					t.Errorf("%s %s: nodes[%d] motion %+v", f, mt, b, mo)
				case (mo.Mass != nil) != (mt == physics.Dynamic) || (mo.InertiaDiagonal != nil) != (mt == physics.Dynamic):
					t.Errorf("%s %s: nodes[%d] mass %v inertia %v", f, mt, b, mo.Mass, mo.InertiaDiagonal)
				}
			}
			for _, br := range g.rep.BodyList {
				if br.Motion != mt {
					t.Errorf("%s %s: body report says %s", f, mt, br.Motion)
				}
			}
		}
	}
}

func ptr(f float64) *float64 { return &f }

// TestMaterialFilterTrigger: every generated collider refers to the
// profile's material and filter; with Trigger they are triggers instead,
// with the filter; and they come after a document's own materials and
// filters.
func TestMaterialFilterTrigger(t *testing.T) {
	mat := &physics.Material{Name: "rubber", StaticFriction: ptr(0.9), DynamicFriction: ptr(0.8), Restitution: ptr(0.7), FrictionCombine: "maximum"}
	filter := &physics.Filter{Name: "props", CollisionSystems: []string{"props"}, NotCollideWithSystems: []string{"ui"}}
	data := furniture(t)
	for _, f := range []physics.Family{physics.OMI, physics.KHR} {
		g := gen(t, data, Options{Collider: ColliderSettings{Method: Sphere}, Body: BodySettings{Material: mat, Filter: filter}, Encoding: Encoding{Format: f}})
		if len(g.model.Materials) != 1 || *g.model.Materials[0].Restitution != 0.7 || g.model.Materials[0].FrictionCombine != "maximum" {
			t.Errorf("%s: materials %+v", f, g.model.Materials)
		}
		if len(g.model.Filters) != 1 || !slices.Equal(g.model.Filters[0].NotCollideWithSystems, []string{"ui"}) {
			t.Errorf("%s: filters %+v", f, g.model.Filters)
		}
		n := 0
		for _, i := range g.model.NodeIndices() {
			if c := g.model.Nodes[i].Collider; c != nil {
				n++
				if c.Material != 0 || c.Filter != 0 {
					t.Errorf("%s: nodes[%d] collider material %d filter %d", f, i, c.Material, c.Filter)
				}
			}
		}
		if n != 4 {
			t.Errorf("%s: %d colliders", f, n)
		}

		g = gen(t, data, Options{Collider: ColliderSettings{Method: Sphere}, Body: BodySettings{Filter: filter, Trigger: true}, Encoding: Encoding{Format: f}})
		n = 0
		for _, i := range g.model.NodeIndices() {
			nd := g.model.Nodes[i]
			if nd.Collider != nil {
				t.Errorf("%s: nodes[%d] is a collider, want a trigger", f, i)
			}
			if tr := nd.Trigger; tr != nil && tr.Shape >= 0 {
				n++
				if tr.Filter != 0 {
					t.Errorf("%s: trigger filter %d", f, tr.Filter)
				}
			}
		}
		if n != 4 || g.rep.Triggers != 4 {
			t.Errorf("%s: %d triggers, report %d", f, n, g.rep.Triggers)
		}
		// The table's mass comes from its closed meshes, not triggers.
		for _, b := range g.rep.BodyList {
			if b.Name == "Table" && (b.MassSource != SourceMesh || b.Mass <= 0) {
				t.Errorf("%s: trigger body %s mass %v from %s", f, b.Name, b.Mass, b.MassSource)
			}
		}
	}
	// A document whose ball already has an artist's body with its own
	// material and filter: the generated ones come after them, and the
	// artist's are kept.
	tree, err := gltfio.ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	exts := gltfio.NewObject()
	exts.Set(physics.ExtOMIShape, mustJSON(t, `{"shapes":[{"type":"sphere","sphere":{"radius":0.2}}]}`))
	exts.Set(physics.ExtOMIBody, mustJSON(t, `{"physicsMaterials":[{"staticFriction":0.1}],"collisionFilters":[{"collisionSystems":["a"]}]}`))
	tree.Set("extensions", exts)
	tree.Set("extensionsUsed", []any{physics.ExtOMIShape, physics.ExtOMIBody})
	ball := gltfio.NewObject()
	ball.Set(physics.ExtOMIBody, mustJSON(t, `{"motion":{"type":"dynamic"},"collider":{"shape":0,"physicsMaterial":0,"collisionFilter":0}}`))
	tree.Arr("nodes")[3].(*gltfio.Object).Set("extensions", ball)
	data2, err := gltfio.Encode(tree, "  ")
	if err != nil {
		t.Fatal(err)
	}
	g := gen(t, data2, Options{Collider: ColliderSettings{Method: Sphere}, Body: BodySettings{Material: mat, Filter: filter}, Encoding: Encoding{Format: physics.OMI}})
	if len(g.model.Materials) != 2 || *g.model.Materials[0].StaticFriction != 0.1 || g.model.Materials[1].Name != "rubber" {
		t.Fatalf("materials %+v", g.model.Materials)
	}
	if len(g.model.Filters) != 2 || g.model.Filters[1].Name != "props" {
		t.Fatalf("filters %+v", g.model.Filters)
	}
	for col, parent := range g.colliderParents() {
		c := g.model.Nodes[col].Collider
		if col == 3 {
			if c.Material != 0 || c.Filter != 0 {
				t.Errorf("the artist's collider now has material %d filter %d", c.Material, c.Filter)
			}
		} else if parent != 0 || c.Material != 1 || c.Filter != 1 {
			t.Errorf("generated collider nodes[%d] material %d filter %d, want 1 and 1", col, c.Material, c.Filter)
		}
	}
}

func mustJSON(t *testing.T, s string) any {
	v, err := gltfio.FromJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRules: the rules see each mesh instance's name, path, mesh name,
// extras, world size and triangle count, and set its method; the part
// report names the rule.
func TestRules(t *testing.T) {
	var seen []NodeInfo
	rules := func(_ context.Context, n NodeInfo) (PartSettings, bool, error) {
		seen = append(seen, n)
		if n.Extras["collide"] == "sphere" {
			return PartSettings{Rule: "tagged", Method: Sphere}, true, nil
		}
		if strings.HasPrefix(n.Path, "Table/") {
			return PartSettings{Rule: "legs", Method: Cylinder, Trigger: true}, true, nil
		}
		if n.Triangles > 100 {
			return PartSettings{Rule: "dense", Method: None}, true, nil
		}
		return PartSettings{}, false, nil
	}
	g := gen(t, furniture(t), Options{Collider: ColliderSettings{Method: AABB}, Rules: rules})
	want := map[string]struct {
		rule   string
		method Method
	}{"Table": {"", AABB}, "Leg0": {"tagged", Sphere}, "Leg1": {"legs", Cylinder}, "Ball": {"dense", None}}
	for _, p := range g.rep.Parts {
		w := want[p.Name]
		if p.Rule != w.rule || p.Method != w.method {
			t.Errorf("%s: rule %q method %s, want %q %s", p.Name, p.Rule, p.Method, w.rule, w.method)
		}
	}
	if g.rep.Bodies != 1 {
		t.Errorf("%d bodies: the ball, with no collider, should have none", g.rep.Bodies)
	}
	// The legs rule makes Leg1 a trigger, and only it.
	for _, i := range g.model.NodeIndices() {
		n := g.model.Nodes[i]
		isLeg1 := strings.HasPrefix(g.file.Doc.Nodes[i].Name, "Leg1.")
		if (n.Trigger != nil) != isLeg1 || (n.Collider != nil) == isLeg1 && n.Motion == nil {
			t.Errorf("nodes[%d] %q: trigger %v collider %v", i, g.file.Doc.Nodes[i].Name, n.Trigger, n.Collider)
		}
	}
	for _, p := range g.rep.Parts {
		if p.Trigger != (p.Name == "Leg1") {
			t.Errorf("%s: trigger %v", p.Name, p.Trigger)
		}
	}
	// Each instance is described once per generation (gen runs twice).
	if len(seen) != 8 {
		t.Fatalf("rules asked %d times", len(seen))
	}
	leg := seen[1]
	if leg.Name != "Leg0" || leg.Path != "Table/Leg0" || leg.Mesh != "LegMesh" || leg.Triangles != 12 {
		t.Errorf("leg info %+v", leg)
	}
	if math.Abs(leg.Size[0]-0.05) > 1e-6 || math.Abs(leg.Size[1]-0.72) > 1e-6 {
		t.Errorf("leg size %v", leg.Size)
	}
	if seen[3].Triangles != 8*16*2-2*16 || seen[0].Extras != nil {
		t.Errorf("ball %+v, table extras %v", seen[3], seen[0].Extras)
	}
}

// TestTrimeshAndNone: trimesh writes the instance's own triangles on a
// static body; on a dynamic one it becomes a decomposition with a
// warning.
func TestTrimeshAndNone(t *testing.T) {
	data := furniture(t)
	// The ball's pole triangles are degenerate and dropped.
	for _, f := range []physics.Family{physics.OMI, physics.KHR} {
		g := gen(t, data, Options{Collider: ColliderSettings{Method: Trimesh}, Body: BodySettings{Motion: physics.Static}, Encoding: Encoding{Format: f}})
		n := 0
		for col := range g.colliderParents() {
			s := g.model.Shapes[g.model.Nodes[col].Collider.Shape]
			if s.Type != physics.Trimesh {
				t.Errorf("%s: nodes[%d] is %s", f, col, s.Type)
				continue
			}
			n++
			idx := g.file.Doc.Accessors[*g.file.Doc.Meshes[s.Mesh].Primitives[0].Indices].Count
			name := g.file.Doc.Nodes[col].Name
			want := map[bool]int{true: 3 * (8*16*2 - 2*16), false: 36}[strings.HasPrefix(name, "Ball")]
			if idx != want {
				t.Errorf("%s: %s trimesh has %d indices, want %d", f, name, idx, want)
			}
		}
		if n != 4 || len(g.rep.Warnings) != 0 {
			t.Errorf("%s: %d trimeshes, warnings %v", f, n, g.rep.Warnings)
		}
	}
	g := gen(t, data, Options{Collider: ColliderSettings{Method: Trimesh}})
	for _, p := range g.rep.Parts {
		if p.Method != Decompose || !strings.Contains(p.Reason, "static") {
			t.Errorf("dynamic trimesh %s: method %s (%q)", p.Name, p.Method, p.Reason)
		}
	}
	if len(g.rep.Warnings) != 4 {
		t.Errorf("warnings %v", g.rep.Warnings)
	}
	// None changes nothing at all, even where a body would have needed a
	// node of its own (file mode) or a scale-cancelling group.
	for _, mode := range []BodyMode{BodiesPerRoot, BodiesPerFile} {
		g = gen(t, data, Options{Collider: ColliderSettings{Method: None}, Body: BodySettings{Mode: mode}})
		if g.rep.Bodies != 0 || len(g.model.Nodes) != 0 || len(g.rep.Parts) != 4 {
			t.Errorf("method none (%s): %d bodies, %d physics nodes, %d parts", mode, g.rep.Bodies, len(g.model.Nodes), len(g.rep.Parts))
		}
		if len(g.file.Doc.Nodes) != 4 {
			t.Errorf("method none (%s): %d nodes, want the input's 4", mode, len(g.file.Doc.Nodes))
		}
	}
	box, boxT := boxMesh(geom.Vec3{}, geom.Vec3{1, 1, 1})
	scaled := buildGLTF(t, []fnode{{name: "Stretched", v: box, t: boxT, scale: geom.Vec3{1, 2, 3}}}, []int{0})
	if g := gen(t, scaled, Options{Collider: ColliderSettings{Method: None}}); len(g.file.Doc.Nodes) != 1 {
		t.Errorf("method none on a scaled root: %d nodes", len(g.file.Doc.Nodes))
	}
	if g := gen(t, scaled, Options{Collider: ColliderSettings{Method: Box}}); len(g.file.Doc.Nodes) != 3 {
		t.Errorf("box on a scaled root: %d nodes, want the root, its scale group and the collider", len(g.file.Doc.Nodes))
	}
}

// TestHullTriangleCap: a closed triangulated hull has 2V-4 triangles, so
// capping vertices at (T+4)/2 keeps each hull within T triangles.
func TestHullTriangleCap(t *testing.T) {
	pts, _ := sphereMesh(1, 20)
	for _, tcap := range []int{255, 60, 20} {
		cs, _, err := Colliders(context.Background(), pts, nil, ColliderSettings{Method: Hull, MaxHullTriangles: tcap}, Run{})
		if err != nil {
			t.Fatal(err)
		}
		h := cs[0].Hull
		if len(h.Triangles) > tcap || len(h.Triangles) != 2*len(h.Vertices)-4 {
			t.Errorf("cap %d: %d triangles, %d vertices", tcap, len(h.Triangles), len(h.Vertices))
		}
	}
	if o := hullOptions(ColliderSettings{MaxHullVertices: 64, MaxHullTriangles: 255}); o.MaxVertices != 64 {
		t.Errorf("a lower vertex cap is kept: %d", o.MaxVertices)
	}
	if o := hullOptions(ColliderSettings{MaxHullTriangles: 255}); o.MaxVertices != 129 {
		t.Errorf("255 triangles: %d vertices", o.MaxVertices)
	}
	if o := hullOptions(ColliderSettings{MaxHullFaces: 30}); o.MaxFaces != 30 || o.MaxVertices != 0 {
		t.Errorf("face cap %+v", o)
	}
	h, err := hull.Build(pts, hullOptions(ColliderSettings{MaxHullFaces: 30}))
	if err != nil || hull.PolygonCount(h.Vertices, h.Triangles, hull.CoplanarTolerance) > 30 {
		t.Errorf("face cap: %v", err)
	}
}

// TestBadBodySettings: settings no body can be made from are refused
// with an error that names them, before anything is changed.
func TestBadBodySettings(t *testing.T) {
	for _, c := range []struct {
		b    BodySettings
		want string
	}{
		{BodySettings{Mode: "scene"}, `body mode "scene"`},
		{BodySettings{Mode: BodiesByPattern}, "needs a pattern"},
		{BodySettings{Motion: "floating"}, `motion "floating"`},
	} {
		path := filepath.Join(t.TempDir(), "in.gltf")
		if err := os.WriteFile(path, furniture(t), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := gltfio.Load(path, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		before, _ := a.Encode(false)
		_, err = Asset(context.Background(), a, Options{Body: c.b})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.b, err, c.want)
		}
		if after, _ := a.Encode(false); !bytes.Equal(before, after) {
			t.Errorf("%+v: the asset changed", c.b)
		}
	}
}

// TestCapsuleHeightPositive: a capsule fitted to a round part (whose best
// capsule is a sphere) still has a positive height, as both schemas
// require, and still contains the part.
func TestCapsuleHeightPositive(t *testing.T) {
	pts, tris := sphereMesh(0.5, 24)
	cs, _, err := Colliders(context.Background(), pts, tris, ColliderSettings{Method: Capsule}, Run{})
	if err != nil {
		t.Fatal(err)
	}
	s := cs[0].Shape
	if !(s.Height > 0) {
		t.Fatalf("capsule height %v", s.Height)
	}
	inv := geom.TRS(cs[0].Translation, cs[0].Rotation, geom.Vec3{1, 1, 1})
	inv, _ = inv.Inverse()
	for _, p := range pts {
		q := inv.Point(p)
		y := math.Max(-s.Height/2, math.Min(s.Height/2, q[1]))
		if d := q.Sub(geom.Vec3{0, y, 0}).Len(); d > s.RadiusTop+1e-9 {
			t.Fatalf("point %v outside the capsule by %g", p, d-s.RadiusTop)
		}
	}
}

// TestRuleAutoSettings: a rule's AutoTolerance and HullFill reach auto
// for the instances it matches, and only those. With no tolerance left,
// the ball auto otherwise makes a sphere gets no primitive, and the closed
// leg gets one hull when the rule's fill allows it, else a decomposition.
func TestRuleAutoSettings(t *testing.T) {
	reasons := map[string]string{}
	methods := func(rule PartSettings) map[string]Method {
		rules := func(_ context.Context, n NodeInfo) (PartSettings, bool, error) {
			return rule, n.Name == "Ball" || n.Name == "Leg1", nil
		}
		g := gen(t, furniture(t), Options{Collider: ColliderSettings{Method: Auto}, Rules: rules})
		m := map[string]Method{}
		for _, p := range g.rep.Parts {
			m[p.Name], reasons[p.Name] = p.Method, p.Reason
		}
		return m
	}
	plain := methods(PartSettings{})
	if plain["Ball"] != Sphere || plain["Leg1"] != Box {
		t.Fatalf("auto made the ball a %s and Leg1 a %s, want a sphere and a box (the test's premise)", plain["Ball"], plain["Leg1"])
	}
	for _, c := range []struct {
		fill float64
		leg  Method
	}{{0.5, Hull}, {2, Decompose}} {
		got := methods(PartSettings{Rule: "exact", AutoTolerance: 1e-12, HullFill: c.fill})
		if got["Ball"] == Sphere || got["Leg1"] != c.leg {
			t.Errorf("tolerance 1e-12, fill %v: ball %s, Leg1 %s; want no sphere and %s (%v)", c.fill, got["Ball"], got["Leg1"], c.leg, reasons)
		}
		for name, m := range plain {
			if name != "Ball" && name != "Leg1" && got[name] != m {
				t.Errorf("fill %v: %s is %s with the rule, %s without", c.fill, name, got[name], m)
			}
		}
	}
}
