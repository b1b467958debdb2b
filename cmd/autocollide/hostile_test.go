//go:build linux

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/testassets"
)

// maxPeakBytes is the memory a hostile input may make a run use.
const maxPeakBytes = 512 << 20

// maxHostileTime bounds each case's wall time, generously: the machine
// the tests run on may be loaded.
const maxHostileTime = 2 * time.Minute

const hostileChildEnv = "AUTOCOLLIDE_HOSTILE_CHILD"

// hostileResult is what a child run reports.
type hostileResult struct {
	Code   int    `json:"code"`
	Stderr string `json:"stderr"`
	// Sys is runtime.MemStats.Sys at exit: the memory the Go runtime
	// obtained from the system, which never shrinks, so it bounds the
	// peak of the heap, stacks and runtime structures.
	Sys uint64 `json:"sys"`
}

// TestHostileChild runs the command line given in the environment and
// reports on stdout; it is the child process of runHostile, and does
// nothing in a normal test run.
func TestHostileChild(t *testing.T) {
	spec := os.Getenv(hostileChildEnv)
	if spec == "" {
		t.Skip("only run as runHostile's child")
	}
	var args []string
	if err := json.Unmarshal([]byte(spec), &args); err != nil {
		t.Fatal(err)
	}
	lim := syscall.Rlimit{Cur: childAddressSpace, Max: childAddressSpace}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out, _ := json.Marshal(hostileResult{Code: code, Stderr: stderr.String(), Sys: ms.Sys})
	fmt.Printf("\nHOSTILE %s\n", out)
}

// runHostile runs the command line in a fresh process (this test binary),
// so its peak memory is its own: the child's runtime figure and the
// kernel's peak resident set size are both returned (the latter may
// include the parent's pages the child shared until it exec'd, so it
// errs high). The child's address space is capped (childAddressSpace)
// and a runtime fatal error aborts it, as main sets; a child that dies
// (of a signal) reports code -1.
func runHostile(t *testing.T, args ...string) (res hostileResult, peakRSS int64, took time.Duration) {
	t.Helper()
	spec, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), hostileChildEnv+"="+string(spec), "GOTRACEBACK=crash")
	start := time.Now()
	out, err := cmd.Output()
	took = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	i := bytes.LastIndex(out, []byte("\nHOSTILE "))
	if err != nil || i < 0 {
		return hostileResult{Code: -1, Stderr: fmt.Sprintf("child run of %v died: %v", args, err)}, peakRSS, took
	}
	line, _, _ := bytes.Cut(out[i+len("\nHOSTILE "):], []byte("\n"))
	if err := json.Unmarshal(line, &res); err != nil {
		t.Fatal(err)
	}
	return res, peakRSS, took
}

