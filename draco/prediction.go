package draco

// Prediction schemes (spec "Prediction schemes"): each predicts a value from
// values decoded before it (in traversal order) and the connectivity, and
// the transform adds the stored correction. Values are decoded in place:
// data holds corrections at and after the current entry and original values
// before it.

const (
	// -1 (undefined), 0 (difference), 2 (multi-parallelogram) and 3
	// (deprecated tex coords) all mean difference coding here.
	predictionNone              = -2
	predictionParallelogram     = 1
	predictionConstrainedMulti  = 4
	predictionTexCoordsPortable = 5
	predictionGeometricNormal   = 6
	numPredictionMethods        = 7

	maxParallelograms = 4
)

type predictor interface {
	// decodeData reads the scheme's data that follows the corrections.
	decodeData(r *reader) bool
	// compute turns corrections into values in place; points gives the
	// point of each entry.
	compute(r *reader, data []int32, nc int, points []int32) bool
	positive() bool
}

// meshData is the connectivity a mesh prediction scheme walks.
type meshData struct {
	t   *cornerTable
	enc *encodingData
}

// deltaPredictor predicts each value from the previous one.
type deltaPredictor struct{ tr transform }

func (p *deltaPredictor) positive() bool            { return p.tr.positive() }
func (p *deltaPredictor) decodeData(r *reader) bool { return p.tr.decodeData(r) }

func (p *deltaPredictor) compute(r *reader, data []int32, nc int, _ []int32) bool {
	zero := make([]int32, nc)
	p.tr.original(zero, data[:nc], data[:nc])
	for i := nc; i+nc <= len(data); i += nc {
		p.tr.original(data[i-nc:i], data[i:i+nc], data[i:i+nc])
	}
	return true
}

// fanBudget bounds the corner steps of walking the fan of every value's
// vertex: the fans of distinct vertices are disjoint, so a valid table needs
// about twice its corners.
func fanBudget(t *cornerTable, entries int) int {
	return 4*len(t.c2v) + 4*entries + 64
}

// startMesh checks that the scheme's values fit the data and decodes the
// first value, predicted as zero; it returns the corner of each value.
func startMesh(r *reader, tr transform, md meshData, data []int32, nc int) ([]int32, bool) {
	d2c := md.enc.dataToCorner
	if len(d2c)*nc > len(data) {
		r.failf("prediction covers %d values, %d decoded", len(d2c)*nc, len(data))
		return nil, false
	}
	if len(d2c) > 0 {
		tr.original(make([]int32, nc), data[:nc], data[:nc])
	}
	return d2c, true
}

// parallelogram computes the parallelogram prediction for entry p across
// the edge facing corner c, if all three vertices are already decoded.
func parallelogram(md meshData, p int, c int32, data []int32, nc int, out []int32) bool {
	o := md.t.opposite(c)
	if o < 0 {
		return false
	}
	v2d := md.enc.vertexToData
	vo, vn, vp := md.t.vertex(o), md.t.vertex(next(o)), md.t.vertex(prev(o))
	if vo < 0 || vn < 0 || vp < 0 {
		return false
	}
	eo, en, ep := int(v2d[vo]), int(v2d[vn]), int(v2d[vp])
	if eo >= p || en >= p || ep >= p {
		return false
	}
	if eo < 0 || en < 0 || ep < 0 {
		return false
	}
	for k := 0; k < nc; k++ {
		out[k] = int32(int64(data[en*nc+k]) + int64(data[ep*nc+k]) - int64(data[eo*nc+k]))
	}
	return true
}

type parallelogramPredictor struct {
	tr transform
	md meshData
}

func (p *parallelogramPredictor) positive() bool            { return p.tr.positive() }
func (p *parallelogramPredictor) decodeData(r *reader) bool { return p.tr.decodeData(r) }

