package generate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
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
func Methods() []Method {
	return []Method{Auto, AABB, Box, Sphere, Capsule, Cylinder, Hull, Decompose, Trimesh, None}
}

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
	// MaxHullFaces caps each hull's polygons (0: no cap) and
	// MaxHullTriangles its triangles (0: no cap; Unity's limit is 255):
	// a closed triangulated convex polytope of V vertices has 2V-4
	// triangles, so the cap is met by capping vertices at (T+4)/2.
	// AbsConcavity (metres, 0: none) is a concavity below which
	// Decompose never splits a part, whatever its size.
	MaxHullFaces     int
	MaxHullTriangles int
	AbsConcavity     float64
	// AutoTolerance (0 = DefaultAutoTolerance) and HullFill (0 =
	// DefaultHullFill) steer Method Auto.
	AutoTolerance float64
	HullFill      float64
	// SearchTriangles is decompose.Options.SearchTriangles (0 = its
	// default; Method Auto sets AutoSearchTriangles).
	SearchTriangles int
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
	// Progress, if set, hears how far each mesh instance's decomposition
	// has got, after each of its rounds. It may be called from several
	// goroutines at once and must return quickly. It is for display only
	// and changes no output, so caches and fingerprints ignore it.
	Progress func(Step) `json:"-"`
}

// Step says how far the making of one mesh instance's colliders has got:
// Done of the Total parts of its decomposition so far are final (Total
// grows as parts are split, and shrinks when they are merged).
type Step struct {
	// Part names the mesh instance (as in its PartReport); empty when
	// the caller of Colliders did not name it (see Options.ForPart).
	Part        string
	Done, Total int
}

// ForPart returns opt whose Progress steps name part.
func (opt Options) ForPart(part string) Options {
	if f := opt.Progress; f != nil {
		opt.Progress = func(s Step) {
			s.Part = part
			f(s)
		}
	}
	return opt
}

// BodyReport says what was generated for one body.
type BodyReport struct {
	Node       int                `json:"node"`
	Name       string             `json:"name"`
	Motion     physics.MotionType `json:"motion"`
	Colliders  int                `json:"colliders"`
	Volume     float64            `json:"volume"`
	Mass       float64            `json:"mass"`
	MassSource string             `json:"massSource"`
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
	// Rule names the profile rule that set the part's method, if any;
	// Trigger says its colliders are triggers.
	Rule    string `json:"rule,omitempty"`
	Trigger bool   `json:"trigger,omitempty"`
}

