package ragdoll

import (
	"math"
	"slices"
)

// Class is a joint's place in the skeleton, found from its shape alone
// (Classify): the limit table's rule named like the class applies to it.
type Class string

// The classes. A joint takes the class of its child bone.
const (
	Unclassified Class = ""
	Pelvis       Class = "pelvis"   // where the legs and the spine meet
	Spine        Class = "spine"    // from the pelvis up to the chest, where the arms branch
	Neck         Class = "neck"     // from the chest towards the head
	Head         Class = "head"     // the end of the neck chain, and what hangs from it
	Clavicle     Class = "clavicle" // a short first arm bone, before the shoulder
	Shoulder     Class = "shoulder" // first bone of an arm (second after a clavicle)
	Elbow        Class = "elbow"
	Wrist        Class = "wrist"
	Finger       Class = "finger" // anything past the wrist
	Hip          Class = "hip"    // first bone of a leg
	Knee         Class = "knee"
	Ankle        Class = "ankle"
	Toe          Class = "toe"  // anything past the ankle
	Tail         Class = "tail" // a chain from the pelvis that is neither spine nor leg
)

// classes are the named classes, for telling a class's rule from others.
var classes = []Class{Pelvis, Spine, Neck, Head, Clavicle, Shoulder, Elbow, Wrist, Finger, Hip, Knee, Ankle, Toe, Tail}

// isClass reports whether a rule name is a class's.
func isClass(name string) bool { return slices.Contains(classes, Class(name)) }

// Limb matching: two branches are a left and right pair when their chains
// have as many bones and their first bones' lengths (and distances from
// where they branch) differ by at most mirrorSlack of the larger.
const mirrorSlack = 0.25

// clavicleShare: a limb of four or more bones before its digits starts
// with a clavicle when its first bone is shorter than this share of its
// second.
const clavicleShare = 0.6

// anatomy classifies the bones of sk from the shape of the skeleton: bones
// without weight in their subtree (helpers, end bones) do not count. From
// each root it walks down while a bone has one branch, to the first bone
// with three or more: the pelvis. There the legs are the pair of branches
// that mirror each other (a second such pair leaves the skeleton
// unclassified) (same number of bones along their chains, bone
// lengths within mirrorSlack), the spine the largest other branch, any
// further branch a tail. Up the spine, the first bone where a mirrored
// pair branches off is the chest (still spine): the pair are the arms,
// the largest other branch the neck, whose last bone (or the bone where it
// forks) is the head. A limb is a chain — shoulder (after a
// clavicle when its first bone is short), elbow, wrist, then fingers; or
// hip, knee, ankle, then toes — the chain ending where it forks (a
// branch with more than a third of the bones below). A
// skeleton without a pelvis, or bones this finds no place for, are
// Unclassified. Names play no part: a rig with bones "bone.001" ... gets
// the classes of the same rig with anatomical names.
func (sk *skeleton) anatomy(w *weights) []Class {
	n := len(sk.bones)
	class := make([]Class, n)
	has := make([]bool, n)
	size := make([]int, n)
	for i := len(sk.order) - 1; i >= 0; i-- { // children before parents
		b := sk.order[i]
		has[b] = has[b] || w.total[b] > 0
		if has[b] {
			size[b]++
		}
		if p := sk.bones[b].Parent; p >= 0 && has[b] {
			has[p], size[p] = true, size[p]+size[b]
		}
	}
	a := anat{sk: sk, class: class, has: has, size: size}
	for _, r := range sk.order {
		if sk.bones[r].Parent == -1 && has[r] {
			a.figure(r)
		}
	}
	return class
}

// anat is one anatomy pass.
type anat struct {
	sk    *skeleton
	class []Class
	has   []bool
	size  []int // weighted bones in the subtree
}

// branches are b's children with weight in their subtree.
func (a *anat) branches(b int) []int {
	var out []int
	for _, c := range a.sk.children[b] {
		if a.has[c] {
			out = append(out, c)
		}
	}
	return out
}

// largest is the branch with the most bones (ties: the first).
func (a *anat) largest(bs []int) int {
	best := -1
	for _, c := range bs {
		if best < 0 || a.size[c] > a.size[best] {
			best = c
		}
	}
	return best
}

// chain follows b down its largest branches to a leaf.
func (a *anat) chain(b int) []int {
	var out []int
	for b >= 0 {
		out = append(out, b)
		b = a.largest(a.branches(b))
	}
	return out
}

// length is the distance from b's joint to its largest branch's (0 for a
// leaf).
func (a *anat) length(b int) float64 {
	c := a.largest(a.branches(b))
	if c < 0 {
		return 0
	}
	return a.sk.head[c].Sub(a.sk.head[b]).Len()
}

