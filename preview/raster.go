package preview

import (
	"image"
	"math"

	"github.com/autocollide/autocollide/geom"
)

// Lighting and colours of the picture (linear [0, 1] values written to
// the PNG as they are).
const (
	meshGrey    = 0.80 // render mesh albedo
	meshAmbient = 0.35 // ambient term of the render mesh
	meshDiffuse = 0.65 // Lambert term of the render mesh
	// Collider fill is tinted by fillMin + (1 − fillMin)·|n·l| so round
	// shapes read as round even through the translucency.
	fillMin = 0.75

	fillAlpha          = 0.38 // collider fill over the mesh or background
	fillBehindAlpha    = 0.18 // collider fill where the mesh is nearer
	outlineAlpha       = 0.95 // collider outline
	outlineBehindAlpha = 0.50
	creaseAlpha        = 0.85 // visible crease edges
	creaseHiddenAlpha  = 0.22 // crease edges behind a surface
	lineDarken         = 0.70 // outlines and creases are the colour × this

	// marginFrac is the empty border around the framed scene, as a
	// fraction of the panel's smaller side; labelHeight (output pixels)
	// is kept free at the top for the view's name.
	marginFrac  = 0.06
	labelHeight = 16

	// Depth tolerance for "on the same surface" tests: depthEpsRel of the
	// scene's largest extent plus depthEpsPixels supersampled pixels of
	// depth slope 1, which covers lines drawn on faces seen at an angle.
	depthEpsRel    = 2e-3
	depthEpsPixels = 4
)

var (
	background = rgb{0.97, 0.97, 0.96}
	separator  = rgb{0.80, 0.80, 0.80}
)

// view is an orthographic camera direction: the scene is seen along
// −back, with right and up spanning the image plane.
type view struct {
	name            string
	right, up, back geom.Vec3
	light           geom.Vec3 // unit vector towards the light
}

func makeView(name string, back geom.Vec3) view {
	back = back.Normalize()
	right := geom.Vec3{0, 1, 0}.Cross(back).Normalize()
	up := back.Cross(right)
	// Light from the viewer's upper left.
	light := right.Scale(-0.35).Add(up.Scale(0.55)).Add(back.Scale(0.76)).Normalize()
	return view{name: name, right: right, up: up, back: back, light: light}
}

// views are front (from +Z), side (from +X) and three-quarter (from the
// front right, 45° around and 30° up).
func views() [3]view {
	el, az := 30*math.Pi/180, 45*math.Pi/180
	return [3]view{
		makeView("front (from +Z)", geom.Vec3{0, 0, 1}),
		makeView("side (from +X)", geom.Vec3{1, 0, 0}),
		makeView("three-quarter", geom.Vec3{math.Cos(el) * math.Sin(az), math.Sin(el), math.Cos(el) * math.Cos(az)}),
	}
}

// camera maps world points to supersampled panel pixels. Depth grows
// away from the viewer and is relative to the scene: centred on it and
// divided by its largest extent, so float32 z-buffers keep their
// precision for assets far from the origin or in odd units.
type camera struct {
	v              view
	scale          float64 // pixels per world unit
	cx, cy, ox, oy float64
	cz, zinv       float64
}

func (c *camera) project(p geom.Vec3) [3]float64 {
	return [3]float64{
		(p.Dot(c.v.right)-c.cx)*c.scale + c.ox,
		c.oy - (p.Dot(c.v.up)-c.cy)*c.scale,
		(-p.Dot(c.v.back) - c.cz) * c.zinv,
	}
}

// depthEps is the depth tolerance for "on the same surface" tests, in the
// camera's relative depth units (see depthEpsRel).
func (c *camera) depthEps() float32 {
	return float32(depthEpsRel + depthEpsPixels/c.scale*c.zinv)
}

// frameCamera fits everything that counts toward framing into the panel
// area (x0, y0)–(x1, y1), in supersampled pixels.
func frameCamera(sc *scene, v view, x0, y0, x1, y1 float64) camera {
	minX, minY, minZ := math.Inf(1), math.Inf(1), math.Inf(1)
	maxX, maxY, maxZ := math.Inf(-1), math.Inf(-1), math.Inf(-1)
	add := func(p geom.Vec3) {
		x, y, z := p.Dot(v.right), p.Dot(v.up), -p.Dot(v.back)
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		minZ, maxZ = math.Min(minZ, z), math.Max(maxZ, z)
	}
	for _, p := range sc.render {
		for _, q := range p.verts {
			add(q)
		}
	}
	for _, c := range sc.colliders {
		if c.frame {
			for _, q := range c.solid.verts {
				add(q)
			}
		}
	}
	if minX > maxX { // only unbounded planes
		minX, maxX, minY, maxY, minZ, maxZ = -1, 1, -1, 1, -1, 1
	}
	ext := math.Max(maxX-minX, maxY-minY)
	if !(ext > 0) || math.IsInf(ext, 0) {
		ext = 1
	}
	wx, wy := math.Max(maxX-minX, ext*1e-3), math.Max(maxY-minY, ext*1e-3)
	scale := math.Min((x1-x0)/wx, (y1-y0)/wy)
	zext := math.Max(ext, maxZ-minZ)
	if math.IsInf(zext, 0) {
		zext = 1
	}
	return camera{v: v, scale: scale, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, ox: (x0 + x1) / 2, oy: (y0 + y1) / 2,
		cz: (minZ + maxZ) / 2, zinv: 1 / zext}
}

