package hull

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

func uniformCube(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = geom.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}
	}
	return p
}

func onSphere(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	}
	return p
}

// onCubeFaces puts points exactly on the faces of the unit cube: many
// exactly coplanar points, the classic quickhull stress case.
func onCubeFaces(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	p := make([]geom.Vec3, n)
	for i := range p {
		q := geom.Vec3{r.Float64(), r.Float64(), r.Float64()}
		q[r.IntN(3)] = float64(r.IntN(2))
		p[i] = q
	}
	return p
}

func clustered(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	centers := uniformCube(6, seed+100)
	p := make([]geom.Vec3, n)
	for i := range p {
		c := centers[r.IntN(len(centers))]
		p[i] = c.Add(geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Scale(0.02))
	}
	return p
}

// grid is a lattice: many exactly coplanar and collinear points.
func grid(k int) []geom.Vec3 {
	var p []geom.Vec3
	for x := 0; x < k; x++ {
		for y := 0; y < k; y++ {
			for z := 0; z < k; z++ {
				p = append(p, geom.Vec3{float64(x), float64(y), float64(z)})
			}
		}
	}
	return p
}

// tilted maps 2D points into a tilted plane (coplanar input).
func tilted(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	u := geom.Vec3{1, 2, 3}.Normalize()
	v := u.Cross(geom.Vec3{0, 0, 1}).Normalize()
	o := geom.Vec3{0.3, -0.2, 0.7}
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = o.Add(u.Scale(r.Float64())).Add(v.Scale(r.Float64()))
	}
	return p
}

func collinear(n int, seed uint64) []geom.Vec3 {
	r := rng(seed)
	d := geom.Vec3{1, -2, 0.5}
	p := make([]geom.Vec3, n)
	for i := range p {
		p[i] = geom.Vec3{1, 1, 1}.Add(d.Scale(r.Float64()))
	}
	return p
}

func transform(p []geom.Vec3, scale float64, offset geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(p))
	for i, q := range p {
		out[i] = q.Scale(scale).Add(offset)
	}
	return out
}

var nan, inf = math.NaN(), math.Inf(1)

type cloud struct {
	name string
	pts  []geom.Vec3
	deg  Degeneracy
}

func clouds() []cloud {
	dup := make([]geom.Vec3, 0, 400)
	for i := 0; i < 100; i++ {
		dup = append(dup, geom.Vec3{0, 0, 0}, geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, 1})
	}
	withNaN := append(uniformCube(500, 9), geom.Vec3{nan, 0, 0}, geom.Vec3{inf, 1, 2}, geom.Vec3{0, -inf, 0})
	nanFirst := append([]geom.Vec3{{nan, nan, nan}, {inf, 0, 0}}, uniformCube(500, 10)...)
	return []cloud{
		{"uniform", uniformCube(3000, 1), NotDegenerate},
		{"sphere", onSphere(3000, 2), NotDegenerate},
		{"cubefaces", onCubeFaces(3000, 3), NotDegenerate},
		{"clustered", clustered(3000, 4), NotDegenerate},
		{"grid", grid(9), NotDegenerate},
		{"tetra", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, NotDegenerate},
		{"duplicates", dup, NotDegenerate},
		{"nan-mixed", withNaN, NotDegenerate},
		{"nan-first", nanFirst, NotDegenerate},
		{"one", []geom.Vec3{{1, 2, 3}}, Point},
		{"one-repeated", []geom.Vec3{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, Point},
		{"origin", []geom.Vec3{{0, 0, 0}}, Point},
		{"two", []geom.Vec3{{0, 0, 0}, {1, 1, 1}}, Line},
		{"three", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Flat},
		{"three-collinear", []geom.Vec3{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}, Line},
		{"square", []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, Flat},
		{"collinear", collinear(500, 5), Line},
		{"coplanar", tilted(2000, 6), Flat},
		{"coplanar-grid", func() []geom.Vec3 {
			var p []geom.Vec3
			for _, q := range grid(12) {
				if q[2] == 0 {
					p = append(p, q)
				}
			}
			return p
		}(), Flat},
	}
}

