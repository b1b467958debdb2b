package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
)

// TestAbsurdNumbersRefused: issue 27's absurd inputs, each of which gave
// an absurd collider with exit 0, are refused with one line naming the
// node and what is wrong, and nothing is written.
func TestAbsurdNumbersRefused(t *testing.T) {
	bad := filepath.Join(testassets.Repo(), "testdata", "bad")
	dir := t.TempDir()
	for file, want := range map[string]string{
		// byteOffset 2 into FLOAT data: a 4.6e-41 m box.
		"misaligned-accessor.gltf": `nodes[0] "Cube": mesh 0 primitive 0: accessor 0: bufferView 0: accessor byteOffset 2 is not a multiple of the component size 4`,
		// a cube of denormal coordinates: a 2.8e-45 m box of 2.2e-131 kg.
		"denormal-cube.gltf": `nodes[0] "Cube": mesh 0 is less than the 1e-06 m minimum across`,
		// ±3e38 under scale 10: a 6e39 m box, beyond float32.
		"beyond-float32.gltf": `nodes[0] "Cube": mesh 0 is more than the 1e+07 m maximum across`,
		"scale-zero.gltf":     `nodes[0] "Cube": world transform is degenerate`,
		// an all-zero scale, rotation or matrix is read as absent by glTF
		// libraries: a full-size 8,000 kg body.
		"scale-all-zero.gltf":    `nodes[0] "Cube": scale is all zeros, which flattens its meshes`,
		"rotation-all-zero.gltf": `nodes[0] "Cube": rotation is all zeros, which is not a unit quaternion`,
		"matrix-all-zero.gltf":   `nodes[0] "Cube": matrix is all zeros, which flattens its meshes`,
		// a 2 m cube at 1e308 m: a 2×2×0.003 box.
		"far-translation.gltf": `nodes[0] "Cube": placed 1e+308 m from the origin, over`,
		// a NaN instance rotation was read as no rotation.
		"nan-instance-rotation.gltf": `nodes[0] "Cube": EXT_mesh_gpu_instancing: instance 1: rotation is not finite`,
	} {
		in := filepath.Join(bad, file)
		out := filepath.Join(dir, file)
		code, _, stderr := runCLI("generate", in, "-o", out)
		line := strings.TrimSpace(stderr)
		if code != 1 || strings.Contains(line, "\n") || !strings.HasPrefix(line, in+": ") || !strings.Contains(line, want) {
			t.Errorf("%s: got exit %d %q, want exit 1 and one line with %q", file, code, stderr, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written", file)
		}
	}
}