func (p *parallelogramPredictor) compute(r *reader, data []int32, nc int, _ []int32) bool {
	d2c, ok := startMesh(r, p.tr, p.md, data, nc)
	if !ok {
		return false
	}
	pred := make([]int32, nc)
	for i := 1; i < len(d2c); i++ {
		dst := data[i*nc : (i+1)*nc]
		if parallelogram(p.md, i, d2c[i], data, nc, pred) {
			p.tr.original(pred, dst, dst)
		} else {
			p.tr.original(data[(i-1)*nc:i*nc], dst, dst)
		}
	}
	return true
}

type constrainedMultiPredictor struct {
	tr      transform
	md      meshData
	creases [maxParallelograms][]bool
}

func (p *constrainedMultiPredictor) positive() bool { return p.tr.positive() }

func (p *constrainedMultiPredictor) decodeData(r *reader) bool {
	for i := range p.creases {
		n := r.uvar32()
		if r.err != nil {
			return false
		}
		if uint64(n) > uint64(len(p.md.t.c2v)) {
			r.failf("%d crease flags for %d corners", n, len(p.md.t.c2v))
			return false
		}
		if n == 0 {
			continue
		}
		var bd bitDecoder
		if !bd.start(r) {
			return false
		}
		p.creases[i] = make([]bool, n)
		for j := range p.creases[i] {
			p.creases[i][j] = bd.bit()
		}
	}
	return p.tr.decodeData(r)
}

func (p *constrainedMultiPredictor) compute(r *reader, data []int32, nc int, _ []int32) bool {
	var preds [maxParallelograms][]int32
	for i := range preds {
		preds[i] = make([]int32, nc)
	}
	multi := make([]int32, nc)
	var pos [maxParallelograms]int
	d2c, ok := startMesh(r, p.tr, p.md, data, nc)
	if !ok {
		return false
	}
	t := p.md.t
	budget := fanBudget(t, len(d2c))
	for i := 1; i < len(d2c); i++ {
		start := d2c[i]
		c := start
		n := 0
		firstPass := true
		for c >= 0 {
			if budget--; budget < 0 {
				r.failf("constrained multi-parallelogram prediction: vertex fans do not close")
				return false
			}
			if parallelogram(p.md, i, c, data, nc, preds[n]) {
				n++
				if n == maxParallelograms {
					break
				}
			}
			if firstPass {
				c = t.swingLeft(c)
			} else {
				c = t.swingRight(c)
			}
			if c == start {
				break
			}
			if c < 0 && firstPass {
				firstPass = false
				c = t.swingRight(start)
			}
		}
		used := int32(0)
		if n > 0 {
			for k := range multi {
				multi[k] = 0
			}
			ctx := n - 1
			for j := 0; j < n; j++ {
				if pos[ctx] >= len(p.creases[ctx]) {
					r.failf("constrained multi-parallelogram: crease flags of context %d run out", ctx)
					return false
				}
				crease := p.creases[ctx][pos[ctx]]
				pos[ctx]++
				if !crease {
					used++
					for k := range multi {
						multi[k] = int32(uint32(multi[k]) + uint32(preds[j][k]))
					}
				}
			}
		}
		dst := data[i*nc : (i+1)*nc]
		if used == 0 {
			p.tr.original(data[(i-1)*nc:i*nc], dst, dst)
			continue
		}
		for k := range multi {
			multi[k] /= used
		}
		p.tr.original(multi, dst, dst)
	}
	return true
}

// positions gives a mesh prediction scheme the decoded integer positions.
type positions struct {
	values   []int32
	pointMap []int32 // nil: identity
}

func (ps *positions) at(point int32) (x, y, z int64, ok bool) {
	e := point
	if ps.pointMap != nil {
		if int(point) >= len(ps.pointMap) {
			return 0, 0, 0, false
		}
		e = ps.pointMap[point]
	}
	if e < 0 || int(e)*3+2 >= len(ps.values) {
		return 0, 0, 0, false
	}
	return int64(ps.values[3*e]), int64(ps.values[3*e+1]), int64(ps.values[3*e+2]), true
}