var variants = []struct {
	name   string
	scale  float64
	offset geom.Vec3
}{
	{"", 1, geom.Vec3{}},
	{"+1e6", 1, geom.Vec3{1e6, -1e6, 1e6}},
	{"*1e-4", 1e-4, geom.Vec3{}},
	{"*1e4", 1e4, geom.Vec3{}},
}

// TestBuildValid checks every cloud, in every placement, at several
// limits: valid, contains all points, within the limit, degeneracy flagged.
func TestBuildValid(t *testing.T) {
	for _, c := range clouds() {
		for _, v := range variants {
			pts := transform(c.pts, v.scale, v.offset)
			for _, maxV := range []int{-1, 0, 64, 32} {
				name := fmt.Sprintf("%s%s/max%d", c.name, v.name, maxV)
				t.Run(name, func(t *testing.T) {
					h, err := Build(pts, Options{MaxVertices: maxV})
					if err != nil {
						t.Fatal(err)
					}
					if err := Validate(h, pts); err != nil {
						t.Fatal(err)
					}
					limit := maxV
					if limit == 0 {
						limit = DefaultMaxVertices
					}
					if limit > 0 && len(h.Vertices) > limit {
						t.Fatalf("%d vertices, limit %d", len(h.Vertices), limit)
					}
					if h.Degenerate != c.deg {
						t.Fatalf("degeneracy %v, want %v", h.Degenerate, c.deg)
					}
				})
			}
		}
	}
}

