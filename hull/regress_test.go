package hull

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/geom"
)

// loadPoints reads a JSON array of [x, y, z] from testdata.
func loadPoints(t testing.TB, name string) []geom.Vec3 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var pts []geom.Vec3
	if err := json.Unmarshal(b, &pts); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return pts
}

// TestRegressionDecompositionPieces: pieces of real meshes cut by
// axis-aligned planes (many points on or within 1e-7 of one plane) once
// made Build fail its own convexity validation.
func TestRegressionDecompositionPieces(t *testing.T) {
	for _, name := range []string{"hullfail-215.json", "hullfail-329.json", "hullfail-601.json"} {
		pts := loadPoints(t, name)
		for _, maxV := range []int{-1, 255, 64, 32} {
			h, err := Build(pts, Options{MaxVertices: maxV})
			if err != nil {
				t.Errorf("%s max %d: %v", name, maxV, err)
				continue
			}
			if err := Validate(h, pts); err != nil {
				t.Errorf("%s max %d: %v", name, maxV, err)
			}
			if maxV > 0 && len(h.Vertices) > maxV {
				t.Errorf("%s max %d: %d vertices", name, maxV, len(h.Vertices))
			}
			if h.Fallback != "" {
				t.Errorf("%s max %d: needed fallback %q; the algorithm itself should succeed", name, maxV, h.Fallback)
			}
			t.Logf("%s max %d: %d vertices, reduced %v", name, maxV, len(h.Vertices), h.Reduced)
		}
	}
}
