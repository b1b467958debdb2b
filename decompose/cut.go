package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// edgePoint is where the segment a-b crosses the plane; a and b are put in a
// canonical order first so that the two triangles sharing an edge produce
// bit-identical points (the pieces stay welded).
func edgePoint(a, b geom.Vec3, sa, sb float64) geom.Vec3 {
	if less(b, a) {
		a, b, sa, sb = b, a, sb, sa
	}
	t := sa / (sa - sb)
	return a.Add(b.Sub(a).Scale(t))
}

func less(a, b geom.Vec3) bool {
	for i := 0; i < 3; i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// soup is a list of triangles with their inner flags (see part.inner) and,
// for the sides of a cut, the index in the cut soup of the triangle each
// was cut from (src) and, when the cut soup's corners were numbered (see
// cutNumbered), their numbers (pid; -1 for a corner that is not known to
// be none of the new ones, see numberFrom) and their count (npid).
type soup struct {
	t    []tri
	in   []bool
	src  []int32
	pid  [][3]int32
	npid int
}

func (s *soup) add(t tri, inner bool, src int) {
	s.t = append(s.t, t)
	s.in = append(s.in, inner)
	s.src = append(s.src, int32(src))
}

// addNumbered is add with the corners' numbers.
func (s *soup) addNumbered(t tri, inner bool, src int, pid [3]int32) {
	s.add(t, inner, src)
	if s.pid != nil {
		s.pid = append(s.pid, pid)
	}
}

// newSoup returns an empty soup with room for n triangles, with room for
// their corners' numbers when numbered.
func newSoup(n int, numbered bool) soup {
	s := soup{t: make([]tri, 0, n), in: make([]bool, 0, n), src: make([]int32, 0, n)}
	if numbered {
		s.pid = make([][3]int32, 0, n)
	}
	return s
}

// cut splits the soup by pl into the triangles with n·x ≥ d (pos) and
// n·x ≤ d (neg), triangulating the crossing ones, and returns the outline
// of the cross-section. A triangle lying in the plane goes to the side its
// solid is on: behind its normal.
func cut(ts []tri, inner []bool, pl plane, eps float64) (pos, neg soup, sec *section) {
	return cutNumbered(ts, inner, nil, nil, pl, eps)
}

// cutNumbered is cut for triangles whose corners are numbered (pts the
// distinct corners, ids each triangle's, see part.points): each distinct
// corner's distance to the plane is worked out once, not once per
// triangle. A corner and pts[its id] are equal as float64 values (they can
// differ only in the sign of a zero coordinate, and then their distances
// differ only in the sign of a zero, which counts as on the plane), so the
// sides are the same as cut's. With ids nil it is cut.
func cutNumbered(ts []tri, inner []bool, pts []geom.Vec3, ids [][3]uint32, pl plane, eps float64) (pos, neg soup, sec *section) {
	var sv []float64
	if ids != nil {
		sv = make([]float64, len(pts))
		for i, v := range pts {
			sv[i] = pl.eval(v)
		}
	}
	// evals returns the distances of triangle ti's corners.
	evals := func(ti int) (s [3]float64) {
		if sv != nil {
			id := &ids[ti]
			return [3]float64{sv[id[0]], sv[id[1]], sv[id[2]]}
		}
		t := &ts[ti]
		return [3]float64{pl.eval(t[0]), pl.eval(t[1]), pl.eval(t[2])}
	}
	// Each side's room counted first (a crossing triangle gives a side up
	// to two): appending from empty copies each side several times over.
	var npos, nneg int
	for ti := range ts {
		var above, below bool
		for _, e := range evals(ti) {
			if e > eps {
				above = true
			} else if e < -eps {
				below = true
			}
		}
		switch {
		case above && below:
			npos, nneg = npos+2, nneg+2
		case above:
			npos++
		case below:
			nneg++
		default:
			npos, nneg = npos+1, nneg+1
		}
	}
	pos, neg = newSoup(npos, ids != nil), newSoup(nneg, ids != nil)
	pos.npid, neg.npid = len(pts), len(pts)
	sec = &section{pl: pl}
	sec.u, sec.v = planeBasis(pl.n)
	// cutMax: the largest distance to the plane of a cut point, as eval
	// gives it.
	var cutMax float64
	cutPoint := func(a, b geom.Vec3, sa, sb float64) geom.Vec3 {
		p := edgePoint(a, b, sa, sb)
		if sv != nil {
			cutMax = math.Max(cutMax, math.Abs(pl.eval(p)))
		}
		return p
	}
	for ti, t := range ts {
		in := inner != nil && inner[ti]
		s := evals(ti)
		// The corners' numbers (-1: unnumbered).
		id := [3]int32{-1, -1, -1}
		if ids != nil {
			id = [3]int32{int32(ids[ti][0]), int32(ids[ti][1]), int32(ids[ti][2])}
		}
		np, nn := 0, 0
		for i := 0; i < 3; i++ {
			if math.Abs(s[i]) <= eps {
				s[i] = 0
			} else if s[i] > 0 {
				np++
			} else {
				nn++
			}
		}
		if np == 0 && nn == 0 {
			if t[1].Sub(t[0]).Cross(t[2].Sub(t[0])).Dot(pl.n) > 0 {
				neg.addNumbered(t, in, ti, id)
			} else {
				pos.addNumbered(t, in, ti, id)
			}
			continue
		}
		if nn == 0 || np == 0 {
			side := 0
			if nn == 0 {
				pos.addNumbered(t, in, ti, id)
			} else {
				neg.addNumbered(t, in, ti, id)
				side = 1
			}
			// An edge lying in the plane is part of that side's outline.
			for i := 0; i < 3; i++ {
				if j := (i + 1) % 3; s[i] == 0 && s[j] == 0 {
					sec.addSegment(side, t[i], t[j], t)
				}
			}
			continue
		}
		// Rotate so that t[0] is the vertex alone on its side (or on the plane).
		r := 0
		for i := 0; i < 3; i++ {
			j, k := (i+1)%3, (i+2)%3
			if s[i] == 0 || (s[i] > 0) != (s[j] > 0) && (s[i] > 0) != (s[k] > 0) && s[j] != 0 && s[k] != 0 {
				r = i
				break
			}
		}
		a, b, c := t[r], t[(r+1)%3], t[(r+2)%3]
		sa, sb, sc := s[r], s[(r+1)%3], s[(r+2)%3]
		ia, ib, ic := id[r], id[(r+1)%3], id[(r+2)%3]
		var p, q geom.Vec3
		if sa == 0 {
			// b and c on opposite sides.
			p = cutPoint(b, c, sb, sc)
			t1, t2 := tri{a, b, p}, tri{a, p, c}
			i1, i2 := [3]int32{ia, ib, -1}, [3]int32{ia, -1, ic}
			if sb > 0 {
				pos.addNumbered(t1, in, ti, i1)
				neg.addNumbered(t2, in, ti, i2)
			} else {
				pos.addNumbered(t2, in, ti, i2)
				neg.addNumbered(t1, in, ti, i1)
			}
			q = a
		} else {
			p = cutPoint(a, b, sa, sb)
			q = cutPoint(a, c, sa, sc)
			lone, pair := &pos, &neg
			if sa < 0 {
				lone, pair = &neg, &pos
			}
			lone.addNumbered(tri{a, p, q}, in, ti, [3]int32{ia, -1, -1})
			pair.addNumbered(tri{p, b, c}, in, ti, [3]int32{-1, ib, ic})
			pair.addNumbered(tri{p, c, q}, in, ti, [3]int32{-1, ic, -1})
		}
		sec.addSegment(0, p, q, t)
		sec.addSegment(1, p, q, t)
	}
	// A corner as near the plane as a cut point could be one (a vertex
	// on the edge a cut crosses, where the cut lands on it): it is
	// numbered by position, with the cut points, so that numberFrom
	// welds it to them as hashing all corners would. Farther corners
	// differ from every cut point (equal points are equally far).
	if sv != nil {
		for _, sd := range []*soup{&pos, &neg} {
			for i := range sd.pid {
				for k, g := range sd.pid[i] {
					if g >= 0 && math.Abs(sv[g]) <= 2*cutMax {
						sd.pid[i][k] = -1
					}
				}
			}
		}
	}
	return pos, neg, sec
}

// side is one side of a part cut by a plane: its triangles and the cuts
// that bound it (the part's and the new one).
type side struct {
	soup
	caps []capRef
}

// cutPart cuts p by pl and returns its two sides, positive first, and the
// cross-section; ok is false when a side is empty.
func (d *decomposer) cutPart(p *part, pl plane) (sides [2]side, sec *section, ok bool) {
	pos, neg, sec := cutNumbered(p.tris, p.inner, p.corners, p.ids, pl, planeTol*d.diag)
	if len(pos.t) == 0 || len(neg.t) == 0 {
		return sides, sec, false
	}
	for i, s := range []soup{pos, neg} {
		sign := int8(1 - 2*i)
		sides[i] = side{s, append(append([]capRef(nil), p.caps...), capRef{sec, sign})}
	}
	return sides, sec, true
}
