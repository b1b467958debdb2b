package g4mf

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// Generate reads the 3D G4MF file in, makes every child of the root node
// whose subtree holds triangles (and no physics) a dynamic body with
// colliders made by generate.Colliders, and writes the result to out
// (.g4tf or .g4b) atomically. What an earlier run added is removed
// first, so running it on its own output gives the same bytes.
func Generate(ctx context.Context, in, out string, opt generate.Options) (*generate.Report, error) {
	if !IsName(out) {
		return nil, fmt.Errorf("%s: output must end in .g4tf or .g4b", out)
	}
	f, err := Read(in)
	if err != nil {
		return nil, err
	}
	rep, err := GenerateFile(ctx, f, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	// External buffers stay external only when the output sits next to
	// the input; elsewhere their relative URIs would break, so they are
	// embedded.
	ai, err1 := filepath.Abs(in)
	ao, err2 := filepath.Abs(out)
	if err1 != nil || err2 != nil || filepath.Dir(ai) != filepath.Dir(ao) {
		for i := range f.bufs {
			f.bufs[i].inline = true
		}
	}
	if err := f.Save(out); err != nil {
		return nil, err
	}
	return rep, nil
}

// GenerateFile is Generate on a file in memory, which it edits.
func GenerateFile(ctx context.Context, f *File, opt generate.Options) (*generate.Report, error) {
	if opt.Encoding.ExplicitFormat {
		// A G4MF file's physics is G4MF's own; a glTF family asked for
		// could only be ignored, which would surprise.
		return nil, fmt.Errorf("--format %s: a G4MF file's physics is written in G4MF's own form; "+
			"leave --format out, or convert the output to glTF (autocollide convert OUT.g4tf -o OUT.glb --to %s)", opt.Encoding.Format, opt.Encoding.Format)
	}
	if opt.Collider.Method == "" {
		opt.Collider.Method = generate.AABB
	}
	if err := strip(f); err != nil {
		return nil, err
	}
	sc, err := f.Scene()
	if err != nil {
		return nil, err
	}
	rep := &generate.Report{Colliders: map[string]int{}}
	if opt.Collider.Method == generate.Trimesh {
		// Every body made here is dynamic, and engines take triangle
		// meshes on static bodies only (as the glTF pipeline does).
		opt.Collider.Method = generate.Decompose
		rep.Warnings = append(rep.Warnings, "a triangle mesh collider needs a static body and G4MF bodies are dynamic; decomposed into hulls instead")
	}
	if len(sc.Nodes) == 0 {
		return rep, nil
	}
	if sc.Nodes[0].Mesh >= 0 {
		rep.Warnings = append(rep.Warnings, "nodes[0]: the root node's own mesh gets no body (only its children become bodies)")
	}
	b := newBuilder(f, true)
	roots := append([]int(nil), sc.Nodes[0].Children...)
	for k, r := range roots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		parts, hasPhysics := subtree(sc, r)
		if len(parts) == 0 {
			continue
		}
		if hasPhysics {
			rep.Kept++
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: already has physics; kept as it is", label(sc, r)))
			continue
		}
		if err := genBody(ctx, sc, b, r, k, parts, opt, rep); err != nil {
			return nil, fmt.Errorf("%s: %w", label(sc, r), err)
		}
	}
	b.finish()
	return rep, nil
}

func label(sc *Scene, i int) string {
	if sc.Nodes[i].Name != "" {
		return fmt.Sprintf("nodes[%d] %q", i, sc.Nodes[i].Name)
	}
	return fmt.Sprintf("nodes[%d]", i)
}

// part is one mesh instance in world space.
type part struct {
	node      int
	vertices  []geom.Vec3
	triangles [][3]uint32
}