// texCoordsPredictor predicts UVs from the triangle's positions and the UVs
// already decoded on its other two corners.
type texCoordsPredictor struct {
	tr           transform
	md           meshData
	pos          positions
	orientations []bool
}

func (p *texCoordsPredictor) positive() bool { return p.tr.positive() }

func (p *texCoordsPredictor) decodeData(r *reader) bool {
	n := int32(r.u32())
	if r.err != nil {
		return false
	}
	if n < 0 || int(n) > len(p.md.t.c2v) {
		r.failf("%d UV orientations for %d corners", n, len(p.md.t.c2v))
		return false
	}
	p.orientations = make([]bool, n)
	var bd bitDecoder
	if !bd.start(r) {
		return false
	}
	last := true
	for i := range p.orientations {
		if !bd.bit() {
			last = !last
		}
		p.orientations[i] = last
	}
	return p.tr.decodeData(r)
}

func (p *texCoordsPredictor) compute(r *reader, data []int32, nc int, points []int32) bool {
	if nc != 2 {
		r.failf("tex-coords prediction of %d components, 2 expected", nc)
		return false
	}
	d2c := p.md.enc.dataToCorner
	if len(d2c)*nc > len(data) || len(d2c) > len(points) {
		r.failf("prediction covers %d values, %d decoded", len(d2c)*nc, len(data))
		return false
	}
	var pred [2]int32
	for i := range d2c {
		if !p.predict(r, d2c[i], data, i, points, &pred) {
			return false
		}
		dst := data[i*2 : i*2+2]
		p.tr.original(pred[:], dst, dst)
	}
	return true
}

func (p *texCoordsPredictor) predict(r *reader, c int32, data []int32, id int, points []int32, out *[2]int32) bool {
	t := p.md.t
	v2d := p.md.enc.vertexToData
	vn, vp := t.vertex(next(c)), t.vertex(prev(c))
	if vn < 0 || vp < 0 {
		r.failf("tex-coords prediction at an unset corner")
		return false
	}
	nid, pid := int(v2d[vn]), int(v2d[vp])
	if pid < id && nid < id && pid >= 0 && nid >= 0 {
		nu, nv := int64(data[2*nid]), int64(data[2*nid+1])
		pu, pv := int64(data[2*pid]), int64(data[2*pid+1])
		if nu == pu && nv == pv {
			out[0], out[1] = int32(pu), int32(pv)
			return true
		}
		tx, ty, tz, ok1 := p.pos.at(points[id])
		nx, ny, nz, ok2 := p.pos.at(points[nid])
		px, py, pz, ok3 := p.pos.at(points[pid])
		if !ok1 || !ok2 || !ok3 {
			r.failf("tex-coords prediction: point without a position")
			return false
		}
		pnx, pny, pnz := px-nx, py-ny, pz-nz
		pnNorm2 := uint64(pnx*pnx + pny*pny + pnz*pnz)
		if pnNorm2 != 0 {
			cnx, cny, cnz := tx-nx, ty-ny, tz-nz
			dot := pnx*cnx + pny*cny + pnz*cnz
			pnu, pnv := pu-nu, pv-nv
			n2 := int64(pnNorm2)
			xu := nu*n2 + dot*pnu
			xv := nv*n2 + dot*pnv
			xpx := nx + dot*pnx/n2
			xpy := ny + dot*pny/n2
			xpz := nz + dot*pnz/n2
			dx, dy, dz := tx-xpx, ty-xpy, tz-xpz
			cxNorm2 := uint64(dx*dx + dy*dy + dz*dz)
			norm := int64(intSqrt(cxNorm2 * pnNorm2))
			cxu, cxv := pnv*norm, -pnu*norm
			if len(p.orientations) == 0 {
				r.failf("tex-coords prediction: UV orientations run out")
				return false
			}
			o := p.orientations[len(p.orientations)-1]
			p.orientations = p.orientations[:len(p.orientations)-1]
			var u, v int64
			if o {
				u, v = (xu+cxu)/n2, (xv+cxv)/n2
			} else {
				u, v = (xu-cxu)/n2, (xv-cxv)/n2
			}
			out[0], out[1] = int32(u), int32(v)
			return true
		}
	}
	off := 0
	if pid < id {
		off = pid * 2
	}
	if nid < id {
		off = nid * 2
	} else if id > 0 {
		off = (id - 1) * 2
	} else {
		out[0], out[1] = 0, 0
		return true
	}
	if off < 0 {
		r.failf("tex-coords prediction from an unvisited vertex")
		return false
	}
	out[0], out[1] = data[off], data[off+1]
	return true
}

