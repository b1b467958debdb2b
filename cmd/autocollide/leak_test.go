package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretForms returns the ways a message could spell the secret's bytes:
// every 1-, 2- and 4-byte little-endian word at every offset as an
// unsigned decimal (3 digits or more: shorter ones are everywhere), and
// every 4-byte word read as a float32 in %g and %.3g.
func secretForms(secret []byte) []string {
	var out []string
	for i := range secret {
		if v := secret[i]; v >= 100 {
			out = append(out, fmt.Sprint(v))
		}
		if i+2 <= len(secret) {
			out = append(out, fmt.Sprint(binary.LittleEndian.Uint16(secret[i:])))
		}
		if i+4 <= len(secret) {
			w := binary.LittleEndian.Uint32(secret[i:])
			out = append(out, fmt.Sprint(w))
			if f := math.Float32frombits(w); !math.IsNaN(float64(f)) && f != 0 {
				out = append(out, fmt.Sprintf("%g", f), fmt.Sprintf("%.3g", f))
			}
		}
	}
	return out
}

// TestMessagesLeakNoBufferBytes (issue 41, defect 6): a buffer naming
// another file of the asset's folder (a .env holding a token) and
// accessors over it — indices, sparse indices, skin joints and weights,
// GPU instance transforms — get errors naming the accessor and the limit,
// never a value read from it (before: "index 0 is 1601202279", the
// token's first four bytes), with generate and --dry-run alike.
func TestMessagesLeakNoBufferBytes(t *testing.T) {
	secret := []byte("_TOKEN=sk-9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc")
	forms := secretForms(secret)
	tri := `"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0],"bufferView":0},%s],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":1,"byteLength":48}],
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"},{"byteLength":48,"uri":".env"}]`
	cases := map[string]string{
		// indices over the secret: its words are indices out of range
		"indices.gltf": `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],` +
			fmt.Sprintf(tri, `{"bufferView":1,"componentType":5125,"count":12,"type":"SCALAR"}`) + `}`,
		"indices16.gltf": `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],` +
			fmt.Sprintf(tri, `{"bufferView":1,"componentType":5123,"count":24,"type":"SCALAR"}`) + `}`,
		// sparse indices over the secret
		"sparse.gltf": `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":1}}]}],` +
			fmt.Sprintf(tri, `{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0],
 "sparse":{"count":2,"indices":{"bufferView":1,"componentType":5125},"values":{"bufferView":0}}}`) + `}`,
		// GPU instance translations from the secret: far from the origin
		"instances.gltf": `{"asset":{"version":"2.0"},"extensionsUsed":["EXT_mesh_gpu_instancing"],"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"mesh":0,"extensions":{"EXT_mesh_gpu_instancing":{"attributes":{"SCALE":1}}}}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],` +
			fmt.Sprintf(tri, `{"bufferView":1,"componentType":5126,"count":4,"type":"VEC3"}`) + `}`,
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), secret[:48], 0o600); err != nil {
		t.Fatal(err)
	}
	for name, doc := range cases {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"generate", in, "-o", filepath.Join(dir, "out-"+name)},
			{"generate", in, "--dry-run"},
		} {
			code, stdout, stderr := runCLI(args...)
			// The temporary folder's random name may hold a short
			// form such as "101": judge the message without it.
			msg := strings.ReplaceAll(stdout+stderr, dir, "DIR")
			if code != exitFailed {
				t.Errorf("%s %s: exit %d, want %d: %s", name, args[len(args)-1], code, exitFailed, msg)
			}
			for _, f := range forms {
				if strings.Contains(msg, f) {
					t.Errorf("%s %s: the message spells %q, read from .env: %s", name, args[len(args)-1], f, msg)
					break
				}
			}
		}
	}
}
