package gltfio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/safefile"
)

// TestDeclareOverLimit: a .gltf over the file limit is refused by size,
// as the loader refuses it, and one under it is declared.
func TestDeclareOverLimit(t *testing.T) {
	doc := `{"asset":{"version":"2.0"},"extras":{"pad":"` + strings.Repeat("x", 4000) + `"},` +
		`"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`
	p := filepath.Join(t.TempDir(), "big.gltf")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Summarize(p, Limits{MaxFileSize: 1000})
	if !errors.Is(err, safefile.ErrTooLarge) || !strings.Contains(err.Error(), p) {
		t.Errorf("Summarize over the limit: %v, want %s: ... %v", err, p, safefile.ErrTooLarge)
	}
	s, err := Summarize(p, Limits{MaxFileSize: 1 << 20})
	if err != nil || s.Declared.Triangles != 1 {
		t.Errorf("Summarize under the limit: %+v, %v; want 1 triangle", s, err)
	}
	if sum, ok := JSONSum([]byte(doc)); !ok || sum != s.JSON {
		t.Error("JSONSum of the file's bytes differs from the summary's")
	}
}
