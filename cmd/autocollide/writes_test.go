package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
)

// cubeFolder copies Cube.gltf and its resources into a new folder under
// names: each name in gltfs gets Cube.gltf's JSON with the replacements
// given (old URI → new URI), and every resource is written under its
// own name and under each replacement's new name.
func cubeFolder(t *testing.T, gltfs map[string]map[string]string) string {
	t.Helper()
	cube := filepath.Join(testassets.Shared(t), "corpus", "Cube", "glTF")
	dir := t.TempDir()
	js, err := os.ReadFile(filepath.Join(cube, "Cube.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Cube.bin", "Cube_BaseColor.png", "Cube_MetallicRoughness.png"} {
		copyTo(t, filepath.Join(cube, f), filepath.Join(dir, f))
	}
	for name, repl := range gltfs {
		s := string(js)
		for old, uri := range repl {
			s = strings.Replace(s, `"`+old+`"`, `"`+uri+`"`, 1)
			copyTo(t, filepath.Join(cube, old), filepath.Join(dir, uri))
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			m[rel] = string(b)
		}
		return nil
	})
	return m
}

// Files that are not outputs are never written (issue #41, defect 2):
// each run below would overwrite an input's resource or another output;
// it is refused with exit 2, naming both, and nothing is written. On
// main at 7919010 each exited 0 and the other asset no longer loaded, or
// its texture was replaced by a preview.
func TestNoWriteOverInputs(t *testing.T) {
	for _, c := range []struct {
		name  string
		gltfs map[string]map[string]string
		args  func(dir string) []string
		want  []string
	}{
		{"in place over another asset's buffer",
			map[string]map[string]string{"a.gltf": nil, "b.gltf": {"Cube.bin": "a.colliders.bin"}},
			func(d string) []string {
				return []string{"--in-place", filepath.Join(d, "a.gltf"), filepath.Join(d, "b.gltf"), "--method", "hull"}
			},
			[]string{"a.colliders.bin (buffers[0].uri of", "b.gltf", "the .bin of the output of"}},
		{"previews over a texture",
			map[string]map[string]string{"Cube_BaseColor.gltf": nil},
			func(d string) []string {
				return []string{filepath.Join(d, "Cube_BaseColor.gltf"), "--out-dir", filepath.Join(d, "out"), "--preview-dir", d}
			},
			[]string{"the preview", "Cube_BaseColor.png (images[0].uri of"}},
		{"the report over an input's buffer",
			map[string]map[string]string{"a.gltf": nil},
			func(d string) []string {
				return []string{filepath.Join(d, "a.gltf"), "--out-dir", filepath.Join(d, "out"), "--report", filepath.Join(d, "Cube.bin")}
			},
			[]string{"the report", "Cube.bin (buffers[0].uri of"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := cubeFolder(t, c.gltfs)
			args := c.args(dir)
			before := snapshot(t, dir)
			code, _, stderr := runCLI(append([]string{"generate", "-q"}, args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d (refused before anything is written): %s", code, exitUsage, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			after := snapshot(t, dir)
			if fmt.Sprint(before) != fmt.Sprint(after) {
				for k, v := range after {
					if before[k] != v {
						t.Errorf("%s was written", k)
					}
				}
			}
		})
	}
}

// -o and --report at a link to /proc/self/fd/N (what /dev/stdout is) are
// written into the stream, never replaced by a regular file (issue #41,
// defect 9). On main at 7919010 the link became a regular file and
// nothing reached the stream.
func TestOutputToProcLink(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	in := filepath.Join(testassets.Shared(t), "corpus", "Box", "glTF-Binary", "Box.glb")
	for _, flag := range []string{"-o", "--report"} {
		sink, err := os.Create(filepath.Join(dir, "sink"+flag))
		if err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "stdout"+flag+".glb")
		if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", sink.Fd()), link); err != nil {
			t.Fatal(err)
		}
		args := []string{"generate", in, "-o", link, "-q"}
		if flag == "--report" {
			args = []string{"generate", in, "-o", filepath.Join(dir, "box.glb"), "--report", strings.TrimSuffix(link, ".glb") + ".json", "-q"}
			os.Rename(link, strings.TrimSuffix(link, ".glb")+".json")
			link = strings.TrimSuffix(link, ".glb") + ".json"
		}
		code, _, stderr := runCLI(args...)
		sink.Close()
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", flag, code, stderr)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", flag)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "sink"+flag))
		switch {
		case flag == "-o" && !bytes.HasPrefix(got, []byte("glTF")):
			t.Errorf("-o: the stream got %d bytes, not a GLB", len(got))
		case flag == "--report" && !bytes.Contains(got, []byte(`"assets"`)):
			t.Errorf("--report: the stream got %q", got)
		}
	}
}

// An unreadable subfolder fails alone (issue #41, defect 10): exit 1,
// the rest processed. The folder is made unreadable by a path longer
// than PATH_MAX (ENAMETOOLONG even for root, who permissions do not
// deny). On main at 7919010 the run exited 2 and wrote nothing.
func TestUnreadableSubfolder(t *testing.T) {
	dir := cubeFolder(t, map[string]map[string]string{"a.gltf": nil})
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := "deep"
	r.Mkdir(p, 0o755)
	for len(dir)+len(p) < 4300 {
		p = filepath.Join(p, strings.Repeat("d", 200))
		if err := r.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.Close()
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runCLI("generate", dir, "--out-dir", out, "-q")
	if code != exitFailed || !strings.Contains(stderr, "file name too long") {
		t.Errorf("exit %d, want %d naming the folder: %s", code, exitFailed, stderr)
	}
	if _, err := gltfio.Load(filepath.Join(out, "a.gltf"), gltfio.Limits{}); err != nil {
		t.Errorf("the readable file was not written: %v", err)
	}
}

// A deleted or changed .colliders.bin makes the next run regenerate that
// output (issue #40's loose end; issue #41, defect 3). On main at
// 7919010 the next run said "cached" and the output stayed unloadable.
func TestDeletedBinRegenerates(t *testing.T) {
	dir := cubeFolder(t, map[string]map[string]string{"a.gltf": nil})
	out := filepath.Join(t.TempDir(), "out")
	gen := func() (int, string) {
		code, stdout, stderr := runCLI("generate", filepath.Join(dir, "a.gltf"), "--out-dir", out, "--method", "hull", "-v")
		return code, stdout + stderr
	}
	if code, log := gen(); code != 0 {
		t.Fatal(log)
	}
	binName := regexp.MustCompile(`^a\.colliders.*\.bin$`)
	var bin string
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if binName.MatchString(e.Name()) {
			bin = filepath.Join(out, e.Name())
		}
	}
	if bin == "" {
		t.Fatalf("no .colliders .bin in %v", entries)
	}
	for _, damage := range []func(){
		func() { os.Remove(bin) },
		func() { os.WriteFile(bin, []byte("not the hulls"), 0o644) },
	} {
		damage()
		code, log := gen()
		if code != 0 || strings.Contains(log, ": current (") {
			t.Errorf("exit %d, %q: want the output regenerated", code, log)
		}
		if _, err := gltfio.Load(filepath.Join(out, "a.gltf"), gltfio.Limits{}); err != nil {
			t.Errorf("the output does not load: %v", err)
		}
	}
	if code, log := gen(); code != 0 || !strings.Contains(log, ": current (") {
		t.Errorf("a run after the repair: exit %d, %q: want \"current\" (cached)", code, log)
	}
}
