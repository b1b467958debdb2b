package preview

import (
	"bytes"
	"errors"
	"image"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
)

// boxScene writes a render triangle at x ∈ [−4, −3] and a dynamic body
// with a 2×2×2 box collider centred at (1, 0, 0).
func boxScene(t *testing.T, dir string) string {
	var b builder
	m := b.mesh([][3]float32{{-4, -0.5, 0}, {-3, -0.5, 0}, {-3.5, 0.5, 0}}, []uint16{0, 1, 2})
	nodes := []any{
		map[string]any{"name": "tri", "mesh": m},
		omiBody("body", []float64{1, 0, 0}, map[string]any{"motion": map[string]any{"type": "dynamic"}, "collider": map[string]any{"shape": 0}}),
	}
	exts := map[string]any{"OMI_physics_shape": map[string]any{"shapes": []any{map[string]any{"type": "box", "box": map[string]any{"size": []float64{2, 2, 2}}}}}}
	return b.write(t, dir, "box.gltf", nodes, []int{0, 1}, exts, omiUsed)
}

// outRect projects world points with view k's camera and returns their
// bounding rectangle in output pixels.
func outRect(l layout, k, ss int, pts []geom.Vec3) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		q := l.cams[k].project(p)
		x := q[0]/float64(ss) + float64(l.panels[k].Min.X)
		y := q[1]/float64(ss) + float64(l.panels[k].Min.Y)
		x0, x1 = math.Min(x0, x), math.Max(x1, x)
		y0, y1 = math.Min(y0, y), math.Max(y1, y)
	}
	return
}

func pixel(img *image.RGBA, x, y int) [3]int {
	c := img.RGBAAt(x, y)
	return [3]int{int(c.R), int(c.G), int(c.B)}
}

