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
	"github.com/autocollide/autocollide/internal/pointcloud"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

var nan, inf = math.NaN(), math.Inf(1)

type cloud struct {
	name string
	pts  []geom.Vec3
	deg  Degeneracy
}

// clouds returns the shared test clouds with the degeneracy Build must
// report for each (by the dimension of its span).
func clouds() []cloud {
	deg := [4]Degeneracy{Point, Line, Flat, NotDegenerate}
	var out []cloud
	for _, c := range pointcloud.Cases() {
		out = append(out, cloud{c.Name, c.Points, deg[c.Dim]})
	}
	return out
}

// TestBuildValid checks every cloud, in every placement, at several
// limits: valid, contains all points, within the limit, degeneracy flagged.
func TestBuildValid(t *testing.T) {
	for _, c := range clouds() {
		for _, v := range pointcloud.Placements() {
			pts := v.Apply(c.pts)
			for _, maxV := range []int{-1, 0, 64, 32} {
				name := fmt.Sprintf("%s%s/max%d", c.name, v.Name, maxV)
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
	pts := append(pointcloud.UniformCube(100, 11), geom.Vec3{nan, 0, 0}, geom.Vec3{0, inf, 0})
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
	cube := append(pointcloud.Grid(2), pointcloud.UniformCube(200, 12)...)
	for i := range cube[8:] {
		cube[8+i] = cube[8+i].Add(geom.Vec3{0.5, 0.5, 0.5})
	}
	octa := []geom.Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0.1, 0.1, 0.1}}
	sphere := pointcloud.OnSphere(20000, 13)
	for _, tc := range []struct {
		name     string
		pts      []geom.Vec3
		vol, tol float64
		polygons int
	}{
		{"unit cube", cube, 1, 1e-12, 6},
		{"octahedron", octa, 4.0 / 3, 1e-12, 8},
		{"grid cube", pointcloud.Grid(5), 64, 1e-9, 6},
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
		{"sphere/64", pointcloud.OnSphere(5000, 14), 64, 0},
		{"sphere/8", pointcloud.OnSphere(5000, 14), 8, 0},
		{"uniform/32", pointcloud.UniformCube(5000, 15), 32, 0},
		{"sphere/faces40", pointcloud.OnSphere(5000, 16), 0, 40},
		{"clustered/64/64", pointcloud.Clustered(5000, 17), 64, 64},
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
	if _, err := Build(pointcloud.OnSphere(100, 18), Options{MaxVertices: 5}); err == nil {
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
	good, err := Build(pointcloud.Grid(2), Options{})
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
	if err := Validate(good, pointcloud.Grid(2)); err != nil {
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
		pts := pointcloud.OnSphere(c.n, 31)
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
	pts := pointcloud.OnSphere(2000, 41)
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
