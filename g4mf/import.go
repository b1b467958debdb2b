package g4mf

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/convert"
	physvalidate "github.com/autocollide/autocollide/physics/validate"
)

// importer carries the state of one Import.
type importer struct {
	f      *File
	sc     *Scene
	doc    *gltf.Document
	warns  []physics.Warning
	meshes []int // G4MF mesh → glTF mesh (-1: none)
	shapes []int // G4MF shape → model shape (-1: dropped)
}

func (im *importer) warn(path, format string, args ...any) {
	im.warns = append(im.warns, physics.Warning{Path: path, Message: fmt.Sprintf(format, args...), Lossy: true})
}

// Import reads a 3D G4MF file into a glTF document whose physics is in
// family fam, the inverse of Export. G4MF node i becomes glTF node i and
// node 0, the root, the scene's one root; G4MF mesh i becomes glTF mesh i
// (one triangle primitive, float32 positions). Shapes, motions, colliders
// and triggers become the physics model, which convert.Adapt fits to fam
// and fam's codec encodes (enc: its options). G4MF's meaning is OMI's:
// an absent mass is written as 1 kg and a zero inertia as absent (engine
// computed), exact in both families. Warnings name what is not kept
// (general shapes other than the common ones, materials, partly zero
// inertia, what fam cannot express) with their G4MF JSON path.
func Import(f *File, fam physics.Family, enc physics.EncodeOptions) (*gltf.Document, []physics.Warning, error) {
	im, err := run(f, fam, enc)
	if im == nil {
		return nil, nil, err
	}
	return im.doc, im.warns, err
}

func run(f *File, fam physics.Family, enc physics.EncodeOptions) (*importer, error) {
	codec, err := codecs.For(fam)
	if err != nil {
		return nil, err
	}
	sc, err := f.Scene()
	if err != nil {
		return nil, err
	}
	im := &importer{f: f, sc: sc}
	im.doc = &gltf.Document{Asset: gltf.Asset{Version: "2.0", Generator: Generator}}
	im.skipped()
	im.buildMeshes()
	im.buildNodes()
	m := im.model()
	m, aw, err := convert.Adapt(im.doc, m, fam)
	origins := im.shapeOrigins()
	for _, w := range aw {
		w.Path = g4mfPath(w.Path, origins)
		im.warns = append(im.warns, w)
	}
	if err != nil {
		return nil, err
	}
	return im, codec.Encode(im.doc, m, enc)
}

// shapeOrigins returns, per shape of the imported model, the G4MF shape
// it came from.
func (im *importer) shapeOrigins() []int {
	var out []int
	for g, s := range im.shapes {
		if s >= 0 {
			out = append(out, g)
		}
	}
	return out
}

// skipped warns about the top-level arrays and node members Import does
// not carry over.
func (im *importer) skipped() {
	known := []string{"asset", "nodes", "meshes", "shapes", "accessors", "bufferViews", "buffers", "extras"}
	for _, k := range im.f.Tree.Keys() {
		if !slices.Contains(known, k) {
			im.warn(k, "not imported (autocollide imports nodes, meshes and physics)")
		}
	}
	nodeKnown := []string{"name", "children", "position", "basis", "rotor", "scale", "meshInstance", "physics", "extras"}
	for i, n := range im.f.Tree.Arr("nodes") {
		o, ok := n.(*gltfio.Object)
		if !ok {
			continue
		}
		for _, k := range o.Keys() {
			if !slices.Contains(nodeKnown, k) {
				im.warn(fmt.Sprintf("nodes[%d].%s", i, k), "not imported")
			}
		}
		if mi := o.Obj("meshInstance"); mi != nil {
			if _, ok := mi.Get("materials"); ok {
				im.warn(fmt.Sprintf("nodes[%d].meshInstance.materials", i), "materials are not imported")
			}
		}
	}
}