// mirrored reports whether branches x and y of one bone look like a left
// and right limb.
func (a *anat) mirrored(x, y int) bool {
	cx, cy := a.chain(x), a.chain(y)
	if len(cx) != len(cy) || len(cx) < 2 {
		return false
	}
	near := func(u, v float64) bool { return math.Abs(u-v) <= mirrorSlack*max(u, v) }
	p := a.sk.head[a.sk.bones[x].Parent]
	if !near(a.sk.head[x].Sub(p).Len(), a.sk.head[y].Sub(p).Len()) {
		return false
	}
	for i := 0; i < min(len(cx)-1, 3); i++ {
		if !near(a.length(cx[i]), a.length(cy[i])) {
			return false
		}
	}
	return true
}

// pair returns the mirrored pair among bs with the longest chains (ties:
// the first found), and the others.
func (a *anat) pair(bs []int) (x, y int, rest []int) {
	x, y = -1, -1
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			if a.mirrored(bs[i], bs[j]) && (x < 0 || len(a.chain(bs[i])) > len(a.chain(x))) {
				x, y = bs[i], bs[j]
			}
		}
	}
	for _, b := range bs {
		if b != x && b != y {
			rest = append(rest, b)
		}
	}
	return x, y, rest
}

// figure classifies the skeleton under root r.
func (a *anat) figure(r int) {
	p := r
	for bs := a.branches(p); len(bs) == 1; bs = a.branches(p) {
		p = bs[0]
	}
	legL, legR, rest := a.pair(a.branches(p))
	if legL < 0 || len(rest) == 0 {
		return
	}
	if x, _, _ := a.pair(rest); x >= 0 {
		return // two pairs of legs and no telling which way is up
	}
	a.class[p] = Pelvis
	spine := a.largest(rest)
	for _, b := range rest {
		if b != spine {
			a.all(b, Tail)
		}
	}
	a.limb(legL, []Class{Hip, Knee, Ankle}, Toe, false)
	a.limb(legR, []Class{Hip, Knee, Ankle}, Toe, false)
	for b := spine; b >= 0; {
		a.class[b] = Spine
		bs := a.branches(b)
		if len(bs) < 2 {
			if len(bs) == 0 {
				return
			}
			b = bs[0]
			continue
		}
		armL, armR, others := a.pair(bs)
		if armL < 0 {
			b = a.largest(bs)
			continue
		}
		a.limb(armL, []Class{Shoulder, Elbow, Wrist}, Finger, true)
		a.limb(armR, []Class{Shoulder, Elbow, Wrist}, Finger, true)
		if len(others) > 0 {
			a.neck(a.largest(others))
		}
		return
	}
}

// next is the branch a chain goes on along from b: the largest, when it
// holds more than twice the bones of the others together (a forearm's
// twist helper beside the hand is no fork); -1 where the chain forks
// (fingers) or ends.
func (a *anat) next(b int) int {
	bs := a.branches(b)
	c := a.largest(bs)
	if c < 0 {
		return -1
	}
	others := 0
	for _, o := range bs {
		if o != c {
			others += a.size[o]
		}
	}
	if a.size[c] <= 2*others {
		return -1
	}
	return c
}

// neck classifies the chain from the chest to the head.
func (a *anat) neck(b int) {
	for {
		c := a.next(b)
		if c < 0 {
			a.all(b, Head)
			return
		}
		a.class[b] = Neck
		b = c
	}
}

// limb classifies a limb chain from b: its bones, along the chain (next),
// take the classes in order (a clavicle first when allowed and the first
// bone is short), everything past the third, or below where the chain
// branches, takes digit.
func (a *anat) limb(b int, seq []Class, digit Class, clavicle bool) {
	var ch []int
	for ; b >= 0; b = a.next(b) {
		ch = append(ch, b)
	}
	if clavicle && len(ch) >= 4 && a.length(ch[0]) < clavicleShare*a.length(ch[1]) {
		a.class[ch[0]] = Clavicle
		ch = ch[1:]
	}
	for i, c := range ch {
		if i < len(seq) {
			a.class[c] = seq[i]
		} else {
			a.class[c] = digit
		}
	}
	for _, c := range a.branches(ch[len(ch)-1]) {
		a.all(c, digit)
	}
}

// all gives every bone of b's subtree the class c.
func (a *anat) all(b int, c Class) {
	a.class[b] = c
	for _, k := range a.sk.children[b] {
		a.all(k, c)
	}
}
