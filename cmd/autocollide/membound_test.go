//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autocollide/autocollide/internal/hostile"
)

// The memory promise of README ("Limits"): for any input up to
// --max-file-size, peak resident memory stays under memoryBase plus
// memoryPerByte times the input's size.
const (
	memoryBase    = 512 << 20
	memoryPerByte = 8
)

// childAddressSpace caps the child's virtual memory, so that a runaway
// dies in seconds instead of taking the machine. It is a cap on address
// space, not on resident memory: the Go runtime reserves about 1.2 GB of
// address space before main runs (under 1.5 GB it cannot start), so the
// cap sits well above that and the bound itself is checked on the
// kernel's peak RSS (rusage Maxrss). GOMEMLIMIT would not do: it is a
// target for the collector, not a limit, and a live heap passes it.
const childAddressSpace = 3 << 30

// TestMemoryBound runs the amplifying inputs of issue 27 (built here by
// code) in child processes: each ends with its expected exit code (never
// 2 for an input, never a signal), within the memory bound of its size,
// and with a bounded output when it succeeds.
func TestMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("builds large fixtures and runs children")
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	furniture := example(t)
	cases := []struct {
		name  string
		in    string
		args  func(in, out string) []string
		code  int
		want  string // in stderr
		outAt int    // when > 0: the output is at most outAt times the input
	}{
		{name: "meshopt stream declaring 10M vertices", in: write("meshopt.glb", hostile.MeshoptVertices(10_000_000)),
			code: exitFailed, want: "compressed POSITION declares 10000000 vertices"},
		{name: "arrays nested 250 deep in extras", in: write("nested.gltf", hostile.NestedExtras(250, 1_500_000)),
			code: exitOK, outAt: 4},
		{name: "extras object of 1M keys", in: write("wide.gltf", hostile.WideExtras(1_000_000)),
			code: exitFailed, want: "more than 100000 members"},
		{name: "2.4M JSON values, just under the budget", in: write("values.gltf", hostile.ManyValues(2_400_000)),
			code: exitOK, outAt: 3},
		{name: "1 MB mesh name on 200 nodes", in: write("long.gltf", hostile.LongName(1<<20, 200)),
			code: exitOK, outAt: 2},
		{name: "profile of 100,000 rules", in: write("rules.yaml", hostile.Profile(100_000)),
			args: func(in, out string) []string {
				return []string{"generate", furniture, "-o", out + ".glb", "--profile", in}
			}, code: exitUsage, want: "over the limit of 1048576"},
		// Issue 41, defect 1: instances of one mesh in one dynamic body
		// cost what the distinct geometry costs (before: out of memory
		// in 9 s, the union's pairs).
		{name: "8,000 GPU instances of a cube at the origin", in: write("instances-origin.gltf", hostile.Instanced(8_000, 0)),
			code: exitOK},
		{name: "9,000 GPU instances of a cube shifted 0.1 mm apart", in: write("instances-shifted.gltf", hostile.Instanced(9_000, 1e-4)),
			code: exitOK},
		// Issue 41, defect 8: the colliders of a run are bounded (25,000
		// small hulls peaked at 954 MB; 99,999 boxes at 1.4 GB).
		{name: "25,000 GPU instances with hulls", in: write("instances-25000.gltf", hostile.Instanced(25_000, 2)),
			args: func(in, out string) []string {
				return []string{"generate", in, "-o", out + ".gltf", "--method", "hull"}
			}, code: exitFailed, want: "25000 colliders to generate, over the limit of 10000"},
		{name: "99,999 GPU instances 2 m apart", in: write("instances-99999.gltf", hostile.Instanced(99_999, 2)),
			code: exitFailed, want: "over the limit of 10000"},
		// Issue 41, defect 8: authored physics costs more than its
		// JSON (the physics readers and the validator decode it again):
		// 99,990 OMI colliders in 13 MB peaked at 933 MB, over the
		// bound of 620 MB; values in extensions now count three times.
		{name: "99,990 authored colliders", in: write("colliders.gltf", hostile.Colliders(99_990)),
			code: exitFailed, want: "values in extensions count 3 times"},
		{name: "40,000 authored colliders", in: write("colliders-40000.gltf", hostile.Colliders(40_000)),
			code: exitOK, outAt: 3},
		// Meshes only physics reads count against the triangle limit,
		// once each, before any is decoded.
		{name: "40 physics-only Draco meshes declaring 9.9M faces", in: write("draco.glb", hostile.PhysicsOnlyDraco(40, 9_900_000, 37_000)),
			code: exitFailed, want: "those of the meshes outside it (such as physics hull meshes) once"},
		{name: "validate: 40 physics-only Draco meshes declaring 9.9M faces", in: write("draco-validate.glb", hostile.PhysicsOnlyDraco(40, 9_900_000, 37_000)),
			args: func(in, out string) []string { return []string{"validate", in} },
			code: exitFailed, want: "those of the meshes outside it (such as physics hull meshes) once"},
		{name: "preview at 8192 x 8192", in: furniture,
			args: func(in, out string) []string {
				return []string{"preview", in, "-o", out + ".png", "--width", "8192", "--height", "8192"}
			}, code: exitUsage, want: "over the limit"},
		{name: "preview at 4096 x 4096", in: furniture,
			args: func(in, out string) []string {
				return []string{"preview", in, "-o", out + ".png", "--width", "4096", "--height", "4096"}
			}, code: exitOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out", strings.ReplaceAll(c.name, " ", "-"))
			os.MkdirAll(filepath.Dir(out), 0o755)
			args := []string{"generate", c.in, "-o", out + filepath.Ext(c.in), "--method", "box"}
			if c.args != nil {
				args = c.args(c.in, out)
			}
			st, err := os.Stat(c.in)
			if err != nil {
				t.Fatal(err)
			}
			bound := memoryBase + memoryPerByte*st.Size()
			res, rss, took := runHostile(t, args...)
			t.Logf("input %d kB, exit %d, runtime Sys %d MB, peak RSS %d MB (bound %d MB), %v: %s",
				st.Size()>>10, res.Code, res.Sys>>20, rss>>20, bound>>20, took.Round(time.Millisecond), firstLine(res.Stderr))
			if res.Code != c.code || !strings.Contains(res.Stderr, c.want) {
				t.Errorf("exit %d %q, want %d and %q", res.Code, res.Stderr, c.code, c.want)
			}
			if rss > bound || int64(res.Sys) > bound {
				t.Errorf("peak memory: resident %d MB, runtime %d MB, over the bound of %d MB", rss>>20, res.Sys>>20, bound>>20)
			}
			if c.outAt > 0 {
				o, err := os.Stat(out + filepath.Ext(c.in))
				if err != nil || o.Size() > int64(c.outAt)*st.Size() {
					t.Errorf("output %v, %v: want at most %d times the input", o, err, c.outAt)
				}
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(l) > 160 {
		l = l[:160] + "…"
	}
	return l
}
