package draco

// Edgebreaker connectivity (spec "Edgebreaker decoding"): the symbols of an
// edgebreaker traversal are decoded in reverse ("Spirale Reversi"), growing
// a corner table face by face; topology split events reconnect the faces an
// S symbol split apart; start faces close each component; then the seams of
// attributes with their own connectivity are read per edge, and corners are
// grouped into points.

const (
	symC = 0
	symS = 1
	symL = 3
	symR = 5
	symE = 7

	traversalStandard   = 0
	traversalPredictive = 1
	traversalValence    = 2

	minValence = 2
	maxValence = 7
)

// valenceSymbols maps the valence coder's symbol ids to topology symbols.
var valenceSymbols = [5]uint32{symC, symS, symL, symR, symE}

type splitEvent struct {
	source, split int32
	edge          uint32 // 0: left face edge, 1: right
}

type edgebreaker struct {
	ct       *cornerTable
	attrData []attrConn
	posEnc   encodingData
	isHole   []bool
	maxVerts int

	// traversal symbol sources
	kind        uint8 // traversalStandard or traversalValence
	symbolBits  *bitReader
	startFaces  bitDecoder
	seamDec     []bitDecoder
	valences    []int32
	lastSymbol  uint32
	context     int
	ctxSymbols  [][]uint32
	ctxCounters []int
}

func (d *decoder) decodeEdgebreaker(r *reader) {
	kind := r.u8()
	if r.err != nil {
		return
	}
	switch kind {
	case traversalStandard, traversalValence:
	case traversalPredictive:
		// As in the reference decoder of glTF pipelines, which dropped it.
		r.failf("the deprecated predictive edgebreaker traversal is not supported")
		return
	default:
		r.failf("unknown edgebreaker traversal %d", kind)
		return
	}
	eb := &edgebreaker{kind: kind, context: -1}
	numEncodedVerts := r.uvar32()
	numFaces := r.uvar32()
	numAttrData := int(r.u8())
	numSymbols := r.uvar32()
	numSplitSymbols := r.uvar32()
	if r.err != nil {
		return
	}
	if uint64(numFaces) > (1<<31-1)/3 {
		r.failf("%d faces declared, more than Draco can index", numFaces)
		return
	}
	if numSymbols > numFaces {
		r.failf("%d edgebreaker symbols for %d faces", numSymbols, numFaces)
		return
	}
	if uint64(numEncodedVerts) > 3*uint64(numFaces) || numSplitSymbols > numFaces {
		r.failf("%d vertices and %d split symbols declared for %d faces", numEncodedVerts, numSplitSymbols, numFaces)
		return
	}
	if !d.checkCounts(r, uint64(numFaces), 0) {
		return
	}
	nf := int(numFaces)
	eb.maxVerts = int(numEncodedVerts + numSplitSymbols)
	ct := &cornerTable{c2v: make([]int32, 3*nf), opp: make([]int32, 3*nf), left: make([]int32, 0, eb.maxVerts)}
	for i := range ct.c2v {
		ct.c2v[i] = -1
		ct.opp[i] = -1
	}
	eb.ct = ct
	eb.isHole = make([]bool, eb.maxVerts)
	for i := range eb.isHole {
		eb.isHole[i] = true
	}
	eb.attrData = make([]attrConn, numAttrData)
	for i := range eb.attrData {
		eb.attrData[i].decoder = -1
		eb.attrData[i].connUsed = true
	}

	r.section = "edgebreaker topology split events"
	splits := decodeSplitEvents(r, nf)
	if r.err != nil {
		return
	}

	r.section = "edgebreaker traversal"
	if !eb.startTraversal(d, r, int(numSymbols)) {
		return
	}
	r.section = "edgebreaker connectivity"
	numVerts := eb.decodeSymbols(r, int(numSymbols), splits)
	if r.err != nil {
		return
	}
	r.section = "edgebreaker attribute seams"
	if len(eb.attrData) > 0 {
		for c := int32(0); c < int32(len(ct.c2v)); c += 3 {
			eb.decodeSeamsOnFace(c)
		}
	}
	for i := range eb.attrData {
		a := &eb.attrData[i]
		var ok bool
		if a.table, a.vertOnSeam, ok = attributeTable(ct, a.seams); !ok {
			r.failf("vertex fans of the decoded connectivity do not close")
			return
		}
	}
	eb.posEnc.init(ct.numVertices())
	for i := range eb.attrData {
		a := &eb.attrData[i]
		n := a.table.numVertices()
		if n < ct.numVertices() {
			n = ct.numVertices()
		}
		a.enc.init(n)
	}
	r.section = "edgebreaker point assignment"
	d.eb = eb
	eb.assignPoints(d, r, numVerts)
}

