package draco_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/draco"
	"github.com/autocollide/autocollide/internal/testassets"
)

// The npm draco3dgltf encoder and decoder (tools/draco/*.mjs) are the
// reference: streams are encoded by it from meshes generated here, and
// Decode must give the reference decoder's faces and attribute values
// exactly, in the same order.

// runDracoNode runs tools/draco/<script> once with req as JSON on stdin and
// decodes its JSON answer into resp (one node process per batch).
func runDracoNode(t testing.TB, script string, req, resp any) {
	t.Helper()
	testassets.RunNode(t, "draco3dgltf", filepath.Join("draco", script), req, resp)
}

// encAttr is one attribute of an encode.mjs request.
type encAttr struct {
	Type       string `json:"type"`     // POSITION, NORMAL, COLOR, TEX_COORD, GENERIC
	DataType   string `json:"dataType"` // float32, uint8, uint16, ...
	Components int    `json:"components"`
	Normalized bool   `json:"normalized,omitempty"`
	Data       []byte `json:"data"`
	Bits       int    `json:"bits,omitempty"` // 0: not quantized
	role       string // position, normal, texcoord, color, joint, weight
}

// encRequest is one mesh for encode.mjs.
type encRequest struct {
	Indices    []byte    `json:"indices"`
	Attributes []encAttr `json:"attributes"`
	Method     string    `json:"method"` // edgebreaker, sequential
	Level      int       `json:"level"`  // 0..10
	name       string
}

type encResult struct {
	Drc   []byte `json:"drc"`
	IDs   []int  `json:"ids"`
	Error string `json:"error"`
}

// refMesh is decode.mjs's answer for one stream.
type refMesh struct {
	Error      string    `json:"error"`
	Points     int       `json:"points"`
	Faces      []byte    `json:"faces"` // uint32 LE
	Attributes []refAttr `json:"attributes"`
}

type refAttr struct {
	UniqueID   uint32 `json:"uniqueId"`
	Type       int    `json:"type"`
	DataType   int    `json:"dataType"`
	Components int    `json:"components"`
	Normalized bool   `json:"normalized"`
	Values     []byte `json:"values"` // LE in DataType
}

// refEncode encodes the requests with the npm encoder in one node process.
func refEncode(t testing.TB, reqs []encRequest) [][]byte {
	t.Helper()
	var res []encResult
	runDracoNode(t, "encode.mjs", reqs, &res)
	if len(res) != len(reqs) {
		t.Fatalf("encode.mjs answered %d results for %d meshes", len(res), len(reqs))
	}
	out := make([][]byte, len(res))
	for i, r := range res {
		if r.Error != "" {
			t.Fatalf("encode %s: %s", reqs[i].name, r.Error)
		}
		out[i] = r.Drc
	}
	return out
}

// refDecode decodes the streams with the npm decoder in one node process.
func refDecode(t testing.TB, streams [][]byte) []refMesh {
	t.Helper()
	var res []refMesh
	runDracoNode(t, "decode.mjs", streams, &res)
	if len(res) != len(streams) {
		t.Fatalf("decode.mjs answered %d results for %d streams", len(res), len(streams))
	}
	return res
}

// values converts the reference's raw values to float64.
func (a refAttr) values() ([]float64, error) {
	size := map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 9: 4}[a.DataType]
	if size == 0 {
		return nil, fmt.Errorf("data type %d not handled", a.DataType)
	}
	le := binary.LittleEndian
	v := make([]float64, len(a.Values)/size)
	for i := range v {
		b := a.Values[i*size:]
		switch a.DataType {
		case 1:
			v[i] = float64(int8(b[0]))
		case 2:
			v[i] = float64(b[0])
		case 3:
			v[i] = float64(int16(le.Uint16(b)))
		case 4:
			v[i] = float64(le.Uint16(b))
		case 5:
			v[i] = float64(int32(le.Uint32(b)))
		case 6:
			v[i] = float64(le.Uint32(b))
		case 9:
			v[i] = float64(math.Float32frombits(le.Uint32(b)))
		}
	}
	return v, nil
}