// buildMeshes writes each G4MF mesh with triangles as a glTF mesh.
func (im *importer) buildMeshes() {
	for i, m := range im.sc.Meshes {
		im.meshes = append(im.meshes, -1)
		if len(m.Triangles) == 0 {
			im.warn(fmt.Sprintf("meshes[%d]", i), "no triangles (edges and points are not imported); mesh dropped")
			continue
		}
		pos := make([][3]float32, len(m.Vertices))
		for k, v := range m.Vertices {
			pos[k] = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
		}
		idx := make([]uint32, 0, 3*len(m.Triangles))
		for _, t := range m.Triangles {
			idx = append(idx, t[0], t[1], t[2])
		}
		p := modeler.WritePosition(im.doc, pos)
		ix := modeler.WriteIndices(im.doc, idx)
		im.meshes[i] = len(im.doc.Meshes)
		im.doc.Meshes = append(im.doc.Meshes, &gltf.Mesh{Primitives: []*gltf.Primitive{{
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: p}, Indices: gltf.Index(ix), Mode: gltf.PrimitiveTriangles,
		}}})
	}
}

// buildNodes writes the nodes one to one, node 0 as the scene's root.
func (im *importer) buildNodes() {
	for _, n := range im.sc.Nodes {
		gn := &gltf.Node{Name: n.Name, Children: slices.Clone(n.Children)}
		setLocal(gn, n.Local)
		if n.Mesh >= 0 {
			if g := im.meshes[n.Mesh]; g >= 0 {
				gn.Mesh = gltf.Index(g)
			}
		}
		im.doc.Nodes = append(im.doc.Nodes, gn)
	}
	if len(im.sc.Nodes) > 0 {
		im.doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
		im.doc.Scene = gltf.Index(0)
	}
}

// trsTolerance bounds how far a basis may be from a rotation times a
// positive scale for a node to be written as TRS rather than a matrix.
const trsTolerance = 1e-9

// setLocal writes m as translation, rotation and scale when it is one
// (what G4MF's position, rotor and scale give), else as a matrix.
func setLocal(n *gltf.Node, m geom.Mat4) {
	lin := m.Linear()
	var cols [3]geom.Vec3
	var s geom.Vec3
	for j := range 3 {
		cols[j] = lin.Col(j)
		s[j] = cols[j].Len()
		if !(s[j] > 0) {
			n.Matrix = m.GLTF()
			return
		}
		cols[j] = cols[j].Scale(1 / s[j])
	}
	r := geom.FromCols(cols[0], cols[1], cols[2])
	q := geom.QuatFromMat3(r).Normalize()
	back := geom.TRS(m.Translation(), q, s)
	for i := range 3 {
		for j := range 4 {
			if math.Abs(back[i][j]-m[i][j]) > trsTolerance*max(1, math.Abs(m[i][j])) {
				n.Matrix = m.GLTF()
				return
			}
		}
	}
	n.Translation = [3]float64(m.Translation())
	n.Rotation = [4]float64(q)
	n.Scale = [3]float64(s)
}

// model builds the physics model: shapes (mesh shapes pointing at the
// glTF meshes), then per node its motion, collider and trigger.
func (im *importer) model() *physics.Model {
	m := physics.NewModel()
	for i, s := range im.sc.Shapes {
		im.shapes = append(im.shapes, -1)
		p := fmt.Sprintf("shapes[%d]", i)
		switch {
		case s.Type == "":
			im.warn(p, "a general shape other than a box, sphere, capsule or cylinder (or a ray, heightmap or extension shape) has no glTF form; dropped")
			continue
		case s.Type == physics.Convex || s.Type == physics.Trimesh:
			g := im.meshes[s.Mesh]
			if g < 0 {
				im.warn(p, "its mesh %d has no triangles; dropped", s.Mesh)
				continue
			}
			s.Mesh = g
		}
		im.shapes[i] = len(m.Shapes)
		m.Shapes = append(m.Shapes, s)
	}
	for i, n := range im.sc.Nodes {
		ph := n.Physics
		p := fmt.Sprintf("nodes[%d].physics", i)
		if mo := ph.Motion; mo != nil {
			c := *mo
			if c.Mass == nil {
				one := 1.0
				c.Mass = &one // G4MF's default, written out: KHR would read absent as engine-computed
			}
			if d := c.InertiaDiagonal; d != nil && (d[0] == 0 || d[1] == 0 || d[2] == 0) {
				if d[0] != 0 || d[1] != 0 || d[2] != 0 {
					im.warn(p+".motion.inertiaDiagonal", "partly zero inertia (G4MF: computed by the engine) has no glTF form; dropped, the engine computes it")
				}
				c.InertiaDiagonal, c.InertiaOrientation = nil, nil
			}
			ph.Motion = &c
		}
		if c := ph.Collider; c != nil {
			if s := im.shapes[c.Shape]; s < 0 {
				im.warn(p+".collider", "its shape %d was dropped; collider dropped", c.Shape)
				ph.Collider = nil
			} else {
				ph.Collider = physics.NewCollider(s)
			}
		}
		if t := ph.Trigger; t != nil {
			c := *t
			if c.Shape >= 0 {
				if c.Shape = im.shapes[t.Shape]; c.Shape < 0 {
					im.warn(p+".trigger", "its shape %d was dropped; trigger dropped", t.Shape)
					ph.Trigger = nil
				}
			}
			if ph.Trigger != nil {
				ph.Trigger = &c
			}
		}
		if ph.Motion != nil || ph.Collider != nil || ph.Trigger != nil {
			m.Nodes[i] = &ph
		}
	}
	return m
}