// Report says what was done to one asset.
type Report struct {
	Bodies    int            `json:"bodies"`
	BodyList  []BodyReport   `json:"bodyList"`
	Parts     []PartReport   `json:"parts"`
	Colliders map[string]int `json:"colliders"`
	// Kept counts scene roots whose existing physics was kept as it was.
	Kept int `json:"kept,omitempty"`
	// Triggers counts the colliders written as triggers (they are also
	// in Colliders, by shape).
	Triggers int      `json:"triggers,omitempty"`
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
	if err := opt.Body.check(); err != nil {
		return nil, err
	}
	if err := checkAuthored(a.Doc); err != nil {
		return nil, err
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
	if err := checkSizes(ex, authored); err != nil {
		return nil, err
	}
	if err := checkZeroTransforms(a, ex, authored); err != nil {
		return nil, err
	}
	pl := planAsset(a, ex, authored, opt)
	for _, r := range ex.Roots {
		if !authored[r] {
			continue
		}
		for _, p := range ex.Parts {
			if p.Root == r && len(p.Triangles) > 0 {
				rep.Kept++
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s: already has physics; kept as it is", mesh.NodeName(a.Doc, r)))
				break
			}
		}
	}
	rep.Notes = append(rep.Notes, pl.notes...)
	rep.Warnings = append(rep.Warnings, pl.warnings...)
	if len(pl.bodies) == 0 {
		return rep, nil
	}
	for _, b := range pl.bodies {
		if b.node == groupNode {
			b.world = geom.Identity4()
		} else {
			b.world = world[b.node]
		}
	}
	made := makeColliders(ctx, a.Doc, ex, pl.parts, opt.Workers)
	if err := carryOut(a, ex, pl, made); err != nil {
		return nil, err
	}
	model := physics.NewModel()
	res := resources{material: -1, filter: -1}
	if m := opt.Body.Material; m != nil {
		model.Materials = append(model.Materials, *m)
		res.material = 0
	}
	if f := opt.Body.Filter; f != nil {
		model.Filters = append(model.Filters, *f)
		res.filter = 0
	}
	for _, b := range pl.bodies {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := body(a, model, ex, b, made, res, opt, rep); err != nil {
			return nil, err
		}
	}
	if rep.Bodies == 0 {
		return rep, nil
	}
	if err := emit(a, model, opt); err != nil {
		return nil, err
	}
	if err := checkResult(a); err != nil {
		return nil, err
	}
	return rep, nil
}

// resources are the document-level physics every generated collider
// refers to, as indices into the generated model (-1: the default).
type resources struct {
	material, filter int
}

// carryOut makes the plan's changes to the node graph: meshes that
// become colliders only stop rendering, and file mode's body node
// gathers the scene's roots, when that body gets a collider (else the
// first root stands for it in the reports). Both are journaled edits, so
// a re-run undoes them.
func carryOut(a *gltfio.Asset, ex *mesh.Result, pl *assetPlan, done map[int]*made) error {
	for _, n := range pl.hide {
		if err := hideMesh(a, n); err != nil {
			return err
		}
	}
	for _, b := range pl.bodies {
		if b.node != groupNode {
			continue
		}
		b.node = pl.group[0]
		for _, pp := range b.parts {
			if m := done[pp.part]; m != nil && len(m.cs) > 0 {
				g, err := gatherRoots(a, ex.Scene, pl.group)
				if err != nil {
					return err
				}
				b.node = g
				break
			}
		}
	}
	return nil
}

// hideMesh stops node n from rendering its mesh: the node is replaced by
// a copy without mesh, skin, weights and GPU instancing (which need a
// mesh), so the journal keeps the original node, member order included.
func hideMesh(a *gltfio.Asset, n int) error {
	old, ok := a.Tree.Arr("nodes")[n].(*gltfio.Object)
	if !ok {
		return fmt.Errorf("nodes[%d]: not an object", n)
	}
	node := gltfio.NewObject()
	for _, k := range old.Keys() {
		v, _ := old.Get(k)
		switch k {
		case "mesh", "skin", "weights":
			continue
		case "extensions":
			if e, ok := v.(*gltfio.Object); ok {
				if _, inst := e.Get("EXT_mesh_gpu_instancing"); inst {
					ne := gltfio.NewObject()
					for _, ek := range e.Keys() {
						if ek != "EXT_mesh_gpu_instancing" {
							ev, _ := e.Get(ek)
							ne.Set(ek, ev)
						}
					}
					if ne.Len() == 0 {
						continue
					}
					v = ne
				}
			}
		}
		node.Set(k, v)
	}
	return a.Set(node, "nodes", n)
}

// gatherRoots makes one generated node the only root of the scene holding
// the given roots (scene order), so that one body holds them all, and
// returns its index. Roots not given stay where they are.
func gatherRoots(a *gltfio.Asset, scene int, roots []int) (int, error) {
	sc, ok := a.Tree.Arr("scenes")[scene].(*gltfio.Object)
	if !ok {
		return 0, fmt.Errorf("scenes[%d]: not an object", scene)
	}
	name := "scene"
	if s, ok := sc.Get("name"); ok {
		if s, ok := s.(string); ok && s != "" {
			name = s
		}
	}
	g := gltfio.NewObject()
	g.Set("name", name+".body")
	children := make([]any, len(roots))
	in := map[int]bool{}
	for i, r := range roots {
		children[i] = gltfio.IntNum(r)
		in[r] = true
	}
	g.Set("children", children)
	idx := a.AppendOrphanNode(g)
	var nodes []any
	placed := false
	for _, v := range sc.Arr("nodes") {
		if r, ok := v.(json.Number); ok {
			if n, err := r.Int64(); err == nil && in[int(n)] {
				if !placed {
					nodes = append(nodes, gltfio.IntNum(idx))
					placed = true
				}
				continue
			}
		}
		nodes = append(nodes, v)
	}
	return idx, a.Set(nodes, "scenes", scene, "nodes")
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

// makeColliders makes the colliders of the planned parts, in their
// bodies' frames, on up to workers goroutines (their Options.Progress
// steps name them from doc); each result goes to its own slot, so the
// outcome does not depend on the worker count. Parts whose body frame is
// degenerate are left out (body warns about them).
// Parts with the same geometry up to a translation in their body frames
// (instances of a mesh, or meshes differing only in material, placed
// with the same rotation and scale) and the same options are made once:
// the first in plan order is made, the others get its colliders moved.
func makeColliders(ctx context.Context, doc *gltf.Document, ex *mesh.Result, parts []*partPlan, workers int) map[int]*made {
	out := make(map[int]*made, len(parts))
	var live []*partPlan
	for _, pp := range parts {
		f, _, err := frame(pp.body.world)
		if err != nil {
			continue
		}
		inv, _ := f.Inverse()
		p := &ex.Parts[pp.part]
		m := &made{local: make([]geom.Vec3, len(p.Vertices))}
		for i, v := range p.Vertices {
			m.local[i] = inv.Point(v)
		}
		out[pp.part] = m
		live = append(live, pp)
	}
	// leader[i] is the index in live of the part whose colliders part i
	// gets moved by shift[i] (itself for the parts that are made, listed
	// in leaders).
	leader := make([]int, len(live))
	shift := make([]geom.Vec3, len(live))
	var leaders []int
	buckets := map[[2]int][]int{}
	for i, pp := range live {
		leader[i] = i
		p := &ex.Parts[pp.part]
		key := [2]int{len(p.Vertices), len(p.Triangles)}
		for _, j := range buckets[key] {
			if !sameMaking(pp.opt, live[j].opt) {
				continue
			}
			if t, ok := sameGeometry(out[live[j].part].local, out[pp.part].local, ex.Parts[live[j].part].Triangles, p.Triangles); ok {
				leader[i], shift[i] = j, t
				break
			}
		}
		if leader[i] == i {
			buckets[key] = append(buckets[key], i)
			leaders = append(leaders, i)
		}
	}
	workers = max(workers, 1)
	sub := 1
	if len(leaders) < workers {
		// Few parts: let the decompositions use the spare workers.
		sub = workers
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for _, i := range leaders {
		pp := live[i]
		p := &ex.Parts[pp.part]
		m := out[pp.part]
		o := pp.opt
		if o.Progress != nil {
			o = o.ForPart(partName(doc, p))
		}
		o.Workers = sub
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				m.err = err
				return nil
			}
			m.cs, m.notes, m.err = Colliders(ctx, m.local, p.Triangles, o)
			return nil
		})
	}
	g.Wait()
	for i, pp := range live {
		j := leader[i]
		if j == i {
			continue
		}
		m, l := out[pp.part], out[live[j].part]
		m.notes, m.err = l.notes, l.err
		for _, c := range l.cs {
			m.cs = append(m.cs, moved(c, shift[i]))
		}
	}
	return out
}