// panel holds the supersampled buffers of one view.
type panel struct {
	w, h      int
	meshZ     []float32
	meshShade []float32
	colZ      []float32
	colShade  []float32
	colID     []int32
	lineA     []float32 // strongest crease alpha per pixel
	lineID    []int32
	rgb       []float32 // 3 per pixel
}

func (p *panel) reset(w, h int) {
	n := w * h
	if cap(p.meshZ) < n {
		*p = panel{
			meshZ: make([]float32, n), meshShade: make([]float32, n),
			colZ: make([]float32, n), colShade: make([]float32, n), colID: make([]int32, n),
			lineA: make([]float32, n), lineID: make([]int32, n), rgb: make([]float32, 3*n),
		}
	}
	p.w, p.h = w, h
	p.meshZ, p.meshShade = p.meshZ[:n], p.meshShade[:n]
	p.colZ, p.colShade, p.colID = p.colZ[:n], p.colShade[:n], p.colID[:n]
	p.lineA, p.lineID, p.rgb = p.lineA[:n], p.lineID[:n], p.rgb[:3*n]
	inf := float32(math.Inf(1))
	for i := range n {
		p.meshZ[i], p.colZ[i] = inf, inf
		p.colID[i], p.lineID[i] = -1, -1
		p.lineA[i] = 0
	}
}

// fillTri rasterizes a screen triangle into a z-buffer: every pixel whose
// centre lies inside (edges included) and whose depth is strictly nearer
// takes shade (and id, when ids is not nil).
func fillTri(w, h int, zs, shades []float32, ids []int32, a, b, c [3]float64, shade float32, id int32) {
	area := (b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1])
	if area == 0 || math.IsNaN(area) {
		return
	}
	if area < 0 {
		b, c = c, b
		area = -area
	}
	minX := max(0, int(math.Floor(min(a[0], b[0], c[0]))))
	maxX := min(w-1, int(math.Ceil(max(a[0], b[0], c[0]))))
	minY := max(0, int(math.Floor(min(a[1], b[1], c[1]))))
	maxY := min(h-1, int(math.Ceil(max(a[1], b[1], c[1]))))
	if minX > maxX || minY > maxY {
		return
	}
	inv := 1 / area
	// Edge functions e(p) = A·x + B·y + C, non-negative inside.
	a0, b0 := b[1]-c[1], c[0]-b[0] // opposite a
	a1, b1 := c[1]-a[1], a[0]-c[0] // opposite b
	a2, b2 := a[1]-b[1], b[0]-a[0] // opposite c
	c0 := -(a0*b[0] + b0*b[1])
	c1 := -(a1*c[0] + b1*c[1])
	c2 := -(a2*a[0] + b2*a[1])
	for y := minY; y <= maxY; y++ {
		py := float64(y) + 0.5
		px := float64(minX) + 0.5
		e0 := a0*px + b0*py + c0
		e1 := a1*px + b1*py + c1
		e2 := a2*px + b2*py + c2
		row := y * w
		for x := minX; x <= maxX; x++ {
			if e0 >= 0 && e1 >= 0 && e2 >= 0 {
				z := float32((e0*a[2] + e1*b[2] + e2*c[2]) * inv)
				i := row + x
				if z < zs[i] {
					zs[i] = z
					shades[i] = shade
					if ids != nil {
						ids[i] = id
					}
				}
			}
			e0 += a0
			e1 += a1
			e2 += a2
		}
	}
}

// drawPanel renders one view with camera cam into p and averages it down into dst at
// rect r (output pixels).
func drawPanel(p *panel, sc *scene, cam camera, r image.Rectangle, ss int, dst *image.RGBA) {
	w, h := r.Dx()*ss, r.Dy()*ss
	p.reset(w, h)
	v := cam.v
	zEps := cam.depthEps()

	most := 0
	for _, part := range sc.render {
		most = max(most, len(part.verts))
	}
	for _, c := range sc.colliders {
		most = max(most, len(c.solid.verts))
	}
	proj := make([][3]float64, 0, most)
	projectAll := func(vs []geom.Vec3) {
		proj = proj[:0]
		for _, q := range vs {
			proj = append(proj, cam.project(q))
		}
	}
	for _, part := range sc.render {
		projectAll(part.verts)
		for t, tri := range part.tris {
			shade := float32(meshAmbient + meshDiffuse*math.Abs(part.normals[t].Dot(v.light)))
			fillTri(w, h, p.meshZ, p.meshShade, nil, proj[tri[0]], proj[tri[1]], proj[tri[2]], shade, 0)
		}
	}
	for ci, c := range sc.colliders {
		projectAll(c.solid.verts)
		for t, tri := range c.solid.tris {
			shade := float32(fillMin + (1-fillMin)*math.Abs(c.normals[t].Dot(v.light)))
			fillTri(w, h, p.colZ, p.colShade, p.colID, proj[tri[0]], proj[tri[1]], proj[tri[2]], shade, int32(ci))
		}
	}
	compose(p, sc, zEps)
	for ci, c := range sc.colliders {
		projectAll(c.solid.verts)
		for _, e := range c.creases {
			p.line(proj[e[0]], proj[e[1]], int32(ci), ss, zEps)
		}
	}
	for i := range w * h {
		if id := p.lineID[i]; id >= 0 {
			blend(p.rgb[3*i:3*i+3], darken(sc.colliders[id].color), p.lineA[i])
		}
	}
	p.drawJoints(sc.joints, cam, ss)
	downsample(p, ss, r, dst)
}