// ImportAsset reads the G4MF file at path into a glTF asset (GLB in
// memory) whose physics is in family fam, ready to be saved anywhere.
func ImportAsset(path string, fam physics.Family, enc physics.EncodeOptions) (*gltfio.Asset, []physics.Warning, error) {
	a, _, warns, err := ImportAssetShapes(path, fam, enc)
	return a, warns, err
}

// ImportAssetShapes is ImportAsset, also returning per shape of the
// asset's physics model the index of the G4MF shape it came from (for a
// reader naming shapes as the file does; nodes and meshes keep their
// indices).
func ImportAssetShapes(path string, fam physics.Family, enc physics.EncodeOptions) (*gltfio.Asset, []int, []physics.Warning, error) {
	f, err := Read(path)
	if err != nil {
		return nil, nil, nil, err
	}
	im, err := run(f, fam, enc)
	var warns []physics.Warning
	if im != nil {
		warns = im.warns
	}
	if err != nil {
		return nil, nil, warns, fmt.Errorf("%s: %w", path, err)
	}
	doc := im.doc
	if err := physvalidate.Errors(physvalidate.Validate(doc, physvalidate.Options{})); err != nil {
		return nil, nil, warns, fmt.Errorf("%s: the imported physics does not validate: %w", path, err)
	}
	var b bytes.Buffer
	e := gltf.NewEncoder(&b)
	e.AsBinary = true
	if err := e.Encode(doc); err != nil {
		return nil, nil, warns, fmt.Errorf("%s: %w", path, err)
	}
	a, err := gltfio.Parse(path, b.Bytes(), gltfio.Limits{})
	return a, im.shapeOrigins(), warns, err
}

// Validate checks a G4MF file's physics with physics/validate's rules:
// its structure as Scene reads it (an error stops there), then the
// physics as Import writes it in OMI's form, each problem's path given in
// the G4MF file (nodes[3].physics.motion, shapes[2]). Warnings of the
// import itself (what glTF cannot hold) are not problems of the file and
// are left out.
func Validate(f *File, opt physvalidate.Options) ([]physvalidate.Problem, error) {
	im, err := run(f, physics.OMI, physics.EncodeOptions{})
	if err != nil {
		return nil, err
	}
	shapes := im.shapeOrigins()
	var out []physvalidate.Problem
	for _, p := range physvalidate.Validate(im.doc, opt) {
		p.Path = g4mfPath(p.Path, shapes)
		out = append(out, p)
	}
	return out, nil
}

var (
	bodyPath  = regexp.MustCompile(`^nodes\[(\d+)\]\.extensions\.(?:` + physics.ExtOMIBody + `|` + physics.ExtKHRBodies + `)\.?`)
	shapePath = regexp.MustCompile(`^extensions\.(?:` + physics.ExtOMIShape + `|` + physics.ExtKHRShapes + `)\.shapes\[(\d+)\]`)
)

// g4mfPath rewrites a path into the imported document (either family)
// as the path of the same item in the G4MF file; shapes maps the
// document's shape indices to the file's.
func g4mfPath(p string, shapes []int) string {
	if m := bodyPath.FindStringSubmatch(p); m != nil {
		rest := strings.TrimPrefix(p, m[0])
		if rest == "" {
			return "nodes[" + m[1] + "].physics"
		}
		return "nodes[" + m[1] + "].physics." + rest
	}
	if m := shapePath.FindStringSubmatch(p); m != nil {
		k, _ := strconv.Atoi(m[1])
		if k < len(shapes) {
			return fmt.Sprintf("shapes[%d]", shapes[k]) + p[len(m[0]):]
		}
	}
	return p
}
