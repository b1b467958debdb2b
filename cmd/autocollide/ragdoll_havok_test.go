package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// TestHavokJointLimits runs tools/drop-test/havok-limits.mjs: Havok must
// bound the drop test's ragdoll joints where the file's elliptic swing
// cones are (within 0.5° in nine directions, for three cones). Before it,
// the drop test gave Havok the square inscribed in each cone, as for
// Rapier, taking Havok for a per-axis limit: Havok's 60° swing began at
// 41.5°.
func TestHavokJointLimits(t *testing.T) {
	tools := testassets.NodeModule(t, "@babylonjs/havok")
	cmd := exec.Command("node", filepath.Join(tools, "drop-test", "havok-limits.mjs"))
	cmd.Dir = tools
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("havok-limits.mjs: %v", err)
	}
	if n := strings.Count(string(out), "PASS"); n != 3 {
		t.Errorf("%d cases passed, want 3", n)
	}
}
