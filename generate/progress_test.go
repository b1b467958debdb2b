package generate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
)

// TestProgressSteps: two placed copies of a concave chair, decomposed
// with a Progress listening. The steps name the part being decomposed;
// the copy still gets the first one's colliders moved (a Progress does
// not make the options differ, so only one part is decomposed); and the
// output is the same bytes as without a listener.
func TestProgressSteps(t *testing.T) {
	v, tris := chair()
	p := filepath.Join(t.TempDir(), "chairs.gltf")
	in := buildGLTF(t, []fnode{
		{name: "ChairA", v: v, t: tris},
		{name: "ChairB", v: v, t: tris, at: geom.Vec3{3, 0, 1}},
	}, []int{0, 1})
	if err := os.WriteFile(p, in, 0o644); err != nil {
		t.Fatal(err)
	}
	gen := func(progress func(Step)) []byte {
		t.Helper()
		a, err := gltfio.Load(p, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Asset(context.Background(), a, Options{Collider: ColliderSettings{Method: Decompose}, Run: Run{Workers: 2, Progress: progress}}); err != nil {
			t.Fatal(err)
		}
		out, err := a.Encode(false)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	var mu sync.Mutex
	var steps []Step
	heard := gen(func(s Step) {
		mu.Lock()
		defer mu.Unlock()
		steps = append(steps, s)
	})
	if len(steps) == 0 {
		t.Fatal("no step heard")
	}
	for _, s := range steps {
		if s.Part != "ChairA" || s.Total < 1 || s.Done < 0 || s.Done > s.Total {
			t.Errorf("step %+v: want ChairA's alone (ChairB is a moved copy), 0 ≤ done ≤ total", s)
		}
	}
	if last := steps[len(steps)-1]; last.Done != last.Total || last.Total < 2 {
		t.Errorf("last step %+v: want all of the chair's several parts done", last)
	}
	if !bytes.Equal(heard, gen(nil)) {
		t.Error("the output differs when a Progress listens")
	}
}
