package draco_test

import (
	"os"
	"path/filepath"
	"testing"
)

// brokenBases are the valid streams the hand-broken ones start from,
// checked in under testdata/ so that the broken-stream tests need no node.
// DRACO_WRITE_FIXTURES=1 go test ./draco -run TestWriteFixtures rewrites
// them with the npm encoder.
var brokenBases = []struct {
	file  string
	shape func() genShape
	roles []string
	bits  map[string]int
	req   encRequest
}{
	// Sequential at level 0: raw (uncompressed) connectivity, u8 indices.
	{"sequential.drc", func() genShape { return grid("grid", 12, 9, 0, 2) }, []string{"position", "normal"},
		map[string]int{"position": 14, "normal": 10}, encRequest{Method: "sequential", Level: 0}},
	// Sequential at level 7 with texture coordinates.
	{"sequential-texcoord.drc", func() genShape { return grid("grid", 12, 9, 0, 2) }, []string{"position", "texcoord"},
		map[string]int{"position": 11, "texcoord": 10}, encRequest{Method: "sequential", Level: 7}},
	// Edgebreaker standard with parallelogram and tex-coord prediction.
	{"edgebreaker.drc", func() genShape { return sphere("sphere", 12, 16, [3]float64{}, 1) }, []string{"position", "normal", "texcoord"},
		map[string]int{"position": 14, "normal": 10, "texcoord": 12}, encRequest{Method: "edgebreaker", Level: 7}},
	// Edgebreaker valence (the encoder picks it for larger meshes at level 10).
	{"valence.drc", func() genShape { return grid("grid", 40, 30, 0, 3) }, []string{"position"},
		map[string]int{"position": 12}, encRequest{Method: "edgebreaker", Level: 10}},
}

// TestWriteFixtures rewrites testdata/*.drc (only with DRACO_WRITE_FIXTURES=1).
func TestWriteFixtures(t *testing.T) {
	if os.Getenv("DRACO_WRITE_FIXTURES") != "1" {
		t.Skip("set DRACO_WRITE_FIXTURES=1 to rewrite testdata/*.drc")
	}
	var reqs []encRequest
	for i, b := range brokenBases {
		s := b.shape()
		r := b.req
		r.name, r.Indices, r.Attributes = b.file, s.indices(), genAttributes(s, b.roles, b.bits, 0, uint64(500+i))
		reqs = append(reqs, r)
	}
	for i, s := range refEncode(t, reqs) {
		if err := os.WriteFile(filepath.Join("testdata", brokenBases[i].file), s, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes, %s", brokenBases[i].file, len(s), streamKind(s))
	}
}
