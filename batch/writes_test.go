package batch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
)

// generatedBins lists the .bin files of a .gltf output (stem) in dir.
func generatedBins(t *testing.T, dir, stem string) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if gltfio.IsGeneratedBin(stem, e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// The cache checks every file of an output (issue #41, defect 3; issue
// #40's loose end): a .gltf output's .bin deleted, changed or replaced
// makes the next run regenerate that output. On main at 7919010 the
// rerun said "cached" and left the output unloadable.
func TestCacheChecksEveryFile(t *testing.T) {
	root := tree(t)
	out := t.TempDir()
	jobs := plan(t, root, out, Shard{})
	hulls := aabb
	hulls.Collider.Method = generate.Hull // data of its own: a .bin
	run(t, jobs, Options{Workers: 2, Generate: hulls})
	cube := filepath.Join(out, "gltf", "Cube.gltf")
	status := func() Status {
		for _, a := range run(t, jobs, Options{Workers: 2, Generate: hulls}) {
			if a.Input == filepath.Join(root, "gltf", "Cube.gltf") {
				return a.Status
			}
		}
		t.Fatal("no Cube.gltf job")
		return ""
	}
	bins := generatedBins(t, filepath.Join(out, "gltf"), "Cube")
	if len(bins) != 1 {
		t.Fatalf("Cube.gltf's output has the .bin files %v, want one", bins)
	}
	bin := bins[0]
	good, _ := os.ReadFile(bin)
	for _, damage := range []struct {
		name string
		do   func()
	}{
		{"deleted", func() { os.Remove(bin) }},
		{"changed", func() { os.WriteFile(bin, append([]byte{good[0] ^ 0xFF}, good[1:]...), 0o644) }},
		{"truncated", func() { os.WriteFile(bin, good[:len(good)/2], 0o644) }},
		{"a copied image deleted", func() { os.Remove(filepath.Join(out, "gltf", "Cube_BaseColor.png")) }},
	} {
		damage.do()
		if s := status(); s != OK {
			t.Errorf("%s: the rerun says %s, want it redone (ok)", damage.name, s)
		}
		if _, err := gltfio.Load(cube, gltfio.Limits{}); err != nil {
			t.Errorf("%s: after the rerun the output does not load: %v", damage.name, err)
		}
		if got, _ := os.ReadFile(bin); string(got) != string(good) {
			t.Errorf("%s: the .bin was not restored", damage.name)
		}
		if s := status(); s != Cached {
			t.Errorf("%s: the run after the repair says %s, want cached", damage.name, s)
		}
	}
	// The cache file records the .bin and the copies.
	data, _ := os.ReadFile(filepath.Join(out, "gltf", CacheFileName))
	var cf cacheFile
	json.Unmarshal(data, &cf)
	if e := cf.Entries["Cube.gltf"]; len(e.Files) != 4 || e.Files[filepath.Base(bin)] == "" {
		t.Errorf("cache entry files %v: want the .bin and three copies", e.Files)
	}
}

// deepDir makes under dir a chain of folders whose path is longer than
// the system's PATH_MAX, with a .glb at its end: listing its last folder
// fails even for root (ENAMETOOLONG). This is how the tests make a
// folder that cannot be read, since a permission-denied folder does not
// deny root.
func deepDir(t *testing.T, dir string, glb []byte) string {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := "deep"
	if err := r.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	for len(dir)+len(p) < 4300 {
		p = filepath.Join(p, strings.Repeat("d", 200))
		if err := r.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.WriteFile(filepath.Join(p, "lost.glb"), glb, 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "deep")
}

// A folder that cannot be read fails alone (issue #41, defect 10): the
// listing goes on, the rest is processed, and the unreadable path is a
// failed job. On main at 7919010 Plan returned the error and nothing
// ran (the command exited 2, the usage code).
func TestUnreadableFolderFailsAlone(t *testing.T) {
	root := tree(t)
	box, _ := os.ReadFile(filepath.Join(root, "props", "Box.glb"))
	deepDir(t, filepath.Join(root, "props"), box)
	out := t.TempDir()
	jobs, err := Plan([]string{root}, PlanOptions{OutDir: out})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var unreadable []Job
	for _, j := range jobs {
		if j.Unreadable != "" {
			unreadable = append(unreadable, j)
		}
	}
	if len(unreadable) != 1 || !strings.Contains(unreadable[0].Unreadable, "file name too long") {
		t.Fatalf("unreadable jobs %+v, want the deep folder's", unreadable)
	}
	ok := 0
	for _, a := range run(t, jobs, Options{Workers: 2}) {
		switch {
		case a.Input == unreadable[0].Input:
			if a.Status != Failed || !strings.Contains(a.Error, "reading ") {
				t.Errorf("the unreadable folder: %s %q", a.Status, a.Error)
			}
		case a.Status == OK:
			ok++
		}
	}
	if ok != 4 {
		t.Errorf("%d files ok, want the 4 readable good ones", ok)
	}
	if _, err := os.Stat(filepath.Join(out, "props", "Box.glb")); err != nil {
		t.Error("the rest was not written")
	}
}

// One rule for every write (issue #41, defect 2): a run that would write
// over an input, a resource of one, or another of its outputs is refused
// before anything is written, naming both.
func TestCheckWrites(t *testing.T) {
	corpus := tree(t)
	cube, _ := os.ReadFile(filepath.Join(corpus, "gltf", "Cube.gltf"))
	boxGLB, _ := os.ReadFile(filepath.Join(corpus, "props", "Box.glb"))
	files := map[string][]byte{}
	for _, f := range []string{"Cube.bin", "Cube_BaseColor.png", "Cube_MetallicRoughness.png"} {
		files[f], _ = os.ReadFile(filepath.Join(corpus, "gltf", f))
	}
	// withImage is Cube.gltf with its base colour image renamed.
	withImage := func(name string) []byte {
		return []byte(strings.Replace(string(cube), `"Cube_BaseColor.png"`, `"`+name+`"`, 1))
	}
	withBuffer := func(name string) []byte {
		return []byte(strings.Replace(string(cube), `"Cube.bin"`, `"`+name+`"`, 1))
	}
	type tc struct {
		name  string
		files map[string][]byte // besides Cube's resources, in the asset folder
		args  []string          // relative to the asset folder
		plan  func(dir string) PlanOptions
		w     func(dir string) Writes
		want  []string // in the error; nil: no error
	}
	outDir := func(dir string) PlanOptions { return PlanOptions{OutDir: filepath.Join(dir, "out")} }
	inPlace := func(string) PlanOptions { return PlanOptions{InPlace: true} }
	plain := func(string) Writes { return Writes{Outputs: true} }
	cases := []tc{
		{name: "in place: a.colliders.bin is b's buffer", files: map[string][]byte{"a.gltf": cube, "b.gltf": withBuffer("a.colliders.bin"), "a.colliders.bin": files["Cube.bin"]},
			args: []string{"a.gltf", "b.gltf"}, plan: inPlace, w: plain, want: []string{"a.colliders.bin (buffers[0].uri of", "b.gltf", "the .bin of the output of", "a.gltf"}},
		{name: "in place: a hash-named .bin is b's buffer", files: map[string][]byte{"a.gltf": cube, "b.gltf": withBuffer("a.colliders.0123456789abcdef.bin"), "a.colliders.0123456789abcdef.bin": files["Cube.bin"]},
			args: []string{"a.gltf", "b.gltf"}, plan: inPlace, w: plain, want: []string{"a.colliders.0123456789abcdef.bin (buffers[0].uri of"}},
		{name: "-o over a resource", files: map[string][]byte{"a.gltf": cube},
			args: []string{"a.gltf"}, plan: func(d string) PlanOptions { return PlanOptions{Output: filepath.Join(d, "Cube.bin")} }, w: plain, want: []string{"the output", "Cube.bin (buffers[0].uri of"}},
		{name: "previews over a texture", files: map[string][]byte{"Cube_BaseColor.gltf": cube},
			args: []string{"Cube_BaseColor.gltf"}, plan: outDir, w: func(d string) Writes { return Writes{Outputs: true, PreviewDir: d} },
			want: []string{"the preview", "Cube_BaseColor.png (images[0].uri of"}},
		{name: "an image named like an input .glb", files: map[string][]byte{"a.gltf": withImage("b.glb"), "b.glb": boxGLB},
			args: []string{"a.gltf", "b.glb"}, plan: outDir, w: plain, want: []string{"b.glb (the copy of b.glb for", "the output"}},
		{name: "an image named like another output's .bin", files: map[string][]byte{"a.gltf": withImage("b.colliders.bin"), "b.colliders.bin": files["Cube_BaseColor.png"], "b.gltf": cube},
			args: []string{"a.gltf", "b.gltf"}, plan: outDir, w: plain, want: []string{"the copy of b.colliders.bin", "the .bin of the output of"}},
		{name: "an image named as the cache", files: map[string][]byte{"a.gltf": withImage(CacheFileName), CacheFileName: files["Cube_BaseColor.png"]},
			args: []string{"a.gltf"}, plan: outDir, w: func(string) Writes { return Writes{Outputs: true, Cache: true} }, want: []string{"the cache file", "the copy of " + CacheFileName}},
		{name: "the report over an input", files: map[string][]byte{"a.gltf": cube},
			args: []string{"a.gltf"}, plan: outDir, w: func(d string) Writes { return Writes{Report: filepath.Join(d, "Cube.bin")} }, want: []string{"the report", "Cube.bin (buffers[0].uri"}},
		{name: "two inputs sharing their resources", files: map[string][]byte{"a.gltf": cube, "b.gltf": cube},
			args: []string{"a.gltf", "b.gltf"}, plan: outDir, w: func(d string) Writes {
				return Writes{Outputs: true, Cache: true, PreviewDir: filepath.Join(d, "previews"), Report: filepath.Join(d, "out", "r.json")}
			}},
		{name: "in place, its own earlier .bin", files: map[string][]byte{"a.gltf": withBuffer("a.colliders.0123456789abcdef.bin"), "a.colliders.0123456789abcdef.bin": files["Cube.bin"]},
			args: []string{"a.gltf"}, plan: inPlace, w: plain},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range files {
				os.WriteFile(filepath.Join(dir, name), data, 0o644)
			}
			for name, data := range c.files {
				os.WriteFile(filepath.Join(dir, name), data, 0o644)
			}
			var args []string
			for _, a := range c.args {
				args = append(args, filepath.Join(dir, a))
			}
			jobs, err := Plan(args, c.plan(dir))
			if err != nil {
				t.Fatal(err)
			}
			err = CheckWrites(jobs, c.w(dir), gltfio.Limits{})
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted; want an error with %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// Previews of one listing never share a name, whichever shard or
// settings group draws them (issue #41, defect 2): Plan names them over
// the whole listing. On main at 7919010 x.glb and x.gltf in two shards
// both drew x.png.
func TestPreviewNamesOverTheListing(t *testing.T) {
	dir := t.TempDir()
	box, _ := os.ReadFile(filepath.Join(tree(t), "props", "Box.glb"))
	for _, f := range []string{"a/x.glb", "b/x.glb", "a/X.GLB.glb"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), box, 0o644)
	}
	jobs, err := Plan([]string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}, PlanOptions{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range jobs {
		// Each job alone, as a shard of one or a group of one would run it.
		p := strings.ToLower(previewPaths(jobs[i:i+1], "/previews")[0])
		if seen[p] {
			t.Errorf("two jobs draw %s", p)
		}
		seen[p] = true
	}
}
