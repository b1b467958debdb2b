package generate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/qmuntal/gltf"
	"golang.org/x/sync/errgroup"
)

// Format names an extension family to write.
type Format string

// The families autocollide writes.
const (
	OMI Format = "omi"
	KHR Format = "khr"
)

// Method names how a collider is made from a mesh instance.
type Method string

// Collider methods.
const (
	AABB      Method = "aabb"      // box aligned with the body frame
	Box       Method = "box"       // minimum-volume oriented box
	Sphere    Method = "sphere"    // minimum enclosing sphere
	Capsule   Method = "capsule"   // minimum-volume capsule along its own axis
	Cylinder  Method = "cylinder"  // minimum-volume cylinder along its own axis
	Hull      Method = "hull"      // convex hull
	Decompose Method = "decompose" // approximate convex decomposition into hulls
)

// Methods lists every method, in a fixed order.
func Methods() []Method { return []Method{Auto, AABB, Box, Sphere, Capsule, Cylinder, Hull, Decompose} }

// Options controls generation for one asset.
type Options struct {
	Format Format
	// KHRGeometryNode writes KHR collider geometry in the older
	// geometry.node form instead of the newest geometry.mesh.
	KHRGeometryNode bool
	Method          Method
	// MaxHullVertices caps hull vertices (0: the hull package default).
	MaxHullVertices int
	// Binary says the output container is GLB (generated data then goes
	// into the BIN chunk).
	Binary bool
	// Mass says how dynamic bodies get their mass.
	Mass Mass
	// Concavity (relative to a part's diagonal; 0 = the decompose
	// default) and MaxHulls (per mesh instance; 0 = its default) steer
	// Method Decompose.
	Concavity float64
	MaxHulls  int
	// AutoTolerance (0 = DefaultAutoTolerance) and HullFill (0 =
	// DefaultHullFill) steer Method Auto.
	AutoTolerance float64
	HullFill      float64
	// Workers bounds the goroutines making one asset's colliders (parts
	// in parallel, and a decomposition's own workers); ≤ 1 is one. The
	// output is the same for any value (so caches ignore it).
	Workers int `json:"-"`
	// Body says how bodies are formed and behave.
	Body BodySettings
	// Rules, when set, is asked for each mesh instance and may override
	// the method and its parameters; ok false keeps Options as they are.
	// A function cannot be compared or hashed: RulesKey must describe the
	// rules (e.g. the resolved profile's text), so that caches keyed on
	// Options tell rule sets apart.
	Rules    func(NodeInfo) (s PartSettings, ok bool) `json:"-"`
	RulesKey string
}

// BodyReport says what was generated for one body.
type BodyReport struct {
	Node       int     `json:"node"`
	Name       string  `json:"name"`
	Colliders  int     `json:"colliders"`
	Volume     float64 `json:"volume"`
	Mass       float64 `json:"mass"`
	MassSource string  `json:"massSource"`
}

// PartReport says what was made for one mesh instance.
type PartReport struct {
	// Body is the body's node; Node the mesh instance's node.
	Body      int    `json:"body"`
	Node      int    `json:"node"`
	Name      string `json:"name"`
	Triangles int    `json:"triangles"`
	// Method made the colliders (for auto, the method it chose) and
	// Reason says why, with the errors auto saw.
	Method    Method `json:"method"`
	Reason    string `json:"reason,omitempty"`
	Colliders int    `json:"colliders"`
	// HullVertices counts the vertices of the part's hulls, and
	// CappedHulls the hulls that were over the vertex or face limits and
	// were replaced by a bounding polytope within them.
	HullVertices int `json:"hullVertices"`
	CappedHulls  int `json:"cappedHulls"`
	// Overshoot is the colliders' total volume over the volume of the
	// part's convex hull, minus one (0.1: 10% bigger). A decomposition
	// of a concave part can be below 0; overlaps between its hulls count
	// twice. 0 for flat parts.
	Overshoot float64 `json:"overshoot"`
}