// intSqrt is the floor of the square root, by the reference's Newton steps.
func intSqrt(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	act, root := n, uint64(1)
	for act >= 2 {
		root *= 2
		act /= 4
	}
	for {
		root = (root + n/root) / 2
		if root*root <= n {
			return root
		}
	}
}

// geometricNormalPredictor predicts a normal from the area-weighted normals
// of the faces around its vertex, with a flip bit per value.
type geometricNormalPredictor struct {
	tr    *octTransform
	md    meshData
	pos   positions
	flips bitDecoder
}

func (p *geometricNormalPredictor) positive() bool { return p.tr.positive() }

func (p *geometricNormalPredictor) decodeData(r *reader) bool {
	if !p.tr.decodeData(r) {
		return false
	}
	return p.flips.start(r)
}

func (p *geometricNormalPredictor) posAtCorner(c int32, points []int32) (x, y, z int64, ok bool) {
	v := p.md.t.vertex(c)
	if v < 0 {
		return 0, 0, 0, false
	}
	id := p.md.enc.vertexToData[v]
	if id < 0 || int(id) >= len(points) {
		return 0, 0, 0, false
	}
	return p.pos.at(points[id])
}

func (p *geometricNormalPredictor) compute(r *reader, data []int32, nc int, points []int32) bool {
	if nc != 2 {
		r.failf("geometric normal prediction of %d components, 2 expected", nc)
		return false
	}
	d2c := p.md.enc.dataToCorner
	if len(d2c)*2 > len(data) {
		r.failf("prediction covers %d values, %d decoded", len(d2c)*2, len(data))
		return false
	}
	t := p.md.t
	budget := fanBudget(t, len(d2c))
	oc := &p.tr.octahedron
	var pred [2]int32
	for i, c := range d2c {
		cx, cy, cz, ok := p.posAtCorner(c, points)
		if !ok {
			r.failf("geometric normal prediction: corner without a position")
			return false
		}
		// Sum the (area-weighted) normals of the faces around the vertex.
		var sx, sy, sz int64
		missing := false
		if !t.around(c, &budget, func(k int32) {
			nx, ny, nz, ok1 := p.posAtCorner(next(k), points)
			px, py, pz, ok2 := p.posAtCorner(prev(k), points)
			missing = missing || !ok1 || !ok2
			ax, ay, az := nx-cx, ny-cy, nz-cz
			bx, by, bz := px-cx, py-cy, pz-cz
			sx += ay*bz - az*by
			sy += az*bx - ax*bz
			sz += ax*by - ay*bx
		}) {
			r.failf("geometric normal prediction: vertex fans do not close")
			return false
		}
		if missing {
			r.failf("geometric normal prediction: corner without a position")
			return false
		}
		const upper = 1 << 29
		if s := absI64(sx) + absI64(sy) + absI64(sz); s > upper {
			q := s / upper
			sx, sy, sz = sx/q, sy/q, sz/q
		}
		v := [3]int32{int32(sx), int32(sy), int32(sz)}
		oc.canonicalizeVector(&v)
		if p.flips.bit() {
			v = [3]int32{-v[0], -v[1], -v[2]}
		}
		pred[0], pred[1] = oc.vectorToOctahedral(v)
		dst := data[i*2 : i*2+2]
		p.tr.original(pred[:], dst, dst)
	}
	return true
}

func absI64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
