package mesh

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

// MaxTriangles bounds the triangles one extraction may produce, summed
// over every part and counted before degenerate ones are dropped.
// Instancing and node reuse multiply geometry, so a small file can
// describe an enormous scene; past this bound Extract fails instead of
// exhausting memory. 2^25 ≈ 33 million triangles (about 1.5 GB of output)
// is 30 times the largest asset of the development corpus.
const MaxTriangles = 1 << 25

// MaxVertices bounds the vertices one extraction may produce, summed over
// every part and over the meshes decoded (morphed and skinned copies
// included), for the same reason as MaxTriangles: reused accessors, nodes
// and instances multiply memory without growing the file.
const MaxVertices = 1 << 25

// DegenerateTolerance decides which triangles have zero area: a triangle
// (a, b, c) is dropped when |(b−a)×(c−a)| ≤ DegenerateTolerance·L², L its
// longest edge. The bound is relative so it is blind to the asset's units;
// 1e-12 is about 10⁴ float64 rounding errors, far below any triangle a
// modeller would draw (a sliver 1 µm thick on a 1 km edge still passes).
const DegenerateTolerance = 1e-12

// Part is the world-space triangle soup of one mesh instance.
type Part struct {
	Node     int       // node that instantiates the mesh
	Mesh     int       // index of the mesh
	Instance int       // EXT_mesh_gpu_instancing index, -1 if none
	Root     int       // the scene root node whose subtree contains Node
	Name     string    // for messages: `nodes[4] "Wheel"`
	World    geom.Mat4 // node world transform × instance transform; identity for skinned parts (vertices are already posed)
	// Mirrored reports that World has a negative determinant. Triangles are
	// already re-wound to face outward; callers that transform local
	// geometry themselves must flip winding when it is set.
	Mirrored  bool
	Vertices  []geom.Vec3 // world space; only vertices some triangle uses, in source order
	Triangles [][3]uint32 // outward (counter-clockwise seen from outside) winding in world space
	Skinned   bool        // posed by the node's skin at rest
	// Influences are a skinned part's per-vertex joints and weights
	// (nil when not skinned).
	Influences *Influences
	Dropped    int // degenerate triangles removed from this part
}

// Result is what Extract found in the chosen scene.
type Result struct {
	Scene             int      // scene extracted; -1 when the document has no scenes
	Roots             []int    // its root nodes, in scene order
	Parts             []Part   // by root, then depth-first node order, then instance
	Notes             []string // things skipped, once each, in the order met
	DegenerateDropped int      // sum of Part.Dropped
}

// Extract returns a world-space triangle soup for every mesh instance of
// the document's scene (doc.Scene, else scene 0, else every root node when
// there are no scenes). See the package documentation for what is decoded
// and what is an error.
func Extract(doc *gltf.Document) (*Result, error) {
	return extract(doc, newDecoder(doc))
}

func newDecoder(doc *gltf.Document) *decoder { return &decoder{doc: doc} }

type extractor struct {
	doc     *gltf.Document
	d       *decoder
	h       *hierarchy
	res     *Result
	noted   map[string]bool
	skins   map[int][]geom.Mat4
	indices map[[2]int][]uint32 // (accessor, vertex count) → indices
	meshes  map[int]*geometry   // unskinned meshes with their own default weights
	built   [2]int              // vertices and triangles decoded so far, parts aside (MaxVertices, MaxTriangles)
	verts   int                 // vertices produced so far (MaxVertices)
	tris    int                 // triangles produced so far (MaxTriangles)
}

func extract(doc *gltf.Document, d *decoder) (*Result, error) {
	if doc == nil {
		return nil, fmt.Errorf("nil document")
	}
	h, err := buildHierarchy(doc)
	if err != nil {
		return nil, err
	}
	scene, roots, err := chooseScene(doc, h)
	if err != nil {
		return nil, err
	}
	x := &extractor{doc: doc, d: d, h: h, res: &Result{Scene: scene, Roots: roots},
		noted: map[string]bool{}, skins: map[int][]geom.Mat4{}, indices: map[[2]int][]uint32{}, meshes: map[int]*geometry{}}
	for _, r := range roots {
		for _, ni := range subtree(doc, r) {
			if doc.Nodes[ni].Mesh == nil {
				continue
			}
			if err := x.node(ni, r); err != nil {
				return nil, fmt.Errorf("%s: %w", NodeName(doc, ni), err)
			}
		}
	}
	return x.res, nil
}

func (x *extractor) note(s string) {
	if !x.noted[s] {
		x.noted[s] = true
		x.res.Notes = append(x.res.Notes, s)
	}
}

