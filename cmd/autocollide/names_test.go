package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/autocollide/autocollide/enginenames"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/qmuntal/gltf"
)

// nameMethods are the methods the engine-name round trips run.
var nameMethods = []string{"box", "sphere", "capsule", "hull", "decompose"}

// nameRun is one corpus asset generated with one method as OMI, unreal
// and (but for decompose) godot-names.
type nameRun struct {
	in, method             string
	omi, unreal, godot     string
	omiAsset, input        *gltfio.Asset
	omiModel               *physics.Model
	omiWorld               []geom.Mat4
	unrealAsset, godotFile *gltfio.Asset
}

// slowNames are the corpus assets whose decomposition (or hull) takes
// tens of seconds: -short leaves them out of the round trips.
var slowNames = []string{"ToyCar", "SheenCloth", "MetalRoughSpheresNoTextures", "Fox", "CesiumMilkTruck", "BoomBox"}

var (
	namesOnce sync.Once
	namesRuns []nameRun
	namesDir  string
)

// generateNames runs every corpus asset with every method in the three
// formats (all of them but the slow ones with -short), once per test
// binary.
func generateNames(t *testing.T) []nameRun {
	t.Helper()
	namesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "autocollide-names-")
		if err != nil {
			t.Fatal(err)
		}
		namesDir = dir
		namesRuns = makeNames(t, dir)
	})
	if len(namesRuns) == 0 {
		t.Fatal("no engine-name runs")
	}
	return namesRuns
}

