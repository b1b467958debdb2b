package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
)

// TestCorpusContainment: every vertex of a generated body lies inside one
// of its colliders, checked in world space from what the file says.
func TestCorpusContainment(t *testing.T) {
	for _, r := range generateCorpus(t) {
		a, err := gltfio.LoadRaw(r.out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if err := checkContainment(a); err != nil {
			t.Errorf("%s (%s): %v", r.in, r.format, err)
		}
	}
}

// containTol is the containment tolerance relative to a body's diagonal:
// hull vertices are stored as float32, whose rounding is about 6e-8 of a
// coordinate's magnitude.
const containTol = 1e-5

// worldCollider is a collider with its world transform inverted.
type worldCollider struct {
	inv    geom.Mat4
	shape  physics.Shape
	planes [][2]geom.Vec3 // convex: a point and the outward normal of each face
}

// checkContainment decodes the physics the file carries (either family)
// and checks every vertex of each generated body against its colliders.
func checkContainment(a *gltfio.Asset) error {
	var models []*physics.Model
	fam := codecs.Family(a.Doc)
	if fam == physics.OMI || fam == physics.Both {
		m, _, err := omi.Decode(a.Doc)
		if err != nil {
			return err
		}
		models = append(models, m)
	}
	if fam == physics.KHR || fam == physics.Both {
		m, _, err := khr.Decode(a.Doc)
		if err != nil {
			return err
		}
		models = append(models, m)
	}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		return err
	}
	world, err := mesh.WorldTransforms(a.Doc)
	if err != nil {
		return err
	}
	parent := map[int]int{}
	for i, n := range a.Doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	rootOf := func(n int) int {
		for {
			p, ok := parent[n]
			if !ok {
				return n
			}
			n = p
		}
	}
	colliders := map[int][]worldCollider{}
	for _, model := range models {
		for _, idx := range model.NodeIndices() {
			n := model.Nodes[idx]
			if n.Collider == nil || n.Collider.Shape < 0 || !generated(a, idx) {
				continue
			}
			inv, ok := world[idx].Inverse()
			if !ok {
				return fmt.Errorf("nodes[%d]: singular collider transform", idx)
			}
			c := worldCollider{inv: inv, shape: model.Shapes[n.Collider.Shape]}
			if c.shape.Type == physics.Convex {
				if c.planes, err = hullPlanes(a, c.shape.Mesh); err != nil {
					return err
				}
			}
			colliders[rootOf(idx)] = append(colliders[rootOf(idx)], c)
		}
	}
	for _, p := range ex.Parts {
		cs, ok := colliders[p.Root]
		if !ok {
			continue // an authored body, or no body
		}
		tol := containTol * geom.BoundsOf(p.Vertices).Diagonal()
		for vi, v := range p.Vertices {
			inside := false
			for _, c := range cs {
				if contains(c.shape, c.planes, c.inv.Point(v), tol) {
					inside = true
					break
				}
			}
			if !inside {
				return fmt.Errorf("%s: vertex %d %v lies outside every collider of its body", p.Name, vi, v)
			}
		}
	}
	return nil
}

// generated reports whether node i carries autocollide's mark.
func generated(a *gltfio.Asset, i int) bool {
	n, _ := a.Tree.Arr("nodes")[i].(*gltfio.Object)
	g, _ := n.Obj("extras").Obj(gltfio.MarkKey).Get("generated")
	return g == true
}

func hullPlanes(a *gltfio.Asset, m int) ([][2]geom.Vec3, error) {
	prim := a.Doc.Meshes[m].Primitives[0]
	pos, idxs, err := mesh.Primitive(a.Doc, prim)
	if err != nil {
		return nil, err
	}
	var planes [][2]geom.Vec3
	for i := 0; i+2 < len(idxs); i += 3 {
		p0, p1, p2 := pos[idxs[i]], pos[idxs[i+1]], pos[idxs[i+2]]
		n := p1.Sub(p0).Cross(p2.Sub(p0))
		if n.Len() == 0 {
			continue
		}
		planes = append(planes, [2]geom.Vec3{p0, n.Normalize()})
	}
	if len(planes) < 4 {
		return nil, fmt.Errorf("meshes[%d]: hull with %d faces", m, len(planes))
	}
	return planes, nil
}

