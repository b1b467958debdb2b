package generate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/qmuntal/gltf"
)

// partPlan is what the plan decided for one mesh instance.
type partPlan struct {
	part     int // index in mesh.Result.Parts
	body     *bodyPlan
	collider ColliderSettings // the method and its parameters for this instance
	rule     string           // the rule that matched, if any
	trigger  bool
	// reason says why the method is not the options' own (a naming
	// convention, a fallback), for the part report.
	reason string
	// handmade says a naming convention made the part a collider (or
	// gave it the artist's colliders).
	handmade bool
}

// bodyPlan is one body to generate.
type bodyPlan struct {
	// node is the body node; groupNode when it is file mode's generated
	// node, made once the plan is carried out.
	node   int
	motion physics.MotionType
	parts  []*partPlan
	// world is the body node's world transform, set when the plan is
	// carried out.
	world geom.Mat4
}

// groupNode stands for the body node file mode generates.
const groupNode = -1

// assetPlan is what will be generated for one asset.
type assetPlan struct {
	parts  []*partPlan // in part order
	bodies []*bodyPlan // in the order of their first part
	// hide lists the nodes whose mesh stops rendering (it becomes a
	// collider only), ascending.
	hide []int
	// group lists, in file mode with several geometry roots, the scene
	// roots to gather under a generated body node.
	group           []int
	notes, warnings []string
}

// planner holds what planning one asset needs.
type planner struct {
	a      *gltfio.Asset
	doc    *gltf.Document
	opt    Options
	parent map[int]int
	plan   *assetPlan
	bodies map[int]*bodyPlan
}

