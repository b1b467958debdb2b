package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/regexcost"
	"github.com/qmuntal/gltf"
)

// partPlan is what the plan decided for one mesh instance.
type partPlan struct {
	part int // index in mesh.Result.Parts
	body *bodyPlan
	// home is the body the part was planned on: its colliders are made
	// in home's frame and written under home's node. It differs from
	// body once overlapping bodies are merged (merge.go).
	home     *bodyPlan
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
	// node is the body node; groupNode when it is a node the plan
	// generates (gen), made once the plan is carried out.
	node   int
	gen    *newNode
	motion physics.MotionType
	parts  []*partPlan
	// world is the body node's world transform, set when the plan is
	// carried out.
	world geom.Mat4
	// merged names the bodies merged into this one because their
	// colliders overlapped (merge.go), and overlaps says how deep.
	merged   []string
	overlaps []string
	// noted says the plan has noted why the body is where it is.
	noted bool
	// mass is the mass a rule gives the body (zero: the options'), and
	// massRule and motionRule name the rules that set its mass and
	// motion; hinted says the artists' naming conventions decided its
	// motion, over any rule.
	mass                 Mass
	massRule, motionRule string
	hinted               bool
}

// massSpec is how the body's mass is found: its rule's, else spec.
func (b *bodyPlan) massSpec(spec Mass) Mass {
	if b.mass != (Mass{}) {
		return b.mass
	}
	return spec
}

// groupNode stands for a body node the plan generates.
const groupNode = -1

// newNode is a body node the plan generates in the scene (holder -1:
// among ex.Scene's roots) or under node holder: it adopts children (in
// the place of the first of them), or, with none, is an empty node
// beside the others (a skinned mesh's body, see skinned.go), named name.
// File mode's node gathers the scene's roots and is named after the
// scene.
type newNode struct {
	holder   int
	children []int
	name     string
	// stand is the node that stands for the body in reports when the
	// body gets no collider and the node is not made.
	stand int
}

// assetPlan is what will be generated for one asset.
type assetPlan struct {
	parts  []*partPlan // in part order
	bodies []*bodyPlan // in the order of their first part
	// hide lists the nodes whose mesh stops rendering (it becomes a
	// collider only), ascending.
	hide            []int
	notes, warnings []string
	// ragdoll lists the skinned parts that become ragdolls (BodiesPerBone).
	ragdoll []int
}

// planner holds what planning one asset needs.
type planner struct {
	ctx context.Context // checked between matches of rules and patterns
	// pattern is the body pattern with its matching cost; err is the
	// first match it refused for that cost, returned by planAsset.
	pattern *regexcost.Matcher
	err     error
	a       *gltfio.Asset
	doc     *gltf.Document
	opt     Options
	parent  []int // physics.Parents: -1 for a root
	plan    *assetPlan
	bodies  map[int]*bodyPlan
	paths   map[int]string // node → its path for the rules (GPU instances share it)
}

// planAsset decides which nodes become bodies, with what motion, and how
// each mesh instance of a root without authored physics gets its
// colliders. It runs in three steps, each once: the artists' naming
// conventions are read (hints), the bodies are formed (bodies), and each
// part's collider settings are resolved in one place (resolve). A profile's
// rules and body pattern may be costly regular expressions on long names:
// it fails with ctx's error once ctx is done, checked between matches,
// and refuses a match over regexcost.MaxCost, so that none runs long.
func planAsset(ctx context.Context, a *gltfio.Asset, ex *mesh.Result, authored map[int]bool, opt Options) (*assetPlan, error) {
	p := &planner{ctx: ctx, a: a, doc: a.Doc, opt: opt, parent: physics.Parents(a.Doc), plan: &assetPlan{}, bodies: map[int]*bodyPlan{}, paths: map[int]string{}}
	if opt.Body.Pattern != nil {
		var err error
		if p.pattern, err = regexcost.New(opt.Body.Pattern); err != nil {
			return nil, fmt.Errorf("body pattern: %w", err)
		}
	}
	var todo []int
	for i, part := range ex.Parts {
		if len(part.Triangles) > 0 && !authored[part.Root] {
			todo = append(todo, i)
		}
	}
	if opt.Body.Mode == BodiesPerBone {
		todo = p.ragdollParts(ex, todo)
	}
	if len(todo) == 0 {
		return p.plan, nil
	}
	h := p.hints(ex, todo)
	bodyOf := p.formBodies(ex, todo, h)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.err != nil {
		return nil, p.err
	}
	// A body holding any of the artist's colliders gets no generated ones.
	own := map[*bodyPlan][]string{}
	for _, i := range todo {
		if h.ownCollider(i) {
			own[bodyOf[i]] = append(own[bodyOf[i]], partName(p.doc, &ex.Parts[i]))
		}
	}
	for _, i := range todo {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pp, err := p.resolve(ex, i, bodyOf[i], h, own[bodyOf[i]])
		if err != nil {
			return nil, err
		}
		pp.body.parts = append(pp.body.parts, pp)
		p.plan.parts = append(p.plan.parts, pp)
	}
	slices.Sort(p.plan.hide)
	p.plan.hide = slices.Compact(p.plan.hide)
	return p.plan, nil
}