// sameAsReference returns the first difference between Decode's mesh and
// the reference decoder's, or nil when faces, point count and every
// attribute (order, unique id, type, data type, components, normalized
// flag and each value, bit for bit) are equal.
func sameAsReference(got *draco.Mesh, want refMesh) error {
	if got.NumPoints != want.Points {
		return fmt.Errorf("%d points, reference %d", got.NumPoints, want.Points)
	}
	if len(got.Faces)*12 != len(want.Faces) {
		return fmt.Errorf("%d faces, reference %d", len(got.Faces), len(want.Faces)/12)
	}
	le := binary.LittleEndian
	for f, face := range got.Faces {
		for k, v := range face {
			if w := le.Uint32(want.Faces[12*f+4*k:]); v != w {
				return fmt.Errorf("face %d corner %d is point %d, reference %d", f, k, v, w)
			}
		}
	}
	if len(got.Attributes) != len(want.Attributes) {
		return fmt.Errorf("%d attributes, reference %d", len(got.Attributes), len(want.Attributes))
	}
	for i, w := range want.Attributes {
		g := got.Attributes[i]
		if g.UniqueID != w.UniqueID || int(g.Type) != w.Type || int(g.DataType) != w.DataType || g.NumComponents != w.Components || g.Normalized != w.Normalized {
			return fmt.Errorf("attribute %d is id %d type %d data type %d × %d normalized %v, reference id %d type %d data type %d × %d normalized %v",
				i, g.UniqueID, g.Type, g.DataType, g.NumComponents, g.Normalized, w.UniqueID, w.Type, w.DataType, w.Components, w.Normalized)
		}
		if a := got.Attribute(w.UniqueID); a == nil || a.UniqueID != w.UniqueID {
			return fmt.Errorf("Mesh.Attribute(%d) does not find attribute %d", w.UniqueID, i)
		}
		wv, err := w.values()
		if err != nil {
			return fmt.Errorf("attribute %d: %v", w.UniqueID, err)
		}
		if len(g.Values) != len(wv) {
			return fmt.Errorf("attribute %d: %d values, reference %d", w.UniqueID, len(g.Values), len(wv))
		}
		for k, v := range wv {
			if math.Float64bits(g.Values[k]) != math.Float64bits(v) {
				return fmt.Errorf("attribute %d: value %d (point %d component %d) is %v, reference %v",
					w.UniqueID, k, k/max(w.Components, 1), k%max(w.Components, 1), g.Values[k], v)
			}
		}
	}
	return nil
}

// --- generated meshes ---

func genRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x647261636f)) }

// genShape is a triangle mesh: positions (x, y, z per point) and faces.
type genShape struct {
	name  string
	pos   []float32
	faces [][3]uint32
}

func (s *genShape) add(x, y, z float64) uint32 {
	s.pos = append(s.pos, float32(x), float32(y), float32(z))
	return uint32(len(s.pos)/3 - 1)
}

// grid is a w×h quad grid (2 triangles per quad) on a wavy surface; holes
// removes about that fraction of the quads, in blocks.
func grid(name string, w, h int, holes float64, seed uint64) genShape {
	r := genRand(seed)
	s := genShape{name: name}
	for j := 0; j <= h; j++ {
		for i := 0; i <= w; i++ {
			x, y := float64(i)/float64(w), float64(j)/float64(h)
			s.add(x*4-2, y*3-1, 0.3*math.Sin(5*x)*math.Cos(7*y))
		}
	}
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			if holes > 0 && r.Float64() < holes && (i/3+j/3)%2 == 0 {
				continue
			}
			a := uint32(j*(w+1) + i)
			b, c, d := a+1, a+uint32(w+1), a+uint32(w+2)
			s.faces = append(s.faces, [3]uint32{a, b, d}, [3]uint32{a, d, c})
		}
	}
	return s
}