// Report says what was done to one asset.
type Report struct {
	Bodies    int            `json:"bodies"`
	BodyList  []BodyReport   `json:"bodyList"`
	Parts     []PartReport   `json:"parts"`
	Colliders map[string]int `json:"colliders"`
	// Kept counts scene roots whose existing physics was kept as it was.
	Kept     int      `json:"kept,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// minThickness is the smallest extent of a generated primitive, relative
// to the part's bounding-box diagonal: flat parts (a single quad) get a
// box this thin rather than a degenerate one, which KHR forbids.
const minThickness = 1e-3

// Asset generates colliders for a loaded asset, editing it in place.
func Asset(ctx context.Context, a *gltfio.Asset, opt Options) (*Report, error) {
	if opt.Format == "" {
		opt.Format = OMI
	}
	if opt.Method == "" {
		opt.Method = AABB
	}
	rep := &Report{Colliders: map[string]int{}}
	ex, err := mesh.Extract(a.Doc)
	if err != nil {
		return nil, err
	}
	rep.Notes = append(rep.Notes, ex.Notes...)
	world, err := mesh.WorldTransforms(a.Doc)
	if err != nil {
		return nil, err
	}
	authored := authoredRoots(a.Doc, ex.Roots)

	byRoot := map[int][]int{}
	for i, p := range ex.Parts {
		if len(p.Triangles) > 0 {
			byRoot[p.Root] = append(byRoot[p.Root], i)
		}
	}
	var todo []int
	for _, r := range ex.Roots {
		if len(byRoot[r]) > 0 && !authored[r] {
			todo = append(todo, byRoot[r]...)
		}
	}
	made := makeColliders(ctx, ex, world, todo, opt)
	model := physics.NewModel()
	for _, r := range ex.Roots {
		parts := byRoot[r]
		if len(parts) == 0 {
			continue
		}
		if authored[r] {
			rep.Kept++
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: already has physics; kept as it is", nodeName(a.Doc, r)))
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := body(a, model, ex, world[r], r, parts, made, opt, rep); err != nil {
			return nil, err
		}
	}
	if rep.Bodies == 0 {
		return rep, nil
	}
	if err := emit(a, model, opt); err != nil {
		return nil, err
	}
	return rep, nil
}

// authoredRoots returns the roots whose subtree already carries physics.
func authoredRoots(doc *gltf.Document, roots []int) map[int]bool {
	out := map[int]bool{}
	keys := physics.Extensions()
	for _, r := range roots {
		seen := map[int]bool{}
		stack := []int{r}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n < 0 || n >= len(doc.Nodes) || seen[n] {
				continue
			}
			seen[n] = true
			for _, k := range keys {
				if _, ok := doc.Nodes[n].Extensions[k]; ok {
					out[r] = true
				}
			}
			for _, c := range doc.Nodes[n].Children {
				stack = append(stack, c)
			}
		}
	}
	return out
}

func nodeName(doc *gltf.Document, i int) string {
	if i >= 0 && i < len(doc.Nodes) && doc.Nodes[i].Name != "" {
		return fmt.Sprintf("nodes[%d] %q", i, doc.Nodes[i].Name)
	}
	return fmt.Sprintf("nodes[%d]", i)
}

// frame splits an affine transform into a rigid frame (translation and
// proper rotation) and the scale that remains: m = frame · diag(scale).
func frame(m geom.Mat4) (geom.Mat4, geom.Vec3, error) {
	lin := m.Linear()
	var cols [3]geom.Vec3
	var s geom.Vec3
	for j := 0; j < 3; j++ {
		cols[j] = lin.Col(j)
		s[j] = cols[j].Len()
		if s[j] < 1e-12 || !cols[j].IsFinite() {
			return geom.Mat4{}, s, errors.New("transform has zero or non-finite scale")
		}
		cols[j] = cols[j].Scale(1 / s[j])
	}
	if lin.Det() < 0 {
		s[0], cols[0] = -s[0], cols[0].Scale(-1)
	}
	rot := geom.QuatFromMat3(geom.FromCols(cols[0], cols[1], cols[2]))
	return geom.TRS(m.Translation(), rot, geom.Vec3{1, 1, 1}), s, nil
}

func isOne(s geom.Vec3) bool {
	for _, c := range s {
		if math.Abs(c-1) > 1e-9 {
			return false
		}
	}
	return true
}

// made is what makeColliders made for one part.
type made struct {
	local []geom.Vec3 // the part's vertices in its body's frame
	cs    []Collider
	notes []string
	err   error
}

// makeColliders makes the colliders of the given parts, in their bodies'
// frames, on up to opt.Workers goroutines; each result goes to its own
// slot, so the outcome does not depend on the worker count. Parts whose
// body frame is degenerate are left out (body warns about them).
func makeColliders(ctx context.Context, ex *mesh.Result, world []geom.Mat4, parts []int, opt Options) map[int]*made {
	out := make(map[int]*made, len(parts))
	for _, pi := range parts {
		out[pi] = &made{}
	}
	workers := max(opt.Workers, 1)
	sub := opt
	sub.Workers = 1
	if len(parts) < workers {
		// Few parts: let the decompositions use the spare workers.
		sub.Workers = workers
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for _, pi := range parts {
		p := &ex.Parts[pi]
		f, _, err := frame(world[p.Root])
		if err != nil {
			delete(out, pi)
			continue
		}
		inv, _ := f.Inverse()
		m := out[pi]
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				m.err = err
				return nil
			}
			m.local = make([]geom.Vec3, len(p.Vertices))
			for i, v := range p.Vertices {
				m.local[i] = inv.Point(v)
			}
			m.cs, m.notes, m.err = Colliders(ctx, m.local, p.Triangles, sub)
			return nil
		})
	}
	g.Wait()
	return out
}

func body(a *gltfio.Asset, model *physics.Model, ex *mesh.Result, world geom.Mat4, r int, parts []int, done map[int]*made, opt Options, rep *Report) error {
	_, scale, err := frame(world)
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %v; no body generated", nodeName(a.Doc, r), err))
		return nil
	}
	parent := r
	if !isOne(scale) {
		g := gltfio.NewObject()
		g.Set("name", baseName(a.Doc, r)+".colliders")
		g.Set("scale", []any{gltfio.Num(1 / scale[0]), gltfio.Num(1 / scale[1]), gltfio.Num(1 / scale[2])})
		if parent, err = a.AppendNode(r, g); err != nil {
			return err
		}
	}
	var solids []solid
	var masses []colliderMass
	br := BodyReport{Node: r, Name: a.Doc.Nodes[r].Name}
	for k, pi := range parts {
		p := &ex.Parts[pi]
		m := done[pi]
		if m.err != nil {
			return fmt.Errorf("%s: %w", p.Name, m.err)
		}
		local, cs, notes := m.local, m.cs, m.notes
		solids = append(solids, solid{local, p.Triangles})
		for _, n := range notes {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s", p.Name, n))
		}
		rep.Parts = append(rep.Parts, partReport(r, p, a.Doc, local, cs, notes))
		for j, c := range cs {
			name := fmt.Sprintf("%s.collider%d", partName(a.Doc, p), k)
			if len(cs) > 1 {
				name = fmt.Sprintf("%s.collider%d.hull%d", partName(a.Doc, p), k, j)
			}
			node := gltfio.NewObject()
			node.Set("name", name)
			if c.Translation != (geom.Vec3{}) {
				t := c.Translation
				node.Set("translation", []any{gltfio.Num(t[0]), gltfio.Num(t[1]), gltfio.Num(t[2])})
			}
			if q := c.Rotation; q != geom.IdentityQuat() && q != (geom.Quat{}) {
				node.Set("rotation", []any{gltfio.Num(q[0]), gltfio.Num(q[1]), gltfio.Num(q[2]), gltfio.Num(q[3])})
			}
			if c.Hull != nil {
				m, err := a.AppendMesh(partName(a.Doc, p)+".hull", c.Hull.Vertices, c.Hull.Triangles, opt.Binary)
				if err != nil {
					return fmt.Errorf("%s: %w", p.Name, err)
				}
				c.Shape.Mesh = m
			}
			masses = append(masses, colliderMass{c.Mass, c.Convex})
			idx, err := a.AppendNode(parent, node)
			if err != nil {
				return err
			}
			s := model.AddShape(c.Shape)
			model.Node(idx).Collider = &physics.Collider{Shape: s, Material: -1, Filter: -1}
			rep.Colliders[string(c.Shape.Type)]++
			br.Colliders++
		}
	}
	props, source, err := bodyMass(solids, masses)
	var mo *physics.Motion
	if err == nil {
		mo, err = motion(props, opt.Mass, scale)
	}
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: mass: %v; left to the engine", nodeName(a.Doc, r), err))
		mo = &physics.Motion{Type: physics.Dynamic}
	} else {
		br.Volume, br.Mass, br.MassSource = props.Volume, *mo.Mass, source
	}
	model.Node(r).Motion = mo
	rep.BodyList = append(rep.BodyList, br)
	rep.Bodies++
	return nil
}

// Collider is one collider made from a mesh instance, in the frame of
// the points it was made from.
type Collider struct {
	// Shape is the collision shape; for a convex shape its Mesh is unset
	// and Hull holds the geometry.
	Shape physics.Shape
	// Translation and Rotation pose the shape (capsules and cylinders lie
	// along the rotated +Y); identity for hulls, whose vertices are
	// already in the points' frame.
	Translation geom.Vec3
	Rotation    geom.Quat
	// Hull is the convex geometry of a convex shape, vertices at float32
	// precision and convex at it.
	Hull *hull.Hull
	// Mass holds the collider's properties at density 1 in the points'
	// frame, and Convex its polyhedron when it is one (boxes and hulls).
	Mass   mass.Properties
	Convex *mass.Convex
	// Method is the method that made the collider (never Auto), and
	// Capped says a hull was over the limits and was replaced by a
	// bounding polytope within them.
	Method Method
	Capped bool
	// overshoot is the collider's volume over the points' convex hull
	// volume, minus one, when the method knew it (0 otherwise).
	overshoot float64
}

// partReport sums up the colliders made for one part.
func partReport(body int, p *mesh.Part, doc *gltf.Document, local []geom.Vec3, cs []Collider, notes []string) PartReport {
	pr := PartReport{Body: body, Node: p.Node, Name: partName(doc, p), Triangles: len(p.Triangles), Colliders: len(cs)}
	if len(cs) > 1 {
		pr.Method = Decompose
	} else if len(cs) == 1 {
		pr.Method = cs[0].Method
		pr.Overshoot = cs[0].overshoot
	}
	if len(notes) > 0 && strings.HasPrefix(notes[0], "auto: ") {
		pr.Reason = strings.TrimPrefix(notes[0], "auto: ")
	}
	vol := 0.0
	for _, c := range cs {
		vol += c.Mass.Volume
		if c.Hull != nil {
			pr.HullVertices += len(c.Hull.Vertices)
		}
		if c.Capped {
			pr.CappedHulls++
		}
	}
	if len(cs) > 1 {
		// A decomposition: compare with the part's hull (one more hull
		// build, small next to the decomposition).
		if h, err := hull.Build(local, hull.Options{MaxVertices: -1}); err == nil && h.Degenerate == hull.NotDegenerate {
			if hv := h.Volume(); hv > 0 {
				pr.Overshoot = vol/hv - 1
			}
		}
	}
	return pr
}

// Colliders makes the colliders of one mesh instance (vertices and
// triangles in a rigid frame, in metres) with the method of opt: one
// collider, or one per hull for a decomposition. It knows nothing of
// files, so other containers (G4MF) use it too.
func Colliders(ctx context.Context, vertices []geom.Vec3, triangles [][3]uint32, opt Options) ([]Collider, []string, error) {
	switch opt.Method {
	case Hull:
		h, err := hull.Build(vertices, hull.Options{MaxVertices: opt.MaxHullVertices})
		if err != nil {
			return nil, nil, err
		}
		return []Collider{hullCollider(h, Hull, vertices)}, nil, nil
	case Decompose:
		res, err := decompose.Decompose(ctx, vertices, triangles, decompose.Options{
			Concavity: opt.Concavity, MaxHulls: opt.MaxHulls, MaxHullVertices: opt.MaxHullVertices, Workers: max(opt.Workers, 1),
		})
		if err != nil {
			return nil, nil, err
		}
		cs := make([]Collider, 0, len(res.Hulls))
		for _, h := range res.Hulls {
			cs = append(cs, hullCollider(h, Decompose, nil))
		}
		return cs, res.Notes, nil
	case AABB, Box, Sphere, Capsule, Cylinder:
		c, err := primitive(vertices, opt)
		return []Collider{c}, nil, err
	case Auto:
		return autoColliders(ctx, vertices, triangles, opt)
	}
	return nil, nil, fmt.Errorf("unknown method %q", opt.Method)
}

// storedHull returns the hull as it will be stored: its vertices rounded
// to float32, and its faces rebuilt from the rounded points, so that the
// mesh in the file is convex at the precision it is written in. (Rounding
// the vertices of a hull with sliver faces independently can tilt a
// sliver's plane enough to put points of a wide face outside it.) The
// rounding moves vertices by half a float32 ulp, far inside the
// containment tolerance.
func storedHull(h *hull.Hull) *hull.Hull {
	r := make([]geom.Vec3, len(h.Vertices))
	for i, v := range h.Vertices {
		r[i] = geom.Vec3{float64(float32(v[0])), float64(float32(v[1])), float64(float32(v[2]))}
	}
	h2, err := hull.Build(r, hull.Options{MaxVertices: len(r)})
	if err != nil || h2.Degenerate != hull.NotDegenerate {
		return h
	}
	return h2
}

// hullCollider makes the collider of a hull built from points (nil for a
// decomposition's hulls, whose overshoot is the decomposition's).
func hullCollider(h *hull.Hull, m Method, points []geom.Vec3) Collider {
	capped := h.Reduced
	exact := 0.0
	if capped && points != nil {
		if e, err := hull.Build(points, hull.Options{MaxVertices: -1}); err == nil {
			exact = e.Volume()
		}
	}
	h = storedHull(h)
	cv := mass.Convex{Vertices: h.Vertices, Triangles: h.Triangles}
	props, err := mass.Mesh(h.Vertices, h.Triangles)
	if err != nil {
		props = mass.Properties{CenterOfMass: geom.BoundsOf(h.Vertices).Center()}
	}
	c := Collider{Shape: physics.Shape{Type: physics.Convex}, Rotation: geom.IdentityQuat(), Hull: h, Mass: props, Convex: &cv, Method: m, Capped: capped}
	if exact > 0 {
		c.overshoot = props.Volume/exact - 1
	}
	return c
}

// primitive fits a primitive; its pose is the fit's exactly.
func primitive(local []geom.Vec3, opt Options) (Collider, error) {
	f, err := fit.Fit(fit.Kind(opt.Method), local, fit.Options{GapSamples: -1})
	if err != nil {
		return Collider{}, err
	}
	return fitted(local, f, opt.Method), nil
}

// fitted makes the collider of a fitted primitive, no thinner than
// minThickness of the points' diagonal.
func fitted(local []geom.Vec3, f fit.Shape, m Method) Collider {
	floor := minThickness * geom.BoundsOf(local).Diagonal()
	c := Collider{Translation: f.Center, Rotation: f.Rotation, Method: m, overshoot: f.Overshoot - 1}
	var props mass.Properties
	switch f.Kind {
	case fit.KindBox, fit.KindAABB:
		size := f.Size
		for i := range size {
			size[i] = math.Max(size[i], floor)
		}
		c.Shape = physics.Shape{Type: physics.Box, Size: size}
		props = mass.Box(size)
		cv := boxConvex(geom.Vec3{}, size)
		for i, v := range cv.Vertices {
			cv.Vertices[i] = f.Rotation.Rotate(v).Add(f.Center)
		}
		c.Convex = &cv
	case fit.KindSphere:
		r := math.Max(f.Radius, floor)
		c.Shape = physics.Shape{Type: physics.Sphere, Radius: r}
		props = mass.Sphere(r)
	case fit.KindCapsule:
		r := math.Max(f.Radius, floor)
		c.Shape = physics.Shape{Type: physics.Capsule, Height: f.Height, RadiusTop: r, RadiusBottom: r}
		props = mass.Capsule(f.Height, r)
	case fit.KindCylinder:
		r, h := math.Max(f.Radius, floor), math.Max(f.Height, floor)
		c.Shape = physics.Shape{Type: physics.Cylinder, Height: h, RadiusTop: r, RadiusBottom: r}
		props = mass.Cylinder(h, r)
	}
	c.Mass = props.Transform(f.Rotation, f.Center)
	if math.IsInf(c.overshoot, 0) || math.IsNaN(c.overshoot) {
		c.overshoot = 0 // flat: no hull volume to compare with
	}
	return c
}

func baseName(doc *gltf.Document, i int) string {
	if doc.Nodes[i].Name != "" {
		return doc.Nodes[i].Name
	}
	return fmt.Sprintf("node%d", i)
}

func partName(doc *gltf.Document, p *mesh.Part) string {
	n := baseName(doc, p.Node)
	if doc.Nodes[p.Node].Name == "" && p.Mesh < len(doc.Meshes) && doc.Meshes[p.Mesh].Name != "" {
		n = doc.Meshes[p.Mesh].Name
	}
	if p.Instance >= 0 {
		n = fmt.Sprintf("%s.instance%d", n, p.Instance)
	}
	return n
}

// familyKeys are the extensions each family writes.
var familyKeys = map[Format][]string{
	OMI: {physics.ExtOMIShape, physics.ExtOMIBody, physics.ExtOMIJoint},
	KHR: {physics.ExtKHRShapes, physics.ExtKHRBodies},
}

// shapeArray is where each family keeps its document-level shapes.
var shapeArray = map[Format]string{OMI: physics.ExtOMIShape, KHR: physics.ExtKHRShapes}

// emit encodes the generated model in the requested family and grafts it
// into the tree without touching what was there: the document-level
// shapes are appended after any existing ones (the encoder is given
// placeholder shapes in their places so that the generated references
// come out right), and only the generated model's nodes get extensions.
// Every change is journaled, so a re-run can undo it.
func emit(a *gltfio.Asset, gen *physics.Model, opt Options) error {
	raw, err := a.Tree.MarshalJSON()
	if err != nil {
		return err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(raw, doc); err != nil {
		return err
	}
	arrayKey := shapeArray[opt.Format]
	existing := len(a.Tree.Obj("extensions").Obj(arrayKey).Arr("shapes"))
	m := gen
	if existing > 0 {
		m = gen.Clone()
		placeholders := make([]physics.Shape, existing)
		for i := range placeholders {
			placeholders[i] = physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}}
		}
		m.Shapes = append(placeholders, m.Shapes...)
		for _, n := range m.Nodes {
			if n.Collider != nil && n.Collider.Shape >= 0 {
				n.Collider.Shape += existing
			}
			if n.Trigger != nil && n.Trigger.Shape >= 0 {
				n.Trigger.Shape += existing
			}
		}
	}
	nodesBefore := len(doc.Nodes)
	switch opt.Format {
	case OMI:
		err = omi.Encode(doc, m)
	case KHR:
		err = khr.Encode(doc, m, khr.Options{GeometryNode: opt.KHRGeometryNode})
	default:
		err = fmt.Errorf("unknown format %q", opt.Format)
	}
	if err != nil {
		return err
	}
	for k := nodesBefore; k < len(doc.Nodes); k++ {
		// Mesh-holder nodes of KHR's geometry.node form.
		tv, err := gltfio.FromGo(doc.Nodes[k])
		if err != nil {
			return err
		}
		o, ok := tv.(*gltfio.Object)
		if !ok {
			return errors.New("internal: encoded node is not an object")
		}
		if got := a.AppendOrphanNode(o); got != k {
			return fmt.Errorf("internal: encoder node %d landed at %d", k, got)
		}
	}
	for _, k := range familyKeys[opt.Format] {
		v, ok := doc.Extensions[k]
		if !ok {
			continue
		}
		tv, err := gltfio.FromGo(v)
		if err != nil {
			return err
		}
		if _, had := a.Tree.Obj("extensions").Get(k); !had {
			if err := a.Set(tv, "extensions", k); err != nil {
				return err
			}
			continue
		}
		if k != arrayKey {
			continue // only shapes are generated at document level
		}
		enc, _ := tv.(*gltfio.Object)
		shapes := enc.Arr("shapes")
		if len(shapes) < existing {
			return errors.New("internal: encoder dropped placeholder shapes")
		}
		merged := append(append([]any{}, a.Tree.Obj("extensions").Obj(k).Arr("shapes")...), shapes[existing:]...)
		if err := a.Set(merged, "extensions", k, "shapes"); err != nil {
			return err
		}
	}
	for _, i := range gen.NodeIndices() {
		for _, k := range familyKeys[opt.Format] {
			if v, ok := doc.Nodes[i].Extensions[k]; ok {
				tv, err := gltfio.FromGo(v)
				if err != nil {
					return err
				}
				if err := a.Set(tv, "nodes", i, "extensions", k); err != nil {
					return err
				}
			}
		}
	}
	used := append([]any{}, a.Tree.Arr("extensionsUsed")...)
	have := map[string]bool{}
	for _, u := range used {
		if s, ok := u.(string); ok {
			have[s] = true
		}
	}
	changed := false
	for _, u := range doc.ExtensionsUsed {
		if !have[u] {
			used = append(used, u)
			have[u] = true
			changed = true
		}
	}
	if changed {
		return a.Set(used, "extensionsUsed")
	}
	return nil
}
