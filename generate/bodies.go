package generate

import (
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
	var solids []Solid
	var masses []Collider
	br := BodyReport{Node: r, Name: bodyName(a, r, false), Motion: b.motion}
	for k, pp := range b.parts {
		p := &ex.Parts[pp.part]
		m := done[pp.part]
		local, cs, notes := m.local, m.cs, m.notes
		if !hidden(a, p.Node) {
			solids = append(solids, Solid{local, p.Triangles})
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
		rep.HullVertices += pr.HullVertices
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
				m, err := a.AppendMesh(partName(a.Doc, p)+".hull", c.Hull.Vertices, c.Hull.Triangles, opt.Encoding.Binary)
				if err != nil {
					return fmt.Errorf("%s: %w", p.Name, err)
				}
				c.Shape.Mesh = m
			}
			if c.soup != nil {
				m, err := a.AppendMesh(partName(a.Doc, p)+".trimesh", c.soup.vertices, c.soup.triangles, opt.Encoding.Binary)
				if err != nil {
					return fmt.Errorf("%s: %w", p.Name, err)
				}
				c.Shape.Mesh = m
			}
			if !pp.trigger {
				// Triggers have no mass (OMI and KHR alike).
				masses = append(masses, c)
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
	props, source, err := BodyMass(solids, masses)
	var mo *physics.Motion
	if err == nil {
		mo, err = motion(props, opt.Body.Mass, scale)
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