// triangleBuffer is a data: URI with one triangle's positions (3 VEC3
// floats, 36 bytes).
func triangleBuffer() string {
	var b bytes.Buffer
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

// fixture is a .gltf with one triangle mesh (mesh 0 on buffer 0, view 0,
// accessor 0) and whatever nodes and further items a case adds.
type fixture struct {
	nodes                             func(w *bytes.Buffer) // writes the nodes array's members
	meshes, buffers, views, accessors []string              // JSON items appended to each array
	extensionsUsed                    string                // JSON array, if any
	extra                             string                // further top-level members, after a comma
}

func (f fixture) write(t *testing.T, path string) string {
	t.Helper()
	list := func(first string, more []string) string { return strings.Join(append([]string{first}, more...), ",") }
	var w bytes.Buffer
	w.WriteString(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[`)
	f.nodes(&w)
	w.WriteString(`],"meshes":[` + list(`{"primitives":[{"attributes":{"POSITION":0}}]}`, f.meshes) + `]`)
	w.WriteString(`,"buffers":[` + list(`{"byteLength":36,"uri":"`+triangleBuffer()+`"}`, f.buffers) + `]`)
	w.WriteString(`,"bufferViews":[` + list(`{"buffer":0,"byteLength":36}`, f.views) + `]`)
	w.WriteString(`,"accessors":[` + list(`{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}`, f.accessors) + `]`)
	if f.extensionsUsed != "" {
		w.WriteString(`,"extensionsUsed":` + f.extensionsUsed)
	}
	w.WriteString(f.extra + "}")
	if err := os.WriteFile(path, w.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHostileInputs: each hostile input fails with exit 1 and one line
// naming the file and where in it the problem is, writes nothing, and
// stays within maxPeakBytes of memory and maxHostileTime.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds large fixtures")
	}
	dir := t.TempDir()
	bad := filepath.Join(testassets.Repo(), "testdata", "bad")
	cases := []struct {
		name string
		// input makes the input file (or returns a shipped one).
		input func(t *testing.T) string
		args  []string
		want  string
	}{
		{"node cycle", func(t *testing.T) string { return filepath.Join(bad, "node-cycle.gltf") }, nil,
			"cycle in the node hierarchy"},
		{"100k-level hierarchy", func(t *testing.T) string {
			const n = 100_000
			return fixture{nodes: func(w *bytes.Buffer) {
				for i := 0; i < n-1; i++ {
					fmt.Fprintf(w, `{"children":[%d]},`, i+1)
				}
				w.WriteString(`{"name":"Leaf","mesh":0}`)
			}}.write(t, filepath.Join(dir, "deep-hierarchy.gltf"))
		}, nil, "node hierarchy deeper than"},
		{"a million nodes instancing one mesh", func(t *testing.T) string {
			const n = 1_000_000
			return fixture{nodes: func(w *bytes.Buffer) {
				w.WriteString(`{"children":[`)
				for i := 1; i < n; i++ {
					if i > 1 {
						w.WriteByte(',')
					}
					fmt.Fprint(w, i)
				}
				w.WriteString(`]}`)
				for i := 1; i < n; i++ {
					w.WriteString(`,{"mesh":0}`)
				}
			}}.write(t, filepath.Join(dir, "million-nodes.gltf"))
		}, nil, "nodes[0].children: more than 100000 elements"},
		{"100,000 nodes with names and matrices", func(t *testing.T) string {
			// The largest hierarchy the array limit lets through, each
			// node as heavy as usual: it loads, and has no geometry.
			const n = 100_000
			return fixture{nodes: func(w *bytes.Buffer) {
				w.WriteString(`{"children":[`)
				for i := 1; i < n; i++ {
					if i > 1 {
						w.WriteByte(',')
					}
					fmt.Fprint(w, i)
				}
				w.WriteString(`]}`)
				for i := 1; i < n; i++ {
					fmt.Fprintf(w, `,{"name":"node%d","matrix":[1,0,0,0,0,1,0,0,0,0,1,0,%d,0,0,1]}`, i, i)
				}
			}}.write(t, filepath.Join(dir, "many-nodes.gltf"))
		}, nil, "no triangle geometry in the scene"},
		{"a million GPU instances", func(t *testing.T) string {
			const n = 1_000_000
			// The TRANSLATION accessor's 12 MB live in an external file.
			bin := make([]byte, 12*n)
			for i := 0; i < n; i++ {
				binary.LittleEndian.PutUint32(bin[12*i:], math.Float32bits(float32(i)))
			}
			if err := os.WriteFile(filepath.Join(dir, "instances.bin"), bin, 0o644); err != nil {
				t.Fatal(err)
			}
			return fixture{
				nodes: func(w *bytes.Buffer) {
					w.WriteString(`{"name":"Swarm","mesh":0,"extensions":{"EXT_mesh_gpu_instancing":{"attributes":{"TRANSLATION":1}}}}`)
				},
				buffers:        []string{fmt.Sprintf(`{"byteLength":%d,"uri":"instances.bin"}`, len(bin))},
				views:          []string{fmt.Sprintf(`{"buffer":1,"byteLength":%d}`, len(bin))},
				accessors:      []string{fmt.Sprintf(`{"bufferView":1,"componentType":5126,"count":%d,"type":"VEC3"}`, n)},
				extensionsUsed: `["EXT_mesh_gpu_instancing"]`,
			}.write(t, filepath.Join(dir, "million-instances.gltf"))
		}, nil, `nodes[0] "Swarm": the scene has at least 1000000 mesh instances`},
		{"accessor claiming billions of triangles", func(t *testing.T) string {
			return fixture{
				nodes:     func(w *bytes.Buffer) { w.WriteString(`{"name":"Huge","mesh":1}`) },
				meshes:    []string{`{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}`},
				accessors: []string{`{"bufferView":0,"componentType":5125,"count":3000000000,"type":"SCALAR"}`},
			}.write(t, filepath.Join(dir, "billions.gltf"))
		}, nil, `nodes[0] "Huge": the scene has more than 10000000 triangles`},
		{"accessor claiming 4 billion positions", func(t *testing.T) string { return filepath.Join(bad, "accessor-huge-count.gltf") }, nil,
			`nodes[0] "Tri": mesh 0 primitive 0: accessor 0: byteOffset 0 + 4000000000×12 exceeds`},
		{"2 GB data: URI", func(t *testing.T) string {
			p := filepath.Join(dir, "two-gigabytes.gltf")
			head := `{"asset":{"version":"2.0"},"buffers":[{"byteLength":1500000000,"uri":"data:application/octet-stream;base64,`
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(head); err != nil {
				t.Fatal(err)
			}
			// A sparse file: 2 GB on paper, nothing on disk.
			if err := f.Truncate(2_000_000_000); err != nil {
				t.Fatal(err)
			}
			return p
		}, nil, "file is 2000000000 bytes, over the limit of"},
		{"data: URI declaring 2 GB", func(t *testing.T) string {
			p := filepath.Join(dir, "declared-two-gigabytes.gltf")
			doc := `{"asset":{"version":"2.0"},"buffers":[{"byteLength":2000000000,"uri":"` + triangleBuffer() + `"}]}`
			if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, nil, "buffers[0].uri: byteLength 2000000000 exceeds the data: URI's 36 bytes"},
		{"image linked to /dev/zero", func(t *testing.T) string {
			if err := os.Symlink("/dev/zero", filepath.Join(dir, "endless.png")); err != nil {
				t.Skip(err)
			}
			return fixture{nodes: func(w *bytes.Buffer) { w.WriteString(`{"mesh":0}`) },
				extra: `,"images":[{"uri":"endless.png"}]`}.write(t, filepath.Join(dir, "endless-image.gltf"))
		}, nil, `images[0].uri "endless.png": resolves outside the asset's folder`},
		{"image of 2 GB", func(t *testing.T) string {
			if err := os.WriteFile(filepath.Join(dir, "huge.png"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(filepath.Join(dir, "huge.png"), 2_000_000_000); err != nil {
				t.Fatal(err)
			}
			return fixture{nodes: func(w *bytes.Buffer) { w.WriteString(`{"mesh":0}`) },
				extra: `,"images":[{"uri":"huge.png"}]`}.write(t, filepath.Join(dir, "huge-image.gltf"))
		}, nil, `images[0].uri "huge.png": file is 2000000000 bytes, over the limit`},
		{"deeply nested JSON", func(t *testing.T) string {
			p := filepath.Join(dir, "nested.gltf")
			const n = 1_000_000
			doc := `{"asset":{"version":"2.0"},"extras":` + strings.Repeat(`{"a":[`, n) + strings.Repeat(`]}`, n) + `}`
			if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, nil, "JSON nested deeper than 256 levels"},
		{"duplicate JSON keys", func(t *testing.T) string { return filepath.Join(bad, "duplicate-keys.gltf") }, nil,
			"duplicate key"},
		{"non-UTF-8 node name", func(t *testing.T) string {
			return fixture{nodes: func(w *bytes.Buffer) {
				w.WriteString("{\"name\":\"Caf\xe9 \xff\xfe\",\"mesh\":0}")
			}}.write(t, filepath.Join(dir, "latin1-name.gltf"))
		}, nil, "nodes[0].name: invalid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.input(t)
			out := filepath.Join(dir, "out", strings.ReplaceAll(c.name, " ", "-")+".glb")
			res, rss, took := runHostile(t, append([]string{"generate", in, "-o", out}, c.args...)...)
			line := strings.TrimSpace(res.Stderr)
			t.Logf("%v, runtime Sys %d MB, peak RSS %d MB: %s", took.Round(time.Millisecond), res.Sys>>20, rss>>20, line)
			if res.Code != 1 || strings.Contains(line, "\n") || !strings.HasPrefix(line, in+": ") || !strings.Contains(line, c.want) {
				t.Errorf("want exit 1 and one line %q… containing %q, got %d %q", in+": ", c.want, res.Code, res.Stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("output written")
			}
			if res.Sys > maxPeakBytes || rss > maxPeakBytes {
				t.Errorf("peak memory: runtime %d MB, resident %d MB, limit %d MB", res.Sys>>20, rss>>20, maxPeakBytes>>20)
			}
			if took > maxHostileTime {
				t.Errorf("took %v", took)
			}
		})
	}
}