// sphere is a closed UV sphere with shared poles.
func sphere(name string, lat, lon int, center [3]float64, radius float64) genShape {
	s := genShape{name: name}
	top := s.add(center[0], center[1]+radius, center[2])
	for i := 1; i < lat; i++ {
		th := math.Pi * float64(i) / float64(lat)
		for j := range lon {
			ph := 2 * math.Pi * float64(j) / float64(lon)
			s.add(center[0]+radius*math.Sin(th)*math.Cos(ph), center[1]+radius*math.Cos(th), center[2]+radius*math.Sin(th)*math.Sin(ph))
		}
	}
	bottom := s.add(center[0], center[1]-radius, center[2])
	ring := func(i, j int) uint32 { return uint32(1 + (i-1)*lon + (j+lon)%lon) }
	for j := range lon {
		s.faces = append(s.faces, [3]uint32{top, ring(1, j+1), ring(1, j)})
		s.faces = append(s.faces, [3]uint32{bottom, ring(lat-1, j), ring(lat-1, j+1)})
	}
	for i := 1; i < lat-1; i++ {
		for j := range lon {
			a, b, c, d := ring(i, j), ring(i, j+1), ring(i+1, j), ring(i+1, j+1)
			s.faces = append(s.faces, [3]uint32{a, b, d}, [3]uint32{a, d, c})
		}
	}
	return s
}

// merge appends the meshes as separate components.
func merge(name string, parts ...genShape) genShape {
	s := genShape{name: name}
	for _, p := range parts {
		base := uint32(len(s.pos) / 3)
		s.pos = append(s.pos, p.pos...)
		for _, f := range p.faces {
			s.faces = append(s.faces, [3]uint32{f[0] + base, f[1] + base, f[2] + base})
		}
	}
	return s
}