// moved returns c moved by t: what Colliders makes of the points moved by
// t, but for rounding.
func moved(c Collider, t geom.Vec3) Collider {
	switch {
	case c.Hull != nil:
		m := convexCollider(&hull.Hull{Vertices: translated(c.Hull.Vertices, t), Triangles: c.Hull.Triangles}, c.Method, c.Capped)
		m.overshoot = c.overshoot
		return m
	case c.soup != nil:
		c.soup = &soup{translated(c.soup.vertices, t), c.soup.triangles}
	default:
		c.Translation = c.Translation.Add(t)
	}
	c.Mass.CenterOfMass = c.Mass.CenterOfMass.Add(t)
	if c.Convex != nil {
		c.Convex = &mass.Convex{Vertices: translated(c.Convex.Vertices, t), Triangles: c.Convex.Triangles}
	}
	return c
}

// translated returns a copy of vs moved by t.
func translated(vs []geom.Vec3, t geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		out[i] = v.Add(t)
	}
	return out
}

// sameTol: two parts' vertices this close, relative to the bounding-box
// diagonal, count as the same geometry (instances differ by the rounding
// of their transforms, some 1e-16).
const sameTol = 1e-9

// sameGeometry reports whether mesh (b, tb) is mesh (a, ta) moved by t:
// the same triangles, over vertices b[i] within sameTol of a[i]+t, so
// that the colliders of a moved by t hold b's vertices too.
func sameGeometry(a, b []geom.Vec3, ta, tb [][3]uint32) (t geom.Vec3, ok bool) {
	if len(a) != len(b) || len(a) == 0 || !slices.Equal(ta, tb) {
		return t, false
	}
	t = b[0].Sub(a[0])
	tol := sameTol * geom.BoundsOf(a).Diagonal()
	for i := range a {
		d := b[i].Sub(a[i]).Sub(t)
		if math.Abs(d[0]) > tol || math.Abs(d[1]) > tol || math.Abs(d[2]) > tol {
			return t, false
		}
	}
	return t, true
}

