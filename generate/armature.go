package generate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/ragdoll"
	"github.com/qmuntal/gltf"
)

// skinGroup is one armature: the skins that share joints or whose joints
// sit in one joint hierarchy, their joints (each once) and the skinned
// parts they drive.
type skinGroup struct {
	skins  []int // ascending
	joints []int // node indices: the first skin's joints, then the others' new ones
	parts  []int
}

// label names the group in messages: "skin 3", "skins 0, 1, 2".
func (g *skinGroup) label() string {
	if len(g.skins) == 1 {
		return fmt.Sprintf("skin %d", g.skins[0])
	}
	s := make([]string, len(g.skins))
	for i, k := range g.skins {
		s[i] = fmt.Sprint(k)
	}
	return "skins " + strings.Join(s, ", ")
}

// armatures groups the skins driving the parts into armatures: two skins
// belong together when they share a joint, or when a joint of one lies
// under a joint of the other (a skeleton split over several skins, each
// skin a segment, as RecursiveSkeletons has). One ragdoll per armature
// joins every body to its nearest body ancestor; a ragdoll per skin left
// the segments unjointed, free pieces nested in one another. Groups come
// in the order of their first part.
func armatures(doc *gltf.Document, ex *mesh.Result, parts []int, parent []int) []*skinGroup {
	var skins []int // in order of first part
	for _, i := range parts {
		if s := ex.Parts[i].Influences.Skin; !slices.Contains(skins, s) {
			skins = append(skins, s)
		}
	}
	up := make([]int, len(skins)) // union-find over skins' positions
	for i := range up {
		up[i] = i
	}
	find := func(i int) int {
		for up[i] != i {
			up[i] = up[up[i]]
			i = up[i]
		}
		return i
	}
	union := func(i, j int) {
		if i, j = find(i), find(j); i != j {
			up[max(i, j)] = min(i, j)
		}
	}
	jointOf := map[int]int{} // joint node → the first skin (position) using it
	for k, s := range skins {
		for _, j := range doc.Skins[s].Joints {
			if o, ok := jointOf[j]; ok {
				union(k, o)
			} else {
				jointOf[j] = k
			}
		}
	}
	for k, s := range skins {
		for _, j := range doc.Skins[s].Joints {
			// The nearest joint above j, of any of the skins.
			for p := parent[j]; p >= 0; p = parent[p] {
				if o, isJoint := jointOf[p]; isJoint {
					union(k, o)
					break
				}
			}
		}
	}
	var groups []*skinGroup
	at := map[int]*skinGroup{}
	for k, s := range skins {
		r := find(k)
		g, ok := at[r]
		if !ok {
			g = &skinGroup{}
			at[r] = g
			groups = append(groups, g)
		}
		g.skins = append(g.skins, s)
	}
	for _, g := range groups {
		slices.Sort(g.skins)
		seen := map[int]bool{}
		for _, s := range g.skins {
			for _, j := range doc.Skins[s].Joints {
				if !seen[j] {
					seen[j] = true
					g.joints = append(g.joints, j)
				}
			}
		}
	}
	for _, i := range parts {
		g := at[find(slices.Index(skins, ex.Parts[i].Influences.Skin))]
		g.parts = append(g.parts, i)
	}
	return groups
}

// ragdollInput returns the skeleton of an armature (bones in the order of
// its joints, each parented to its nearest ancestor node among them, at
// its world rest transform) and the posed vertices, influences and
// triangles of the parts it drives.
func ragdollInput(doc *gltf.Document, ex *mesh.Result, g *skinGroup, world []geom.Mat4, parent []int) ([]ragdoll.Bone, ragdoll.Skin) {
	index := map[int]int{}
	for k, j := range g.joints {
		index[j] = k
	}
	bones := make([]ragdoll.Bone, len(g.joints))
	for k, j := range g.joints {
		bones[k] = ragdoll.Bone{Name: doc.Nodes[j].Name, Parent: -1, World: world[j]}
		if bones[k].Name == "" {
			bones[k].Name = fmt.Sprintf("node%d", j)
		}
		for p := parent[j]; p >= 0; p = parent[p] {
			if b, isBone := index[p]; isBone {
				bones[k].Parent = b
				break
			}
		}
	}
	var skin ragdoll.Skin
	for _, i := range g.parts {
		skin.Influences = max(skin.Influences, ex.Parts[i].Influences.PerVertex)
	}
	// Skin by skin, each a segment (a bone's weight share is measured
	// within its own skin's part of the armature, its size against the
	// whole).
	var parts []int
	for _, s := range g.skins {
		for _, i := range g.parts {
			if ex.Parts[i].Influences.Skin == s {
				parts = append(parts, i)
			}
		}
	}
	for k, i := range parts {
		p := &ex.Parts[i]
		in := p.Influences
		if k == 0 || in.Skin != ex.Parts[parts[k-1]].Influences.Skin {
			skin.Segments = append(skin.Segments, len(skin.Positions))
		}
		joints := doc.Skins[in.Skin].Joints
		base := len(skin.Positions)
		for _, t := range p.Triangles {
			skin.Triangles = append(skin.Triangles, [3]int{base + int(t[0]), base + int(t[1]), base + int(t[2])})
		}
		skin.Positions = append(skin.Positions, p.Vertices...)
		for v := range p.Vertices {
			for k := v * in.PerVertex; k < (v+1)*in.PerVertex; k++ {
				// The skin's joint index, as a bone of the armature (a
				// joint index out of range keeps a value Build reports
				// when its weight is not zero).
				j := len(g.joints)
				if n := in.Joints[k]; n >= 0 && n < len(joints) {
					j = index[joints[n]]
				}
				skin.Joints = append(skin.Joints, j)
				skin.Weights = append(skin.Weights, in.Weights[k])
			}
			for k := in.PerVertex; k < skin.Influences; k++ {
				skin.Joints, skin.Weights = append(skin.Joints, 0), append(skin.Weights, 0)
			}
		}
	}
	return bones, skin
}