// genShapes are the meshes of the comparison, small to medium; the large
// ones are added separately.
func genShapes() []genShape {
	var shapes []genShape
	one := genShape{name: "triangle"}
	one.add(0, 0, 0)
	one.add(1, 0, 0)
	one.add(0, 1, 0)
	one.faces = [][3]uint32{{0, 1, 2}}
	shapes = append(shapes, one, grid("quad", 1, 1, 0, 1), grid("grid-12x9", 12, 9, 0, 2),
		grid("grid-holes", 30, 20, 0.35, 3), sphere("sphere", 12, 16, [3]float64{}, 1))

	// Box with split corners (24 points, as glTF boxes with normals are).
	box := genShape{name: "box-split"}
	for axis := range 3 {
		for _, sign := range []float64{-1, 1} {
			base := uint32(len(box.pos) / 3)
			for _, uv := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				p := [3]float64{}
				p[axis], p[(axis+1)%3], p[(axis+2)%3] = sign, uv[0], uv[1]
				box.add(p[0]/2, p[1]/2, p[2]/2)
			}
			if sign > 0 {
				box.faces = append(box.faces, [3]uint32{base, base + 1, base + 2}, [3]uint32{base, base + 2, base + 3})
			} else {
				box.faces = append(box.faces, [3]uint32{base, base + 2, base + 1}, [3]uint32{base, base + 3, base + 2})
			}
		}
	}
	shapes = append(shapes, box)

	// Non-manifold: five fins on one edge, a bow tie (two triangles
	// touching at one vertex), and a triangle with two opposite windings.
	nm := genShape{name: "non-manifold"}
	a, b := nm.add(0, 0, 0), nm.add(0, 0, 1)
	for k := range 5 {
		ang := 2 * math.Pi * float64(k) / 5
		c := nm.add(math.Cos(ang), math.Sin(ang), 0.5)
		nm.faces = append(nm.faces, [3]uint32{a, b, c})
	}
	hub := nm.add(3, 0, 0)
	p1, p2, p3, p4 := nm.add(4, 1, 0), nm.add(4, -1, 0), nm.add(2, 1, 0), nm.add(2, -1, 0)
	nm.faces = append(nm.faces, [3]uint32{hub, p1, p2}, [3]uint32{hub, p4, p3})
	q1, q2, q3 := nm.add(0, 3, 0), nm.add(1, 3, 0), nm.add(0, 4, 0)
	nm.faces = append(nm.faces, [3]uint32{q1, q2, q3}, [3]uint32{q1, q3, q2})
	shapes = append(shapes, nm)

	// Duplicate vertices: a triangle soup, every face with its own points,
	// so equal positions appear under several indices.
	g := grid("", 10, 8, 0, 4)
	soup := genShape{name: "duplicates-soup"}
	for _, f := range g.faces {
		var nf [3]uint32
		for k, v := range f {
			nf[k] = soup.add(float64(g.pos[3*v]), float64(g.pos[3*v+1]), float64(g.pos[3*v+2]))
		}
		soup.faces = append(soup.faces, nf)
	}
	shapes = append(shapes, soup)

	// Degenerate triangles: repeated indices, collinear and zero-area
	// faces mixed into a grid, plus points no face uses.
	deg := grid("degenerate", 10, 10, 0, 5)
	for k := 0; k < len(deg.faces); k += 7 {
		f := deg.faces[k]
		switch k % 3 {
		case 0:
			deg.faces[k] = [3]uint32{f[0], f[0], f[1]}
		case 1:
			deg.faces[k] = [3]uint32{f[2], f[2], f[2]}
		default:
			m := deg.add(float64(deg.pos[3*f[0]]+deg.pos[3*f[1]])/2, float64(deg.pos[3*f[0]+1]+deg.pos[3*f[1]+1])/2, float64(deg.pos[3*f[0]+2]+deg.pos[3*f[1]+2])/2)
			deg.faces = append(deg.faces, [3]uint32{f[0], m, f[1]})
		}
	}
	deg.add(9, 9, 9)
	shapes = append(shapes, deg)

	// Several components, one of them far away (large position range).
	shapes = append(shapes, merge("components", sphere("", 6, 8, [3]float64{}, 1), sphere("", 5, 7, [3]float64{3, 0, 0}, 0.5), grid("", 4, 4, 0, 6),
		sphere("", 4, 5, [3]float64{1000, -200, 50}, 10)))

	// Random soup: random faces over random points (many non-manifold edges).
	r := genRand(7)
	rs := genShape{name: "random-soup"}
	for range 60 {
		rs.add(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
	}
	for range 150 {
		a, b, c := uint32(r.IntN(60)), uint32(r.IntN(60)), uint32(r.IntN(60))
		if a != b && b != c && a != c {
			rs.faces = append(rs.faces, [3]uint32{a, b, c})
		}
	}
	shapes = append(shapes, rs, sphere("sphere-10k", 71, 72, [3]float64{0.5, -0.25, 2}, 3))
	return shapes
}

// attrRoles are the glTF attributes a generated stream may carry.
var attrRoles = []string{"position", "normal", "texcoord", "color", "joint", "weight"}