// sameMaking reports whether two parts' options make the same colliders
// from the same geometry: equal but for the worker count and the progress
// report, which change nothing, and the rules, already applied to each.
func sameMaking(a, b Options) bool {
	a.Workers, b.Workers = 0, 0
	a.Rules, b.Rules = nil, nil
	a.Progress, b.Progress = nil, nil
	return reflect.DeepEqual(a, b)
}

func body(a *gltfio.Asset, model *physics.Model, ex *mesh.Result, b *bodyPlan, done map[int]*made, res resources, opt Options, rep *Report) error {
	r := b.node
	_, scale, err := frame(b.world)
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %v; no body generated", mesh.NodeName(a.Doc, r), err))
		return nil
	}
	total := 0
	for _, pp := range b.parts {
		m := done[pp.part]
		if m.err != nil {
			return fmt.Errorf("%s: %w", ex.Parts[pp.part].Name, m.err)
		}
		total += len(m.cs)
	}
	parent := r
	if !isOne(scale) && total > 0 {
		g := gltfio.NewObject()
		g.Set("name", bodyName(a, r, true)+".colliders")
		g.Set("scale", []any{gltfio.Num(1 / scale[0]), gltfio.Num(1 / scale[1]), gltfio.Num(1 / scale[2])})
		if parent, err = a.AppendNode(r, g); err != nil {
			return err
		}
	}
	var solids []solid
	var masses []colliderMass
	br := BodyReport{Node: r, Name: bodyName(a, r, false), Motion: b.motion}
	for k, pp := range b.parts {
		p := &ex.Parts[pp.part]
		m := done[pp.part]
		local, cs, notes := m.local, m.cs, m.notes
		if !hidden(a, p.Node) {
			solids = append(solids, solid{local, p.Triangles})
		}
		for _, n := range notes {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s", p.Name, n))
		}
		pr := partReport(r, p, a.Doc, local, cs, notes)
		pr.Rule = pp.rule
		if pp.reason != "" {
			pr.Reason = strings.TrimPrefix(pr.Reason+"; ", "; ") + pp.reason
		}
		if len(cs) == 0 {
			pr.Method = None
		}
		pr.Trigger = pp.trigger && len(cs) > 0
		rep.Parts = append(rep.Parts, pr)
		for j, c := range cs {
			name := fmt.Sprintf("%s.collider%d", partName(a.Doc, p), k)
			if len(cs) > 1 {
				name = fmt.Sprintf("%s.collider%d.hull%d", partName(a.Doc, p), k, j)
			}
			if pp.trigger {
				name = strings.Replace(name, ".collider", ".trigger", 1)
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
			if c.soup != nil {
				m, err := a.AppendMesh(partName(a.Doc, p)+".trimesh", c.soup.vertices, c.soup.triangles, opt.Binary)
				if err != nil {
					return fmt.Errorf("%s: %w", p.Name, err)
				}
				c.Shape.Mesh = m
			}
			if !pp.trigger {
				// Triggers have no mass (OMI and KHR alike).
				masses = append(masses, colliderMass{c.Mass, c.Convex})
			}
			idx, err := a.AppendNode(parent, node)
			if err != nil {
				return err
			}
			s := model.AddShape(c.Shape)
			if pp.trigger {
				model.Node(idx).Trigger = &physics.Trigger{Shape: s, Filter: res.filter}
				rep.Triggers++
			} else {
				model.Node(idx).Collider = &physics.Collider{Shape: s, Material: res.material, Filter: res.filter}
			}
			rep.Colliders[string(c.Shape.Type)]++
			br.Colliders++
		}
	}
	if br.Colliders == 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: no colliders (method none); no body generated", mesh.NodeName(a.Doc, r)))
		return nil
	}
	if b.motion != physics.Dynamic {
		// Static and kinematic bodies take no mass: neither family uses
		// it (KHR: isKinematic is infinite mass; OMI: only dynamic
		// bodies use inertia), so none is written.
		model.Node(r).Motion = &physics.Motion{Type: b.motion}
		br.MassSource = "none (" + string(b.motion) + ")"
		rep.BodyList = append(rep.BodyList, br)
		rep.Bodies++
		return nil
	}
	props, source, err := bodyMass(solids, masses)
	var mo *physics.Motion
	if err == nil {
		mo, err = motion(props, opt.Mass, scale)
	}
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: mass: %v; left to the engine", mesh.NodeName(a.Doc, r), err))
		mo = &physics.Motion{Type: physics.Dynamic}
	} else {
		br.Volume, br.Mass, br.MassSource = props.Volume, *mo.Mass, source
	}
	model.Node(r).Motion = mo
	rep.BodyList = append(rep.BodyList, br)
	rep.Bodies++
	return nil
}

