package inspect

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/safetext"
	"github.com/qmuntal/gltf"
)

// Ragdoll is an armature whose bones carry rigid bodies jointed together,
// as autocollide's ragdolls (generate --profile ragdoll) and engines'
// physics assets are. It is read from the file alone: the skins of one
// armature (skins that share a bone, or whose bones' bodies a joint
// joins: RecursiveSkeletons' 84 skins are 4 figures) make one ragdoll; a
// bone has a body when its node, or a child node that is not a bone, has
// a motion; any other bone is merged into the body of its nearest
// ancestor bone with one; the joints are those between two of these
// bodies.
type Ragdoll struct {
	// Skins index the document's skins, in order; Bones counts their
	// distinct joints.
	Skins []int `json:"skins"`
	Bones int   `json:"bones"`
	// Bodies are the bones with a body, in the skins' joint order, and
	// Merged the others, each with the body it belongs to (-1: none, a
	// bone above the first body of its chain).
	Bodies []BoneBody `json:"bodies"`
	Merged []BoneBody `json:"merged"`
	// Joints are the joints between two bodies of the ragdoll.
	Joints []RagdollJoint `json:"joints"`
}

// BoneBody is a bone and the body that moves it: Body is the body's node
// and BodyBone the bone carrying it.
type BoneBody struct {
	Bone     string `json:"bone"`
	Node     int    `json:"node"`
	Body     int    `json:"body"`
	BodyBone string `json:"bodyBone"`
}

// RagdollJoint is one of the file's joints (Joint indexes File.Joints)
// between the bodies of bones Child (at the joint's node; ChildBody is
// the body's node) and Parent (at its connected node; ParentBody);
// Limits says its limits in words.
type RagdollJoint struct {
	Joint      int    `json:"joint"`
	Child      string `json:"child"`
	ChildBody  int    `json:"childBody"`
	Parent     string `json:"parent"`
	ParentBody int    `json:"parentBody"`
	Limits     string `json:"limits"`
}

// armature is the bones of one or more skins: the skins, in order, and
// their distinct bone nodes in the skins' joint order.
type armature struct {
	skins []int
	bones []int
	bone  map[int]bool
}

// armatures groups the document's skins into armatures: skins sharing a
// bone are one, and so are skins whose bones' bodies (bodyBone: the bone
// a body node moves, by the skins' union of bones) a joint of f joins.
// Armatures come in the order of their first skin.
func armatures(doc *gltf.Document, f *File, parent []int, bodyOf func(int) (int, bool)) []armature {
	n := len(doc.Skins)
	root := make([]int, n)
	for i := range root {
		root[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	union := func(a, b int) {
		if a, b = find(a), find(b); a != b {
			root[max(a, b)] = min(a, b)
		}
	}
	skinsOf := map[int][]int{} // bone node → its skins
	for s, skin := range doc.Skins {
		if skin == nil {
			continue
		}
		for _, j := range skin.Joints {
			if j >= 0 && j < len(doc.Nodes) && doc.Nodes[j] != nil && !slices.Contains(skinsOf[j], s) {
				skinsOf[j] = append(skinsOf[j], s)
			}
		}
	}
	for _, ss := range skinsOf {
		for _, s := range ss[1:] {
			union(ss[0], s)
		}
	}
	// The bone a body node moves: itself, or its parent when the body is
	// a child node of a bone that is no bone itself.
	boneOfBody := func(b int) (int, bool) {
		if len(skinsOf[b]) > 0 {
			return b, true
		}
		if b < len(parent) && parent[b] >= 0 && len(skinsOf[parent[b]]) > 0 {
			return parent[b], true
		}
		return 0, false
	}
	for _, jo := range f.Joints {
		cb, ok1 := bodyOf(jo.Node)
		pb, ok2 := bodyOf(jo.ConnectedNode)
		if !ok1 || !ok2 {
			continue
		}
		c, ok1 := boneOfBody(cb)
		p, ok2 := boneOfBody(pb)
		if ok1 && ok2 {
			union(skinsOf[c][0], skinsOf[p][0])
		}
	}
	var out []armature
	at := map[int]int{}
	for s, skin := range doc.Skins {
		if skin == nil {
			continue
		}
		r := find(s)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, armature{bone: map[int]bool{}})
		}
		a := &out[k]
		a.skins = append(a.skins, s)
		for _, j := range skin.Joints {
			if len(skinsOf[j]) > 0 && !a.bone[j] {
				a.bone[j] = true
				a.bones = append(a.bones, j)
			}
		}
	}
	return out
}

