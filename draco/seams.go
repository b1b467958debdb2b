package draco

// Attribute seams of an Edgebreaker mesh (spec "Edgebreaker decoding",
// attribute connectivity): the seam edges read per face, and the grouping
// of corners into points that they imply.

// attrConn is one attribute connectivity record ("attribute data").
type attrConn struct {
	decoder    int // the attribute decoder that uses it, or -1
	seams      []int32
	table      *cornerTable
	vertOnSeam []bool
	connUsed   bool // false when a per-vertex decoder uses it: the base table applies
	enc        encodingData
}

// decodeSeamsOnFace reads, for each edge of the face at corner c shared with
// a later face, one seam bit per attribute connectivity; open edges are
// seams of every attribute.
func (eb *edgebreaker) decodeSeamsOnFace(c int32) {
	ct := eb.ct
	for _, k := range [3]int32{c, next(c), prev(c)} {
		o := ct.opp[k]
		if o < 0 {
			for i := range eb.attrData {
				eb.attrData[i].seams = append(eb.attrData[i].seams, k)
			}
			continue
		}
		if o/3 < c/3 {
			continue
		}
		for i := range eb.attrData {
			if eb.seamDec[i].bit() {
				eb.attrData[i].seams = append(eb.attrData[i].seams, k)
			}
		}
	}
}

// assignPoints groups corners into points: without attribute connectivity
// every vertex is a point; otherwise a vertex splits into one point per run
// of corners between seams of any attribute.
func (eb *edgebreaker) assignPoints(d *decoder, r *reader, numVerts int) {
	ct := eb.ct
	nf := ct.numFaces()
	faces := make([][3]uint32, nf)
	if len(eb.attrData) == 0 {
		if d.lim.MaxPoints > 0 && numVerts > d.lim.MaxPoints {
			r.failf("%d points decoded, the limit is %d", numVerts, d.lim.MaxPoints)
			return
		}
		for f := range faces {
			for k := 0; k < 3; k++ {
				v := ct.c2v[3*f+k]
				if v < 0 {
					r.failf("face %d has an unset corner", f)
					return
				}
				faces[f][k] = uint32(v)
			}
		}
		d.faces, d.numPoints = faces, numVerts
		return
	}
	cornerToPoint := make([]uint32, len(ct.c2v))
	numPoints := 0
	// Each fan is walked once per attribute and once more: linear in all.
	budget := (len(eb.attrData)+2)*2*len(ct.c2v) + 64
	for v := range ct.left {
		c := ct.left[v]
		if c < 0 {
			continue
		}
		first := c
		if !eb.isHole[v] {
			for i := range eb.attrData {
				a := &eb.attrData[i]
				if !a.vertOnSeam[v] {
					continue
				}
				av := a.table.vertex(c)
				found := false
				for ac := ct.swingRight(c); ac >= 0 && ac != c; ac = ct.swingRight(ac) {
					if budget--; budget < 0 {
						r.failf("vertex fans of the decoded connectivity do not close")
						return
					}
					if a.table.vertex(ac) != av {
						first, found = ac, true
						break
					}
				}
				if found {
					break
				}
			}
		}
		cornerToPoint[first] = uint32(numPoints)
		numPoints++
		pc := first
		for c := ct.swingRight(first); c >= 0 && c != first; c = ct.swingRight(c) {
			if budget--; budget < 0 {
				r.failf("vertex fans of the decoded connectivity do not close")
				return
			}
			seam := false
			for i := range eb.attrData {
				t := eb.attrData[i].table
				if t.vertex(c) != t.vertex(pc) {
					seam = true
					break
				}
			}
			if seam {
				cornerToPoint[c] = uint32(numPoints)
				numPoints++
			} else {
				cornerToPoint[c] = cornerToPoint[pc]
			}
			pc = c
		}
	}
	for f := range faces {
		faces[f] = [3]uint32{cornerToPoint[3*f], cornerToPoint[3*f+1], cornerToPoint[3*f+2]}
	}
	if d.lim.MaxPoints > 0 && numPoints > d.lim.MaxPoints {
		r.failf("%d points decoded, the limit is %d", numPoints, d.lim.MaxPoints)
		return
	}
	d.faces, d.numPoints = faces, numPoints
}