// hidden reports whether node n no longer renders its mesh (it became a
// collider only): its geometry is not part of the body's mass.
func hidden(a *gltfio.Asset, n int) bool {
	o, _ := a.Tree.Arr("nodes")[n].(*gltfio.Object)
	_, has := o.Get("mesh")
	return !has
}

// bodyName names a body node for reports, or (nonEmpty) for the names
// of generated children.
func bodyName(a *gltfio.Asset, n int, nonEmpty bool) string {
	if n < len(a.Doc.Nodes) {
		if nonEmpty {
			return baseName(a.Doc, n)
		}
		return a.Doc.Nodes[n].Name
	}
	o, _ := a.Tree.Arr("nodes")[n].(*gltfio.Object)
	s, _ := o.Get("name")
	name, _ := s.(string)
	return name
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
	// soup is the geometry of a trimesh collider (nil otherwise).
	soup *soup
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
		h, err := hull.Build(vertices, hullOptions(opt))
		if err != nil {
			return nil, nil, err
		}
		return []Collider{hullCollider(h, Hull, vertices)}, nil, nil
	case Decompose:
		res, err := decompose.Decompose(ctx, vertices, triangles, decompose.Options{
			Concavity: opt.Concavity, AbsConcavity: opt.AbsConcavity, MaxHulls: opt.MaxHulls,
			MaxHullVertices: hullOptions(opt).MaxVertices, Workers: max(opt.Workers, 1),
			SearchTriangles: opt.SearchTriangles, Progress: decomposeProgress(opt.Progress),
		})
		if err != nil {
			return nil, nil, err
		}
		cs := make([]Collider, 0, len(res.Hulls))
		notes := res.Notes
		for i, h := range res.Hulls {
			if opt.MaxHullFaces > 0 {
				// The decomposition caps vertices only: rebuild each
				// hull from its vertices within the face cap too.
				hc, err := hull.Build(h.Vertices, hullOptions(opt))
				if err != nil {
					return nil, nil, fmt.Errorf("hull %d: %w", i, err)
				}
				h = hc
			}
			cs = append(cs, hullCollider(h, Decompose, nil))
		}
		return cs, notes, nil
	case Trimesh:
		return []Collider{trimeshCollider(vertices, triangles)}, nil, nil
	case None:
		return nil, nil, nil
	case AABB, Box, Sphere, Capsule, Cylinder:
		c, err := primitive(vertices, opt)
		return []Collider{c}, nil, err
	case Auto:
		return autoColliders(ctx, vertices, triangles, opt)
	}
	return nil, nil, fmt.Errorf("unknown method %q", opt.Method)
}