// subtree collects the mesh instances under r (depth first, children in
// order) in world space with outward winding, and says whether any node
// there carries physics.
func subtree(sc *Scene, r int) ([]part, bool) {
	var parts []part
	has := false
	var walk func(n int)
	walk = func(n int) {
		nd := &sc.Nodes[n]
		if nd.Physics.Motion != nil || nd.Physics.Collider != nil || nd.Physics.Trigger != nil {
			has = true
		}
		if nd.Mesh >= 0 && len(sc.Meshes[nd.Mesh].Triangles) > 0 {
			m := sc.Meshes[nd.Mesh]
			p := part{node: n, vertices: make([]geom.Vec3, len(m.Vertices)), triangles: make([][3]uint32, len(m.Triangles))}
			for i, v := range m.Vertices {
				p.vertices[i] = nd.World.Point(v)
			}
			flip := nd.World.Linear().Det() < 0
			for i, t := range m.Triangles {
				if flip {
					t[1], t[2] = t[2], t[1]
				}
				p.triangles[i] = t
			}
			parts = append(parts, p)
		}
		for _, c := range nd.Children {
			walk(c)
		}
	}
	walk(r)
	return parts, has
}

// genBody builds one body: node B at the world centre of mass (world
// orientation) carrying the motion, under it node O undoing that offset,
// under O the original subtree (unchanged) and the collider nodes.
func genBody(ctx context.Context, sc *Scene, b *builder, r, slot int, parts []part, opt generate.Options, rep *generate.Report) error {
	t, q, _, err := sc.Nodes[r].World.Rigid()
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %v; no body generated", label(sc, r), err))
		return nil
	}
	F := geom.TRS(t, q, geom.Vec3{1, 1, 1})
	inv, _ := F.Inverse()
	base := sc.Nodes[r].Name
	if base == "" {
		base = fmt.Sprintf("Node%d", r)
	}
	type collider struct {
		name string
		c    generate.Collider
	}
	var cols []collider
	var solids []generate.Solid
	var cms []generate.Collider
	for k, p := range parts {
		local := make([]geom.Vec3, len(p.vertices))
		for i, v := range p.vertices {
			local[i] = inv.Point(v)
		}
		solids = append(solids, generate.Solid{Vertices: local, Triangles: p.triangles})
		name := sc.Nodes[p.node].Name
		if name == "" {
			name = fmt.Sprintf("nodes[%d]", p.node)
		}
		cs, notes, err := generate.Colliders(ctx, local, p.triangles, opt.Collider, opt.Run.ForPart(name))
		if err != nil {
			return fmt.Errorf("%s: %w", label(sc, p.node), err)
		}
		for _, n := range notes {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s", label(sc, p.node), n))
		}
		pn := sc.Nodes[p.node].Name
		if pn == "" {
			pn = fmt.Sprintf("Node%d", p.node)
		}
		for j, c := range cs {
			name := fmt.Sprintf("%s_Collider%d", pn, k)
			if len(cs) > 1 {
				name = fmt.Sprintf("%s_Collider%d_Hull%d", pn, k, j)
			}
			cols = append(cols, collider{name, c})
			cms = append(cms, c)
		}
	}
	br := generate.BodyReport{Name: sc.Nodes[r].Name}
	mo := &physics.Motion{Type: physics.Dynamic}
	com := geom.Vec3{} // in F
	props, source, err := generate.BodyMass(ctx, solids, cms)
	if err == nil {
		var body mass.Body
		body, err = opt.Body.Mass.Body(props)
		if err == nil {
			m := body.Mass
			d := body.InertiaDiagonal
			qi := [4]float64(q.Mul(body.InertiaOrientation).Normalize())
			mo.Mass, mo.InertiaDiagonal, mo.InertiaOrientation = &m, &d, &qi
			com = body.CenterOfMass
			br.Volume, br.Mass, br.MassSource = props.Volume, m, source
		}
	}
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: mass: %v; left to the engine", label(sc, r), err))
	}
	wc := F.Point(com)

	bn := gltfio.NewObject()
	bn.Set("name", b.name(base+"_Body"))
	setPose(bn, wc, geom.IdentityQuat())
	bn.Set("physics", physicsObject("motion", motionObject(mo)))
	bi := b.node(bn)
	on := gltfio.NewObject()
	on.Set("name", b.name(base+"_CenterOfMassOffset"))
	setPose(on, wc.Scale(-1), geom.IdentityQuat())
	oi := b.node(on)
	b.child(bi, oi)
	// Replace r by the body node in the root's children, in place.
	root := b.f.Tree.Arr("nodes")[0].(*gltfio.Object)
	ch := append([]any(nil), root.Arr("children")...)
	ch[slot] = gltfio.IntNum(bi)
	root.Set("children", ch)
	b.child(oi, r)
	for _, c := range cols {
		mi := -1
		if c.c.Hull != nil {
			mi = b.mesh(c.c.Hull.Vertices, c.c.Hull.Triangles)
		}
		so, _ := shapeObject(c.c.Shape, mi)
		si := b.push("shapes", so)
		cn := gltfio.NewObject()
		cn.Set("name", b.name(c.name))
		setPose(cn, F.Point(c.c.Translation), q.Mul(c.c.Rotation))
		co := gltfio.NewObject()
		co.Set("shape", gltfio.IntNum(si))
		cn.Set("physics", physicsObject("collider", co))
		b.child(oi, b.node(cn))
		rep.Colliders[string(c.c.Shape.Type)]++
		br.Colliders++
	}
	br.Node = bi
	rep.BodyList = append(rep.BodyList, br)
	rep.Bodies++
	return nil
}