// formBodies decides each part's body and the bodies' motions: the body
// mode's node, a -rigid node above the part, or for an Unreal collision
// part its render part's body.
func (p *planner) formBodies(ex *mesh.Result, todo []int, h *hints) map[int]*bodyPlan {
	opt := p.opt.Body
	roots := map[int]bool{}
	for _, i := range todo {
		if _, ok := h.unreal[i]; !ok {
			roots[ex.Parts[i].Root] = true
		}
	}
	var fileGroup []int
	if opt.Mode == BodiesPerFile && len(roots) > 1 {
		if ex.Scene < 0 {
			p.plan.warnings = append(p.plan.warnings, "one body per file needs a scene to hold the body node; one body per scene root instead")
		} else {
			for _, r := range ex.Roots {
				if roots[r] {
					fileGroup = append(fileGroup, r)
				}
			}
		}
	}
	bodyOf := map[int]*bodyPlan{}
	for _, i := range todo {
		if _, ok := h.unreal[i]; ok {
			continue
		}
		part := &ex.Parts[i]
		node, motion := part.Root, opt.Motion
		r, rigid := h.rigid[i]
		if rigid {
			node, motion = r, physics.Dynamic
		} else {
			switch opt.Mode {
			case BodiesPerNode:
				node = part.Node
			case BodiesPerFile:
				if fileGroup != nil {
					node = groupNode
				}
			case BodiesByPattern:
				if n, ok := p.matching(part.Node, part.Root); ok {
					node = n
				}
			}
		}
		if node == groupNode {
			bodyOf[i] = p.body(node, motion)
			bodyOf[i].gen = &newNode{holder: -1, children: fileGroup, stand: fileGroup[0]}
			continue
		}
		bodyOf[i] = p.unskinned(ex, part, node, motion)
		bodyOf[i].hinted = bodyOf[i].hinted || rigid
	}
	for _, i := range todo {
		if _, ok := h.unreal[i]; ok {
			// The render part first in part order carries it.
			for _, r := range todo {
				if slices.Contains(h.renders[r], i) {
					bodyOf[i] = bodyOf[r]
					break
				}
			}
		}
	}
	// A Godot collision hint makes its body static, unless it is -rigid.
	for _, i := range todo {
		g, ok := h.godot[i]
		if _, isRigid := h.rigid[i]; !ok || isRigid {
			continue
		}
		bodyOf[i].hinted = true
		if bodyOf[i].motion == physics.Static {
			continue
		}
		bodyOf[i].motion = physics.Static
		p.plan.notes = append(p.plan.notes, fmt.Sprintf("%s: Godot %s hint: its body is static", ex.Parts[i].Name, g))
	}
	return bodyOf
}

// resolve settles part i's collider settings, in order of precedence
// from the lowest: the asset's options, the first matching rule, the
// artists' naming conventions, the artist's colliders elsewhere on its
// body (own lists them: the part then gets none), and last what the
// body allows (a triangle mesh needs a static body and no trigger).
func (p *planner) resolve(ex *mesh.Result, i int, body *bodyPlan, h *hints, own []string) (*partPlan, error) {
	part := &ex.Parts[i]
	opt := p.opt
	pp := &partPlan{part: i, body: body, home: body, collider: opt.Collider, trigger: opt.Body.Trigger}
	u, isUnreal := h.unreal[i]
	if opt.Rules != nil && !isUnreal {
		s, ok, err := opt.Rules(p.ctx, p.nodeInfo(part))
		if err != nil {
			return nil, err
		}
		if ok {
			pp.apply(s)
			p.ruleBody(body, s, partName(p.doc, part))
		}
	}
	if isUnreal {
		pp.collider.Method, pp.reason, pp.handmade = u.method, fmt.Sprintf("Unreal collision mesh of %q", u.render), true
		p.plan.hide = append(p.plan.hide, part.Node)
	} else if cs := h.renders[i]; len(cs) > 0 {
		names := make([]string, len(cs))
		for k, c := range cs {
			names[k] = partName(p.doc, &ex.Parts[c])
		}
		pp.collider.Method, pp.reason, pp.handmade = None, "its colliders are the artist's "+strings.Join(names, ", "), true
	} else if g, ok := h.godot[i]; ok {
		m, _ := g.collider()
		pp.collider.Method, pp.reason, pp.handmade = m, "Godot "+g.String()+" hint", true
		if g.only() {
			p.plan.hide = append(p.plan.hide, part.Node)
		}
	}
	if len(own) > 0 && !pp.handmade {
		pp.collider.Method, pp.rule, pp.reason = None, "", "its body has the artist's colliders ("+strings.Join(own, ", ")+")"
	}
	switch {
	case pp.collider.Method == Trimesh && pp.trigger:
		pp.collider.Method = Hull
		pp.reason = strings.TrimPrefix(pp.reason+"; ", "; ") + "a trigger needs a volume: hull instead of triangle mesh"
	case pp.collider.Method == Trimesh && body.motion != physics.Static:
		pp.collider.Method = Decompose
		pp.reason = strings.TrimPrefix(pp.reason+"; ", "; ") + "a triangle mesh collider needs a static body; decomposed instead"
		p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("%s: a triangle mesh collider needs a static body (engines refuse it on %s ones); decomposed into hulls instead", part.Name, body.motion))
	}
	return pp, nil
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

