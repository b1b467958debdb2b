package draco

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The streams under testdata were encoded by draco3dgltf 1.5.7 (the npm
// encoder glTF pipelines use) from the meshes in testdata/meshes.json; the
// manifest says how. These tests check what a decoder must give back: the
// input mesh, within each attribute's quantization step.

type inputMesh struct {
	Pos, Nrm, UV, Wts []float64
	Col, Jts, Faces   []int
}

type streamCase struct {
	File        string
	Mesh        string
	Edgebreaker bool
	Speed       int
	IDs         map[string]uint32 `json:"ids"`
	Bits        map[string]int
}

func loadCases(t *testing.T) (map[string]inputMesh, []streamCase) {
	t.Helper()
	var meshes map[string]inputMesh
	var cases []streamCase
	for name, v := range map[string]any{"meshes.json": &meshes, "streams.json": &cases} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return meshes, cases
}

func decodeFile(t *testing.T, name string) *Mesh {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(data, Limits{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// step is the largest dequantization error of values spanning width with
// the given bits; without quantization values are exact up to float32.
func step(width float64, bits int) float64 {
	if bits == 0 {
		return 1e-6 * math.Max(1, width)
	}
	return width/float64(int(1)<<bits-1)/2 + 1e-6
}

func span(v []float64, nc int) float64 {
	w := 0.0
	for c := 0; c < nc; c++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := c; i < len(v); i += nc {
			lo, hi = math.Min(lo, v[i]), math.Max(hi, v[i])
		}
		w = math.Max(w, hi-lo)
	}
	return w
}

// near reports whether a decoded value tuple is within tol of an input one.
func near(got []float64, want []float64, tol float64) bool {
	for i := range got {
		if math.Abs(got[i]-float64(float32(want[i]))) > tol {
			return false
		}
	}
	return true
}

// matchPoints maps every decoded point to an input vertex whose position and
// other attributes all agree with it within their quantization steps.
func matchPoints(t *testing.T, sc streamCase, in inputMesh, m *Mesh) []int {
	t.Helper()
	pos := m.Attribute(sc.IDs["pos"])
	if pos == nil || pos.Type != Position || pos.NumComponents != 3 {
		t.Fatalf("%s: no 3-component position attribute with id %d", sc.File, sc.IDs["pos"])
	}
	type check struct {
		a    *Attribute
		want []float64
		nc   int
		tol  float64
	}
	checks := []check{{pos, in.Pos, 3, step(span(in.Pos, 3), sc.Bits["pos"]) * math.Sqrt(3)}}
	if id, ok := sc.IDs["nrm"]; ok {
		// Octahedral coordinates: a step of 2/(2^bits-2) on the unit
		// octahedron, which normalizing can stretch up to about twice.
		tol := 8.0 / float64(int(1)<<sc.Bits["nrm"]-2)
		if sc.Bits["nrm"] == 0 {
			tol = 1e-6
		}
		checks = append(checks,
			check{m.Attribute(id), in.Nrm, 3, tol},
			check{m.Attribute(sc.IDs["uv"]), in.UV, 2, step(span(in.UV, 2), sc.Bits["uv"])},
			check{m.Attribute(sc.IDs["col"]), ints(in.Col), 4, 0},
			check{m.Attribute(sc.IDs["jts"]), ints(in.Jts), 4, 0},
			check{m.Attribute(sc.IDs["wts"]), in.Wts, 4, step(span(in.Wts, 4), sc.Bits["gen"])})
	}
	for i, c := range checks {
		if c.a == nil || c.a.NumComponents != c.nc || len(c.a.Values) != m.NumPoints*c.nc {
			t.Fatalf("%s: attribute %d missing or mis-sized: %+v", sc.File, i, c.a)
		}
	}
	match := make([]int, m.NumPoints)
	for p := range match {
		match[p] = -1
		for v := 0; v < len(in.Pos)/3 && match[p] < 0; v++ {
			ok := true
			for _, c := range checks {
				if !near(c.a.Values[p*c.nc:(p+1)*c.nc], c.want[v*c.nc:(v+1)*c.nc], c.tol) {
					ok = false
					break
				}
			}
			if ok {
				match[p] = v
			}

		}
		if match[p] < 0 {
			t.Fatalf("%s: point %d (position %v) matches no input vertex", sc.File, p, pos.Values[3*p:3*p+3])
		}
	}
	return match
}

func ints(v []int) []float64 {
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = float64(x)
	}
	return f
}

// triangles lists faces by input-vertex positions, each rotated to start at
// its smallest key (orientation kept), sorted.
func triangles(faces [][3]int, pos []float64) []string {
	key := func(v int) string { return fmt.Sprintf("%.4f,%.4f,%.4f", pos[3*v], pos[3*v+1], pos[3*v+2]) }
	var out []string
	for _, f := range faces {
		k := [3]string{key(f[0]), key(f[1]), key(f[2])}
		for k[0] > k[1] || k[0] > k[2] {
			k = [3]string{k[1], k[2], k[0]}
		}
		out = append(out, strings.Join(k[:], " "))
	}
	sort.Strings(out)
	return out
}

func inputTriangles(in inputMesh) []string {
	var f [][3]int
	for i := 0; i < len(in.Faces); i += 3 {
		f = append(f, [3]int{in.Faces[i], in.Faces[i+1], in.Faces[i+2]})
	}
	return triangles(f, in.Pos)
}

func TestDecodeReproducesInputMesh(t *testing.T) {
	meshes, cases := loadCases(t)
	for _, sc := range cases {
		t.Run(sc.File, func(t *testing.T) {
			in := meshes[sc.Mesh]
			m := decodeFile(t, sc.File)
			for f, face := range m.Faces {
				for _, p := range face {
					if int(p) >= m.NumPoints {
						t.Fatalf("face %d refers to point %d of %d", f, p, m.NumPoints)
					}
				}
			}
			match := matchPoints(t, sc, in, m)
			faces := make([][3]int, len(m.Faces))
			for i, f := range m.Faces {
				faces[i] = [3]int{match[f[0]], match[f[1]], match[f[2]]}
			}
			got, want := triangles(faces, in.Pos), inputTriangles(in)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("decoded %d triangles differ from the %d input triangles", len(got), len(want))
			}
			if id, ok := sc.IDs["nrm"]; ok {
				n := m.Attribute(id)
				for p := 0; p < m.NumPoints; p++ {
					v := n.Values[3*p : 3*p+3]
					if l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]); math.Abs(l-1) > 1e-6 {
						t.Fatalf("normal of point %d has length %v", p, l)
					}
				}
			}
		})
	}
}