// genAttributes builds the attributes of shape s for the roles in use,
// with bits[role] quantization (0: none). variant picks the colour and
// joint data types.
func genAttributes(s genShape, roles []string, bits map[string]int, variant int, seed uint64) []encAttr {
	r := genRand(seed)
	n := len(s.pos) / 3
	f32 := func(v []float32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	}
	var out []encAttr
	for _, role := range roles {
		a := encAttr{role: role, Bits: bits[role], DataType: "float32"}
		switch role {
		case "position":
			a.Type, a.Components, a.Data = "POSITION", 3, f32(s.pos)
		case "normal":
			v := make([]float32, 3*n)
			for i := range n {
				x, y, z := float64(s.pos[3*i])+0.1, float64(s.pos[3*i+1])-0.2, float64(s.pos[3*i+2])+0.3*r.Float64()
				l := math.Sqrt(x*x + y*y + z*z)
				v[3*i], v[3*i+1], v[3*i+2] = float32(x/l), float32(y/l), float32(z/l)
			}
			a.Type, a.Components, a.Data = "NORMAL", 3, f32(v)
		case "texcoord":
			v := make([]float32, 2*n)
			for i := range n {
				v[2*i], v[2*i+1] = float32(0.25*float64(s.pos[3*i])+0.5), float32(0.3*float64(s.pos[3*i+1])-0.1*float64(s.pos[3*i+2]))
			}
			a.Type, a.Components, a.Data = "TEX_COORD", 2, f32(v)
		case "color":
			a.Type = "COLOR"
			if variant%2 == 0 {
				v := make([]float32, 4*n)
				for i := range v {
					v[i] = float32(r.Float64())
				}
				a.Components, a.Data = 4, f32(v)
			} else {
				a.DataType, a.Normalized, a.Components = "uint8", true, 3+variant/2%2
				a.Data = make([]byte, a.Components*n)
				for i := range a.Data {
					a.Data[i] = byte(r.Uint32())
				}
			}
		case "joint":
			a.Type, a.Components = "GENERIC", 4
			if variant%3 == 0 {
				a.DataType = "uint16"
				a.Data = make([]byte, 8*n)
				for i := range 4 * n {
					binary.LittleEndian.PutUint16(a.Data[2*i:], uint16(r.IntN(300)))
				}
			} else {
				a.DataType = "uint8"
				a.Data = make([]byte, 4*n)
				for i := range a.Data {
					a.Data[i] = byte(r.IntN(40))
				}
			}
		case "weight":
			v := make([]float32, 4*n)
			for i := range n {
				w := [4]float64{r.Float64(), r.Float64() * 0.5, r.Float64() * 0.2, 0}
				if i%5 == 0 {
					w = [4]float64{1, 0, 0, 0}
				}
				sum := w[0] + w[1] + w[2] + w[3]
				for k := range 4 {
					v[4*i+k] = float32(w[k] / sum)
				}
			}
			a.Type, a.Components, a.Data = "GENERIC", 4, f32(v)
		}
		out = append(out, a)
	}
	return out
}

func (s genShape) indices() []byte {
	b := make([]byte, 12*len(s.faces))
	for i, f := range s.faces {
		for k, v := range f {
			binary.LittleEndian.PutUint32(b[12*i+4*k:], v)
		}
	}
	return b
}

// defaultBits are glTF-Transform's default quantization bits per role.
var defaultBits = map[string]int{"position": 14, "normal": 10, "texcoord": 12, "color": 8, "joint": 12, "weight": 12}

// quantChoices are the quantization settings of the comparison: none and
// 8 to 16 bits.
var quantChoices = []int{0, 8, 9, 10, 11, 12, 13, 14, 15, 16}