// decomposeProgress passes a decomposition's rounds on to f (nil: none).
func decomposeProgress(f func(Step)) func(done, total int) {
	if f == nil {
		return nil
	}
	return func(done, total int) { f(Step{Done: done, Total: total}) }
}

// hullOptions are the hull limits of opt: the vertex cap lowered to meet
// the triangle cap (a closed triangulated convex polytope of V vertices
// has 2V-4 triangles).
func hullOptions(opt Options) hull.Options {
	o := hull.Options{MaxVertices: opt.MaxHullVertices, MaxFaces: opt.MaxHullFaces}
	if t := opt.MaxHullTriangles; t > 0 {
		v := (t + 4) / 2
		if o.MaxVertices == 0 {
			o.MaxVertices = hull.DefaultMaxVertices
		}
		if o.MaxVertices < 0 || o.MaxVertices > v {
			o.MaxVertices = v
		}
	}
	return o
}

// soup is a trimesh collider's triangles.
type soup struct {
	vertices  []geom.Vec3
	triangles [][3]uint32
}

// trimeshCollider makes the mesh itself the collider, with its mass
// properties when it is closed (they matter only for reports: triangle
// meshes are for static bodies).
func trimeshCollider(vertices []geom.Vec3, triangles [][3]uint32) Collider {
	c := Collider{Shape: physics.Shape{Type: physics.Trimesh}, Rotation: geom.IdentityQuat(), Method: Trimesh,
		soup: &soup{vertices, triangles}}
	if mass.IsClosedByPosition(vertices, triangles) {
		if p, err := mass.Mesh(vertices, triangles); err == nil {
			c.Mass = p
		}
	}
	return c
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
	c := convexCollider(h, m, capped)
	if exact > 0 {
		c.overshoot = c.Mass.Volume/exact - 1
	}
	return c
}

// convexCollider makes the collider of a hull as it will be stored (see
// storedHull), with its mass properties.
func convexCollider(h *hull.Hull, m Method, capped bool) Collider {
	h = storedHull(h)
	cv := mass.Convex{Vertices: h.Vertices, Triangles: h.Triangles}
	props, err := mass.Mesh(h.Vertices, h.Triangles)
	if err != nil {
		props = mass.Properties{CenterOfMass: geom.BoundsOf(h.Vertices).Center()}
	}
	return Collider{Shape: physics.Shape{Type: physics.Convex}, Rotation: geom.IdentityQuat(), Hull: h, Mass: props, Convex: &cv, Method: m, Capped: capped}
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
		// A round part's best capsule is a sphere (height 0), which both
		// schemas forbid: lengthen it to the floor, which only grows it.
		r, h := math.Max(f.Radius, floor), math.Max(f.Height, floor)
		c.Shape = physics.Shape{Type: physics.Capsule, Height: h, RadiusTop: r, RadiusBottom: r}
		props = mass.Capsule(h, r)
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
		return sourceName(doc.Nodes[i].Name)
	}
	return fmt.Sprintf("node%d", i)
}

