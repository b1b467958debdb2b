package generate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
)

// autoParts runs Method Auto on one file and returns its part reports.
func autoParts(t *testing.T, path string) []PartReport {
	t.Helper()
	a, err := gltfio.Load(path, gltfio.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	rep, err := Asset(context.Background(), a, Options{Method: Auto, Binary: true, Workers: 2})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rep.Parts
}

// TestAutoCorpus: on real assets, auto picks the primitive a part is —
// the Box a box, MetalRoughSpheresNoTextures' 98 spheres spheres, the
// milk truck's wheels cylinders or capsules — and something else (hulls,
// a decomposition) for the truck's body, which is no primitive.
// AUTOCOLLIDE_CORPUS_REPORT=1 prints auto's choice for every corpus asset.
func TestAutoCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run")
	}
	shared := testassets.Shared(t)
	count := func(parts []PartReport) map[Method]int {
		m := map[Method]int{}
		for _, p := range parts {
			m[p.Method]++
		}
		return m
	}

	box := count(autoParts(t, filepath.Join(shared, "corpus", "Box", "glTF-Binary", "Box.glb")))
	if box[Box] != 1 || len(box) != 1 {
		t.Errorf("Box: auto chose %v, want one box", box)
	}
	spheres := count(autoParts(t, filepath.Join(shared, "corpus", "MetalRoughSpheresNoTextures", "glTF-Binary", "MetalRoughSpheresNoTextures.glb")))
	if spheres[Sphere] < 98 {
		t.Errorf("MetalRoughSpheresNoTextures: auto chose %v, want the 98 spheres as spheres", spheres)
	}

	truck := autoParts(t, testassets.Decoded(t, filepath.Join(shared, "corpus", "CesiumMilkTruck", "glTF-Draco", "CesiumMilkTruck.gltf")))
	wheels := 0
	for _, p := range truck {
		isWheel := strings.HasPrefix(p.Name, "Wheels")
		primitive := p.Method == Cylinder || p.Method == Capsule
		switch {
		case isWheel && !primitive:
			t.Errorf("milk truck %q: auto chose %s (%s), want a cylinder or capsule", p.Name, p.Method, p.Reason)
		case isWheel:
			wheels++
		case p.Method != Hull && p.Method != Decompose:
			t.Errorf("milk truck %q: auto chose %s (%s), want a hull or a decomposition", p.Name, p.Method, p.Reason)
		}
	}
	if wheels != 2 {
		t.Errorf("milk truck: %d wheel parts, want the 2 wheel instances", wheels)
	}

	if os.Getenv("AUTOCOLLIDE_CORPUS_REPORT") != "1" {
		return
	}
	for _, f := range testassets.Corpus(t) {
		name, _ := filepath.Rel(filepath.Join(shared, "corpus"), f)
		if strings.Contains(f, "Draco") {
			f = testassets.Decoded(t, f)
			name += " (decoded copy)"
		}
		c := count(autoParts(t, f))
		var parts []string
		for m, n := range c {
			parts = append(parts, fmt.Sprintf("%d %s", n, m))
		}
		sort.Strings(parts)
		t.Logf("%-75s %s", name, strings.Join(parts, ", "))
	}
}
