package generate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// body makes body b's collider nodes and shapes, weighs it and writes
// its motion, and reports it and its parts; a body without colliders is
// noted and left out.
func (j *job) body(ctx context.Context, b *bodyPlan) error {
	a, rep := j.a, j.rep
	r := b.node
	bodyFrame, scale, err := frame(b.world)
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %v; no body generated", mesh.NodeName(a.Doc, r), err))
		return nil
	}
	homes, err := j.colliderParents(b)
	if err != nil {
		return err
	}
	var solids []Solid
	var masses []Collider
	box := geom.EmptyBox() // of the colliders, in the body's frame
	br := BodyReport{Node: r, Name: bodyName(a, r, false), Motion: b.motion, Merged: b.merged}
	for k, pp := range b.parts {
		p := &j.ex.Parts[pp.part]
		m := j.made[pp.part]
		local, cs, notes := m.local, m.cs, m.notes
		parent := homes[pp.home]
		// Into the body's frame: the part's colliders were made in its
		// home body's (they differ once bodies are merged).
		move, moved := toFrame(bodyFrame, pp.home.world)
		if !hidden(a, p.Node) {
			solids = append(solids, Solid{movePoints(move, moved, local), p.Triangles})
		}
		for _, n := range notes {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s", p.Name, n))
		}
		pr := partReport(r, p, a.Doc, local, cs, notes)
		if m := pp.collider.Method; m == Auto || m == Decompose {
			pr.Budget = pp.collider.budget()
		}
		pr.Rule = pp.rule
		if pp.reason != "" {
			pr.Reason = strings.TrimPrefix(pr.Reason+"; ", "; ") + pp.reason
		}
		if len(cs) == 0 {
			pr.Method = None
		}
		pr.Trigger = pp.trigger && len(cs) > 0
		rep.Parts = append(rep.Parts, pr)
		rep.HullVertices += pr.HullVertices
		for ci, c := range cs {
			name := fmt.Sprintf("%s.collider%d", partName(a.Doc, p), k)
			if len(cs) > 1 {
				// A decomposition's part: .hull3, or .box3 where it
				// became a primitive.
				kind := "hull"
				if c.Shape.Type != physics.Convex {
					kind = string(c.Shape.Type)
				}
				name = fmt.Sprintf("%s.collider%d.%s%d", partName(a.Doc, p), k, kind, ci)
			}
			if pp.trigger {
				name = strings.Replace(name, ".collider", ".trigger", 1)
			}
			node := gltfio.NewObject()
			node.Set("name", name)
			setPose(node, c.Translation, c.Rotation)
			if c.Hull != nil {
				m, err := a.AppendMesh(partName(a.Doc, p)+".hull", c.Hull.Vertices, c.Hull.Triangles, j.opt.Encoding.Binary)
				if err != nil {
					return fmt.Errorf("%s: %w", p.Name, err)
				}
				c.Shape.Mesh = m
			}
			if c.soup != nil {
				m, err := a.AppendMesh(partName(a.Doc, p)+".trimesh", c.soup.vertices, c.soup.triangles, j.opt.Encoding.Binary)
				if err != nil {
					return fmt.Errorf("%s: %w", p.Name, err)
				}
				c.Shape.Mesh = m
			}
			if !pp.trigger {
				// Triggers have no mass (OMI and KHR alike).
				masses = append(masses, moveCollider(move, moved, c))
				for _, q := range movePoints(move, moved, colliderPoints(c)) {
					box = box.Extend(q)
				}
			}
			idx, err := a.AppendNode(parent, node)
			if err != nil {
				return err
			}
			if ci == 0 && pr.Budget > 0 && !pp.trigger {
				// The instance's budget and what it kept, for inspect and
				// preview (the colliders are this node and the next ones).
				b := gltfio.NewObject()
				b.Set("node", gltfio.IntNum(p.Node))
				b.Set("max", gltfio.IntNum(pr.Budget))
				b.Set("colliders", gltfio.IntNum(len(cs)))
				node.Obj("extras").Obj(gltfio.MarkKey).Set(gltfio.BudgetKey, b)
			}
			s := j.model.AddShape(c.Shape)
			if pp.trigger {
				j.model.Node(idx).Trigger = &physics.Trigger{Shape: s, Filter: j.res.filter}
				rep.Triggers++
			} else {
				j.model.Node(idx).Collider = &physics.Collider{Shape: s, Material: j.res.material, Filter: j.res.filter}
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
		j.model.Node(r).Motion = &physics.Motion{Type: b.motion}
		br.MassSource = "none (" + string(b.motion) + ")"
		rep.BodyList = append(rep.BodyList, br)
		rep.Bodies++
		return nil
	}
	props, source, err := BodyMass(ctx, solids, masses)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var mo *physics.Motion
	if err == nil {
		mo, err = motion(props, b.massSpec(j.opt.Body.Mass), scale)
	}
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: mass: %v; left to the engine", mesh.NodeName(a.Doc, r), err))
		mo = &physics.Motion{Type: physics.Dynamic}
	} else {
		br.Volume, br.Mass, br.MassSource, br.InertiaSource = props.Volume, *mo.Mass, source, source
		w, err := weigh(ctx, &br, masses, props, b.massSpec(j.opt.Body.Mass), box)
		if err != nil {
			return err
		}
		rep.Warnings = append(rep.Warnings, w...)
	}
	j.model.Node(r).Motion = mo
	rep.BodyList = append(rep.BodyList, br)
	rep.Bodies++
	return nil
}