// contains tests a point in the collider's local frame.
func contains(s physics.Shape, planes [][2]geom.Vec3, p geom.Vec3, tol float64) bool {
	switch s.Type {
	case physics.Box:
		for c := 0; c < 3; c++ {
			if math.Abs(p[c]) > s.Size[c]/2+tol {
				return false
			}
		}
		return true
	case physics.Sphere:
		return p.Len() <= s.Radius+tol
	case physics.Capsule:
		// Segment along Y between the hemisphere centres; radii may taper.
		h := s.Height / 2
		y := math.Max(-h, math.Min(h, p[1]))
		r := s.RadiusBottom
		if s.Height > 0 {
			r += (s.RadiusTop - s.RadiusBottom) * (y + h) / s.Height
		}
		return p.Sub(geom.Vec3{0, y, 0}).Len() <= r+tol
	case physics.Cylinder:
		h := s.Height / 2
		if math.Abs(p[1]) > h+tol {
			return false
		}
		r := s.RadiusBottom + (s.RadiusTop-s.RadiusBottom)*(p[1]+h)/math.Max(s.Height, 1e-300)
		return math.Hypot(p[0], p[2]) <= r+tol
	case physics.Convex:
		for _, pl := range planes {
			if p.Sub(pl[0]).Dot(pl[1]) > tol {
				return false
			}
		}
		return true
	}
	return false
}

// primitiveMethods are the kinds table's methods that make one bounding
// shape from the points: all but auto's choice, hulls, decompositions,
// meshes and none, which have tests of their own.
func primitiveMethods() []string {
	var out []string
	for _, k := range kinds.All() {
		switch k.Build {
		case kinds.Choose, kinds.ConvexHull, kinds.Decomposed, kinds.Mesh, kinds.Nothing:
			continue
		}
		out = append(out, k.Method)
	}
	return out
}

// TestContainmentPrimitives: with every primitive method, the shapes and
// node poses as written (read back from the file, in world space) contain
// every vertex of every corpus body, in both families.
func TestContainmentPrimitives(t *testing.T) {
	dir := t.TempDir()
	for i, in := range testassets.Corpus(t) {
		for j, method := range primitiveMethods() {
			format := []string{"omi", "khr"}[j%2]
			out := filepath.Join(dir, fmt.Sprintf("%02d-%s%s", i, method, filepath.Ext(in)))
			if code, _, stderr := runCLI("generate", in, "-o", out, "--method", method, "--format", format); code != 0 {
				t.Fatalf("%s: %s", in, stderr)
			}
			a, err := gltfio.LoadRaw(out, gltfio.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if err := checkContainment(a); err != nil {
				t.Errorf("%s (%s, %s): %v", in, method, format, err)
			}
			os.Remove(out)
		}
	}
}

// TestContainmentDecompose: a decomposition's hulls, as written, contain
// every vertex of their body (on a few small assets, for time).
func TestContainmentDecompose(t *testing.T) {
	files := []string{example(t)}
	for _, f := range testassets.Corpus(t) {
		for _, name := range []string{"Avocado.gltf", "Box.glb", "Triangle.gltf", "MultipleScenes.gltf", "NegativeScaleTest.glb"} {
			if filepath.Base(f) == name {
				files = append(files, f)
			}
		}
	}
	dir := t.TempDir()
	for i, in := range files {
		out := filepath.Join(dir, fmt.Sprintf("%02d%s", i, filepath.Ext(in)))
		if code, _, stderr := runCLI("generate", in, "-o", out, "--method", "decompose", "--format", []string{"omi", "khr"}[i%2]); code != 0 {
			t.Fatalf("%s: %s", in, stderr)
		}
		a, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if err := checkContainment(a); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}
