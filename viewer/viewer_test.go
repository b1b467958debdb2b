package viewer

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/kinds"
)

// TestScriptIsBuilt: the committed viewer.min.js is what build.sh makes
// from src/ and the pinned packages in tools/node_modules (skipped
// without them, required under AUTOCOLLIDE_REQUIRE_TOOLS=1).
func TestScriptIsBuilt(t *testing.T) {
	tools := testassets.NodeModule(t, "three")
	testassets.NodeModule(t, "esbuild")
	out := filepath.Join(t.TempDir(), "viewer.min.js")
	cmd := exec.Command("sh", "build.sh", out)
	cmd.Env = append(os.Environ(), "AUTOCOLLIDE_TOOLS="+tools)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, msg)
	}
	built, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, []byte(Script())) {
		t.Fatalf("viewer.min.js (%d bytes) differs from what build.sh makes (%d bytes): run viewer/build.sh and commit it", len(Script()), len(built))
	}
}

// TestScriptFitsAScriptElement: the page inlines the script, so it must
// not close its element, and it defines the global the pages call.
func TestScriptFitsAScriptElement(t *testing.T) {
	s := Script()
	if strings.Contains(strings.ToLower(s), "</script") {
		t.Error("viewer.min.js contains </script")
	}
	if !strings.Contains(s, "var AutocollideViewer=") {
		t.Error("viewer.min.js does not define AutocollideViewer")
	}
	if !strings.Contains(License(), "three.js authors") || !strings.Contains(License(), "Apache") {
		t.Error("License() lacks the three.js or Draco licence")
	}
}

// TestPaletteHasEveryShape: every shape type of the kinds table has its
// colour and legend in the palette the viewer gets.
func TestPaletteHasEveryShape(t *testing.T) {
	p := DefaultPalette()
	for _, s := range kinds.Shapes() {
		if c, ok := p.Shapes[string(s.Type)]; !ok || c != s.Color {
			t.Errorf("%s: colour %v, want %v", s.Type, c, s.Color)
		}
		if p.Legend[string(s.Type)] == "" {
			t.Errorf("%s: no legend", s.Type)
		}
	}
	if p.Trigger == ([3]float32{}) || p.Joint == ([3]float32{}) || p.HueStep == 0 {
		t.Errorf("palette lacks trigger, joint or hue colours: %+v", p)
	}
}