// generated reports whether a tree item carries the autocollide mark.
func generated(v any) bool {
	o, ok := v.(*gltfio.Object)
	if !ok {
		return false
	}
	_, ok = o.Obj("extras").Get(extrasKey)
	return ok
}

// strip removes what an earlier Generate added: marked items, which are
// always at the end of their arrays, and marked nodes in children lists
// (replaced by their unmarked descendants).
func strip(f *File) error {
	nodes := f.Tree.Arr("nodes")
	keep := len(nodes)
	for keep > 0 && generated(nodes[keep-1]) {
		keep--
	}
	for i := 0; i < keep; i++ {
		if generated(nodes[i]) {
			return fmt.Errorf("nodes[%d]: generated by autocollide but not at the end of the array; the file was edited since", i)
		}
	}
	if keep < len(nodes) {
		var expand func(i, depth int) ([]any, error)
		expand = func(i, depth int) ([]any, error) {
			if depth > MaxDepth {
				return nil, errors.New("generated nodes nest too deeply")
			}
			var out []any
			for _, c := range nodes[i].(*gltfio.Object).Arr("children") {
				k, ok := asIndex(c, len(nodes))
				if !ok {
					return nil, fmt.Errorf("nodes[%d].children: bad index", i)
				}
				if k >= keep {
					sub, err := expand(k, depth+1)
					if err != nil {
						return nil, err
					}
					out = append(out, sub...)
				} else {
					out = append(out, c)
				}
			}
			return out, nil
		}
		for i := 0; i < keep; i++ {
			o, ok := nodes[i].(*gltfio.Object)
			if !ok {
				continue
			}
			ch := o.Arr("children")
			touched := false
			var out []any
			for _, c := range ch {
				k, ok := asIndex(c, len(nodes))
				if ok && k >= keep {
					sub, err := expand(k, 1)
					if err != nil {
						return err
					}
					out = append(out, sub...)
					touched = true
				} else {
					out = append(out, c)
				}
			}
			if touched {
				o.Set("children", out)
			}
		}
		f.Tree.Set("nodes", nodes[:keep])
	}
	for _, key := range []string{"shapes", "meshes", "accessors", "bufferViews", "buffers"} {
		arr := f.Tree.Arr(key)
		n := len(arr)
		for n > 0 && generated(arr[n-1]) {
			n--
		}
		if n == len(arr) {
			continue
		}
		// An emptied array stays (as []) where it was, so that the next
		// run appends to it in the same place.
		f.Tree.Set(key, arr[:n])
		if key == "buffers" && n <= len(f.bufs) {
			f.bufs = f.bufs[:n]
		}
	}
	return nil
}

func asIndex(v any, n int) (int, bool) {
	o := gltfio.NewObject()
	o.Set("x", v)
	k, ok := o.Int("x")
	return k, ok && k >= 0 && k < n
}
