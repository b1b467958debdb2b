package mesh

import (
	"github.com/autocollide/autocollide/internal/testassets"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/autocollide/autocollide/geom"
)

// TestWeldCube: the corpus Box has 24 vertices (split per face for
// normals); welded it is the 8-corner closed cube, and the enclosed volume
// is unchanged.
func TestWeldCube(t *testing.T) {
	doc, err := gltf.Open(filepath.Join(testassets.Shared(t), "corpus", "Box", "glTF-Binary", "Box.glb"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(doc)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Parts[0]
	v, tris := Weld(p.Vertices, p.Triangles, 1e-9)
	if len(p.Vertices) != 24 || len(v) != 8 || len(tris) != 12 {
		t.Fatalf("%d vertices welded to %d with %d triangles; want 24 → 8, 12", len(p.Vertices), len(v), len(tris))
	}
	if a, b := signedVolume(p.Vertices, p.Triangles), signedVolume(v, tris); a <= 0 || abs(a-b) > 1e-12 {
		t.Errorf("volume %g before, %g after", a, b)
	}
	if !isClosed(tris) {
		t.Error("welded cube is not closed")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestWeld: jittered copies within eps merge into the first, collapsed
// triangles go, exact welding only merges identical points, and every
// input vertex lies within eps of its representative.
func TestWeld(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var pts []geom.Vec3
	for i := 0; i < 200; i++ {
		base := geom.Vec3{float64(i % 10), float64(i / 10 % 10), float64(i / 100)}
		pts = append(pts, base)
		pts = append(pts, base.Add(geom.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}.Scale(1e-4)))
	}
	tris := [][3]uint32{{0, 1, 2}, {0, 2, 4}}
	v, tr := Weld(pts, tris, 1e-3)
	if len(v) != 200 {
		t.Errorf("%d vertices, want 200", len(v))
	}
	if len(tr) != 1 || tr[0] != [3]uint32{0, 1, 2} {
		t.Errorf("triangles %v, want [[0 1 2]]", tr)
	}
	if v2, _ := Weld(pts, nil, 0); len(v2) != 400-duplicatesExact(pts) {
		t.Errorf("exact weld kept %d", len(v2))
	}
	// Distances to representatives.
	v3, _ := Weld(pts, nil, 1e-3)
	for _, p := range pts {
		ok := false
		for _, q := range v3 {
			if p.Sub(q).Len() <= 1e-3 {
				ok = true
				break
			}
		}
		if !ok {
			t.Fatalf("%v has no representative within eps", p)
		}
	}
}

func duplicatesExact(p []geom.Vec3) int {
	seen := map[geom.Vec3]bool{}
	d := 0
	for _, v := range p {
		if seen[v] {
			d++
		}
		seen[v] = true
	}
	return d
}
