package decompose

import (
	"math"

	"github.com/autocollide/autocollide/geom"
)

// pointIndex numbers distinct points in the order they are first seen:
// an open-addressing table of indices into pts. A map keyed by Vec3
// hashes each coordinate on its own and costs several times more (points
// and partVolume run for every candidate cut).
type pointIndex struct {
	slots []int32 // 1 + index into pts; 0: empty
	mask  uint64
	pts   []geom.Vec3
}

// newPointIndex returns an index for up to n points.
func newPointIndex(n int) *pointIndex {
	size := 4
	for size < 2*n {
		size <<= 1
	}
	return &pointIndex{slots: make([]int32, size), mask: uint64(size - 1), pts: make([]geom.Vec3, 0, n*2/3)}
}

// id returns v's number, giving it the next one if v is new.
func (ix *pointIndex) id(v geom.Vec3) uint32 {
	for h := hashPoint(v) & ix.mask; ; h = (h + 1) & ix.mask {
		s := ix.slots[h]
		if s == 0 {
			ix.pts = append(ix.pts, v)
			ix.slots[h] = int32(len(ix.pts))
			return uint32(len(ix.pts) - 1)
		}
		if ix.pts[s-1] == v {
			return uint32(s - 1)
		}
	}
}

// hashPoint mixes the bits of v's coordinates, -0 counted as +0 so that
// equal points hash alike.
func hashPoint(v geom.Vec3) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range v {
		if x == 0 {
			x = 0
		}
		h = (h ^ math.Float64bits(x)) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return h
}

// numberFrom numbers the corners of ts as part.number does (distinct
// points in order of first sight, equal as float64 values), from pid, the
// numbers some of them had in the soup they were cut from (see soup.pid):
// a numbered corner through an array, the others by position. No corner
// numbered is equal to one that is not (see cutNumbered), so the two
// kinds never weld.
func numberFrom(ts []tri, pid [][3]int32, npid int) ([]geom.Vec3, [][3]uint32) {
	loc := make([]int32, npid) // 1 + number; 0: not seen yet
	hashed := 0
	for i := range pid {
		for _, g := range pid[i] {
			if g < 0 {
				hashed++
			}
		}
	}
	ix := newPointIndex(hashed) // sized for every corner it may see
	var hmap []int32            // number of ix's points
	pts := make([]geom.Vec3, 0, len(ts)/2+3)
	ids := make([][3]uint32, len(ts))
	for i, t := range ts {
		for k, v := range t {
			if g := pid[i][k]; g >= 0 {
				if loc[g] == 0 {
					pts = append(pts, v)
					loc[g] = int32(len(pts))
				}
				ids[i][k] = uint32(loc[g] - 1)
				continue
			}
			if h := ix.id(v); int(h) < len(hmap) {
				ids[i][k] = uint32(hmap[h])
			} else {
				hmap = append(hmap, int32(len(pts)))
				ids[i][k] = uint32(len(pts))
				pts = append(pts, v)
			}
		}
	}
	return pts[:len(pts):len(pts)], ids
}