// TestLocalCheck: LocalCheck only skips a check, so the hull is the same
// one, and it passes the full Validate.
func TestLocalCheck(t *testing.T) {
	for _, c := range clouds() {
		full, err := Build(c.pts, Options{MaxVertices: -1})
		if err != nil {
			t.Fatal(err)
		}
		local, err := Build(c.pts, Options{MaxVertices: -1, LocalCheck: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(full, local) {
			t.Errorf("%s: LocalCheck changed the hull", c.name)
		}
		if err := Validate(local, c.pts); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestNoFinitePoints(t *testing.T) {
	for _, pts := range [][]geom.Vec3{nil, {}, {{nan, 0, 0}}, {{inf, inf, inf}, {nan, nan, nan}}} {
		if _, err := Build(pts, Options{}); !errors.Is(err, ErrNoPoints) {
			t.Errorf("%v: err %v, want ErrNoPoints", pts, err)
		}
	}
}

func TestDroppedCount(t *testing.T) {
	pts := append(uniformCube(100, 11), geom.Vec3{nan, 0, 0}, geom.Vec3{0, inf, 0})
	h, err := Build(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Dropped != 2 {
		t.Fatalf("Dropped %d, want 2", h.Dropped)
	}
}

// TestAnalyticVolumes compares exact hull volumes with known solids.
func TestAnalyticVolumes(t *testing.T) {
	cube := append(grid(2), uniformCube(200, 12)...)
	for i := range cube[8:] {
		cube[8+i] = cube[8+i].Add(geom.Vec3{0.5, 0.5, 0.5})
	}
	octa := []geom.Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0.1, 0.1, 0.1}}
	sphere := onSphere(20000, 13)
	for _, tc := range []struct {
		name     string
		pts      []geom.Vec3
		vol, tol float64
		polygons int
	}{
		{"unit cube", cube, 1, 1e-12, 6},
		{"octahedron", octa, 4.0 / 3, 1e-12, 8},
		{"grid cube", grid(5), 64, 1e-9, 6},
		{"sphere", sphere, 4.0 / 3 * math.Pi, 2e-3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Build(tc.pts, Options{MaxVertices: -1})
			if err != nil {
				t.Fatal(err)
			}
			if v := h.Volume(); math.Abs(v-tc.vol) > tc.tol*tc.vol {
				t.Fatalf("volume %v, want %v", v, tc.vol)
			}
			if tc.polygons > 0 && h.Polygons() != tc.polygons {
				t.Fatalf("%d polygons, want %d", h.Polygons(), tc.polygons)
			}
		})
	}
}

// TestFlatSlab checks the documented slab thickness of a flat input.
func TestFlatSlab(t *testing.T) {
	pts := []geom.Vec3{{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0}, {1, 0.5, 0}}
	h, err := Build(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := math.Sqrt(5)
	want := 2 * 1 * 2 * DefaultDegenerateHalfThickness * d
	if v := h.Volume(); math.Abs(v-want) > 1e-9*want {
		t.Fatalf("slab volume %v, want %v", v, want)
	}
	if h.Polygons() != 6 {
		t.Fatalf("slab has %d polygons, want 6", h.Polygons())
	}
}

// TestReducedContainsExact checks that a reduced hull is a superset of the
// exact one and respects both limits.
func TestReducedContainsExact(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pts        []geom.Vec3
		maxV, maxF int
	}{
		{"sphere/64", onSphere(5000, 14), 64, 0},
		{"sphere/8", onSphere(5000, 14), 8, 0},
		{"uniform/32", uniformCube(5000, 15), 32, 0},
		{"sphere/faces40", onSphere(5000, 16), 0, 40},
		{"clustered/64/64", clustered(5000, 17), 64, 64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exact, err := Build(tc.pts, Options{MaxVertices: -1})
			if err != nil {
				t.Fatal(err)
			}
			h, err := Build(tc.pts, Options{MaxVertices: tc.maxV, MaxFaces: tc.maxF})
			if err != nil {
				t.Fatal(err)
			}
			if !h.Reduced {
				t.Fatal("not flagged Reduced")
			}
			if tc.maxV > 0 && len(h.Vertices) > tc.maxV {
				t.Fatalf("%d vertices > %d", len(h.Vertices), tc.maxV)
			}
			if tc.maxF > 0 && h.Polygons() > tc.maxF {
				t.Fatalf("%d polygons > %d", h.Polygons(), tc.maxF)
			}
			if err := Validate(h, exact.Vertices); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d vertices, %d polygons, volume growth %.2f%%", len(h.Vertices), h.Polygons(), 100*(h.Volume()/exact.Volume()-1))
		})
	}
}

func TestSmallLimitErrors(t *testing.T) {
	if _, err := Build(onSphere(100, 18), Options{MaxVertices: 5}); err == nil {
		t.Fatal("MaxVertices 5 on a sphere: want an error")
	}
	// A hull already within a small limit needs no reduction.
	if _, err := Build([]geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, Options{MaxVertices: 4}); err != nil {
		t.Fatal(err)
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range clouds() {
		a, err1 := Build(c.pts, Options{MaxVertices: 32})
		b, err2 := Build(c.pts, Options{MaxVertices: 32})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two runs differ", c.name)
		}
	}
}

// TestValidateReasons checks that Validate rejects broken hulls and says why.
func TestValidateReasons(t *testing.T) {
	good, err := Build(grid(2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	clone := func() *Hull {
		h := *good
		h.Vertices = append([]geom.Vec3(nil), good.Vertices...)
		h.Triangles = append([][3]uint32(nil), good.Triangles...)
		return &h
	}
	inward := clone()
	for i, tr := range inward.Triangles {
		inward.Triangles[i] = [3]uint32{tr[0], tr[2], tr[1]}
	}
	open := clone()
	open.Triangles = open.Triangles[1:]
	flipped := clone()
	flipped.Triangles[0] = [3]uint32{flipped.Triangles[0][0], flipped.Triangles[0][2], flipped.Triangles[0][1]}
	dent := clone()
	dent.Vertices[0] = dent.Vertices[0].Scale(0.5).Add(geom.Vec3{0.25, 0.25, 0.25})
	unused := clone()
	unused.Vertices = append(unused.Vertices, geom.Vec3{0.5, 0.5, 0.5})
	nanV := clone()
	nanV.Vertices[1] = geom.Vec3{nan, 0, 0}
	for _, tc := range []struct {
		name string
		h    *Hull
		pts  []geom.Vec3
		want string
	}{
		{"inward", inward, nil, "volume"},
		{"open", open, nil, "no opposite edge"},
		{"flipped", flipped, nil, "same direction"},
		{"dent", dent, nil, "not convex"},
		{"unused", unused, nil, "unused"},
		{"nan", nanV, nil, "not finite"},
		{"outside", good, []geom.Vec3{{2, 0, 0}}, "outside"},
		{"nil", nil, nil, "nil hull"},
	} {
		err := Validate(tc.h, tc.pts)
		var ve *ValidationError
		if !errors.As(err, &ve) || !containsAny(ve.Problems, tc.want) {
			t.Errorf("%s: got %v, want a problem mentioning %q", tc.name, err, tc.want)
		}
	}
	if err := Validate(good, grid(2)); err != nil {
		t.Fatal(err)
	}
}

func containsAny(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// TestReductionQuality checks that reduced hulls of points on a sphere are
// built by the normal pipeline (no fallback) and stay within volume
// bounds that the plane cuts alone did not meet (5,000 points at 64
// vertices: +10.8%; 642 points at 64: +11%).
func TestReductionQuality(t *testing.T) {
	cases := []struct {
		n, limit  int
		maxGrowth float64 // relative to the exact hull
	}{
		{642, 255, 0.02},
		{642, 64, 0.06},
		{642, 32, 0.13},
		{5000, 255, 0.025},
		{5000, 64, 0.09},
		{5000, 32, 0.18},
	}
	for _, c := range cases {
		pts := onSphere(c.n, 31)
		exact, err := Build(pts, Options{MaxVertices: -1})
		if err != nil {
			t.Fatal(err)
		}
		h, err := Build(pts, Options{MaxVertices: c.limit})
		if err != nil {
			t.Fatalf("%d points, limit %d: %v", c.n, c.limit, err)
		}
		if h.Fallback != "" || !h.Reduced || len(h.Vertices) > c.limit {
			t.Errorf("%d points, limit %d: fallback %q, reduced %v, %d vertices", c.n, c.limit, h.Fallback, h.Reduced, len(h.Vertices))
		}
		if err := Validate(h, pts); err != nil {
			t.Errorf("%d points, limit %d: %v", c.n, c.limit, err)
		}
		if g := h.Volume()/exact.Volume() - 1; g > c.maxGrowth {
			t.Errorf("%d points, limit %d: volume growth %.2f%% over %.2f%%", c.n, c.limit, 100*g, 100*c.maxGrowth)
		}
	}
}

// TestMaxTriangles checks that MaxTriangles caps the triangle count
// (through the vertex cap (T+4)/2), combines with MaxVertices and refuses
// values below a box's 12 triangles when a reduction is needed.
func TestMaxTriangles(t *testing.T) {
	pts := onSphere(2000, 41)
	for _, c := range []struct{ tris, verts, want int }{
		{255, 0, 255},
		{100, 0, 100},
		{255, 64, 124},
		{13, 0, 12},
	} {
		h, err := Build(pts, Options{MaxTriangles: c.tris, MaxVertices: c.verts})
		if err != nil {
			t.Fatalf("MaxTriangles %d, MaxVertices %d: %v", c.tris, c.verts, err)
		}
		if len(h.Triangles) > c.want || len(h.Triangles) != 2*len(h.Vertices)-4 {
			t.Errorf("MaxTriangles %d, MaxVertices %d: %d triangles, %d vertices (want at most %d triangles)", c.tris, c.verts, len(h.Triangles), len(h.Vertices), c.want)
		}
		if err := Validate(h, pts); err != nil {
			t.Errorf("MaxTriangles %d: %v", c.tris, err)
		}
	}
	if _, err := Build(pts, Options{MaxTriangles: 11}); err == nil || !strings.Contains(err.Error(), "MaxTriangles 11") {
		t.Errorf("MaxTriangles 11: got %v, want an error naming it", err)
	}
	// A box needs no reduction under 12 triangles.
	box := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}}
	if h, err := Build(box, Options{MaxTriangles: 12}); err != nil || len(h.Triangles) != 12 {
		t.Errorf("box under MaxTriangles 12: %v", err)
	}
}
