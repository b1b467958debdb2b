package generate

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"github.com/autocollide/autocollide/enginenames"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// MaxSourceName bounds the bytes of a node or mesh name that generated
// names (Wheel.collider0, Truck.colliders) are derived from. A longer
// name is cut at a character boundary and followed by "~" and 8 hex
// digits of its hash, so names that differ only after the cut stay
// distinct; without the bound a 1 MB name copied into 200 collider nodes
// makes a 200 MB output.
const MaxSourceName = 64

// sourceName returns name, or its bounded prefix when it is longer than
// MaxSourceName bytes.
func sourceName(name string) string {
	if len(name) <= MaxSourceName {
		return name
	}
	cut := MaxSourceName
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s~%08x", strings.ToValidUTF8(name[:cut], ""), h.Sum32())
}

// Artists' naming conventions (Options.Body.NamingConventions).
//
// Unreal Engine's FBX/glTF import treats a mesh named
// UCX_<RenderName>[_NN] (convex), UBX_ (box), USP_ (sphere) or UCP_
// (capsule) as a hand-made collision shape of the render mesh named
// RenderName: autocollide fits that shape to the collision mesh's
// vertices (UCX_: their convex hull), puts it on the render mesh's body,
// stops the collision mesh from rendering, and generates nothing for the
// render mesh itself.
//
// Godot's scene import reads suffixes on node names, separated by "-",
// "_" or "$" and case-insensitive:
//
//	-col          keep the mesh; add a static triangle-mesh collider
//	-colonly      the mesh becomes a static triangle-mesh collider only
//	-convcol      keep the mesh; add a static convex-hull collider
//	-convcolonly  the mesh becomes a static convex-hull collider only
//	-rigid        the node becomes a dynamic rigid body
//
// Godot makes a StaticBody3D for the collision hints; here the hint
// makes the body the node belongs to static, unless that body is a
// -rigid node, whose collision shapes the hinted meshes then are (a
// triangle mesh on a dynamic body becomes a decomposition, see Trimesh).
// "Only" means the node no longer references its mesh for rendering,
// while the collider still holds the geometry.

// unrealHint is what an Unreal collision prefix asks for: a method, and
// the render mesh it belongs to (one of cands, once found).
type unrealHint struct {
	method Method
	cands  []string
	render string
}

// unrealMethods is the method that reads each Unreal collision shape
// from the collision mesh's vertices.
var unrealMethods = map[physics.ShapeType]Method{
	physics.Convex: Hull, physics.Box: Box, physics.Sphere: Sphere, physics.Capsule: Capsule,
}

// unrealName parses an Unreal collision name (enginenames.ParseUnreal)
// into the method that reads it.
func unrealName(name string) (Method, []string, bool) {
	t, cands, ok := enginenames.ParseUnreal(name)
	if !ok {
		return "", nil, false
	}
	return unrealMethods[t], cands, true
}

// godotHint is a Godot import hint (enginenames.ParseGodot) as the plan
// reads it.
type godotHint enginenames.GodotHint

// collider says whether the hint asks for a collider, and which.
func (h godotHint) collider() (Method, bool) {
	t, ok := enginenames.GodotHint(h).Collider()
	if !ok {
		return "", false
	}
	if t == physics.Trimesh {
		return Trimesh, true
	}
	return Hull, true
}

// only says whether the hinted mesh stops rendering.
func (h godotHint) only() bool { return enginenames.GodotHint(h).Only() }

func (h godotHint) String() string { return enginenames.GodotHint(h).String() }

// hints are the artists' naming conventions read from one asset's parts
// (see naming.go).
type hints struct {
	unreal  map[int]unrealHint // collision part -> what it is
	godot   map[int]godotHint  // part -> its node's collider hint
	rigid   map[int]int        // part -> its -rigid body node
	renders map[int][]int      // render part -> its Unreal collision parts
}

// ownCollider says whether a convention makes part i one of the artist's
// colliders (a render part of Unreal collision meshes is not one: its
// colliders are those meshes).
func (h *hints) ownCollider(i int) bool {
	if _, ok := h.unreal[i]; ok {
		return true
	}
	_, ok := h.godot[i]
	return ok && len(h.renders[i]) == 0
}

// hints reads the naming conventions of the parts todo, when the options
// turn them on.
func (p *planner) hints(ex *mesh.Result, todo []int) *hints {
	h := &hints{unreal: map[int]unrealHint{}, godot: map[int]godotHint{}, rigid: map[int]int{}, renders: map[int][]int{}}
	if !p.opt.Body.NamingConventions {
		return h
	}
	byName := map[string][]int{}
	for _, i := range todo {
		part := &ex.Parts[i]
		if m, cands, ok := p.unrealOf(part); ok {
			h.unreal[i] = unrealHint{method: m, cands: cands}
			continue
		}
		byName[p.doc.Nodes[part.Node].Name] = append(byName[p.doc.Nodes[part.Node].Name], i)
		if mn := p.meshName(part); mn != "" && mn != p.doc.Nodes[part.Node].Name {
			byName[mn] = append(byName[mn], i)
		}
		if g := enginenames.ParseGodot(p.doc.Nodes[part.Node].Name); g != enginenames.GodotNone && g != enginenames.GodotRigid {
			h.godot[i] = godotHint(g)
		}
		for n := part.Node; ; {
			if enginenames.ParseGodot(p.doc.Nodes[n].Name) == enginenames.GodotRigid {
				h.rigid[i] = n
				break
			}
			if n = p.parent[n]; n < 0 {
				break
			}
		}
	}
	for _, i := range todo {
		u, ok := h.unreal[i]
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
			delete(h.unreal, i)
			continue
		}
		h.unreal[i] = u
		for _, r := range found {
			h.renders[r] = append(h.renders[r], i)
		}
	}
	return h
}

// unrealOf reads an Unreal collision prefix on the part's node name, else
// on its mesh name.
func (p *planner) unrealOf(part *mesh.Part) (Method, []string, bool) {
	if m, c, ok := unrealName(p.doc.Nodes[part.Node].Name); ok {
		return m, c, true
	}
	return unrealName(p.meshName(part))
}