// weigh completes a dynamic body's report with its size, its colliders'
// volume and its mass source, and returns its warnings: colliders
// enclosing HollowRatio times the volume its mass comes from or more, a
// size or mass outside the plausible bounds. It fails with ctx's error
// once ctx is done.
func weigh(ctx context.Context, br *BodyReport, colliders []Collider, p mass.Properties, spec Mass, box geom.Box) ([]string, error) {
	var out []string
	name := br.Name
	if name == "" {
		name = fmt.Sprintf("nodes[%d]", br.Node)
	}
	if !box.IsEmpty() {
		br.Size = box.Diagonal()
	}
	if spec.Mass > 0 {
		br.MassSource = SourceExplicit
	}
	cv := p.Volume
	if br.InertiaSource != SourceColliders {
		c, err := CollidersMass(ctx, colliders)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil {
			cv = c.Volume
		}
	}
	br.CollidersVolume = cv
	if br.MassSource == SourceMesh && cv >= HollowRatio*p.Volume {
		out = append(out, fmt.Sprintf("%s: its mass (%.3g kg) and inertia come from its closed render mesh (%.3g m³), but its colliders enclose %.3g m³, %.1f× that: it moves as a hollow shell, and engines that weigh it by its colliders make it %.1f× heavier", name, br.Mass, p.Volume, cv, cv/p.Volume, cv/p.Volume))
	}
	if why := implausible(br.Size, br.Mass); why != "" {
		out = append(out, fmt.Sprintf("%s: implausible dynamic body: %s; glTF units are metres (plausible: %g–%g m, %g–%g kg)", name, why, MinBodySize, float64(MaxBodySize), MinBodyMass, float64(MaxBodyMass)))
	}
	return out, nil
}

// colliderParents returns, for each home body of b's parts (b itself
// unless bodies were merged), the node its colliders go under: the home
// body's node, or a child of it cancelling its scale when it has one.
func (j *job) colliderParents(b *bodyPlan) (map[*bodyPlan]int, error) {
	a := j.a
	out := map[*bodyPlan]int{}
	total := map[*bodyPlan]int{}
	var order []*bodyPlan
	for _, pp := range b.parts {
		m := j.made[pp.part]
		if m.err != nil {
			return nil, fmt.Errorf("%s: %w", j.ex.Parts[pp.part].Name, m.err)
		}
		if _, seen := total[pp.home]; !seen {
			order = append(order, pp.home)
		}
		total[pp.home] += len(m.cs)
	}
	for _, h := range order {
		node := h.node
		if h != b && h.node == groupNode {
			node = h.gen.stand
		}
		out[h] = node
		_, scale, err := frame(h.world)
		if err != nil || isOne(scale) || total[h] == 0 {
			continue
		}
		g := gltfio.NewObject()
		g.Set("name", bodyName(a, node, true)+".colliders")
		g.Set("scale", []any{gltfio.Num(1 / scale[0]), gltfio.Num(1 / scale[1]), gltfio.Num(1 / scale[2])})
		if out[h], err = a.AppendNode(node, g); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// toFrame returns the rigid transform from the frame of the body node
// whose world transform is home into the frame body, and whether it
// moves anything.
func toFrame(body, home geom.Mat4) (geom.Mat4, bool) {
	f, _, err := frame(home)
	if err != nil || f == body {
		return geom.Identity4(), false
	}
	inv, ok := body.Inverse()
	if !ok {
		return geom.Identity4(), false
	}
	return inv.Mul(f), true
}

func movePoints(m geom.Mat4, moved bool, pts []geom.Vec3) []geom.Vec3 {
	if !moved {
		return pts
	}
	out := make([]geom.Vec3, len(pts))
	for i, p := range pts {
		out[i] = m.Point(p)
	}
	return out
}

// moveCollider returns c's mass properties and polyhedron moved by the
// rigid transform m (what weighing the body needs of it).
func moveCollider(m geom.Mat4, moved bool, c Collider) Collider {
	if !moved {
		return c
	}
	c.Mass = c.Mass.Transform(geom.QuatFromMat3(m.Linear()), m.Translation())
	if c.Convex != nil {
		cv := *c.Convex
		cv.Vertices = movePoints(m, true, cv.Vertices)
		c.Convex = &cv
	}
	return c
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
		if len(cs) > 1 && c.Shape.Type != physics.Convex {
			if pr.Primitives == nil {
				pr.Primitives = map[string]int{}
			}
			pr.Primitives[string(c.Shape.Type)]++
		}
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

// motion turns mass properties in frame F into an OMI/KHR motion in the
// body node's space, which is F scaled by s (see frame).
func motion(p mass.Properties, spec Mass, s geom.Vec3) (*physics.Motion, error) {
	b, err := spec.Body(p)
	if err != nil {
		return nil, err
	}
	com := [3]float64{b.CenterOfMass[0] / s[0], b.CenterOfMass[1] / s[1], b.CenterOfMass[2] / s[2]}
	for _, v := range com {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("non-finite mass property %v", v)
		}
	}
	m := b.Mass
	diag := b.InertiaDiagonal
	q := [4]float64(b.InertiaOrientation)
	return &physics.Motion{Type: physics.Dynamic, Mass: &m, CenterOfMass: &com, InertiaDiagonal: &diag, InertiaOrientation: &q}, nil
}
