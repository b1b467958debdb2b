package ragdoll

import (
	"fmt"
	"slices"

	"github.com/autocollide/autocollide/geom"
)

// surfaceStep is the edge length, as a fraction of the skin's diagonal,
// below which a piece of a triangle whose corners belong to different
// bodies stops being split: its corners then all go to one body, which
// reaches at most this far into its neighbour's region.
const surfaceStep = 0.004

// surfaceDepth bounds the splitting of one triangle (4^depth pieces at
// most along a boundary; a triangle spanning the whole skin reaches the
// step in about 8 halvings).
const surfaceDepth = 12

// sample is a point of the skin's surface with its interpolated weights
// and the bodies that take it.
type sample struct {
	p      geom.Vec3
	bones  []int
	shares []float64
	bodies []int // ascending
}

// surfaceCover gives the skin's surface, not only its vertices, to the
// bodies. A triangle whose three corners share a body is inside that
// body's collider already (colliders are convex and contain the corners).
// Any other triangle is split at its edges' midpoints, each midpoint
// weighted by interpolating its edge's corners' shares and taken by the
// bodies the assignment rule gives those weights (dominant bone's body;
// with Threshold also the bodies of bones whose share reaches the
// threshold); pieces still spanning bodies are split again until their
// edges are shorter than surfaceStep of the skin's diagonal, and then
// their corners go to the body most of them belong to (ties: the lowest
// body index). So each body covers the part of the surface its bones
// move, and the colliders meet at the joints. Triangles with an
// unweighted corner are left out, like their vertices. The points a body
// takes this way go to its surface list, in world space.
func (sk *skeleton) surfaceCover(rd *Ragdoll, w *weights, tris [][3]int, bodyOf []int, s Settings) error {
	if len(tris) == 0 {
		return nil
	}
	nv := len(w.pos)
	corner := make([]*sample, nv)
	vertex := func(v int) *sample {
		if corner[v] == nil {
			sm := &sample{p: w.pos[v]}
			for i := w.start[v]; i < w.start[v+1]; i++ {
				sm.bones = append(sm.bones, w.bone[i])
				sm.shares = append(sm.shares, w.share[i])
			}
			sm.bodies = sk.sampleBodies(sm, bodyOf, s)
			corner[v] = sm
		}
		return corner[v]
	}
	c := cover{sk: sk, rd: rd, bodyOf: bodyOf, s: s, step: surfaceStep * w.bounds.Diagonal()}
	for t, tri := range tris {
		for k, v := range tri {
			if v < 0 || v >= nv {
				return fmt.Errorf("%w: triangle %d corner %d is vertex %d, outside the %d vertices", ErrSkin, t, k, v, nv)
			}
		}
		if w.dominant[tri[0]] < 0 || w.dominant[tri[1]] < 0 || w.dominant[tri[2]] < 0 {
			continue
		}
		c.split(vertex(tri[0]), vertex(tri[1]), vertex(tri[2]), 0)
	}
	return nil
}

// cover is one surfaceCover pass.
type cover struct {
	sk     *skeleton
	rd     *Ragdoll
	bodyOf []int
	s      Settings
	step   float64
}

// split covers the triangle a, b, c (see surfaceCover).
func (c *cover) split(a, b, d *sample, depth int) {
	if shareBody(a.bodies, b.bodies, d.bodies) {
		return
	}
	edge := max(a.p.Sub(b.p).Len(), b.p.Sub(d.p).Len(), d.p.Sub(a.p).Len())
	if edge <= c.step || depth >= surfaceDepth {
		c.leaf(a, b, d)
		return
	}
	ab, bd, da := c.mid(a, b), c.mid(b, d), c.mid(d, a)
	c.split(a, ab, da, depth+1)
	c.split(ab, b, bd, depth+1)
	c.split(da, bd, d, depth+1)
	c.split(ab, bd, da, depth+1)
}

// mid is the midpoint of a and b, taken by its bodies.
func (c *cover) mid(a, b *sample) *sample {
	m := &sample{p: a.p.Add(b.p).Scale(0.5)}
	add := func(x *sample) {
		for i, bone := range x.bones {
			k := slices.Index(m.bones, bone)
			if k < 0 {
				m.bones, m.shares = append(m.bones, bone), append(m.shares, 0)
				k = len(m.bones) - 1
			}
			m.shares[k] += x.shares[i] / 2
		}
	}
	add(a)
	add(b)
	m.bodies = c.sk.sampleBodies(m, c.bodyOf, c.s)
	for _, bi := range m.bodies {
		c.rd.Bodies[bi].surface = append(c.rd.Bodies[bi].surface, m.p)
	}
	return m
}

// leaf gives a small triangle spanning bodies to the body most of its
// corners belong to.
func (c *cover) leaf(a, b, d *sample) {
	best, count := -1, 0
	for _, x := range []*sample{a, b, d} {
		for _, bi := range x.bodies {
			n := 0
			for _, y := range []*sample{a, b, d} {
				if slices.Index(y.bodies, bi) >= 0 {
					n++
				}
			}
			if n > count || n == count && bi < best {
				best, count = bi, n
			}
		}
	}
	if best < 0 {
		return
	}
	for _, x := range []*sample{a, b, d} {
		if slices.Index(x.bodies, best) < 0 {
			c.rd.Bodies[best].surface = append(c.rd.Bodies[best].surface, x.p)
		}
	}
}

// sampleBodies returns the bodies that take a point with the given
// weights, by the same rule as vertices: the body of its dominant bone
// (ties: the bone whose joint is nearest, then the lowest index) and, with
// Threshold, those of the bones whose share reaches the threshold.
func (sk *skeleton) sampleBodies(x *sample, bodyOf []int, s Settings) []int {
	best := -1
	for i := range x.bones {
		if best < 0 || x.shares[i] > x.shares[best] || x.shares[i] == x.shares[best] && nearer(x.p, sk.head, x.bones[i], x.bones[best]) {
			best = i
		}
	}
	var out []int
	addBody := func(bone int) {
		if bi := bodyOf[bone]; bi >= 0 && slices.Index(out, bi) < 0 {
			out = append(out, bi)
		}
	}
	if best < 0 {
		return nil
	}
	addBody(x.bones[best])
	if s.Assign == Threshold {
		for i, bone := range x.bones {
			if x.shares[i] >= s.WeightThreshold {
				addBody(bone)
			}
		}
	}
	slices.Sort(out)
	return out
}

// shareBody reports whether the three ascending body lists have a body in
// common.
func shareBody(a, b, c []int) bool {
	for _, x := range a {
		if slices.Index(b, x) >= 0 && slices.Index(c, x) >= 0 {
			return true
		}
	}
	return false
}