// node appends the parts of node ni (one per instance).
func (x *extractor) node(ni, root int) error {
	node := x.doc.Nodes[ni]
	m := *node.Mesh
	if m < 0 || m >= len(x.doc.Meshes) || x.doc.Meshes[m] == nil {
		return fmt.Errorf("mesh %d does not exist", m)
	}
	weights := node.Weights
	if len(weights) == 0 {
		weights = x.doc.Meshes[m].Weights
	}
	var joints []geom.Mat4
	if node.Skin != nil {
		var err error
		if joints, err = x.skin(*node.Skin); err != nil {
			return err
		}
	}
	// A mesh reused by nodes without a skin or weights of their own is
	// decoded once.
	cacheable := joints == nil && len(node.Weights) == 0
	g := x.meshes[m]
	if g == nil || !cacheable {
		var err error
		if g, err = x.geometry(m, weights, joints); err != nil {
			return err
		}
		if cacheable {
			x.meshes[m] = g
		}
	}
	base := Part{Node: ni, Mesh: m, Instance: -1, Root: root, Name: NodeName(x.doc, ni)}
	if joints != nil {
		if _, ok := node.Extensions[extInstancing]; ok {
			x.note(fmt.Sprintf("%s: %s on a skinned node ignored", base.Name, extInstancing))
		}
		base.World = geom.Identity4()
		base.Skinned = true
		return x.emit(base, g)
	}
	inst, err := x.instances(ni)
	if err != nil {
		return err
	}
	if inst == nil {
		base.World = x.h.world[ni]
		return x.emit(base, g)
	}
	for k, t := range inst {
		p := base
		p.Instance = k
		p.World = x.h.world[ni].Mul(t)
		if !finiteMat(p.World) {
			return fmt.Errorf("%s: instance %d: transform is not finite", extInstancing, k)
		}
		if err := x.emit(p, g); err != nil {
			return err
		}
	}
	return nil
}

// geometry is the geometry of one mesh before its world transform: vertices in
// mesh space (or posed world space for skinned meshes) and raw triangles.
type geometry struct {
	vertices  []geom.Vec3
	triangles [][3]uint32
	// mirrored, for skinned meshes, marks vertices whose blended skin
	// matrix has a negative determinant; influences are their weights.
	mirrored   []bool
	influences []primInfluences
}