// ruleBody lays the motion and mass a rule gives part name over its body:
// the first rule to set each decides (a later one that differs is a
// warning), and the artists' naming conventions decide the motion over
// any rule (a note).
func (p *planner) ruleBody(b *bodyPlan, s PartSettings, name string) {
	switch {
	case s.Motion == "":
	case b.hinted:
		if s.Motion != b.motion {
			p.plan.notes = append(p.plan.notes, fmt.Sprintf("%s: rule %q's motion %s gives way to the naming convention that makes its body %s", name, s.Rule, s.Motion, b.motion))
		}
	case b.motionRule == "":
		b.motion, b.motionRule = s.Motion, s.Rule
	case b.motion != s.Motion:
		p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("%s: rule %q sets motion %s, but its body is %s by rule %q, which matched first", name, s.Rule, s.Motion, b.motion, b.motionRule))
	}
	switch {
	case s.Mass == (Mass{}):
	case b.massRule == "":
		b.mass, b.massRule = s.Mass, s.Rule
	case b.mass != s.Mass:
		p.plan.warnings = append(p.plan.warnings, fmt.Sprintf("%s: rule %q sets a mass, but its body's comes from rule %q, which matched first", name, s.Rule, b.massRule))
	}
}

// apply lays a rule's settings over the asset's options.
func (pp *partPlan) apply(s PartSettings) {
	pp.rule = s.Rule
	pp.collider = s.over(pp.collider)
	if s.Trigger {
		pp.trigger = true
	}
}

// matching returns the nearest node from n up to root whose name matches
// the body pattern. A match refused for its cost is kept in p.err.
func (p *planner) matching(n, root int) (int, bool) {
	if p.pattern == nil {
		return 0, false
	}
	for {
		if p.ctx.Err() != nil || p.err != nil {
			return 0, false // planAsset returns the error
		}
		name := p.doc.Nodes[n].Name
		ok, err := p.pattern.MatchString(name)
		if err != nil {
			p.err = fmt.Errorf("body pattern: nodes[%d] (a name of %d bytes): %w", n, len(name), err)
			return 0, false
		}
		if ok {
			return n, true
		}
		if n == root {
			return 0, false
		}
		if n = p.parent[n]; n < 0 {
			return 0, false
		}
	}
}

func (p *planner) meshName(part *mesh.Part) string {
	if part.Mesh >= 0 && part.Mesh < len(p.doc.Meshes) {
		return p.doc.Meshes[part.Mesh].Name
	}
	return ""
}

// nodeInfo describes a mesh instance to the rules.
func (p *planner) nodeInfo(part *mesh.Part) NodeInfo {
	path, ok := p.paths[part.Node]
	if !ok {
		var names []string
		for n := part.Node; ; {
			name := p.doc.Nodes[n].Name
			if name == "" {
				name = fmt.Sprintf("nodes[%d]", n)
			}
			names = append(names, name)
			if n = p.parent[n]; n < 0 {
				break
			}
		}
		slices.Reverse(names)
		path = strings.Join(names, "/")
		p.paths[part.Node] = path
	}
	info := NodeInfo{
		Node: part.Node, Name: p.doc.Nodes[part.Node].Name, Path: path,
		Mesh: p.meshName(part), Triangles: len(part.Triangles), File: filepath.ToSlash(p.a.Path),
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