// generatedRequests is the comparison's set of meshes to encode:
//   - every compression level 0–10 × both methods × every shape, with
//     random attribute sets and quantization;
//   - every role × every quantization choice × both methods (levels in
//     turn), the other attributes at glTF-Transform's defaults;
//   - 100k-triangle grids at the default, lowest and highest levels.
func generatedRequests() []encRequest {
	shapes := genShapes()
	r := genRand(11)
	var reqs []encRequest
	methods := []string{"sequential", "edgebreaker"}
	seed := uint64(100)
	for level := 0; level <= 10; level++ {
		for _, method := range methods {
			for _, s := range shapes {
				if s.name == "sphere-10k" && level%4 != 0 && (method != "edgebreaker" || level < 5) {
					continue // the 10k mesh where the encoder may pick valence, and at a few other levels
				}
				roles := []string{"position"}
				bits := map[string]int{"position": quantChoices[r.IntN(len(quantChoices))]}
				for _, role := range attrRoles[1:] {
					if r.IntN(10) < 6 {
						roles = append(roles, role)
						bits[role] = quantChoices[r.IntN(len(quantChoices))]
					}
				}
				seed++
				reqs = append(reqs, encRequest{
					name:       fmt.Sprintf("%s/level%d/%s/%v", s.name, level, method, bits),
					Indices:    s.indices(),
					Attributes: genAttributes(s, roles, bits, int(seed), seed),
					Method:     method, Level: level,
				})
			}
		}
	}
	sweepShapes := []genShape{shapes[3], shapes[4], shapes[7], shapes[9]} // holes, sphere, soup, components
	k := 0
	for _, role := range attrRoles {
		for _, q := range quantChoices {
			for _, method := range methods {
				s := sweepShapes[k%len(sweepShapes)]
				bits := map[string]int{}
				for r, b := range defaultBits {
					bits[r] = b
				}
				bits[role] = q
				seed++
				reqs = append(reqs, encRequest{
					name:       fmt.Sprintf("sweep/%s=%d/%s/%s", role, q, method, s.name),
					Indices:    s.indices(),
					Attributes: genAttributes(s, attrRoles, bits, k, seed),
					Method:     method, Level: k % 11,
				})
				k++
			}
		}
	}
	big := grid("grid-100k", 250, 200, 0, 8)
	for i, c := range []struct {
		method string
		level  int
	}{{"edgebreaker", 7}, {"edgebreaker", 10}, {"sequential", 0}} {
		seed++
		reqs = append(reqs, encRequest{
			name:       fmt.Sprintf("grid-100k/level%d/%s", c.level, c.method),
			Indices:    big.indices(),
			Attributes: genAttributes(big, attrRoles, defaultBits, i, seed),
			Method:     c.method, Level: c.level,
		})
	}
	return reqs
}

// streamKind names the method and, for edgebreaker, the connectivity
// coder of a stream from its header (after "DRACO", version, type,
// method and flags: the edgebreaker decoder type byte).
func streamKind(s []byte) string {
	if len(s) < 12 || string(s[:5]) != "DRACO" {
		return "not a Draco stream"
	}
	kind := fmt.Sprintf("v%d.%d", s[5], s[6])
	switch {
	case s[8] == 0:
		return kind + " sequential"
	case binary.LittleEndian.Uint16(s[9:]) != 0:
		return kind + " edgebreaker (metadata)"
	case s[11] == 0:
		return kind + " edgebreaker standard"
	case s[11] == 2:
		return kind + " edgebreaker valence"
	}
	return kind + fmt.Sprintf(" edgebreaker type %d", s[11])
}

// TestReferenceGenerated encodes the generated meshes with the npm encoder
// and requires Decode to equal the npm decoder on every stream.
func TestReferenceGenerated(t *testing.T) {
	reqs := generatedRequests()
	if len(reqs) < 300 {
		t.Fatalf("only %d generated streams", len(reqs))
	}
	streams := refEncode(t, reqs)
	want := refDecode(t, streams)
	kinds := map[string]int{}
	equal := 0
	for i, s := range streams {
		name := reqs[i].name
		if want[i].Error != "" {
			t.Fatalf("%s: the npm decoder fails on its own encoder's stream: %s", name, want[i].Error)
		}
		kinds[streamKind(s)]++
		got, err := draco.Decode(s, draco.Limits{})
		if err != nil {
			t.Errorf("%s (%s, %d bytes): %v", name, streamKind(s), len(s), err)
			continue
		}
		if err := sameAsReference(got, want[i]); err != nil {
			t.Errorf("%s (%s): %v", name, streamKind(s), err)
			continue
		}
		equal++
	}
	t.Logf("%d of %d generated streams equal the npm decoder's output; by kind: %v", equal, len(streams), kinds)
	for _, k := range []string{"v2.2 sequential", "v2.2 edgebreaker standard", "v2.2 edgebreaker valence"} {
		if kinds[k] == 0 {
			t.Errorf("no generated stream is %s", k)
		}
	}
}

// dracoPrimitive is one KHR_draco_mesh_compression stream of a glTF file.
type dracoPrimitive struct {
	name            string // file#mesh/primitive
	data            []byte
	points, indices int // the glTF accessors' counts (POSITION, indices)
}