// geometry decodes every triangle primitive of mesh m with the morph
// weights and (when joints is not nil) the skin's joint matrices applied.
func (x *extractor) geometry(m int, weights []float64, joints []geom.Mat4) (*geometry, error) {
	g := &geometry{}
	if joints != nil {
		g.mirrored = []bool{}
	}
	shared := map[int]uint32{} // POSITION accessor → first vertex, for plain primitives
	for pi, prim := range x.doc.Meshes[m].Primitives {
		where := fmt.Sprintf("mesh %d primitive %d", m, pi)
		if prim == nil {
			return nil, fmt.Errorf("%s: null primitive", where)
		}
		switch prim.Mode {
		case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		default:
			x.note(fmt.Sprintf("%s: mode %s skipped", where, prim.Mode))
			continue
		}
		_, faces, err := x.d.draco(prim)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if err := x.primitive(g, prim, where, weights, joints, shared, faces); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	return g, nil
}

// primitive appends the triangles of prim to g. faces, when not nil, is
// the triangle list of a Draco-compressed primitive, used instead of its
// indices accessor.
func (x *extractor) primitive(g *geometry, prim *gltf.Primitive, where string, weights []float64, joints []geom.Mat4, shared map[int]uint32, faces []uint32) error {
	posAcc, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return fmt.Errorf("no POSITION attribute")
	}
	pos, err := x.positions(posAcc)
	if err != nil {
		return err
	}
	n := len(pos)
	plain := joints == nil && len(prim.Targets) == 0
	base, reuse := shared[posAcc]
	if !plain || !reuse {
		base = uint32(len(g.vertices))
		if plain {
			shared[posAcc] = base
		}
		if x.built[0] += n; x.built[0] > MaxVertices {
			return fmt.Errorf("the meshes hold more than %d vertices", MaxVertices)
		}
		var flips []bool
		if pos, err = x.morph(pos, prim, weights); err != nil {
			return err
		}
		if joints != nil {
			sets, err := x.weightSets(prim, len(pos))
			if err != nil {
				return err
			}
			if pos, flips, err = x.pose(pos, sets, joints, where); err != nil {
				return err
			}
			g.influences = append(g.influences, primInfluences{first: int(base), count: len(pos), sets: sets})
		}
		g.vertices = append(g.vertices, pos...)
		g.mirrored = append(g.mirrored, flips...)
	}
	var idx []uint32
	if faces != nil {
		idx = faces // checked against the point count by draco
	} else if prim.Indices != nil {
		key := [2]int{*prim.Indices, n}
		if idx = x.indices[key]; idx == nil {
			if idx, err = x.d.indices(*prim.Indices, n); err != nil {
				return err
			}
			x.indices[key] = idx
		}
	} else {
		idx = make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	tris, rest := triangulate(prim.Mode, idx)
	if x.built[1] += len(tris); x.built[1] > MaxTriangles {
		return fmt.Errorf("the meshes hold more than %d triangles", MaxTriangles)
	}
	if rest > 0 {
		x.note(fmt.Sprintf("%s: %d trailing indices ignored", where, rest))
	}
	for _, t := range tris {
		g.triangles = append(g.triangles, [3]uint32{t[0] + base, t[1] + base, t[2] + base})
	}
	return nil
}

// spend counts vertices and triangles against MaxVertices and
// MaxTriangles.
func (x *extractor) spend(verts, tris int) error {
	x.verts += verts
	x.tris += tris
	if x.verts > MaxVertices {
		return fmt.Errorf("the scene expands to more than %d vertices", MaxVertices)
	}
	if x.tris > MaxTriangles {
		return fmt.Errorf("the scene expands to more than %d triangles", MaxTriangles)
	}
	return nil
}

// triangulate turns the index sequence of a triangle primitive into
// triangles with the winding the glTF 2.0 specification (§3.7.2.1)
// defines, and reports how many trailing indices form no triangle.
// Strip: triangle i is (i, i+1, i+2) for even i and (i, i+2, i+1) for odd
// i. Fan: triangle i is (i+1, i+2, 0).
func triangulate(mode gltf.PrimitiveMode, idx []uint32) ([][3]uint32, int) {
	switch mode {
	case gltf.PrimitiveTriangleStrip:
		if len(idx) < 3 {
			return nil, len(idx)
		}
		out := make([][3]uint32, 0, len(idx)-2)
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				out = append(out, [3]uint32{idx[i], idx[i+1], idx[i+2]})
			} else {
				out = append(out, [3]uint32{idx[i], idx[i+2], idx[i+1]})
			}
		}
		return out, 0
	case gltf.PrimitiveTriangleFan:
		if len(idx) < 3 {
			return nil, len(idx)
		}
		out := make([][3]uint32, 0, len(idx)-2)
		for i := 0; i+2 < len(idx); i++ {
			out = append(out, [3]uint32{idx[i+1], idx[i+2], idx[0]})
		}
		return out, 0
	default:
		out := make([][3]uint32, 0, len(idx)/3)
		for i := 0; i+2 < len(idx); i += 3 {
			out = append(out, [3]uint32{idx[i], idx[i+1], idx[i+2]})
		}
		return out, len(idx) % 3
	}
}

// positions decodes a POSITION accessor once per extraction.
func (x *extractor) positions(i int) ([]geom.Vec3, error) {
	if p, ok := x.d.positions[i]; ok {
		return p, nil
	}
	p, err := x.d.vec3s(i, "POSITION", MaxUnbackedCount, positionTypes)
	if err != nil {
		return nil, err
	}
	if x.d.positions == nil {
		x.d.positions = map[int][]geom.Vec3{}
	}
	x.d.positions[i] = p
	return p, nil
}

// instancing is the EXT_mesh_gpu_instancing object of a node.
type instancing struct {
	Attributes map[string]int `json:"attributes"`
}

