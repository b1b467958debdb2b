package draco

// cornerTable is the corner table of Rossignac et al. that Draco's
// edgebreaker and mesh prediction schemes work on. Corner c belongs to face
// c/3; opp holds the corner across the edge facing c (-1 on a boundary);
// left holds a vertex's left-most corner (-1 for an isolated vertex).
//
// The same type serves an attribute's own connectivity (the reference's
// MeshAttributeCornerTable): there c2v maps corners to attribute vertices and
// opp is cut (-1) along the attribute's seams.
type cornerTable struct {
	c2v  []int32
	opp  []int32
	left []int32
}

func next(c int32) int32 {
	if c < 0 {
		return -1
	}
	if c%3 == 2 {
		return c - 2
	}
	return c + 1
}

func prev(c int32) int32 {
	if c < 0 {
		return -1
	}
	if c%3 == 0 {
		return c + 2
	}
	return c - 1
}

func (t *cornerTable) numFaces() int    { return len(t.c2v) / 3 }
func (t *cornerTable) numVertices() int { return len(t.left) }

func (t *cornerTable) vertex(c int32) int32 {
	if c < 0 {
		return -1
	}
	return t.c2v[c]
}

func (t *cornerTable) opposite(c int32) int32 {
	if c < 0 {
		return -1
	}
	return t.opp[c]
}

func (t *cornerTable) leftMost(v int32) int32 {
	if v < 0 {
		return -1
	}
	return t.left[v]
}

func (t *cornerTable) swingRight(c int32) int32 { return prev(t.opposite(prev(c))) }
func (t *cornerTable) swingLeft(c int32) int32  { return next(t.opposite(next(c))) }
func (t *cornerTable) rightCorner(c int32) int32 {
	return t.opposite(next(c))
}
func (t *cornerTable) leftCorner(c int32) int32 { return t.opposite(prev(c)) }

// around calls f on every corner around the vertex of corner start:
// swinging left from start, then right from start if an open boundary stops
// the swing. Each corner spends one step of budget; it fails when the
// budget runs out (fans that never close, in a corrupt table).
func (t *cornerTable) around(start int32, budget *int, f func(int32)) bool {
	c, left := start, true
	for c >= 0 {
		if *budget--; *budget < 0 {
			return false
		}
		f(c)
		if left {
			c = t.swingLeft(c)
			if c < 0 {
				c = t.swingRight(start)
				left = false
			} else if c == start {
				c = -1
			}
		} else {
			c = t.swingRight(c)
		}
	}
	return true
}

func (t *cornerTable) onBoundary(v int32) bool {
	return t.swingLeft(t.leftMost(v)) < 0
}

func (t *cornerTable) setOpposite(a, b int32) {
	t.opp[a] = b
	t.opp[b] = a
}

func (t *cornerTable) addVertex() int32 {
	t.left = append(t.left, -1)
	return int32(len(t.left) - 1)
}

// attributeTable builds an attribute's connectivity from the base table and
// the corners facing its seam edges: each run of corners around a base
// vertex between two seams becomes one attribute vertex. It also returns
// which base vertices touch a seam. It fails (ok false) if the vertex fans
// of the base table do not close, which only a corrupt stream causes.
func attributeTable(base *cornerTable, seamCorners []int32) (t *cornerTable, vertOnSeam []bool, ok bool) {
	n := len(base.c2v)
	onSeam := make([]bool, n)
	vertOnSeam = make([]bool, base.numVertices())
	for _, c := range seamCorners {
		onSeam[c] = true
		vertOnSeam[base.vertex(next(c))] = true
		vertOnSeam[base.vertex(prev(c))] = true
		if o := base.opp[c]; o >= 0 {
			onSeam[o] = true
			vertOnSeam[base.vertex(next(o))] = true
			vertOnSeam[base.vertex(prev(o))] = true
		}
	}
	t = &cornerTable{c2v: make([]int32, n), opp: make([]int32, n)}
	// Fans partition the corners: a valid table walks each corner a few
	// times in all.
	budget := 4*n + 64
	for c := range t.c2v {
		t.c2v[c] = -1
		if onSeam[c] {
			t.opp[c] = -1
		} else {
			t.opp[c] = base.opp[c]
		}
	}
	t.left = make([]int32, 0, base.numVertices())
	for v := range base.left {
		c := base.left[v]
		if c < 0 {
			continue
		}
		first := c
		if vertOnSeam[v] {
			// Walk left on the cut table to the corner on the first seam.
			for a := t.swingLeft(first); a >= 0; a = t.swingLeft(a) {
				if budget--; budget < 0 {
					return nil, nil, false
				}
				first = a
			}
		}
		id := int32(len(t.left))
		t.c2v[first] = id
		t.left = append(t.left, first)
		for a := base.swingRight(first); a >= 0 && a != first; a = base.swingRight(a) {
			if budget--; budget < 0 {
				return nil, nil, false
			}
			if onSeam[next(a)] {
				id = int32(len(t.left))
				t.left = append(t.left, a)
			}
			t.c2v[a] = id
		}
	}
	return t, vertOnSeam, true
}
