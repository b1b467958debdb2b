package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

type edgeKey [2]geom.Vec3

// partVolume is the volume of a part of a closed input, its cuts closed:
// each open edge lying on one of the part's cut planes is joined to a point
// of that plane, which closes the cut faces exactly whatever their shape
// (the fan over a closed loop is a chain covering the loop's interior).
// Open edges on no cut plane (holes of the input) close to the origin of the
// sum, an approximation. The result is a signed volume, positive for
// outward winding.
func partVolume(p *part, capTol float64) float64 {
	o := p.box.Center()
	var v float64
	// The part's corner numbering (shared with points), then its directed
	// edges by id pair.
	ids := p.cornerIDs()
	edge := func(k, i, j int) uint64 { return uint64(ids[k][i])<<32 | uint64(ids[k][j]) }
	edges := newEdgeSet(3 * len(p.tris))
	for k, t := range p.tris {
		a, b, c := t[0].Sub(o), t[1].Sub(o), t[2].Sub(o)
		v += a.Dot(b.Cross(c))
		for i := 0; i < 3; i++ {
			edges.add(edge(k, i, (i+1)%3))
		}
	}
	for k, t := range p.tris {
		for i := 0; i < 3; i++ {
			j := (i + 1) % 3
			if edges.has(edge(k, j, i)) {
				continue
			}
			// Open edge t[i]→t[j]: the closing face runs along it backwards.
			for _, c := range p.caps {
				pl := c.sec.pl
				if math.Abs(pl.eval(t[i])) <= capTol && math.Abs(pl.eval(t[j])) <= capTol {
					q := o.Sub(pl.n.Scale(pl.eval(o))).Sub(o)
					v += q.Dot(t[j].Sub(o).Cross(t[i].Sub(o)))
					break
				}
			}
		}
	}
	return v / 6
}

// isClosed reports whether every directed edge of the soup has its reverse
// (corners matched by exact position).
func isClosed(ts []tri) bool {
	count := make(map[edgeKey]int, 3*len(ts))
	for _, t := range ts {
		for i := 0; i < 3; i++ {
			count[edgeKey{t[i], t[(i+1)%3]}]++
		}
	}
	for e, n := range count {
		if count[edgeKey{e[1], e[0]}] != n {
			return false
		}
	}
	return true
}