// Sequential and edgebreaker connectivity of one mesh give the same
// triangles, though in another order and with other point numbers.
func TestConnectivityMethodsAgree(t *testing.T) {
	meshes, cases := loadCases(t)
	byMesh := map[string][]string{}
	for _, sc := range cases {
		m := decodeFile(t, sc.File)
		match := matchPoints(t, sc, meshes[sc.Mesh], m)
		faces := make([][3]int, len(m.Faces))
		for i, f := range m.Faces {
			faces[i] = [3]int{match[f[0]], match[f[1]], match[f[2]]}
		}
		tris := strings.Join(triangles(faces, meshes[sc.Mesh].Pos), "\n")
		for _, other := range byMesh[sc.Mesh] {
			if other != tris {
				t.Errorf("%s: triangles differ from another stream of mesh %s", sc.File, sc.Mesh)
			}
		}
		byMesh[sc.Mesh] = append(byMesh[sc.Mesh], tris)
	}
}

func TestAttributeLookup(t *testing.T) {
	m := decodeFile(t, "torus_edgebreaker.drc")
	for _, a := range m.Attributes {
		if got := m.Attribute(a.UniqueID); got == nil || got.UniqueID != a.UniqueID || got.Type != a.Type {
			t.Errorf("Attribute(%d) = %+v", a.UniqueID, got)
		}
	}
	if m.Attribute(99) != nil {
		t.Error("Attribute(99) found an attribute the stream does not have")
	}
}