func decodeSplitEvents(r *reader, numFaces int) []splitEvent {
	n := r.uvar32()
	if r.err != nil {
		return nil
	}
	if uint64(n) > uint64(numFaces) {
		r.failf("%d topology splits for %d faces", n, numFaces)
		return nil
	}
	var splits []splitEvent
	if n > 0 {
		if uint64(n) > uint64(r.remaining()) {
			r.failf("%d topology splits declared, %d bytes left", n, r.remaining())
			return nil
		}
		splits = make([]splitEvent, n)
		last := int64(0)
		for i := range splits {
			src := int64(r.uvar32()) + last
			delta := int64(r.uvar32())
			if r.err != nil {
				return nil
			}
			if delta > src || src > 1<<31-1 {
				r.failf("topology split %d: split symbol before symbol 0", i)
				return nil
			}
			splits[i] = splitEvent{source: int32(src), split: int32(src - delta)}
			last = src
		}
		br, _ := r.startBits(false)
		for i := range splits {
			splits[i].edge = br.bits(1)
		}
		r.endBits(br)
	}
	return splits
}

// startTraversal reads the traversal symbols (or, for valence coding, the
// per-context symbol arrays), the start-face bits and the seam bit decoders.
func (eb *edgebreaker) startTraversal(d *decoder, r *reader, numSymbols int) bool {
	if eb.kind != traversalValence {
		if eb.symbolBits = r.sizedBits("traversal"); eb.symbolBits == nil {
			return false
		}
	}
	if !eb.startFaces.start(r) {
		return false
	}
	eb.seamDec = make([]bitDecoder, len(eb.attrData))
	for i := range eb.seamDec {
		if !eb.seamDec[i].start(r) {
			return false
		}
	}
	if eb.kind == traversalStandard {
		return true
	}
	eb.valences = make([]int32, eb.maxVerts)
	n := maxValence - minValence + 1
	eb.ctxSymbols = make([][]uint32, n)
	eb.ctxCounters = make([]int, n)
	total := 0
	for i := 0; i < n; i++ {
		k := r.uvar32()
		if r.err != nil {
			return false
		}
		if uint64(k) > uint64(numSymbols-total) {
			r.failf("valence context %d holds %d symbols, more than the %d declared", i, k, numSymbols)
			return false
		}
		total += int(k)
		if k > 0 {
			eb.ctxSymbols[i] = make([]uint32, k)
			if !d.decodeSymbols(r, eb.ctxSymbols[i], 1) {
				return false
			}
			eb.ctxCounters[i] = int(k)
		}
	}
	return true
}

// nextSymbol returns the next topology symbol, or 0xff when none is left.
func (eb *edgebreaker) nextSymbol(r *reader) uint32 {
	if eb.kind == traversalValence {
		if eb.context >= 0 {
			eb.ctxCounters[eb.context]--
			k := eb.ctxCounters[eb.context]
			if k < 0 {
				return 0xff
			}
			id := eb.ctxSymbols[eb.context][k]
			if id >= uint32(len(valenceSymbols)) {
				return 0xff
			}
			eb.lastSymbol = valenceSymbols[id]
		} else {
			eb.lastSymbol = symE // the first symbol
		}
		return eb.lastSymbol
	}
	return eb.bitSymbol()
}

func (eb *edgebreaker) bitSymbol() uint32 {
	s := eb.symbolBits.bits(1)
	if s == symC {
		return s
	}
	return s | eb.symbolBits.bits(2)<<1
}