func darken(c rgb) rgb { return rgb{c[0] * lineDarken, c[1] * lineDarken, c[2] * lineDarken} }

func blend(dst []float32, c rgb, a float32) {
	for k := range 3 {
		dst[k] += (c[k] - dst[k]) * a
	}
}

// compose writes mesh shading, collider fill and collider outlines.
func compose(p *panel, sc *scene, zEps float32) {
	w, h := p.w, p.h
	for y := range h {
		for x := range w {
			i := y*w + x
			px := p.rgb[3*i : 3*i+3]
			if mz := p.meshZ[i]; !math.IsInf(float64(mz), 1) {
				g := meshGrey * p.meshShade[i]
				px[0], px[1], px[2] = g, g, g
			} else {
				px[0], px[1], px[2] = background[0], background[1], background[2]
			}
			id := p.colID[i]
			if id >= 0 {
				c := sc.colliders[id].color
				s := p.colShade[i]
				a := float32(fillAlpha)
				if p.colZ[i] > p.meshZ[i]+zEps {
					a = fillBehindAlpha
				}
				blend(px, rgb{c[0] * s, c[1] * s, c[2] * s}, a)
			}
			// Outline where the collider id changes between neighbours.
			o, oi := int32(-1), -1
			for _, q := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if q[0] < 0 || q[0] >= w || q[1] < 0 || q[1] >= h {
					continue
				}
				j := q[1]*w + q[0]
				if n := p.colID[j]; n != id {
					if id >= 0 {
						o, oi = id, i
					} else {
						o, oi = n, j
					}
					break
				}
			}
			if o >= 0 {
				a := float32(outlineAlpha)
				if p.colZ[oi] > p.meshZ[i]+zEps {
					a = outlineBehindAlpha
				}
				blend(px, darken(sc.colliders[o].color), a)
			}
		}
	}
}

// line records a crease edge from a to b, ss pixels thick, keeping at
// each pixel the strongest alpha (so overlapping stamps do not pile up).
func (p *panel) line(a, b [3]float64, id int32, ss int, zEps float32) {
	dx, dy := b[0]-a[0], b[1]-a[1]
	n := int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy))))
	if n > 4*(p.w+p.h) { // clip absurdly long lines to a sane step count
		n = 4 * (p.w + p.h)
	}
	if n < 1 {
		n = 1
	}
	half := float64(ss) / 2
	for k := 0; k <= n; k++ {
		t := float64(k) / float64(n)
		x, y, z := a[0]+dx*t, a[1]+dy*t, float32(a[2]+(b[2]-a[2])*t)
		x0, y0 := int(math.Floor(x-half+0.5)), int(math.Floor(y-half+0.5))
		for yy := y0; yy < y0+ss; yy++ {
			if yy < 0 || yy >= p.h {
				continue
			}
			for xx := x0; xx < x0+ss; xx++ {
				if xx < 0 || xx >= p.w {
					continue
				}
				i := yy*p.w + xx
				alpha := float32(creaseHiddenAlpha)
				if z <= p.colZ[i]+zEps && z <= p.meshZ[i]+zEps {
					alpha = creaseAlpha
				}
				if alpha > p.lineA[i] {
					p.lineA[i], p.lineID[i] = alpha, id
				}
			}
		}
	}
}

// downsample averages ss×ss blocks of p into dst at r.
func downsample(p *panel, ss int, r image.Rectangle, dst *image.RGBA) {
	norm := 1 / float32(ss*ss)
	for y := range r.Dy() {
		for x := range r.Dx() {
			var sum [3]float32
			for sy := range ss {
				row := (y*ss + sy) * p.w
				for sx := range ss {
					i := 3 * (row + x*ss + sx)
					sum[0] += p.rgb[i]
					sum[1] += p.rgb[i+1]
					sum[2] += p.rgb[i+2]
				}
			}
			o := dst.PixOffset(r.Min.X+x, r.Min.Y+y)
			dst.Pix[o] = to8(sum[0] * norm)
			dst.Pix[o+1] = to8(sum[1] * norm)
			dst.Pix[o+2] = to8(sum[2] * norm)
			dst.Pix[o+3] = 255
		}
	}
}

func to8(v float32) uint8 {
	switch {
	case !(v > 0):
		return 0
	case v >= 1:
		return 255
	}
	return uint8(v*255 + 0.5)
}