func near(a, b [3]int, tol int) bool {
	for k := range 3 {
		if d := a[k] - b[k]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

func to8s(c rgb) [3]int { return [3]int{int(to8(c[0])), int(to8(c[1])), int(to8(c[2]))} }

// TestBoxPixels checks, in the front and side views, that the projected
// box's interior carries exactly the box fill blended over the
// background, that a ring just outside it is background, and that the
// render triangle is drawn grey.
func TestBoxPixels(t *testing.T) {
	path := boxScene(t, t.TempDir())
	a, err := gltfio.LoadRaw(path, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := Options{}.withDefaults()
	img, st, err := Render(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bodies != 1 || st.Colliders != 1 || st.ByType["box"] != 1 || st.RenderTriangles != 1 {
		t.Fatalf("stats %+v", st)
	}
	sc, err := buildScene(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	l := layOut(sc, opt)
	ss := opt.Supersample
	var corners []geom.Vec3
	box, _ := shapeSolid(physics.Shape{Type: physics.Box, Size: [3]float64{2, 2, 2}})
	for _, v := range box.verts {
		corners = append(corners, v.Add(geom.Vec3{1, 0, 0}))
	}
	bg := to8s(background)
	for k, name := range []string{"front", "side"} {
		t.Run(name, func(t *testing.T) {
			v := l.cams[k].v
			shade := float32(fillMin + (1-fillMin)*math.Abs(v.back.Dot(v.light)))
			c := colorOf(kind(physics.Box))
			want := background
			blend(want[:], rgb{c[0] * shade, c[1] * shade, c[2] * shade}, fillAlpha)
			x0, y0, x1, y1 := outRect(l, k, ss, corners)
			if x1-x0 < 50 || y1-y0 < 50 {
				t.Fatalf("box projects to %.0f×%.0f px; framing too small", x1-x0, y1-y0)
			}
			const inset, outset = 3, 4
			inside, outside := 0, 0
			for y := int(y0) + inset; y < int(y1)-inset; y += 5 {
				for x := int(x0) + inset; x < int(x1)-inset; x += 5 {
					if got := pixel(img, x, y); !near(got, to8s(want), 1) {
						t.Fatalf("inside (%d,%d): got %v, want box blend %v", x, y, got, to8s(want))
					}
					inside++
				}
			}
			for _, p := range [][2]int{
				{int(x0) - outset, int(y0+y1) / 2}, {int(x1) + outset, int(y0+y1) / 2},
				{int(x0+x1) / 2, int(y0) - outset}, {int(x0+x1) / 2, int(y1) + outset},
			} {
				if !image.Pt(p[0], p[1]).In(l.panels[k]) {
					continue
				}
				if got := pixel(img, p[0], p[1]); got != bg {
					t.Errorf("outside (%d,%d): got %v, want background %v", p[0], p[1], got, bg)
				}
				outside++
			}
			if inside < 20 || outside < 2 {
				t.Fatalf("checked %d inside and %d outside pixels", inside, outside)
			}
		})
	}
	// The triangle faces the front camera: grey, not background.
	tx0, ty0, tx1, ty1 := outRect(l, 0, ss, []geom.Vec3{{-3.5, -0.2, 0}})
	got := pixel(img, int((tx0+tx1)/2), int((ty0+ty1)/2))
	if got[0] != got[1] || got[1] != got[2] || got == bg {
		t.Errorf("triangle pixel %v: want a grey shade", got)
	}
}

func TestEmptyScene(t *testing.T) {
	dir := t.TempDir()
	var b builder
	p := b.write(t, dir, "empty.gltf", []any{map[string]any{"name": "nothing"}}, []int{0}, nil, nil)
	_, _, err := RenderFile(p, Options{})
	if !errors.Is(err, ErrEmpty) {
		t.Fatalf("got %v, want ErrEmpty", err)
	}
	if !strings.Contains(err.Error(), p) {
		t.Errorf("error %q does not name the file", err)
	}
}

func TestBadOptions(t *testing.T) {
	p := boxScene(t, t.TempDir())
	for _, opt := range []Options{{Width: 10}, {Height: MaxSide + 1}, {Supersample: 9}, {Width: -5}} {
		if _, _, err := RenderFile(p, opt); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%+v: got %v, want an error naming the file", opt, err)
		}
	}
}

// TestColliderOnly: a scene with colliders but no triangles is drawn.
func TestColliderOnly(t *testing.T) {
	var b builder
	nodes := []any{omiBody("ball", nil, map[string]any{"collider": map[string]any{"shape": 0}})}
	exts := map[string]any{"OMI_physics_shape": map[string]any{"shapes": []any{map[string]any{"type": "sphere", "sphere": map[string]any{"radius": 0.5}}}}}
	p := b.write(t, t.TempDir(), "ball.gltf", nodes, []int{0}, exts, omiUsed)
	img, st, err := RenderFile(p, Options{Width: 600, Height: 240})
	if err != nil {
		t.Fatal(err)
	}
	if st.Colliders != 1 || st.ByType["sphere"] != 1 || st.RenderTriangles != 0 {
		t.Fatalf("stats %+v", st)
	}
	// The sphere fills the middle of the front view.
	r := img.Bounds()
	c := pixel(img, r.Dx()/6, r.Dy()/2-20)
	if c == to8s(background) || !(c[2] > c[0]) {
		t.Errorf("front view centre %v: want the sphere's blue", c)
	}
}

// TestColours: several convex colliders on one body get distinct hues,
// a lone convex collider the hull colour, triggers the trigger colour.
func TestColours(t *testing.T) {
	var b builder
	p0, i0 := tetra([3]float32{0, 0, 0})
	m0 := b.mesh(p0, i0)
	p1, i1 := tetra([3]float32{2, 0, 0})
	m1 := b.mesh(p1, i1)
	shapes := []any{
		map[string]any{"type": "convex", "convex": map[string]any{"mesh": m0}},
		map[string]any{"type": "convex", "convex": map[string]any{"mesh": m1}},
		map[string]any{"type": "box", "box": map[string]any{"size": []float64{1, 1, 1}}},
		map[string]any{"type": "sphere", "sphere": map[string]any{"radius": 1}},
	}
	col := func(s int) map[string]any { return map[string]any{"collider": map[string]any{"shape": s}} }
	nodes := []any{
		map[string]any{"name": "decomposed", "children": []int{1, 2, 3, 4}, "extensions": map[string]any{"OMI_physics_body": map[string]any{"motion": map[string]any{"type": "dynamic"}}}},
		omiBody("piece0", nil, col(0)),
		omiBody("piece1", nil, col(1)),
		omiBody("box", []float64{0, 3, 0}, col(2)),
		omiBody("zone", []float64{0, -3, 0}, map[string]any{"trigger": map[string]any{"shape": 3}}),
		map[string]any{"name": "single", "translation": []float64{5, 0, 0}, "children": []int{6}, "extensions": map[string]any{"OMI_physics_body": map[string]any{"motion": map[string]any{"type": "dynamic"}}}},
		omiBody("piece", nil, col(0)),
	}
	exts := map[string]any{"OMI_physics_shape": map[string]any{"shapes": shapes}}
	p := b.write(t, t.TempDir(), "colours.gltf", nodes, []int{0, 5}, exts, omiUsed)
	a, err := gltfio.LoadRaw(p, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := buildScene(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	st := sc.stats
	if st.Bodies != 2 || st.Colliders != 4 || st.Triggers != 1 || st.Hulls != 3 || st.HullVertices != 12 {
		t.Fatalf("stats %+v", st)
	}
	if len(sc.colliders) != 5 {
		t.Fatalf("%d colliders drawn, want 5", len(sc.colliders))
	}
	// Node order: piece0, piece1, box, zone, piece.
	c := sc.colliders
	switch {
	case c[0].color == c[1].color:
		t.Errorf("decomposition pieces share colour %v", c[0].color)
	case c[0].color == colorOf(kind(physics.Convex)) || c[1].color == colorOf(kind(physics.Convex)):
		t.Errorf("decomposition pieces use the plain hull colour")
	case c[2].color != colorOf(kind(physics.Box)):
		t.Errorf("box colour %v", c[2].color)
	case c[3].color != triggerColor || c[3].kind != kind(physics.Sphere):
		t.Errorf("trigger sphere drawn as %v in %v", c[3].kind, c[3].color)
	case c[4].color != colorOf(kind(physics.Convex)):
		t.Errorf("lone hull colour %v, want %v", c[4].color, colorOf(kind(physics.Convex)))
	}
	// The lone piece sits under a body translated by (5, 0, 0).
	bb := geom.BoundsOf(c[4].solid.verts)
	if bb.Min != (geom.Vec3{5, 0, 0}) || bb.Max != (geom.Vec3{6, 1, 1}) {
		t.Errorf("lone hull bounds %v", bb)
	}
}

// TestTransforms: a capsule on a node rotated 90° about Z lies along
// world X; its extent follows the written radii and mid-height.
func TestTransforms(t *testing.T) {
	var b builder
	s := math.Sqrt(0.5)
	nodes := []any{map[string]any{"name": "cap", "translation": []float64{0, 2, 0}, "rotation": []float64{0, 0, s, s},
		"extensions": map[string]any{"OMI_physics_body": map[string]any{"collider": map[string]any{"shape": 0}}}}}
	exts := map[string]any{"OMI_physics_shape": map[string]any{"shapes": []any{map[string]any{"type": "capsule", "capsule": map[string]any{"radiusTop": 0.5, "radiusBottom": 0.5, "height": 2}}}}}
	p := b.write(t, t.TempDir(), "capsule.gltf", nodes, []int{0}, exts, omiUsed)
	a, err := gltfio.LoadRaw(p, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := buildScene(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	bb := geom.BoundsOf(sc.colliders[0].solid.verts)
	want := geom.Box{Min: geom.Vec3{-1.5, 1.5, -0.5}, Max: geom.Vec3{1.5, 2.5, 0.5}}
	for k := range 3 {
		if math.Abs(bb.Min[k]-want.Min[k]) > 1e-9 || math.Abs(bb.Max[k]-want.Max[k]) > 1e-9 {
			t.Fatalf("capsule bounds %v, want %v", bb, want)
		}
	}
}

// corpusFile returns a corpus asset's path.
func corpusFile(t testing.TB, rel string) string {
	return filepath.Join(testassets.Shared(t), "corpus", rel)
}

// TestFamiliesAgree: the same colliders written as OMI, KHR (geometry.mesh)
// and KHR (geometry.node) give identical pictures, and rendering twice
// gives identical bytes.
func TestFamiliesAgree(t *testing.T) {
	cases := []struct {
		name, src string
		method    generate.Method
	}{
		{"duck-hull", "Duck/glTF-Binary/Duck.glb", generate.Hull},
		{"boxtextured-aabb", "BoxTextured/glTF-Binary/BoxTextured.glb", generate.AABB},
		{"simplemeshes-hull", "SimpleMeshes/glTF/SimpleMeshes.gltf", generate.Hull},
	}
	opt := Options{Width: 640, Height: 240}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := corpusFile(t, c.src)
			dir := t.TempDir()
			omi := generated(t, src, dir, "omi.glb", generate.Options{Collider: generate.ColliderSettings{Method: c.method}, Encoding: generate.Encoding{Format: physics.OMI}})
			khr := generated(t, src, dir, "khr.gltf", generate.Options{Collider: generate.ColliderSettings{Method: c.method}, Encoding: generate.Encoding{Format: physics.KHR}})
			node := generated(t, src, dir, "node.glb", generate.Options{Collider: generate.ColliderSettings{Method: c.method}, Encoding: generate.Encoding{Format: physics.KHR, KHRGeometryNode: true}})
			ref, st := renderPNG(t, omi, opt)
			if st.Family != "omi" || st.Colliders == 0 {
				t.Fatalf("OMI stats %+v", st)
			}
			again, _ := renderPNG(t, omi, opt)
			if !bytes.Equal(ref, again) {
				t.Fatal("two renders of the same file differ")
			}
			for _, p := range []string{khr, node} {
				got, st2 := renderPNG(t, p, opt)
				if st2.Family != "khr" {
					t.Errorf("%s: family %q", p, st2.Family)
				}
				if !bytes.Equal(ref, got) {
					t.Errorf("%s: picture differs from the OMI one", filepath.Base(p))
				}
			}
		})
	}
}

// TestKHRPlane: an unbounded KHR plane is drawn but does not take part in
// the framing, which stays on the box above it.
func TestKHRPlane(t *testing.T) {
	var b builder
	geo := func(s int) map[string]any {
		return map[string]any{"KHR_physics_rigid_bodies": map[string]any{"collider": map[string]any{"geometry": map[string]any{"shape": s}}}}
	}
	nodes := []any{
		map[string]any{"name": "ground", "extensions": geo(0)},
		map[string]any{"name": "crate", "translation": []float64{0, 1, 0}, "extensions": geo(1)},
	}
	exts := map[string]any{"KHR_implicit_shapes": map[string]any{"shapes": []any{
		map[string]any{"type": "plane", "plane": map[string]any{}},
		map[string]any{"type": "box", "box": map[string]any{"size": []float64{1, 1, 1}}},
	}}}
	p := b.write(t, t.TempDir(), "plane.gltf", nodes, []int{0, 1}, exts, []string{"KHR_implicit_shapes", "KHR_physics_rigid_bodies"})
	a, err := gltfio.LoadRaw(p, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := Options{}.withDefaults()
	if _, st, err := Render(a, opt); err != nil || st.ByType["plane"] != 1 || st.ByType["box"] != 1 || st.Family != "khr" {
		t.Fatalf("stats %+v, %v", st, err)
	}
	sc, err := buildScene(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.kinds[kind(physics.Plane)] || sc.colliders[0].frame {
		t.Fatalf("plane: in legend %v, framed %v", sc.kinds[kind(physics.Plane)], sc.colliders[0].frame)
	}
	if b := geom.BoundsOf(sc.colliders[0].solid.verts); b.Size()[0] < 4 || b.Size()[1] != 0 {
		t.Errorf("unbounded plane drawn as %v", b.Size())
	}
	l := layOut(sc, opt)
	x0, _, x1, _ := outRect(l, 0, opt.Supersample, []geom.Vec3{{-0.5, 0.5, 0.5}, {0.5, 1.5, 0.5}})
	if w := x1 - x0; w < 0.3*float64(l.panels[0].Dx()) {
		t.Errorf("box is %.0f px wide in a %d px view: the plane took part in the framing", w, l.panels[0].Dx())
	}
}

// TestExtremeShapes: absurd but decodable parameters give a picture or a
// clear error, never a panic; shapes with a volume show in every view.
func TestExtremeShapes(t *testing.T) {
	cases := []struct {
		shape   map[string]any
		far     bool // placed a million units from the origin
		visible bool
	}{
		{map[string]any{"type": "box", "box": map[string]any{"size": []float64{1e30, 1, 1}}}, false, true},
		{map[string]any{"type": "box", "box": map[string]any{"size": []float64{1e300, 1e300, 1e300}}}, false, true},
		{map[string]any{"type": "sphere", "sphere": map[string]any{"radius": 1e-30}}, false, true},
		{map[string]any{"type": "sphere", "sphere": map[string]any{"radius": 0.01}}, true, true},
		{map[string]any{"type": "capsule", "capsule": map[string]any{"radiusTop": 1, "radiusBottom": 0, "height": 0}}, true, true},
		{map[string]any{"type": "cylinder", "cylinder": map[string]any{"radiusTop": 0, "radiusBottom": 0, "height": 1}}, false, false},
	}
	for i, c := range cases {
		var b builder
		var at []float64
		if c.far {
			at = []float64{1e6, -1e6, 1e6}
		}
		nodes := []any{omiBody("x", at, map[string]any{"collider": map[string]any{"shape": 0}})}
		exts := map[string]any{"OMI_physics_shape": map[string]any{"shapes": []any{c.shape}}}
		p := b.write(t, t.TempDir(), "x.gltf", nodes, []int{0}, exts, omiUsed)
		opt := Options{Width: 480, Height: 200}
		img, _, err := RenderFile(p, opt)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("shape %d: error %q does not name the file", i, err)
			}
			continue
		}
		for k := range 3 {
			r := image.Rect(k*opt.Width/3, labelHeight+1, (k+1)*opt.Width/3, opt.Height/2)
			if c.visible && blank(img, r) {
				t.Errorf("shape %d (%v): view %d is blank", i, c.shape, k)
			}
		}
	}
}

// TestPixelBudget: the documented maximum side on both axes (8192 ×
// 8192, 3.2 GB of buffers before) is refused up front; a large picture
// within the budget gets less supersampling instead of more memory, and
// an explicit supersampling past the budget is refused.
func TestPixelBudget(t *testing.T) {
	for _, c := range []struct {
		in     Options
		wantSS int // 0: refused
	}{
		{Options{Width: MaxSide, Height: MaxSide}, 0},
		{Options{Width: 4096, Height: 4096}, 1},
		{Options{Width: 8192, Height: 2048}, 1},
		{Options{Width: 2048, Height: 2048}, 2},
		{Options{Width: 4096, Height: 2048}, 1},
		{Options{Width: 2048, Height: 2048, Supersample: 4}, 0},
		{Options{}, DefaultSupersample},
	} {
		got, err := c.in.withDefaults()
		switch {
		case c.wantSS == 0 && err == nil:
			t.Errorf("%+v: accepted as %+v", c.in, got)
		case c.wantSS != 0 && (err != nil || got.Supersample != c.wantSS):
			t.Errorf("%+v: %+v, %v; want supersample %d", c.in, got, err, c.wantSS)
		case err == nil && got.Width*got.Height*got.Supersample*got.Supersample > MaxPixels:
			t.Errorf("%+v: %+v is over the budget", c.in, got)
		}
	}
}