// activeCorner updates vertex valences after a symbol and picks the context
// of the next one (valence coding only).
func (eb *edgebreaker) activeCorner(c int32) {
	if eb.kind == traversalStandard {
		return
	}
	ct := eb.ct
	v, vn, vp := ct.vertex(c), ct.vertex(next(c)), ct.vertex(prev(c))
	switch eb.lastSymbol {
	case symC, symS:
		eb.valences[vn]++
		eb.valences[vp]++
	case symR:
		eb.valences[v]++
		eb.valences[vn]++
		eb.valences[vp] += 2
	case symL:
		eb.valences[v]++
		eb.valences[vn] += 2
		eb.valences[vp]++
	case symE:
		eb.valences[v] += 2
		eb.valences[vn] += 2
		eb.valences[vp] += 2
	}
	val := int(eb.valences[vn])
	if val < minValence {
		val = minValence
	}
	if val > maxValence {
		val = maxValence
	}
	eb.context = val - minValence
}

func (eb *edgebreaker) newVertex(r *reader) int32 {
	if eb.ct.numVertices() >= eb.maxVerts {
		r.failf("more vertices than the %d declared", eb.maxVerts)
		return -1
	}
	return eb.ct.addVertex()
}

// decodeSymbols rebuilds the corner table from the traversal symbols and
// returns the number of vertices in use.
func (eb *edgebreaker) decodeSymbols(r *reader, numSymbols int, splits []splitEvent) int {
	ct := eb.ct
	numCorners := int32(len(ct.c2v))
	var stack []int32
	splitCorners := map[int32]int32{}
	var invalidVerts []int32
	removeInvalid := len(eb.attrData) == 0
	numFaces := 0
	// Merging vertices walks their fans; in valid streams these walks add
	// up to a few times the corners, far below this bound.
	mergeBudget := 64*int(numCorners) + 1<<16
	for id := 0; id < numSymbols; id++ {
		face := int32(numFaces)
		numFaces++
		corner := 3 * face
		checkSplit := false
		sym := eb.nextSymbol(r)
		switch sym {
		case symC:
			if len(stack) == 0 {
				r.failf("symbol %d (C) with no active edge", id)
				return 0
			}
			a := stack[len(stack)-1]
			x := ct.vertex(next(a))
			b := next(ct.leftMost(x))
			if b < 0 {
				r.failf("symbol %d (C) reaches an open vertex", id)
				return 0
			}
			ct.setOpposite(a, corner+1)
			ct.setOpposite(b, corner+2)
			ct.c2v[corner] = x
			ct.c2v[corner+1] = ct.vertex(next(b))
			ap := ct.vertex(prev(a))
			ct.c2v[corner+2] = ap
			ct.left[ap] = corner + 2
			eb.isHole[x] = false
			stack[len(stack)-1] = corner
		case symR, symL:
			if len(stack) == 0 {
				r.failf("symbol %d with no active edge", id)
				return 0
			}
			a := stack[len(stack)-1]
			var opp, cl, cr int32
			if sym == symR {
				opp, cl, cr = corner+2, corner+1, corner
			} else {
				opp, cl, cr = corner+1, corner, corner+2
			}
			ct.setOpposite(opp, a)
			nv := eb.newVertex(r)
			if nv < 0 {
				return 0
			}
			ct.c2v[opp] = nv
			ct.left[nv] = opp
			vr := ct.vertex(prev(a))
			ct.c2v[cr] = vr
			ct.left[vr] = cr
			ct.c2v[cl] = ct.vertex(next(a))
			stack[len(stack)-1] = corner
			checkSplit = true
		case symS:
			if len(stack) == 0 {
				r.failf("symbol %d (S) with no active edge", id)
				return 0
			}
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c, ok := splitCorners[int32(id)]; ok {
				stack = append(stack, c)
			}
			if len(stack) == 0 {
				r.failf("symbol %d (S) with one active edge", id)
				return 0
			}
			a := stack[len(stack)-1]
			ct.setOpposite(a, corner+2)
			ct.setOpposite(b, corner+1)
			vp := ct.vertex(prev(a))
			ct.c2v[corner] = vp
			ct.c2v[corner+1] = ct.vertex(next(a))
			bp := ct.vertex(prev(b))
			ct.c2v[corner+2] = bp
			ct.left[bp] = corner + 2
			cn := next(b)
			vn := ct.vertex(cn)
			if vp < 0 || vn < 0 {
				r.failf("symbol %d (S) joins an unset vertex", id)
				return 0
			}
			if eb.valences != nil {
				eb.valences[vp] += eb.valences[vn]
			}
			ct.left[vp] = ct.left[vn]
			for cn >= 0 {
				if mergeBudget--; mergeBudget < 0 {
					r.failf("symbol %d (S): vertex fans do not close", id)
					return 0
				}
				ct.c2v[cn] = vp
				cn = ct.swingLeft(cn)
			}
			ct.left[vn] = -1
			if removeInvalid {
				invalidVerts = append(invalidVerts, vn)
			}
			stack[len(stack)-1] = corner
		case symE:
			v0 := eb.newVertex(r)
			v1 := eb.newVertex(r)
			v2 := eb.newVertex(r)
			if r.err != nil {
				return 0
			}
			ct.c2v[corner], ct.c2v[corner+1], ct.c2v[corner+2] = v0, v1, v2
			ct.left[v0], ct.left[v1], ct.left[v2] = corner, corner+1, corner+2
			stack = append(stack, corner)
			checkSplit = true
		default:
			r.failf("invalid edgebreaker symbol at symbol %d", id)
			return 0
		}
		eb.activeCorner(stack[len(stack)-1])
		if checkSplit {
			encID := int32(numSymbols - id - 1)
			for len(splits) > 0 {
				ev := splits[len(splits)-1]
				if ev.source > encID {
					r.failf("topology split source symbol %d was skipped", ev.source)
					return 0
				}
				if ev.source != encID {
					break
				}
				splits = splits[:len(splits)-1]
				top := stack[len(stack)-1]
				var nc int32
				if ev.edge == 1 {
					nc = next(top)
				} else {
					nc = prev(top)
				}
				splitCorners[int32(numSymbols)-ev.split-1] = nc
			}
		}
	}
	if ct.numVertices() > eb.maxVerts {
		r.failf("more vertices than the %d declared", eb.maxVerts)
		return 0
	}
	// Start faces close each component.
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if interior := eb.startFaces.bit(); !interior {
			continue
		}
		if numFaces >= ct.numFaces() {
			r.failf("more faces than the %d declared", ct.numFaces())
			return 0
		}
		vn := ct.vertex(next(c))
		b := next(ct.leftMost(vn))
		vx := ct.vertex(next(b))
		cc := next(ct.leftMost(vx))
		vp := ct.vertex(next(cc))
		if b < 0 || cc < 0 || vp < 0 {
			r.failf("interior start face reaches an open vertex")
			return 0
		}
		nc := int32(3 * numFaces)
		numFaces++
		ct.setOpposite(nc, c)
		ct.setOpposite(nc+1, b)
		ct.setOpposite(nc+2, cc)
		ct.c2v[nc], ct.c2v[nc+1], ct.c2v[nc+2] = vx, vp, vn
		eb.isHole[vx], eb.isHole[vp], eb.isHole[vn] = false, false, false
	}
	if numFaces != ct.numFaces() {
		r.failf("%d faces decoded, %d declared", numFaces, ct.numFaces())
		return 0
	}
	numVerts := ct.numVertices()
	budget := 2*int(numCorners) + 64
	for _, inv := range invalidVerts {
		src := int32(numVerts - 1)
		for src >= 0 && ct.left[src] < 0 {
			numVerts--
			src = int32(numVerts - 1)
		}
		if src < inv {
			continue
		}
		if !ct.around(ct.leftMost(src), &budget, func(c int32) { ct.c2v[c] = inv }) {
			r.failf("vertex %d: corner fan does not end", src)
			return 0
		}
		ct.left[inv] = ct.left[src]
		ct.left[src] = -1
		eb.isHole[inv] = eb.isHole[src]
		eb.isHole[src] = false
		numVerts--
	}
	return numVerts
}
