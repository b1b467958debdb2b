package decompose

import (
	"context"
	"os"
	"testing"

	"github.com/autocollide/autocollide/obj"
)

func TestDbg(t *testing.T) {
	name := os.Getenv("DEBUG_MESH")
	if name == "" {
		t.Skip()
	}
	m, _ := obj.ReadFile(sharedDir(t) + "/bench/acd-meshes/" + name + ".obj")
	r, _ := Decompose(context.Background(), m.Vertices, m.Triangles, Options{Workers: 1, Progress: func(d, n int) { t.Log(d, n) }})
	t.Log(len(r.Hulls), r.Notes)
}
