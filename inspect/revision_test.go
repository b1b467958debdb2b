package inspect

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
)

// TestStage1Revision: the OMI Stage 1 proposals' forms are named so in
// the text and JSON forms, not by the project's old name for them.
func TestStage1Revision(t *testing.T) {
	for file, want := range map[string]string{
		"seed_body.gltf":  "Stage 1 (OMI_physics_body type)",
		"seed_joint.gltf": "Stage 1 (OMI_physics_joint nodeA/nodeB)",
	} {
		a, err := gltfio.LoadRaw(filepath.Join(testassets.Repo(), "testdata", "physics", "legacy", file), gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Describe(a)
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		f.WriteText(&text)
		head, _, _ := strings.Cut(text.String(), "\n")
		if f.Revision != want || !strings.Contains(head, want) || strings.Contains(strings.ToLower(text.String()), "seed (") {
			t.Errorf("%s: revision %q, text %q; want %q", file, f.Revision, head, want)
		}
	}
}