// instances returns the instance transforms T·R·S of node ni, nil when it
// has no EXT_mesh_gpu_instancing. Per the extension, TRANSLATION and SCALE
// are FLOAT (or BYTE/SHORT, normalized or not, with KHR_mesh_quantization)
// and ROTATION is FLOAT or normalized BYTE/SHORT; all counts are equal.
func (x *extractor) instances(ni int) ([]geom.Mat4, error) {
	var ext instancing
	ok, err := decodeExtension(x.doc.Nodes[ni].Extensions, extInstancing, &ext)
	if !ok {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	count := -1
	var countFrom string
	read := func(name string, typ gltf.AccessorType, allowed func(gltf.ComponentType, bool) bool) ([]float64, error) {
		acc, ok := ext.Attributes[name]
		if !ok {
			return nil, nil
		}
		vals, a, _, err := x.d.read(acc)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", extInstancing, name, err)
		}
		if a.Type != typ || !allowed(a.ComponentType, a.Normalized) {
			return nil, fmt.Errorf("%s %s: accessor %d cannot be %s %s", extInstancing, name, acc, describe(a.ComponentType, a.Normalized), a.Type)
		}
		if count >= 0 && a.Count != count {
			return nil, fmt.Errorf("%s: %s count %d differs from %s count %d", extInstancing, name, a.Count, countFrom, count)
		}
		count, countFrom = a.Count, name
		return vals, nil
	}
	vecTypes := func(ct gltf.ComponentType, _ bool) bool {
		return ct == gltf.ComponentFloat || ct == gltf.ComponentByte || ct == gltf.ComponentShort
	}
	rotTypes := func(ct gltf.ComponentType, normalized bool) bool {
		return ct == gltf.ComponentFloat || normalized && (ct == gltf.ComponentByte || ct == gltf.ComponentShort)
	}
	t, err := read("TRANSLATION", gltf.AccessorVec3, vecTypes)
	if err != nil {
		return nil, err
	}
	r, err := read("ROTATION", gltf.AccessorVec4, rotTypes)
	if err != nil {
		return nil, err
	}
	s, err := read("SCALE", gltf.AccessorVec3, vecTypes)
	if err != nil {
		return nil, err
	}
	if count < 0 {
		return nil, fmt.Errorf("%s: no TRANSLATION, ROTATION or SCALE attribute", extInstancing)
	}
	out := make([]geom.Mat4, count)
	for k := range out {
		tv, rq, sv := geom.Vec3{}, geom.IdentityQuat(), geom.Vec3{1, 1, 1}
		if t != nil {
			tv = geom.Vec3{t[3*k], t[3*k+1], t[3*k+2]}
		}
		if r != nil {
			q := geom.Quat{r[4*k], r[4*k+1], r[4*k+2], r[4*k+3]}
			if err := checkRotation(q); err != nil {
				return nil, fmt.Errorf("%s: instance %d: %w", extInstancing, k, err)
			}
			rq = q.Normalize()
		}
		if s != nil {
			sv = geom.Vec3{s[3*k], s[3*k+1], s[3*k+2]}
		}
		out[k] = geom.TRS(tv, rq, sv)
	}
	return out, nil
}

// emit transforms g by p.World (unless skinned), drops degenerate
// triangles, re-winds mirrored ones, keeps only used vertices and appends
// the part.
func (x *extractor) emit(p Part, g *geometry) error {
	if len(g.triangles) == 0 {
		return nil // points and lines only: noted, no part
	}
	// Bound the work before allocating: count triangles as read, kept or not.
	if err := x.spend(len(g.vertices), len(g.triangles)); err != nil {
		return err
	}
	world := g.vertices
	if !p.Skinned {
		if err := checkWorld(p.World, g.vertices, p.Instance >= 0); err != nil {
			return fmt.Errorf("%s%s", instanceName(p), err)
		}
		world = make([]geom.Vec3, len(g.vertices))
		for i, v := range g.vertices {
			world[i] = p.World.Point(v)
		}
		p.Mirrored = p.World.Linear().Det() < 0
	}
	for i, v := range world {
		if !v.IsFinite() {
			return fmt.Errorf("mesh %d: vertex %d is not finite in world space", p.Mesh, i)
		}
	}
	remap := make([]int32, len(world))
	tris := make([][3]uint32, 0, len(g.triangles))
	for _, t := range g.triangles {
		if degenerate(world, t) {
			p.Dropped++
			continue
		}
		flip := p.Mirrored
		if p.Skinned {
			votes := 0
			for _, v := range t {
				if g.mirrored[v] {
					votes++
				}
			}
			flip = votes >= 2
		}
		if flip {
			t[1], t[2] = t[2], t[1]
		}
		for _, v := range t {
			remap[v] = 1
		}
		tris = append(tris, t)
	}
	if p.Skinned {
		p.Influences = x.influences(p.Node, g, remap)
	}
	var verts []geom.Vec3
	for i, used := range remap {
		if used != 0 {
			remap[i] = int32(len(verts))
			verts = append(verts, world[i])
		}
	}
	for i := range tris {
		for k := range tris[i] {
			tris[i][k] = uint32(remap[tris[i][k]])
		}
	}
	p.Vertices, p.Triangles = verts, tris
	x.res.DegenerateDropped += p.Dropped
	x.res.Parts = append(x.res.Parts, p)
	return nil
}

// degenerate reports a triangle with a repeated index or (relative to
// DegenerateTolerance) zero area.
func degenerate(v []geom.Vec3, t [3]uint32) bool {
	if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
		return true
	}
	a, b, c := v[t[0]], v[t[1]], v[t[2]]
	ab, ac, bc := b.Sub(a), c.Sub(a), c.Sub(b)
	l2 := math.Max(ab.Len2(), math.Max(ac.Len2(), bc.Len2()))
	bound := DegenerateTolerance * l2
	return ab.Cross(ac).Len2() <= bound*bound
}