func partName(doc *gltf.Document, p *mesh.Part) string {
	n := baseName(doc, p.Node)
	if doc.Nodes[p.Node].Name == "" && p.Mesh < len(doc.Meshes) && doc.Meshes[p.Mesh].Name != "" {
		n = sourceName(doc.Meshes[p.Mesh].Name)
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

// docArray is a document-level array the generated physics appends to.
type docArray struct{ ext, name string }

// docArrays are, per family, where the shapes, physics materials and
// collision filters live, in that order.
var docArrays = map[Format][3]docArray{
	OMI: {{physics.ExtOMIShape, "shapes"}, {physics.ExtOMIBody, "physicsMaterials"}, {physics.ExtOMIBody, "collisionFilters"}},
	KHR: {{physics.ExtKHRShapes, "shapes"}, {physics.ExtKHRBodies, "physicsMaterials"}, {physics.ExtKHRBodies, "collisionFilters"}},
}

// withPlaceholders returns a copy of gen whose shapes, materials and
// filters come after the given numbers of placeholders standing for the
// document's existing ones, with every reference shifted to match.
func withPlaceholders(gen *physics.Model, shapes, materials, filters int) *physics.Model {
	m := gen.Clone()
	ps := make([]physics.Shape, shapes)
	for i := range ps {
		ps[i] = physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}}
	}
	m.Shapes = append(ps, m.Shapes...)
	m.Materials = append(make([]physics.Material, materials), m.Materials...)
	m.Filters = append(make([]physics.Filter, filters), m.Filters...)
	shift := func(i *int, by int) {
		if *i >= 0 {
			*i += by
		}
	}
	for _, n := range m.Nodes {
		if c := n.Collider; c != nil {
			shift(&c.Shape, shapes)
			shift(&c.Material, materials)
			shift(&c.Filter, filters)
		}
		if t := n.Trigger; t != nil {
			shift(&t.Shape, shapes)
			shift(&t.Filter, filters)
		}
	}
	return m
}

// emit encodes the generated model in the requested family and grafts it
// into the tree without touching what was there: the document-level
// shapes, physics materials and collision filters are appended after any
// existing ones (the encoder is given placeholders in their places so
// that the generated references come out right), and only the generated model's nodes get extensions.
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
	// Existing document-level arrays: generated references must point
	// past them.
	exts := a.Tree.Obj("extensions")
	existing := map[docArray]int{}
	for _, d := range docArrays[opt.Format] {
		existing[d] = len(exts.Obj(d.ext).Arr(d.name))
	}
	arr := docArrays[opt.Format]
	m := gen
	if existing[arr[0]]+existing[arr[1]]+existing[arr[2]] > 0 {
		m = withPlaceholders(gen, existing[arr[0]], existing[arr[1]], existing[arr[2]])
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
		if _, had := exts.Get(k); !had {
			if err := a.Set(tv, "extensions", k); err != nil {
				return err
			}
			continue
		}
		enc, _ := tv.(*gltfio.Object)
		for _, d := range docArrays[opt.Format] {
			if d.ext != k {
				continue
			}
			items := enc.Arr(d.name)
			n := existing[d]
			if len(items) < n {
				return fmt.Errorf("internal: encoder dropped placeholder %s", d.name)
			}
			if len(items) == n {
				continue
			}
			merged := append(append([]any{}, exts.Obj(k).Arr(d.name)...), items[n:]...)
			if err := a.Set(merged, "extensions", k, d.name); err != nil {
				return err
			}
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