// corpusDraco returns every Draco primitive of the .gltf files of the
// shared corpus (the corpus's Draco assets are all .gltf with .bin buffers).
func corpusDraco(t testing.TB) []dracoPrimitive {
	t.Helper()
	var out []dracoPrimitive
	for _, path := range testassets.Corpus(t) {
		if !strings.HasSuffix(path, ".gltf") {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(raw, []byte("KHR_draco_mesh_compression")) {
			continue
		}
		var doc struct {
			Buffers []struct {
				URI string `json:"uri"`
			} `json:"buffers"`
			BufferViews []struct {
				Buffer     int `json:"buffer"`
				ByteOffset int `json:"byteOffset"`
				ByteLength int `json:"byteLength"`
			} `json:"bufferViews"`
			Accessors []struct {
				Count int `json:"count"`
			} `json:"accessors"`
			Meshes []struct {
				Primitives []struct {
					Attributes map[string]int `json:"attributes"`
					Indices    *int           `json:"indices"`
					Extensions struct {
						Draco *struct {
							BufferView int `json:"bufferView"`
						} `json:"KHR_draco_mesh_compression"`
					} `json:"extensions"`
				} `json:"primitives"`
			} `json:"meshes"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		buffers := make([][]byte, len(doc.Buffers))
		for i, b := range doc.Buffers {
			if buffers[i], err = os.ReadFile(filepath.Join(filepath.Dir(path), b.URI)); err != nil {
				t.Fatalf("%s: buffer %d: %v", path, i, err)
			}
		}
		for mi, m := range doc.Meshes {
			for pi, p := range m.Primitives {
				if p.Extensions.Draco == nil {
					continue
				}
				bv := doc.BufferViews[p.Extensions.Draco.BufferView]
				d := dracoPrimitive{
					name:   fmt.Sprintf("%s#mesh%d/primitive%d", filepath.Base(path), mi, pi),
					data:   buffers[bv.Buffer][bv.ByteOffset : bv.ByteOffset+bv.ByteLength],
					points: doc.Accessors[p.Attributes["POSITION"]].Count, indices: -1,
				}
				if p.Indices != nil {
					d.indices = doc.Accessors[*p.Indices].Count
				}
				out = append(out, d)
			}
		}
	}
	return out
}

// TestReferenceCorpus decodes every Draco primitive of the shared corpus
// and requires the npm decoder's output and the glTF accessors' counts.
func TestReferenceCorpus(t *testing.T) {
	prims := corpusDraco(t)
	files := map[string]bool{}
	streams := make([][]byte, len(prims))
	for i, p := range prims {
		streams[i] = p.data
		files[strings.Split(p.name, "#")[0]] = true
	}
	for _, f := range []string{"Box.gltf", "CesiumMilkTruck.gltf", "MorphPrimitivesTest.gltf"} {
		if !files[f] {
			t.Errorf("the corpus has no Draco primitive in %s", f)
		}
	}
	want := refDecode(t, streams)
	for i, p := range prims {
		if want[i].Error != "" {
			t.Fatalf("%s: npm decoder: %s", p.name, want[i].Error)
		}
		got, err := draco.Decode(p.data, draco.Limits{})
		if err != nil {
			t.Errorf("%s (%s): %v", p.name, streamKind(p.data), err)
			continue
		}
		if err := sameAsReference(got, want[i]); err != nil {
			t.Errorf("%s (%s): %v", p.name, streamKind(p.data), err)
			continue
		}
		if got.NumPoints != p.points || 3*len(got.Faces) != p.indices {
			t.Errorf("%s: %d points and %d indices, the glTF accessors say %d and %d", p.name, got.NumPoints, 3*len(got.Faces), p.points, p.indices)
			continue
		}
		t.Logf("%s (%s): %d points, %d faces, %d attributes: equal to npm", p.name, streamKind(p.data), got.NumPoints, len(got.Faces), len(got.Attributes))
	}
}