func TestLimitsRefuseBeforeDecoding(t *testing.T) {
	for _, name := range []string{"torus_sequential.drc", "torus_edgebreaker.drc"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		m, err := Decode(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(data, Limits{MaxFaces: len(m.Faces) - 1}); err == nil || !strings.Contains(err.Error(), "limit") {
			t.Errorf("%s: MaxFaces %d: err = %v, want a limit error", name, len(m.Faces)-1, err)
		}
		if _, err := Decode(data, Limits{MaxPoints: m.NumPoints - 1}); err == nil || !strings.Contains(err.Error(), "limit") {
			t.Errorf("%s: MaxPoints %d: err = %v, want a limit error", name, m.NumPoints-1, err)
		}
		if _, err := Decode(data, Limits{MaxFaces: len(m.Faces), MaxPoints: m.NumPoints}); err != nil {
			t.Errorf("%s: limits at the exact counts: %v", name, err)
		}
	}
}

// Every truncation of every stream is an error naming a section and a byte
// offset, never a panic (Decode's recover would say "internal error").
func TestTruncatedStreamsFail(t *testing.T) {
	_, cases := loadCases(t)
	for _, sc := range cases {
		data, _ := os.ReadFile(filepath.Join("testdata", sc.File))
		for n := 0; n < len(data); n++ {
			_, err := Decode(data[:n:n], Limits{})
			if err == nil {
				t.Fatalf("%s cut to %d of %d bytes decodes", sc.File, n, len(data))
			}
			if msg := err.Error(); strings.Contains(msg, "internal error") || !strings.Contains(msg, "byte ") {
				t.Fatalf("%s cut to %d bytes: %v", sc.File, n, err)
			}
		}
	}
}

// Corrupting any byte gives a decoded mesh or a plain error, never a panic.
func TestCorruptedStreamsDoNotPanic(t *testing.T) {
	_, cases := loadCases(t)
	for _, sc := range cases {
		data, _ := os.ReadFile(filepath.Join("testdata", sc.File))
		bad := make([]byte, len(data))
		for i := range data {
			for _, x := range []byte{0xff, data[i] ^ 0x01} {
				copy(bad, data)
				bad[i] = x
				if _, err := Decode(bad, Limits{}); err != nil && strings.Contains(err.Error(), "internal error") {
					t.Fatalf("%s, byte %d set to %#x: %v", sc.File, i, x, err)
				}
			}
		}
	}
}

// Bitstreams before 2.2 are refused, as the reference decoder refuses them.
func TestOlderBitstreamsRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "torus_sequential.drc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, minor := range []byte{0, 1, 3} {
		old := append([]byte(nil), data...)
		old[6] = minor
		if _, err := Decode(old, Limits{}); err == nil || !strings.Contains(err.Error(), "version 2.") {
			t.Errorf("bitstream 2.%d: err = %v, want a version error", minor, err)
		}
	}
}

func TestNotDraco(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("DRAC"), []byte("glTF\x02\x00\x00\x00"), []byte("DRACO\x02\x02\x00\x00\x00\x00")} {
		if _, err := Decode(data, Limits{}); err == nil {
			t.Errorf("%q decodes", data)
		}
	}
}

// A stream with file and attribute metadata (skipped) still decodes: the
// quad (0,0,0) (1,0,0) (0,1,0) (1,1,0), two triangles, unquantized.
func TestMetadataIsSkipped(t *testing.T) {
	m := decodeFile(t, "quad_metadata.drc")
	pos := m.Attribute(0)
	if m.NumPoints != 4 || len(m.Faces) != 2 || pos == nil {
		t.Fatalf("got %d points, %d faces, positions %v", m.NumPoints, len(m.Faces), pos)
	}
	seen := map[[3]float64]bool{}
	for p := 0; p < 4; p++ {
		seen[[3]float64(pos.Values[3*p:3*p+3])] = true
	}
	for _, want := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}} {
		if !seen[want] {
			t.Errorf("corner %v missing from %v", want, pos.Values)
		}
	}
	used := map[uint32]bool{}
	for _, f := range m.Faces {
		for _, p := range f {
			used[p] = true
		}
	}
	if len(used) != 4 {
		t.Errorf("faces %v do not use all four points", m.Faces)
	}
}
