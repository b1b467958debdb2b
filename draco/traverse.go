package draco

// Attribute traversals (spec "Attributes decoding" / traversal methods):
// the order in which an attribute decoder visits vertices, and so the order
// of its values in the stream. Faces are started in index order; each new
// vertex appends the point at the corner that reached it.

const (
	traversalDepthFirst       = 0
	traversalPredictionDegree = 1
)

// encodingData records, for one attribute decoder, which corner produced
// each value and which value each vertex of its table got.
type encodingData struct {
	dataToCorner []int32
	vertexToData []int32
}

func (e *encodingData) init(numVertices int) {
	e.vertexToData = make([]int32, numVertices)
	for i := range e.vertexToData {
		e.vertexToData[i] = -1
	}
	e.dataToCorner = e.dataToCorner[:0]
}

type traversal struct {
	t           *cornerTable
	enc         *encodingData
	faces       [][3]uint32
	faceVisited []bool
	vertVisited []bool
	points      []int32
	stack       []int32
	// prediction-degree traversal
	degree  []int32
	buckets [3][]int32
	best    int
}

func (tr *traversal) visitVertex(v, c int32) bool {
	if int(v) >= len(tr.enc.vertexToData) {
		return false
	}
	tr.vertVisited[v] = true
	tr.points = append(tr.points, int32(tr.faces[c/3][c%3]))
	tr.enc.dataToCorner = append(tr.enc.dataToCorner, c)
	tr.enc.vertexToData[v] = int32(len(tr.enc.dataToCorner) - 1)
	return true
}

func (tr *traversal) faceDone(c int32) bool {
	return c < 0 || tr.faceVisited[c/3]
}

// sequence runs the traversal over the whole table and returns the point of
// each value in decoding order.
func (d *decoder) sequence(r *reader, t *cornerTable, enc *encodingData, method int) []int32 {
	tr := &traversal{
		t: t, enc: enc, faces: d.faces,
		faceVisited: make([]bool, t.numFaces()),
		vertVisited: make([]bool, t.numVertices()),
		points:      make([]int32, 0, t.numVertices()),
	}
	if method == traversalPredictionDegree {
		tr.degree = make([]int32, t.numVertices())
	}
	for f := 0; f < t.numFaces(); f++ {
		var ok bool
		if method == traversalPredictionDegree {
			ok = tr.predictionDegree(int32(3 * f))
		} else {
			ok = tr.depthFirst(int32(3 * f))
		}
		if !ok {
			r.failf("attribute traversal reached an invalid corner from face %d", f)
			return nil
		}
	}
	return tr.points
}

func (tr *traversal) startFace(c int32) bool {
	t := tr.t
	nv, pv := t.vertex(next(c)), t.vertex(prev(c))
	if nv < 0 || pv < 0 {
		return false
	}
	if !tr.vertVisited[nv] && !tr.visitVertex(nv, next(c)) {
		return false
	}
	if !tr.vertVisited[pv] && !tr.visitVertex(pv, prev(c)) {
		return false
	}
	return true
}

// depthFirst is the reference's depth-first (edgebreaker order) traversal.
func (tr *traversal) depthFirst(c int32) bool {
	if tr.faceDone(c) {
		return true
	}
	t := tr.t
	tr.stack = append(tr.stack[:0], c)
	if !tr.startFace(c) {
		return false
	}
	for len(tr.stack) > 0 {
		c = tr.stack[len(tr.stack)-1]
		if tr.faceDone(c) {
			tr.stack = tr.stack[:len(tr.stack)-1]
			continue
		}
		for {
			tr.faceVisited[c/3] = true
			v := t.vertex(c)
			if v < 0 {
				return false
			}
			if !tr.vertVisited[v] {
				boundary := t.onBoundary(v)
				if !tr.visitVertex(v, c) {
					return false
				}
				if !boundary {
					c = t.rightCorner(c)
					if c < 0 {
						return false
					}
					continue
				}
			}
			right, left := t.rightCorner(c), t.leftCorner(c)
			if tr.faceDone(right) {
				if tr.faceDone(left) {
					tr.stack = tr.stack[:len(tr.stack)-1]
					break
				}
				c = left
			} else {
				if tr.faceDone(left) {
					c = right
				} else {
					tr.stack[len(tr.stack)-1] = left
					tr.stack = append(tr.stack, right)
					break
				}
			}
		}
	}
	return true
}

// predictionDegree is the reference's prediction-degree traversal: faces
// whose tip vertex is already predicted from more sides go first.
func (tr *traversal) predictionDegree(c int32) bool {
	if len(tr.degree) == 0 {
		return true
	}
	t := tr.t
	tr.buckets[0] = append(tr.buckets[0], c)
	tr.best = 0
	if !tr.startFace(c) {
		return false
	}
	if tip := t.vertex(c); tip < 0 {
		return false
	} else if !tr.vertVisited[tip] && !tr.visitVertex(tip, c) {
		return false
	}
	for {
		c = tr.popCorner()
		if c < 0 {
			return true
		}
		if tr.faceVisited[c/3] {
			continue
		}
		for {
			tr.faceVisited[c/3] = true
			v := t.vertex(c)
			if v < 0 {
				return false
			}
			if !tr.vertVisited[v] && !tr.visitVertex(v, c) {
				return false
			}
			right, left := t.rightCorner(c), t.leftCorner(c)
			rightDone, leftDone := tr.faceDone(right), tr.faceDone(left)
			if !leftDone {
				p := tr.priority(left)
				if rightDone && p <= tr.best {
					c = left
					continue
				}
				tr.push(left, p)
			}
			if !rightDone {
				p := tr.priority(right)
				if p <= tr.best {
					c = right
					continue
				}
				tr.push(right, p)
			}
			break
		}
	}
}

func (tr *traversal) popCorner() int32 {
	for i := tr.best; i < len(tr.buckets); i++ {
		if b := tr.buckets[i]; len(b) > 0 {
			c := b[len(b)-1]
			tr.buckets[i] = b[:len(b)-1]
			tr.best = i
			return c
		}
	}
	return -1
}

func (tr *traversal) push(c int32, p int) {
	tr.buckets[p] = append(tr.buckets[p], c)
	if p < tr.best {
		tr.best = p
	}
}

// priority is 0 for a visited tip vertex, 1 once it is predicted from more
// than one face, 2 otherwise.
func (tr *traversal) priority(c int32) int {
	v := tr.t.vertex(c)
	if v < 0 || tr.vertVisited[v] {
		return 0
	}
	tr.degree[v]++
	if tr.degree[v] > 1 {
		return 1
	}
	return 2
}
