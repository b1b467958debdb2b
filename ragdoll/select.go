package ragdoll

import (
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// selectBodies decides which bones carry a body and which vertices each
// body takes. A bone qualifies when its weight share and the size of the
// vertices it takes reach the settings' minimums (the share within one
// segment of the skin, Skin.Segments; the size against the whole skin);
// every root is kept to
// anchor its chain; every other bone merges into its nearest ancestor with
// a body. A root that takes no vertex (itself or through merged bones) and
// holds a single chain gives way to that chain's first body; with two or
// more, the bone where those chains meet becomes an anchor without
// vertices; with none it is dropped.
func (sk *skeleton) selectBodies(w *weights, s Settings) (*Ragdoll, []int) {
	n := len(sk.bones)
	own := w.takes(n, s)
	// A bone's share of the weight is measured within each segment of the
	// skin (one glTF skin of an armature driven by several: a bone of an
	// armature of 84 skins holds far less than 1% of the whole), its size
	// against the whole skin: the size is what an engine simulates, and a
	// body 1% of its ragdoll's size is 1.75 cm in a 1.75 m figure.
	nseg := len(w.segWeighted)
	segTotal := make(map[int]float64) // segment*n + bone → its shares
	for v := range w.dominant {
		for i := w.start[v]; i < w.start[v+1]; i++ {
			segTotal[w.seg(v)*n+w.bone[i]] += w.share[i]
		}
	}
	minSize := s.MinSize * w.bounds.Diagonal()
	selected := make([]bool, n)
	for b := range sk.bones {
		if sk.bones[b].Parent == -1 {
			selected[b] = true
			continue
		}
		box := geom.EmptyBox()
		in := make([]bool, nseg)
		for _, v := range own[b] {
			box = box.Extend(w.pos[v])
			in[w.seg(v)] = true
		}
		if size := box.Diagonal(); len(own[b]) == 0 || !(size > 0) || size < minSize {
			continue
		}
		for k := 0; k < nseg && !selected[b]; k++ {
			if !in[k] || w.segWeighted[k] == 0 {
				continue
			}
			share := segTotal[k*n+b] / float64(w.segWeighted[k])
			selected[b] = share > 0 && share >= s.MinWeightShare
		}
	}
	owner := sk.owners(selected)
	// A weightless root gives way to its only chain, repeatedly.
	for changed := true; changed; {
		changed = false
		for _, r := range sk.order {
			if !selected[r] || sk.parentOwner(owner, r) >= 0 || takesAny(own, owner, r) {
				continue
			}
			tops := sk.chains(owner, selected, r)
			if len(tops) < 2 {
				selected[r] = false
				owner = sk.owners(selected)
				changed = true
			} else if a := sk.commonAncestor(tops); a != r {
				// The anchor goes down to where its chains meet.
				selected[r], selected[a] = false, true
				owner = sk.owners(selected)
				changed = true
			}
		}
	}
	rd := &Ragdoll{Unweighted: w.unweighted}
	body := make([]int, n)
	for b := range body {
		body[b] = -1
	}
	for _, b := range sk.order {
		if !selected[b] {
			continue
		}
		body[b] = len(rd.Bodies)
		rd.Bodies = append(rd.Bodies, Body{Bone: b, Name: sk.bones[b].Name, Parent: -1, Frame: sk.frame[b]})
		if p := sk.parentOwner(owner, b); p >= 0 {
			rd.Bodies[body[b]].Parent = body[p]
		}
	}
	for b := range sk.bones { // ascending, so Bones and Merged are sorted
		if owner[b] < 0 {
			rd.Merged = append(rd.Merged, Merge{Bone: b, Body: -1})
			continue
		}
		bd := &rd.Bodies[body[owner[b]]]
		bd.Bones = append(bd.Bones, b)
		if !selected[b] {
			rd.Merged = append(rd.Merged, Merge{Bone: b, Body: body[owner[b]]})
		}
	}
	// Vertices, ascending: a vertex taken by several bones of one body
	// counts once.
	last := make([]int, len(rd.Bodies))
	for i := range last {
		last[i] = -1
	}
	for v, d := range w.dominant {
		if d < 0 {
			continue
		}
		for i := w.start[v]; i < w.start[v+1]; i++ {
			b := w.bone[i]
			if b != d && (s.Assign != Threshold || w.share[i] < s.WeightThreshold) {
				continue
			}
			if o := owner[b]; o >= 0 && last[body[o]] != v {
				last[body[o]] = v
				rd.Bodies[body[o]].Vertices = append(rd.Bodies[body[o]].Vertices, v)
			}
		}
	}
	bodyOf := make([]int, n)
	for b, o := range owner {
		bodyOf[b] = -1
		if o >= 0 {
			bodyOf[b] = body[o]
		}
	}
	return rd, bodyOf
}

// owners returns, per bone, its nearest selected ancestor-or-self (-1 when
// none).
func (sk *skeleton) owners(selected []bool) []int {
	owner := make([]int, len(sk.bones))
	for _, b := range sk.order { // parents first
		switch p := sk.bones[b].Parent; {
		case selected[b]:
			owner[b] = b
		case p >= 0:
			owner[b] = owner[p]
		default:
			owner[b] = -1
		}
	}
	return owner
}

// parentOwner is the body bone above b (-1 for a root).
func (sk *skeleton) parentOwner(owner []int, b int) int {
	if p := sk.bones[b].Parent; p >= 0 {
		return owner[p]
	}
	return -1
}

// takesAny reports whether any bone owned by r takes a vertex.
func takesAny(own [][]int, owner []int, r int) bool {
	for b, o := range owner {
		if o == r && len(own[b]) > 0 {
			return true
		}
	}
	return false
}

// chains returns the selected bones whose parent body is r.
func (sk *skeleton) chains(owner []int, selected []bool, r int) []int {
	var tops []int
	for b := range sk.bones {
		if selected[b] && b != r && sk.parentOwner(owner, b) == r {
			tops = append(tops, b)
		}
	}
	return tops
}

// commonAncestor returns the deepest common proper ancestor of the bones
// (all in one tree).
func (sk *skeleton) commonAncestor(bones []int) int {
	path := func(b int) []int { // root first
		var p []int
		for b = sk.bones[b].Parent; b >= 0; b = sk.bones[b].Parent {
			p = append(p, b)
		}
		slices.Reverse(p)
		return p
	}
	common := path(bones[0])
	for _, b := range bones[1:] {
		p := path(b)
		k := 0
		for k < len(common) && k < len(p) && common[k] == p[k] {
			k++
		}
		common = common[:k]
	}
	return common[len(common)-1]
}
