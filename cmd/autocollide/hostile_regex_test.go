package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRegexMatchCost (issue 41, defect 7): a profile's regular
// expression is never matched against a node name when the match would
// cost more than regexcost.MaxCost (program × name length): the asset
// fails at once with an error naming the rule (or the body pattern) and
// the node, reached from an asset folder's autocollide.yaml. Before: one
// match of [ab]{1000}c against a 1 MB name took 32 s and --timeout was not
// checked during it.
func TestRegexMatchCost(t *testing.T) {
	name := strings.Repeat("ab", 1<<19) // 1 MiB
	asset := fmt.Sprintf(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
"nodes":[{"name":%q,"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"byteLength":36,"uri":%q}]}`, name, triangleBuffer())
	for _, c := range []struct{ name, profile, want string }{
		{"a rule's nameRegex", "rules:\n  - name: bomb\n    match: {nameRegex: \"[ab]{1000}c\"}\n    method: box\n",
			`rule "bomb": nameRegex "[ab]{1000}c": nodes[0] (a name of 1048576 bytes): matching a regular expression of 1003 instructions`},
		{"the body pattern", "bodies: {per: pattern, pattern: \"[ab]{1000}c\"}\n",
			`body pattern: nodes[0] (a name of 1048576 bytes): matching a regular expression of 1003 instructions`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "a.gltf")
			os.WriteFile(in, []byte(asset), 0o644)
			os.WriteFile(filepath.Join(dir, "bomb.yaml"), []byte(c.profile), 0o644)
			os.WriteFile(filepath.Join(dir, "autocollide.yaml"), []byte("profile: bomb.yaml\n"), 0o644)
			out := filepath.Join(t.TempDir(), "a.gltf")
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := run([]string{"generate", in, "-o", out, "--timeout", "5s"}, &stdout, &stderr)
			took := time.Since(start)
			t.Logf("exit %d in %v: %s", code, took.Round(time.Millisecond), firstLine(stderr.String()))
			if code != exitFailed || !strings.Contains(stderr.String(), c.want) || !strings.Contains(stderr.String(), "over the limit of 10000000") {
				t.Errorf("exit %d, %q: want %d and %q", code, stderr.String(), exitFailed, c.want)
			}
			if strings.Contains(stderr.String(), "abababab") {
				t.Error("the error quotes the node's name")
			}
			if took > 5*time.Second {
				t.Errorf("took %v, past the 5 s timeout", took)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output was written")
			}
		})
	}
	// Names within the cost are matched as before: the rule applies.
	dir := t.TempDir()
	in := filepath.Join(dir, "a.gltf")
	os.WriteFile(in, []byte(strings.Replace(asset, name, strings.Repeat("ab", 2000)+"c", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "p.yaml"), []byte("rules:\n  - name: sphere\n    match: {nameRegex: \"b[ab]{10}c$\"}\n    method: sphere\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "autocollide.yaml"), []byte("profile: p.yaml\n"), 0o644)
	out := filepath.Join(t.TempDir(), "a.gltf")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"generate", in, "-o", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("within the cost: exit %d %s", code, stderr.String())
	}
	data, _ := os.ReadFile(out)
	if !bytes.Contains(data, []byte(`"sphere"`)) {
		t.Error("within the cost: the rule's sphere is not in the output")
	}
}
