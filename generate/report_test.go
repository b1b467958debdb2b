package generate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
)

// TestReportHullVertices: the report counts the generated hulls' vertices
// (the sum over its parts), and on a second run that keeps the first
// run's physics as authored, the kept hulls' vertices, the same number.
func TestReportHullVertices(t *testing.T) {
	for _, f := range []physics.Family{physics.OMI, physics.KHR} {
		a, err := gltfio.Load(filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"), gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		enc := Encoding{Format: f, Binary: true}
		rep, err := Asset(context.Background(), a, Options{Collider: ColliderSettings{Method: Hull}, Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, p := range rep.Parts {
			sum += p.HullVertices
		}
		if sum == 0 || rep.HullVertices != sum {
			t.Errorf("%s: report %d hull vertices, parts %d", f, rep.HullVertices, sum)
		}
		data, err := a.Encode(true)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out.glb")
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		again, err := Asset(context.Background(), b, Options{Collider: ColliderSettings{Method: Box}, Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		if again.Kept == 0 || again.Bodies != 0 || again.HullVertices != rep.HullVertices {
			t.Errorf("%s: kept %d roots, %d bodies, %d hull vertices; want the first run's %d", f, again.Kept, again.Bodies, again.HullVertices, rep.HullVertices)
		}
	}
}
