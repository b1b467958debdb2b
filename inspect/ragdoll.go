package inspect

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/autocollide/autocollide/safetext"
	"github.com/qmuntal/gltf"
)

// Ragdoll is a skin whose bones carry rigid bodies jointed together, as
// autocollide's ragdolls (generate --profile ragdoll) and engines' physics
// assets are. It is read from the file alone: a bone has a body when its
// node, or a child node that is not a bone, has a motion; any other bone
// is merged into the body of its nearest ancestor bone with one; the
// joints are those between two of these bodies.
type Ragdoll struct {
	// Skin indexes the document's skins; Bones counts its joints.
	Skin  int `json:"skin"`
	Bones int `json:"bones"`
	// Bodies are the bones with a body, in the skin's joint order, and
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

// ragdolls finds the ragdolls of the document; parent is
// physics.Parents.
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
	for s, skin := range doc.Skins {
		if skin == nil {
			continue
		}
		bone := map[int]bool{}
		for _, j := range skin.Joints {
			if j >= 0 && j < len(doc.Nodes) && doc.Nodes[j] != nil {
				bone[j] = true
			}
		}
		// body[b]: the body node of bone b, when it has its own.
		body := map[int]int{}
		for j := range bone {
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
		rd := Ragdoll{Skin: s, Bones: len(skin.Joints), Bodies: []BoneBody{}, Merged: []BoneBody{}, Joints: []RagdollJoint{}}
		seen := map[int]bool{}
		for _, j := range skin.Joints {
			if !bone[j] || seen[j] {
				continue
			}
			seen[j] = true
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
		fmt.Fprintf(w, "  ragdoll skin %d: %d bones, %d bodies, %d merged, %d joints\n", rd.Skin, rd.Bones, len(rd.Bodies), len(rd.Merged), len(rd.Joints))
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
