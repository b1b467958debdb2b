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
	// Number the corners, then count directed edges by id pair.
	ix := newPointIndex(3 * len(p.tris))
	id := func(x geom.Vec3) uint64 { return uint64(ix.id(x)) }
	tid := make([][3]uint64, len(p.tris))
	count := make(map[uint64]int32, 3*len(p.tris))
	for k, t := range p.tris {
		a, b, c := t[0].Sub(o), t[1].Sub(o), t[2].Sub(o)
		v += a.Dot(b.Cross(c))
		tid[k] = [3]uint64{id(t[0]), id(t[1]), id(t[2])}
		for i := 0; i < 3; i++ {
			count[tid[k][i]<<32|tid[k][(i+1)%3]]++
		}
	}
	for k, t := range p.tris {
		for i := 0; i < 3; i++ {
			j := (i + 1) % 3
			if count[tid[k][j]<<32|tid[k][i]] > 0 {
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