// ragdolls finds the ragdolls of the document, one per armature; parent
// is physics.Parents.
func ragdolls(doc *gltf.Document, f *File, parent []int) []Ragdoll {
	out := []Ragdoll{}
	hasBody := map[int]bool{}
	for _, b := range f.Bodies {
		hasBody[b.Node] = true
	}
	// bodyOf is the nearest node with a motion among n and its ancestors.
	bodyOf := func(n int) (int, bool) {
		for steps := 0; n >= 0 && n < len(parent) && steps <= len(parent); n, steps = parent[n], steps+1 {
			if hasBody[n] {
				return n, true
			}
		}
		return 0, false
	}
	name := func(n int) string {
		if doc.Nodes[n].Name != "" {
			return doc.Nodes[n].Name
		}
		return fmt.Sprintf("nodes[%d]", n)
	}
	for _, arm := range armatures(doc, f, parent, bodyOf) {
		bone := arm.bone
		// body[b]: the body node of bone b, when it has its own.
		body := map[int]int{}
		for _, j := range arm.bones {
			if hasBody[j] {
				body[j] = j
				continue
			}
			for _, c := range doc.Nodes[j].Children {
				if c >= 0 && c < len(doc.Nodes) && hasBody[c] && !bone[c] {
					body[j] = c
					break
				}
			}
		}
		if len(body) == 0 {
			continue
		}
		boneOf := map[int]int{} // body node → its bone
		for b, n := range body {
			boneOf[n] = b
		}
		rd := Ragdoll{Skins: arm.skins, Bones: len(arm.bones), Bodies: []BoneBody{}, Merged: []BoneBody{}, Joints: []RagdollJoint{}}
		for _, j := range arm.bones {
			if n, ok := body[j]; ok {
				rd.Bodies = append(rd.Bodies, BoneBody{Bone: name(j), Node: j, Body: n, BodyBone: name(j)})
				continue
			}
			m := BoneBody{Bone: name(j), Node: j, Body: -1}
			for p, steps := parent[j], 0; p >= 0 && steps < len(parent); p, steps = parent[p], steps+1 {
				if n, ok := body[p]; ok && bone[p] {
					m.Body, m.BodyBone = n, name(p)
					break
				}
			}
			rd.Merged = append(rd.Merged, m)
		}
		for i, jo := range f.Joints {
			cb, ok1 := bodyOf(jo.Node)
			pb, ok2 := bodyOf(jo.ConnectedNode)
			child, ok3 := boneOf[cb]
			par, ok4 := boneOf[pb]
			if ok1 && ok2 && ok3 && ok4 {
				rd.Joints = append(rd.Joints, RagdollJoint{Joint: i, Child: name(child), ChildBody: cb, Parent: name(par), ParentBody: pb, Limits: LimitText(jo)})
			}
		}
		if len(rd.Joints) > 0 {
			out = append(out, rd)
		}
	}
	return out
}

// SkinsText names the ragdoll's skins: "skin 3", "skins 0, 1, 2", and
// past four skins the first three and the count ("skins 0, 1, 2, … (84)").
func (r Ragdoll) SkinsText() string {
	if len(r.Skins) == 1 {
		return fmt.Sprintf("skin %d", r.Skins[0])
	}
	var parts []string
	for i, s := range r.Skins {
		if i == 3 && len(r.Skins) > 4 {
			parts = append(parts, fmt.Sprintf("… (%d)", len(r.Skins)))
			break
		}
		parts = append(parts, fmt.Sprint(s))
	}
	return "skins " + strings.Join(parts, ", ")
}

// LimitText says a joint's limits in words: its definition's name, then
// each angular limit as swing (about X and Z), swing1 (X), swing2 (Z) or
// twist (Y), in degrees, "±a°" when symmetric; linear limits pinning
// every axis read "pinned", others "linear axes [..] min..max m".
func LimitText(j Joint) string {
	var parts []string
	if j.DefName != "" {
		parts = append(parts, j.DefName+":")
	}
	deg := func(v *float64) string {
		if v == nil {
			return "free"
		}
		return fmt.Sprintf("%g°", math.Round(*v*180/math.Pi*1e4)/1e4)
	}
	var lims []string
	for _, l := range j.Limits {
		if len(l.LinearAxes) > 0 {
			if len(l.LinearAxes) == 3 && l.Min != nil && l.Max != nil && *l.Min == 0 && *l.Max == 0 {
				lims = append(lims, "pinned")
			} else {
				lims = append(lims, fmt.Sprintf("linear axes %v %s..%s m", l.LinearAxes, numOr(l.Min), numOr(l.Max)))
			}
		}
		if len(l.AngularAxes) == 0 {
			continue
		}
		label := map[string]string{"[0 2]": "swing", "[0]": "swing1", "[2]": "swing2", "[1]": "twist"}[fmt.Sprint(l.AngularAxes)]
		if label == "" {
			label = fmt.Sprintf("angular axes %v", l.AngularAxes)
		}
		if l.Min != nil && l.Max != nil && *l.Min == -*l.Max {
			lims = append(lims, label+" ±"+deg(l.Max))
		} else {
			lims = append(lims, label+" "+deg(l.Min)+".."+deg(l.Max))
		}
	}
	if len(lims) == 0 {
		lims = append(lims, "no limits")
	}
	return strings.Join(append(parts, strings.Join(lims, ", ")), " ")
}

func numOr(v *float64) string {
	if v == nil {
		return "free"
	}
	return num(*v)
}

// writeRagdolls prints each ragdoll: a headline with the counts, the
// bones with bodies, the merged bones with the body each went to, and
// the joints with their limits.
func writeRagdolls(w io.Writer, rds []Ragdoll) {
	for _, rd := range rds {
		fmt.Fprintf(w, "  ragdoll %s: %d bones, %d bodies, %d merged, %d joints\n", rd.SkinsText(), rd.Bones, len(rd.Bodies), len(rd.Merged), len(rd.Joints))
		var bodies, merged []string
		for _, b := range rd.Bodies {
			bodies = append(bodies, b.Bone)
		}
		for _, m := range rd.Merged {
			into := m.BodyBone
			if m.Body < 0 {
				into = "none"
			}
			merged = append(merged, m.Bone+" → "+into)
		}
		fmt.Fprintf(w, "    bodies: %s\n", safeList(bodies))
		fmt.Fprintf(w, "    merged: %s\n", safeList(merged))
		for _, j := range rd.Joints {
			fmt.Fprintf(w, "    joint %s – %s: %s\n", safetext.Term(j.Child), safetext.Term(j.Parent), safetext.Term(j.Limits))
		}
	}
}

func safeList(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return safetext.Term(strings.Join(s, "; "))
}