// planAsset decides which nodes become bodies, with what motion, and how
// each mesh instance of a root without authored physics gets its
// colliders: from the options, the rules, and the naming conventions,
// which win (they are the artist's own colliders).
func planAsset(a *gltfio.Asset, ex *mesh.Result, authored map[int]bool, opt Options) *assetPlan {
	p := &planner{a: a, doc: a.Doc, opt: opt, parent: map[int]int{}, plan: &assetPlan{}, bodies: map[int]*bodyPlan{}}
	for i, n := range a.Doc.Nodes {
		for _, c := range n.Children {
			p.parent[c] = i
		}
	}
	var todo []int
	for i, part := range ex.Parts {
		if len(part.Triangles) > 0 && !authored[part.Root] {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return p.plan
	}

	// The artists' conventions.
	unreal := map[int]unrealHint{} // collision part -> what it is
	godot := map[int]godotHint{}   // part -> its node's collider hint
	rigid := map[int]int{}         // part -> its -rigid body node
	renders := map[int][]int{}     // render part -> its Unreal collision parts
	if opt.Body.NamingConventions {
		byName := map[string][]int{}
		for _, i := range todo {
			part := &ex.Parts[i]
			if m, cands, ok := p.unrealOf(part); ok {
				unreal[i] = unrealHint{method: m, cands: cands}
				continue
			}
			byName[p.doc.Nodes[part.Node].Name] = append(byName[p.doc.Nodes[part.Node].Name], i)
			if mn := p.meshName(part); mn != "" && mn != p.doc.Nodes[part.Node].Name {
				byName[mn] = append(byName[mn], i)
			}
			if h := godotName(p.doc.Nodes[part.Node].Name); h != godotNone && h != godotRigid {
				godot[i] = h
			}
			for n := part.Node; ; {
				if godotName(p.doc.Nodes[n].Name) == godotRigid {
					rigid[i] = n
					break
				}
				up, ok := p.parent[n]
				if !ok {
					break
				}
				n = up
			}
		}
		for _, i := range todo {
			u, ok := unreal[i]
			if !ok {
				continue
			}
			var found []int
			for _, c := range u.cands {
				if found = byName[c]; len(found) > 0 {
					u.render = c
					break
				}
			}
			if len(found) == 0 {
				p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("%s: an Unreal collision mesh, but no render mesh is named %s; treated as an ordinary mesh", ex.Parts[i].Name, strings.Join(u.cands, " or ")))
				delete(unreal, i)
				continue
			}
			unreal[i] = u
			for _, r := range found {
				renders[r] = append(renders[r], i)
			}
		}
	}

	// Bodies.
	roots := map[int]bool{}
	for _, i := range todo {
		if _, ok := unreal[i]; !ok {
			roots[ex.Parts[i].Root] = true
		}
	}
	fileGroup := false
	if opt.Body.Mode == BodiesPerFile && len(roots) > 1 {
		if ex.Scene < 0 {
			p.plan.warnings = append(p.plan.warnings, "one body per file needs a scene to hold the body node; one body per scene root instead")
		} else {
			fileGroup = true
			for _, r := range ex.Roots {
				if roots[r] {
					p.plan.group = append(p.plan.group, r)
				}
			}
		}
	}
	bodyOf := map[int]*bodyPlan{}
	for _, i := range todo {
		if _, ok := unreal[i]; ok {
			continue
		}
		part := &ex.Parts[i]
		node, motion := part.Root, opt.Body.Motion
		if r, ok := rigid[i]; ok {
			node, motion = r, physics.Dynamic
		} else {
			switch opt.Body.Mode {
			case BodiesPerNode:
				node = part.Node
			case BodiesPerFile:
				if fileGroup {
					node = groupNode
				}
			case BodiesByPattern:
				if n, ok := p.matching(part.Node, part.Root); ok {
					node = n
				}
			}
		}
		bodyOf[i] = p.body(node, motion)
	}
	for _, i := range todo {
		if _, ok := unreal[i]; ok {
			// The render part first in part order carries it.
			for _, r := range todo {
				if slices.Contains(renders[r], i) {
					bodyOf[i] = bodyOf[r]
					break
				}
			}
		}
	}
	// A Godot collision hint makes its body static, unless it is -rigid.
	for _, i := range todo {
		h, ok := godot[i]
		if _, isRigid := rigid[i]; !ok || isRigid || bodyOf[i].motion == physics.Static {
			continue
		}
		bodyOf[i].motion = physics.Static
		p.plan.notes = append(p.plan.notes, fmt.Sprintf("%s: Godot %s hint: its body is static", ex.Parts[i].Name, h))
	}

	// Parts: options, then rules, then the conventions.
	for _, i := range todo {
		part := &ex.Parts[i]
		pp := &partPlan{part: i, body: bodyOf[i], collider: opt.Collider, trigger: opt.Body.Trigger}
		u, isUnreal := unreal[i]
		if opt.Rules != nil && !isUnreal {
			if s, ok := opt.Rules(p.nodeInfo(part)); ok {
				pp.apply(s)
			}
		}
		if isUnreal {
			pp.collider.Method, pp.reason, pp.handmade = u.method, fmt.Sprintf("Unreal collision mesh of %q", u.render), true
			p.plan.hide = append(p.plan.hide, part.Node)
		} else if cs := renders[i]; len(cs) > 0 {
			names := make([]string, len(cs))
			for k, c := range cs {
				names[k] = partName(p.doc, &ex.Parts[c])
			}
			pp.collider.Method, pp.reason, pp.handmade = None, "its colliders are the artist's "+strings.Join(names, ", "), true
		} else if h, ok := godot[i]; ok {
			m, _ := h.collider()
			pp.collider.Method, pp.reason, pp.handmade = m, "Godot "+h.String()+" hint", true
			if h.only() {
				p.plan.hide = append(p.plan.hide, part.Node)
			}
		}
		pp.body.parts = append(pp.body.parts, pp)
		p.plan.parts = append(p.plan.parts, pp)
	}
	// The artist's colliders win: a body holding any gets no generated
	// ones.
	for _, b := range p.plan.bodies {
		var own []string
		for _, pp := range b.parts {
			if pp.handmade && pp.collider.Method != None {
				own = append(own, partName(p.doc, &ex.Parts[pp.part]))
			}
		}
		if len(own) == 0 {
			continue
		}
		for _, pp := range b.parts {
			if !pp.handmade {
				pp.collider.Method, pp.rule, pp.reason = None, "", "its body has the artist's colliders ("+strings.Join(own, ", ")+")"
			}
		}
	}
	for _, pp := range p.plan.parts {
		part := &ex.Parts[pp.part]
		switch {
		case pp.collider.Method == Trimesh && pp.trigger:
			pp.collider.Method = Hull
			pp.reason = strings.TrimPrefix(pp.reason+"; ", "; ") + "a trigger needs a volume: hull instead of triangle mesh"
		case pp.collider.Method == Trimesh && pp.body.motion != physics.Static:
			pp.collider.Method = Decompose
			pp.reason = strings.TrimPrefix(pp.reason+"; ", "; ") + "a triangle mesh collider needs a static body; decomposed instead"
			p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("%s: a triangle mesh collider needs a static body (engines refuse it on %s ones); decomposed into hulls instead", part.Name, pp.body.motion))
		}
	}
	slices.Sort(p.plan.hide)
	p.plan.hide = slices.Compact(p.plan.hide)
	return p.plan
}