func makeNames(t *testing.T, dir string) []nameRun {
	var runs []nameRun
	for i, in := range testassets.Corpus(t) {
		if testing.Short() && slices.ContainsFunc(slowNames, func(s string) bool { return strings.Contains(in, "/"+s+"/") }) {
			continue
		}
		for _, method := range nameMethods {
			r := nameRun{in: in, method: method}
			formats := []string{"omi", "unreal", "godot-names"}
			if method == "decompose" {
				// Godot's writer treats a decomposition's hulls as it
				// treats one hull: the costliest method runs twice, not
				// three times.
				formats = formats[:2]
			}
			for _, f := range formats {
				out := filepath.Join(dir, fmt.Sprintf("%02d-%s-%s%s", i, method, f, filepath.Ext(in)))
				if code, _, stderr := runCLI("generate", in, "-o", out, "--method", method, "--format", f, "-q"); code != 0 {
					t.Fatalf("%s (%s, %s): exit %d: %s", in, method, f, code, stderr)
				}
				switch f {
				case "omi":
					r.omi = out
				case "unreal":
					r.unreal = out
				default:
					r.godot = out
				}
			}
			var err error
			load := func(p string) *gltfio.Asset {
				a, err := gltfio.LoadRaw(p, gltfio.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			r.input, r.omiAsset, r.unrealAsset = load(in), load(r.omi), load(r.unreal)
			if r.godot != "" {
				r.godotFile = load(r.godot)
			}
			if r.omiModel, _, err = omi.Decode(r.omiAsset.Doc); err != nil {
				t.Fatal(err)
			}
			if r.omiWorld, err = mesh.WorldTransforms(r.omiAsset.Doc); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, r)
		}
	}
	return runs
}

// omiCollider is a collider of the OMI output in world space.
type omiCollider struct {
	node  int
	shape physics.Shape
	pose  geom.Mat4
	verts []geom.Vec3 // convex and trimesh, world space
}

// omiColliders returns the generated colliders of the OMI output by node.
func (r *nameRun) omiColliders(t *testing.T) map[int]omiCollider {
	out := map[int]omiCollider{}
	for _, idx := range r.omiModel.NodeIndices() {
		n := r.omiModel.Nodes[idx]
		if n.Collider == nil || !generated(r.omiAsset, idx) {
			continue
		}
		c := omiCollider{node: idx, shape: r.omiModel.Shapes[n.Collider.Shape], pose: r.omiWorld[idx]}
		if c.shape.Type == physics.Convex || c.shape.Type == physics.Trimesh {
			pos, _, err := mesh.Primitive(r.omiAsset.Doc, r.omiAsset.Doc.Meshes[c.shape.Mesh].Primitives[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range pos {
				c.verts = append(c.verts, c.pose.Point(v))
			}
		}
		out[idx] = c
	}
	return out
}

// size is a shape's largest dimension (the round trip's tolerance scale).
func size(s physics.Shape, verts []geom.Vec3) float64 {
	switch s.Type {
	case physics.Box:
		return max(s.Size[0], s.Size[1], s.Size[2])
	case physics.Sphere:
		return 2 * s.Radius
	case physics.Capsule:
		return s.Height + 2*max(s.RadiusTop, s.RadiusBottom)
	}
	return geom.BoundsOf(verts).Diagonal()
}

// keyPoints are points that pin a primitive down in world space: a box's
// corners, a sphere's centre and axis ends, a capsule's hemisphere
// centres (unordered: a capsule turned end over end is the same).
func keyPoints(s physics.Shape, pose geom.Mat4) []geom.Vec3 {
	var local []geom.Vec3
	switch s.Type {
	case physics.Box:
		for i := 0; i < 8; i++ {
			local = append(local, geom.Vec3{
				(float64(i&1) - 0.5) * s.Size[0], (float64(i>>1&1) - 0.5) * s.Size[1], (float64(i>>2&1) - 0.5) * s.Size[2]})
		}
	case physics.Sphere:
		local = []geom.Vec3{{}}
	case physics.Capsule:
		local = []geom.Vec3{{0, s.Height / 2, 0}, {0, -s.Height / 2, 0}}
	}
	out := make([]geom.Vec3, len(local))
	for i, p := range local {
		out[i] = pose.Point(p)
	}
	return out
}

// sameSet says whether every point of a has one of b within tol and the
// counts agree.
func sameSet(a, b []geom.Vec3, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for _, p := range a {
		if !slices.ContainsFunc(b, func(q geom.Vec3) bool { return p.Sub(q).Len() <= tol }) {
			return false
		}
	}
	return true
}

// TestUnrealRoundTrip: reading the unreal output back with the naming
// reader gives the OMI output's colliders (same node, type, pose within
// 1e-5 of the size, same hull vertices), each beside its render node and
// on the same body; every input vertex lies inside them; the output has
// no physics extension; and the Khronos validator reports no error the
// input lacked.
func TestUnrealRoundTrip(t *testing.T) {
	runs := generateNames(t)
	var files []string
	seen := map[string]bool{}
	for _, r := range runs {
		files = append(files, r.unreal)
		if r.godot != "" {
			files = append(files, r.godot)
		}
		if !seen[r.in] {
			files = append(files, r.in)
			seen[r.in] = true
		}
		label := fmt.Sprintf("%s (%s)", filepath.Base(r.in), r.method)
		if f := codecs.Family(r.unrealAsset.Doc); f != physics.None {
			t.Errorf("%s: unreal output carries %s physics", label, f)
		}
		want := r.omiColliders(t)
		got, err := enginenames.ReadUnreal(r.unrealAsset.Doc)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d Unreal collision meshes, OMI has %d colliders", label, len(got), len(want))
		}
		roots := rootsOf(r.unrealAsset.Doc)
		omiRoots := rootsOf(r.omiAsset.Doc)
		for _, g := range got {
			w, ok := want[g.Node]
			if !ok {
				t.Errorf("%s: nodes[%d]: a collision mesh where OMI has no collider", label, g.Node)
				continue
			}
			// Unreal has no cylinder: one is written as a UCX_ mesh around
			// it (enginenames' doc), which namedContain below still holds
			// to every input vertex. decompose's parts can be cylinders.
			ucxCylinder := w.shape.Type == physics.Cylinder && g.Shape.Type == physics.Convex
			if g.Shape.Type != w.shape.Type && !ucxCylinder {
				t.Errorf("%s: nodes[%d]: %s, OMI has %s", label, g.Node, g.Shape.Type, w.shape.Type)
				continue
			}
			// A skinned render node's body is its skeleton root's (#29: no
			// body on a skinned mesh node), while Unreal's collision mesh
			// goes beside the mesh it is named after.
			if roots[g.Render] != omiRoots[g.Node] && r.unrealAsset.Doc.Nodes[g.Render].Skin == nil {
				t.Errorf("%s: nodes[%d]: render node %d is on body %d, OMI's collider on %d", label, g.Node, g.Render, roots[g.Render], omiRoots[g.Node])
			}
			tol := 1e-5 * size(w.shape, w.verts)
			switch {
			case ucxCylinder:
			case g.Shape.Type == physics.Convex:
				if !sameSet(g.Vertices, w.verts, tol) {
					t.Errorf("%s: nodes[%d]: hull vertices differ", label, g.Node)
				}
			default:
				if !sameSet(keyPoints(g.Shape, g.Pose), keyPoints(w.shape, w.pose), tol) ||
					math.Abs(g.Shape.Radius-w.shape.Radius) > tol || math.Abs(g.Shape.RadiusTop-w.shape.RadiusTop) > tol {
					t.Errorf("%s: nodes[%d]: %+v at %v, OMI has %+v at %v", label, g.Node, g.Shape, g.Pose.Translation(), w.shape, w.pose.Translation())
				}
			}
		}
		if err := namedContain(r.input, got, roots); err != nil {
			t.Errorf("%s: %v", label, err)
		}
	}
	res := runValidator(t, files)
	for _, r := range runs {
		had := map[string]bool{}
		for _, c := range res[r.in].Codes {
			had[c] = true
		}
		for _, out := range []string{r.unreal, r.godot} {
			if out == "" {
				continue
			}
			v := res[out]
			var fresh []string
			for _, c := range v.Codes {
				if !had[c] {
					fresh = append(fresh, c)
				}
			}
			if v.Errors < 0 || len(fresh) > 0 {
				t.Errorf("%s (%s): validator errors the input lacked: %v", filepath.Base(out), r.method, fresh)
			}
		}
	}
}

// bodyNode returns the node of the body n belongs to in doc: n or its
// nearest ancestor with a motion in m (-1 for none).
func bodyNode(doc *gltf.Document, m *physics.Model, n int) int {
	parent := physics.Parents(doc)
	for ; n >= 0; n = parent[n] {
		if nd := m.Nodes[n]; nd != nil && nd.Motion != nil {
			return n
		}
	}
	return -1
}

// rootsOf maps every node to its root.
func rootsOf(doc *gltf.Document) map[int]int {
	parent := map[int]int{}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	out := map[int]int{}
	for i := range doc.Nodes {
		r := i
		for {
			p, ok := parent[r]
			if !ok {
				break
			}
			r = p
		}
		out[i] = r
	}
	return out
}

// namedContain checks that every vertex of the input's parts lies inside
// one of the shapes on its body (the shapes' render nodes' root).
func namedContain(in *gltfio.Asset, shapes []enginenames.NamedShape, roots map[int]int) error {
	type placed struct {
		inv    geom.Mat4
		shape  physics.Shape
		planes [][2]geom.Vec3
	}
	byRoot := map[int][]placed{}
	for _, s := range shapes {
		root := s.Node
		if s.Render >= 0 {
			root = s.Render
		}
		inv, ok := s.Pose.Inverse()
		if !ok {
			return fmt.Errorf("nodes[%d]: singular pose", s.Node)
		}
		p := placed{inv: inv, shape: s.Shape}
		for _, tr := range s.Triangles {
			a, b, c := s.Vertices[tr[0]], s.Vertices[tr[1]], s.Vertices[tr[2]]
			if n := b.Sub(a).Cross(c.Sub(a)); n.Len() > 0 {
				p.planes = append(p.planes, [2]geom.Vec3{a, n.Normalize()})
			}
		}
		byRoot[roots[root]] = append(byRoot[roots[root]], p)
	}
	ex, err := mesh.Extract(in.Doc)
	if err != nil {
		return err
	}
	for _, part := range ex.Parts {
		cs, ok := byRoot[part.Root]
		if !ok {
			continue
		}
		tol := containTol * geom.BoundsOf(part.Vertices).Diagonal()
		for vi, v := range part.Vertices {
			if !slices.ContainsFunc(cs, func(c placed) bool { return contains(c.shape, c.planes, c.inv.Point(v), tol) }) {
				return fmt.Errorf("%s: vertex %d %v lies outside every collision mesh of its body", part.Name, vi, v)
			}
		}
	}
	return nil
}

// unrealPattern is the name of a generated collision mesh: prefix, render
// name, an index of two digits (three from 100).
var unrealPattern = regexp.MustCompile(`^(UCX|UBX|USP|UCP)_(.+)_(\d{2}|[1-9]\d{2,})$`)

// TestUnrealNameRules: every generated collision node follows Unreal's
// rules as the README quotes them: the name pattern with indices 00, 01,
// ... per prefix and render mesh; its own mesh (one per hull), one
// TRIANGLES primitive without material; a UCX_ mesh convex, closed and
// of at most 255 vertices; a UBX_/USP_/UCP_ mesh the exact primitive,
// axis-aligned and centred in an undeformed (rigid) node; and the node
// hidden with KHR_node_visibility.
func TestUnrealNameRules(t *testing.T) {
	for _, r := range generateNames(t) {
		label := fmt.Sprintf("%s (%s)", filepath.Base(r.in), r.method)
		doc := r.unrealAsset.Doc
		world, err := mesh.WorldTransforms(doc)
		if err != nil {
			t.Fatal(err)
		}
		meshUsers := map[int]int{}
		for _, n := range doc.Nodes {
			if n.Mesh != nil {
				meshUsers[*n.Mesh]++
			}
		}
		indices := map[string][]int{}
		for i, n := range doc.Nodes {
			if !generated(r.unrealAsset, i) || n.Mesh == nil {
				continue
			}
			parts := unrealPattern.FindStringSubmatch(n.Name)
			if parts == nil {
				t.Errorf("%s: nodes[%d] %q: not an Unreal collision name", label, i, n.Name)
				continue
			}
			k, _ := strconv.Atoi(parts[3])
			indices[parts[1]+"_"+parts[2]] = append(indices[parts[1]+"_"+parts[2]], k)
			if doc.Meshes[*n.Mesh].Name != n.Name || meshUsers[*n.Mesh] != 1 {
				t.Errorf("%s: %s: mesh %q shared by %d nodes", label, n.Name, doc.Meshes[*n.Mesh].Name, meshUsers[*n.Mesh])
			}
			prims := doc.Meshes[*n.Mesh].Primitives
			if len(prims) != 1 || prims[0].Material != nil || prims[0].Mode != gltf.PrimitiveTriangles {
				t.Errorf("%s: %s: want one TRIANGLES primitive without material", label, n.Name)
				continue
			}
			if v, ok := n.Extensions[enginenames.ExtVisibility]; !ok || !strings.Contains(fmt.Sprintf("%s", v), "false") {
				t.Errorf("%s: %s: not hidden with %s (%v)", label, n.Name, enginenames.ExtVisibility, v)
			}
			pos, idx, err := mesh.Primitive(doc, prims[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := checkClosedConvex(pos, idx); err != nil {
				t.Errorf("%s: %s: %v", label, n.Name, err)
			}
			if parts[1] == "UCX" {
				if len(pos) > enginenames.MaxHullVertices {
					t.Errorf("%s: %s: %d vertices", label, n.Name, len(pos))
				}
				continue
			}
			if err := checkRigid(world[i]); err != nil {
				t.Errorf("%s: %s: node deformed: %v", label, n.Name, err)
			}
			if err := checkPrimitive(parts[1], pos); err != nil {
				t.Errorf("%s: %s: %v", label, n.Name, err)
			}
		}
		for key, ks := range indices {
			slices.Sort(ks)
			for j, k := range ks {
				if k != j {
					t.Errorf("%s: %s: indices %v, want 0..%d", label, key, ks, len(ks)-1)
					break
				}
			}
		}
	}
}

// checkClosedConvex: every edge is shared by two faces wound oppositely,
// and no vertex lies outside a face's plane.
func checkClosedConvex(pos []geom.Vec3, idx []uint32) error {
	edges := map[[2]uint32]int{}
	diag := geom.BoundsOf(pos).Diagonal()
	for i := 0; i+2 < len(idx); i += 3 {
		t := [3]uint32{idx[i], idx[i+1], idx[i+2]}
		for k := 0; k < 3; k++ {
			edges[[2]uint32{t[k], t[(k+1)%3]}]++
		}
		a, b, c := pos[t[0]], pos[t[1]], pos[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Len() == 0 {
			continue
		}
		n = n.Normalize()
		for vi, v := range pos {
			if d := v.Sub(a).Dot(n); d > 1e-5*diag {
				return fmt.Errorf("vertex %d lies %g outside face %d: not convex (or wound inward)", vi, d, i/3)
			}
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]uint32{e[1], e[0]}] != 1 {
			return fmt.Errorf("edge %v used %d times, its reverse %d: not closed", e, n, edges[[2]uint32{e[1], e[0]}])
		}
	}
	return nil
}

// checkRigid: the node's world transform has orthonormal axes.
func checkRigid(w geom.Mat4) error {
	lin := w.Linear()
	for i := 0; i < 3; i++ {
		if d := math.Abs(lin.Col(i).Len() - 1); d > 1e-6 {
			return fmt.Errorf("axis %d scaled by %g", i, lin.Col(i).Len())
		}
		for j := i + 1; j < 3; j++ {
			if d := math.Abs(lin.Col(i).Dot(lin.Col(j))); d > 1e-6 {
				return fmt.Errorf("axes %d and %d not orthogonal", i, j)
			}
		}
	}
	return nil
}

// checkPrimitive: a UBX_ mesh is the 8 corners of a box centred on the
// node's origin along its axes; a USP_ mesh's vertices lie on a sphere
// about the origin; a UCP_ mesh's on a capsule along +Y (Unreal's Z).
func checkPrimitive(prefix string, pos []geom.Vec3) error {
	b := geom.BoundsOf(pos)
	half := b.Max
	tol := 1e-6 * b.Diagonal()
	if b.Min.Add(b.Max).Len() > tol {
		return fmt.Errorf("not centred on the node: bounds %v", b)
	}
	switch prefix {
	case "UBX":
		if len(pos) != 8 {
			return fmt.Errorf("a box of %d vertices", len(pos))
		}
		for _, p := range pos {
			for c := 0; c < 3; c++ {
				if math.Abs(math.Abs(p[c])-half[c]) > tol {
					return fmt.Errorf("vertex %v is not a corner of the box %v", p, half)
				}
			}
		}
	case "USP":
		for _, p := range pos {
			if math.Abs(p.Len()-half[0]) > tol {
				return fmt.Errorf("vertex %v off the sphere of radius %g", p, half[0])
			}
		}
	case "UCP":
		r := half[0]
		if half[1] < r-tol {
			return fmt.Errorf("capsule not along +Y: half extents %v", half)
		}
		h := half[1] - r
		for _, p := range pos {
			y := math.Max(-h, math.Min(h, p[1]))
			if math.Abs(p.Sub(geom.Vec3{0, y, 0}).Len()-r) > tol {
				return fmt.Errorf("vertex %v off the capsule r=%g h=%g", p, r, 2*h)
			}
		}
	}
	return nil
}

// TestGodotNamesRoundTrip: reading the godot-names output back with the
// Godot reader gives (for every method but decompose, whose hulls take
// the hull method's path) the OMI output's bodies (same nodes, dynamic as
// -rigid, static otherwise) and colliders (same nodes; hulls with the
// same vertices, boxes as their 8 corners, spheres and capsules as convex
// meshes around them, at most 10% of the size away), and every input
// vertex lies inside them.
func TestGodotNamesRoundTrip(t *testing.T) {
	for _, r := range generateNames(t) {
		if r.godotFile == nil {
			continue
		}
		label := fmt.Sprintf("%s (%s)", filepath.Base(r.in), r.method)
		if f := codecs.Family(r.godotFile.Doc); f != physics.None {
			t.Errorf("%s: godot-names output carries %s physics", label, f)
		}
		bodies, err := enginenames.ReadGodot(r.godotFile.Doc)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		want := r.omiColliders(t)
		wantBodies := map[int]physics.MotionType{}
		for _, idx := range r.omiModel.NodeIndices() {
			if mo := r.omiModel.Nodes[idx].Motion; mo != nil && len(r.omiModel.Nodes) > 0 {
				m := mo.Type
				if m == physics.Kinematic {
					m = physics.Static
				}
				wantBodies[idx] = m
			}
		}
		var shapes []enginenames.NamedShape
		got := 0
		for _, b := range bodies {
			if m, ok := wantBodies[b.Node]; !ok || m != b.Motion {
				t.Errorf("%s: body nodes[%d] %s, OMI has %q", label, b.Node, b.Motion, m)
			}
			delete(wantBodies, b.Node)
			for _, s := range b.Shapes {
				got++
				shapes = append(shapes, s)
				w, ok := want[s.Node]
				if !ok || bodyNode(r.omiAsset.Doc, r.omiModel, s.Node) != b.Node {
					t.Errorf("%s: nodes[%d]: a collider of body %d where OMI has none", label, s.Node, b.Node)
					continue
				}
				if err := sameGodot(s, w); err != nil {
					t.Errorf("%s: nodes[%d]: %v", label, s.Node, err)
				}
			}
		}
		if len(wantBodies) > 0 {
			t.Errorf("%s: OMI bodies missing: %v", label, wantBodies)
		}
		if got != len(want) {
			t.Errorf("%s: %d colliders, OMI has %d", label, got, len(want))
		}
		if err := namedContain(r.input, shapes, rootsOf(r.godotFile.Doc)); err != nil {
			t.Errorf("%s: %v", label, err)
		}
	}
}

// sameGodot compares a Godot convex or trimesh collider with the OMI
// collider of the same node.
func sameGodot(s enginenames.NamedShape, w omiCollider) error {
	tol := 1e-5 * size(w.shape, w.verts)
	switch w.shape.Type {
	case physics.Convex, physics.Trimesh:
		if s.Shape.Type != w.shape.Type || !sameSet(s.Vertices, w.verts, tol) {
			return fmt.Errorf("%s of %d vertices, OMI has %s of %d", s.Shape.Type, len(s.Vertices), w.shape.Type, len(w.verts))
		}
	case physics.Box:
		if s.Shape.Type != physics.Convex || !sameSet(s.Vertices, keyPoints(w.shape, w.pose), tol) {
			return fmt.Errorf("not the box's corners")
		}
	case physics.Sphere, physics.Capsule:
		if s.Shape.Type != physics.Convex {
			return fmt.Errorf("%s, want convex", s.Shape.Type)
		}
		inv, _ := w.pose.Inverse()
		big := w.shape
		big.Radius *= 1.1
		big.RadiusTop *= 1.1
		big.RadiusBottom *= 1.1
		for _, v := range s.Vertices {
			p := inv.Point(v)
			if contains(w.shape, nil, p, -tol) || !contains(big, nil, p, tol) {
				return fmt.Errorf("vertex %v is not on a cover of the %s", p, w.shape.Type)
			}
		}
	default:
		return fmt.Errorf("unexpected OMI %s", w.shape.Type)
	}
	return nil
}

// TestUnrealKeepsArtistMeshes: an input with the artist's UCX_ mesh for
// Chair keeps it as it was (its node still renders it) and nothing new
// is named for Chair; the naming reader finds exactly the artist's mesh.
func TestUnrealKeepsArtistMeshes(t *testing.T) {
	in := filepath.Join(testassets.Repo(), "testdata", "naming", "ucx_hull.gltf")
	out := filepath.Join(t.TempDir(), "out.gltf")
	if code, _, stderr := runCLI("generate", in, "-o", out, "--format", "unreal"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	src, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if n := a.Doc.Nodes[1]; n.Mesh == nil || *n.Mesh != *src.Doc.Nodes[1].Mesh || n.Name != "UCX_Chair_01" {
		t.Errorf("the artist's UCX_ node changed: %+v", n)
	}
	got, err := enginenames.ReadUnreal(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Node != 1 || got[0].Render != 0 {
		t.Errorf("collision meshes %+v, want the artist's alone", got)
	}
}

// TestEngineNamesRerun: generating again on an unreal or godot-names
// output replaces what the first run wrote (same bytes), and an OMI run
// on it gives what an OMI run on the input gives; the run's JSON report
// follows the report schema.
func TestEngineNamesRerun(t *testing.T) {
	dir := t.TempDir()
	in := example(t)
	gen := func(src, out, format string, more ...string) []byte {
		t.Helper()
		if code, _, stderr := runCLI(append([]string{"generate", src, "-o", out, "--format", format}, more...)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	omiDirect := gen(in, filepath.Join(dir, "omi.glb"), "omi")
	for _, f := range []string{"unreal", "godot-names"} {
		first := filepath.Join(dir, f+"1.glb")
		report := filepath.Join(dir, f+".json")
		a := gen(in, first, f, "--report", report)
		if r, _ := readReport(t, report); len(r.Assets) != 1 || r.Assets[0].Bodies == 0 {
			t.Errorf("%s: the report has no asset with bodies", f)
		}
		if b := gen(first, filepath.Join(dir, f+"2.glb"), f); !slices.Equal(a, b) {
			t.Errorf("%s: a second run changed the output", f)
		}
		if b := gen(first, filepath.Join(dir, f+"-omi.glb"), "omi"); !slices.Equal(omiDirect, b) {
			t.Errorf("%s: OMI from its output differs from OMI from the input", f)
		}
	}
}

// TestUnrealLimits: a hull over 255 vertices is refused with the flag
// that fixes it; a trimesh collider and a trigger, which Unreal's names
// cannot hold, are left out with a warning each; --format lists the
// engine formats.
func TestUnrealLimits(t *testing.T) {
	dir := t.TempDir()
	duck := filepath.Join(testassets.Shared(t), "corpus", "Duck", "glTF-Binary", "Duck.glb")
	code, _, stderr := runCLI("generate", duck, "-o", filepath.Join(dir, "d.glb"), "--format", "unreal", "--method", "hull", "--max-hull-vertices", "400")
	if code != 1 || !strings.Contains(stderr, "at most 255") || !strings.Contains(stderr, "--max-hull-vertices 255") {
		t.Errorf("a 400-vertex hull: exit %d: %s", code, stderr)
	}
	for _, c := range []struct{ profile, want string }{{"static-level", "triangle meshes"}, {"pickup", "triggers"}} {
		out := filepath.Join(dir, c.profile+".glb")
		code, _, stderr := runCLI("generate", example(t), "-o", out, "--format", "unreal", "--profile", c.profile, "--method", map[string]string{"static-level": "trimesh", "pickup": "sphere"}[c.profile])
		if code != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d: %s", c.profile, code, stderr)
		}
		a, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := enginenames.ReadUnreal(a.Doc); len(got) != 0 {
			t.Errorf("%s: %d collision meshes, want none", c.profile, len(got))
		}
	}
	code, _, stderr = runCLI("generate", example(t), "-o", filepath.Join(dir, "x.glb"), "--format", "unity")
	if code != 2 || !strings.Contains(stderr, "want one of omi, khr, unreal, godot-names") {
		t.Errorf("--format unity: exit %d: %s", code, stderr)
	}
}
