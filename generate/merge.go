package generate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
)

// OverlapRule says what becomes of generated dynamic bodies whose
// colliders overlap at rest, in their file poses (profile key
// bodies.overlapping).
type OverlapRule string

// Overlap rules.
const (
	// OverlapMerge (the default, also "") makes one body of them: parts
	// of one object modelled as several scene roots or meshes (a car's
	// body, glass and seats). Engines push bodies born inside each other
	// apart, gently or violently.
	OverlapMerge OverlapRule = "merge"
	// OverlapWarn keeps them as separate bodies, with a warning per
	// overlapping pair.
	OverlapWarn OverlapRule = "warn"
)

// OverlapTolerance is how deep two bodies' colliders may overlap before
// they count as overlapping, relative to the smaller body's size (the
// diagonal of its colliders' box in its frame): touching and resting on
// each other is not overlapping. The drop test fails bodies overlapping
// by more than 2%.
const OverlapTolerance = 0.01

// overlapSolid is one body's colliders in world space, for the overlap
// test.
type overlapSolid struct {
	body   *bodyPlan
	shapes [][]geom.Vec3
	boxes  []geom.Box
	box    geom.Box
	size   float64
}

// mergeOverlapping finds the generated dynamic bodies whose colliders
// overlap by more than OverlapTolerance and, by rule, merges each
// connected set of them into one body or warns about each pair. A set
// is merged into the body that is an ancestor of all the others, or onto
// a new node adopting them when they are siblings (scene roots or
// children of one node); other sets are left apart with a warning. Each
// part keeps its home body: its colliders, made in that body's frame,
// are written under that body's node, inside the merged body's subtree.
// It returns the notes and warnings for the report.
func (j *job) mergeOverlapping() (notes, warnings []string) {
	doc, pl, done := j.a.Doc, j.plan, j.made
	var solids []*overlapSolid
	for _, b := range pl.bodies {
		if b.motion != physics.Dynamic || b.gen != nil && !aboveInstanced(doc, b) {
			continue
		}
		if s := solidOf(b, done); s != nil {
			solids = append(solids, s)
		}
	}
	parent := make([]int, len(solids))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	var pairs [][2]int
	var depths []float64
	for i, a := range solids {
		for k := i + 1; k < len(solids); k++ {
			b := solids[k]
			tol := OverlapTolerance * min(a.size, b.size)
			if d := overlapDepth(a, b, tol); d > tol {
				pairs = append(pairs, [2]int{i, k})
				depths = append(depths, d)
				if ri, rj := find(i), find(k); ri != rj {
					parent[max(ri, rj)] = min(ri, rj)
				}
			}
		}
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	name := func(s *overlapSolid) string { return mesh.NodeName(doc, standFor(s.body)) }
	describe := func(k int) string {
		a, b := solids[pairs[k][0]], solids[pairs[k][1]]
		return fmt.Sprintf("%s and %s by %.3g m (%.1f%% of the smaller body's size)", name(a), name(b), depths[k], 100*depths[k]/min(a.size, b.size))
	}
	if j.opt.Body.Overlap == OverlapWarn {
		for k := range pairs {
			warnings = append(warnings, fmt.Sprintf("dynamic bodies whose colliders overlap at rest: %s; kept apart (bodies.overlapping: warn), engines will push them apart", describe(k)))
		}
		return nil, warnings
	}
	ups := physics.Parents(doc)
	for root := range solids {
		if find(root) != root {
			continue
		}
		var group []*bodyPlan
		var why []string
		big := root // the largest names a new body node
		for i, s := range solids {
			if find(i) == root {
				group = append(group, s.body)
				if s.size > solids[big].size {
					big = i
				}
			}
		}
		if len(group) < 2 {
			continue
		}
		for k, pr := range pairs {
			if find(pr[0]) == root {
				why = append(why, describe(k))
			}
		}
		names := make([]string, len(group))
		for i, b := range group {
			names[i] = mesh.NodeName(doc, standFor(b))
		}
		if slices.ContainsFunc(group, func(b *bodyPlan) bool { return b.gen != nil }) {
			warnings = append(warnings, fmt.Sprintf("dynamic bodies whose colliders overlap at rest: %s; not merged: a body on a new node above an instanced node stays its own", strings.Join(why, "; ")))
			continue
		}
		into := j.mergeTarget(ups, group, solids[big].body)
		if into == nil {
			warnings = append(warnings, fmt.Sprintf("dynamic bodies whose colliders overlap at rest: %s; not merged: they are neither nested nor siblings", strings.Join(why, "; ")))
			continue
		}
		into.merged = names
		into.overlaps = why
		for _, b := range group {
			if b != into {
				into.parts = append(into.parts, b.parts...)
			}
			if into.massRule == "" && b.massRule != "" {
				into.mass, into.massRule = b.mass, b.massRule // a rule's mass outlives the merge
			}
		}
		slices.SortFunc(into.parts, func(x, y *partPlan) int { return x.part - y.part })
		for _, pp := range into.parts {
			pp.body = into
		}
		at := slices.Index(pl.bodies, group[0])
		pl.bodies = slices.DeleteFunc(pl.bodies, func(b *bodyPlan) bool { return slices.Contains(group, b) && b != into })
		if !slices.Contains(pl.bodies, into) {
			pl.bodies = slices.Insert(pl.bodies, min(at, len(pl.bodies)), into)
		}
		where := "one body on " + mesh.NodeName(doc, into.node)
		if into.gen != nil {
			where = "one body on a new node " + into.gen.name + " holding them"
		}
		notes = append(notes, fmt.Sprintf("%s: dynamic bodies whose colliders overlap at rest (%s): merged into %s (bodies.overlapping: merge)", strings.Join(names, ", "), strings.Join(why, "; "), where))
	}
	return notes, warnings
}

// mergeTarget returns the body a group of overlapping bodies becomes:
// the member whose node is an ancestor of every other's, else a new body
// on a node adopting them all when they are siblings (named after the
// largest, big), else nil.
func (j *job) mergeTarget(ups []int, group []*bodyPlan, big *bodyPlan) *bodyPlan {
	doc, ex := j.a.Doc, j.ex
	for _, b := range group {
		if !slices.ContainsFunc(group, func(o *bodyPlan) bool { return !isAncestor(ups, b.node, o.node) }) {
			return b
		}
	}
	holder := ups[group[0].node]
	var order []int // the holder's list of children
	if holder >= 0 {
		order = doc.Nodes[holder].Children
	} else if ex.Scene >= 0 {
		order = ex.Roots
	}
	var kids []int
	for _, b := range group {
		if ups[b.node] != holder || !slices.Contains(order, b.node) {
			return nil
		}
		kids = append(kids, b.node)
	}
	slices.SortFunc(kids, func(x, y int) int { return slices.Index(order, x) - slices.Index(order, y) })
	w := geom.Identity4()
	if holder >= 0 {
		w = j.world[holder]
	}
	return &bodyPlan{
		node:   groupNode,
		gen:    &newNode{holder: holder, children: kids, name: baseName(doc, big.node) + ".body", stand: kids[0]},
		motion: physics.Dynamic,
		world:  w,
	}
}

// solidOf returns a body's colliders (triggers left out) in world space,
// or nil when it has none.
func solidOf(b *bodyPlan, done map[int]*made) *overlapSolid {
	f, _, err := frame(b.world)
	if err != nil {
		return nil
	}
	s := &overlapSolid{body: b, box: geom.EmptyBox()}
	local := geom.EmptyBox()
	for _, pp := range b.parts {
		m := done[pp.part]
		if m == nil || pp.trigger {
			continue
		}
		for _, c := range m.cs {
			pts := colliderPoints(c)
			if len(pts) == 0 {
				continue
			}
			w := make([]geom.Vec3, len(pts))
			for i, p := range pts {
				local = local.Extend(p)
				w[i] = f.Point(p)
			}
			box := geom.BoundsOf(w)
			s.shapes = append(s.shapes, w)
			s.boxes = append(s.boxes, box)
			s.box = s.box.Union(box)
		}
	}
	if len(s.shapes) == 0 {
		return nil
	}
	s.size = local.Diagonal()
	return s
}

// overlapDepth returns the deepest overlap between a collider of a and
// one of b when it is deeper than tol (else at most tol), skipping the
// pairs whose boxes say they cannot be deeper than what is known.
func overlapDepth(a, b *overlapSolid, tol float64) float64 {
	if separable(a.box, b.box, tol) {
		return 0
	}
	deepest := 0.0
	for i, pa := range a.shapes {
		for j, pb := range b.shapes {
			if separable(a.boxes[i], b.boxes[j], max(tol, deepest)) {
				continue
			}
			if d, err := hull.Penetration(pa, pb); err == nil {
				deepest = max(deepest, d)
			}
		}
	}
	return deepest
}

// separable says whether moving two boxes apart by at most tol along an
// axis parts them: then no overlap between what they hold is deeper.
func separable(a, b geom.Box, tol float64) bool {
	for i := 0; i < 3; i++ {
		if min(a.Max[i]-b.Min[i], b.Max[i]-a.Min[i]) <= tol {
			return true
		}
	}
	return false
}

// colliderPoints returns points of a collider in its frame whose hull is
// the collider (boxes, hulls) or close inside it (round shapes: within 2% of
// the radius).
func colliderPoints(c Collider) []geom.Vec3 {
	if c.Convex != nil {
		return c.Convex.Vertices
	}
	row, _ := kinds.ShapeOf(c.Shape.Type)
	if row.Sample == nil {
		return nil
	}
	pts := row.Sample(c.Shape)
	q := c.Rotation
	if q == (geom.Quat{}) {
		q = geom.IdentityQuat()
	}
	for i, p := range pts {
		pts[i] = q.Rotate(p).Add(c.Translation)
	}
	return pts
}

// isAncestor says whether node a is node n or one of its ancestors (up:
// physics.Parents).
func isAncestor(up []int, a, n int) bool {
	for steps := 0; steps <= len(up)+1 && n >= 0; steps++ {
		if n == a {
			return true
		}
		n = up[n]
	}
	return false
}