// body returns the body planned at node, making it on first use.
func (p *planner) body(node int, motion physics.MotionType) *bodyPlan {
	if b, ok := p.bodies[node]; ok {
		if motion == physics.Dynamic {
			b.motion = motion // a -rigid node wins over the options
		}
		return b
	}
	if motion == "" {
		motion = physics.Dynamic
	}
	b := &bodyPlan{node: node, motion: motion}
	p.bodies[node] = b
	p.plan.bodies = append(p.plan.bodies, b)
	return b
}

// apply lays a rule's settings over the asset's options.
func (pp *partPlan) apply(s PartSettings) {
	pp.rule = s.Rule
	o := &pp.collider
	if s.Method != "" {
		o.Method = s.Method
	}
	if s.MaxHullVertices != 0 {
		o.MaxHullVertices = s.MaxHullVertices
	}
	if s.MaxHullFaces != 0 {
		o.MaxHullFaces = s.MaxHullFaces
	}
	if s.MaxHullTriangles != 0 {
		o.MaxHullTriangles = s.MaxHullTriangles
	}
	if s.MaxHulls != 0 {
		o.MaxHulls = s.MaxHulls
	}
	if s.Concavity != 0 {
		o.Concavity = s.Concavity
	}
	if s.AbsConcavity != 0 {
		o.AbsConcavity = s.AbsConcavity
	}
	if s.AutoTolerance != 0 {
		o.AutoTolerance = s.AutoTolerance
	}
	if s.HullFill != 0 {
		o.HullFill = s.HullFill
	}
	if s.Trigger {
		pp.trigger = true
	}
}

// matching returns the nearest node from n up to root whose name matches
// the body pattern.
func (p *planner) matching(n, root int) (int, bool) {
	re := p.opt.Body.Pattern
	if re == nil {
		return 0, false
	}
	for {
		if re.MatchString(p.doc.Nodes[n].Name) {
			return n, true
		}
		if n == root {
			return 0, false
		}
		up, ok := p.parent[n]
		if !ok {
			return 0, false
		}
		n = up
	}
}

// unrealOf reads an Unreal collision prefix on the part's node name, else
// on its mesh name.
func (p *planner) unrealOf(part *mesh.Part) (Method, []string, bool) {
	if m, c, ok := unrealName(p.doc.Nodes[part.Node].Name); ok {
		return m, c, true
	}
	return unrealName(p.meshName(part))
}

func (p *planner) meshName(part *mesh.Part) string {
	if part.Mesh >= 0 && part.Mesh < len(p.doc.Meshes) {
		return p.doc.Meshes[part.Mesh].Name
	}
	return ""
}

// nodeInfo describes a mesh instance to the rules.
func (p *planner) nodeInfo(part *mesh.Part) NodeInfo {
	var names []string
	for n := part.Node; ; {
		name := p.doc.Nodes[n].Name
		if name == "" {
			name = fmt.Sprintf("nodes[%d]", n)
		}
		names = append(names, name)
		up, ok := p.parent[n]
		if !ok {
			break
		}
		n = up
	}
	slices.Reverse(names)
	info := NodeInfo{
		Node: part.Node, Name: p.doc.Nodes[part.Node].Name, Path: strings.Join(names, "/"),
		Mesh: p.meshName(part), Triangles: len(part.Triangles),
	}
	if b := geom.BoundsOf(part.Vertices); !b.IsEmpty() {
		info.Size = b.Size()
	}
	if n, ok := p.a.Tree.Arr("nodes")[part.Node].(*gltfio.Object); ok {
		if ex, ok := n.Get("extras"); ok {
			if o, ok := ex.(*gltfio.Object); ok {
				if raw, err := o.MarshalJSON(); err == nil {
					var m map[string]any
					if json.Unmarshal(raw, &m) == nil {
						info.Extras = m
					}
				}
			}
		}
	}
	return info
}
