package g4mf

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/mesh"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/omi"
)

// tol is the round-trip tolerance of the task: shapes, mass and inertia
// within 1e-6 (relative to the magnitude compared, at least 1).
const tol = 1e-6

func close(a, b float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

var (
	schemaOnce sync.Once
	schemaErr  error
	schemaMain *jsonschema.Schema
)

// g4mfSchema compiles every G4MF schema into one compiler, each under a
// file URL that mirrors its folder so relative $id and $ref resolve.
// One defect of the published schemas is patched: the trigger schema
// declares the collider's $id (a copy-paste slip), which would make the
// two collide; it gets its own file name as $id.
func g4mfSchema(t *testing.T) *jsonschema.Schema {
	schemaOnce.Do(func() {
		root := filepath.Join(testassets.Shared(t), "specs", "G4MF", "schema")
		c := jsonschema.NewCompiler()
		schemaErr = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if strings.HasSuffix(p, "g4mf.node.physics.trigger.schema.json") {
				doc.(map[string]any)["$id"] = "g4mf.node.physics.trigger.schema.json"
			}
			rel, _ := filepath.Rel(root, p)
			return c.AddResource("file:///g4mf/"+filepath.ToSlash(rel), doc)
		})
		if schemaErr == nil {
			schemaMain, schemaErr = c.Compile("file:///g4mf/g4mf.schema.json")
		}
	})
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	return schemaMain
}

// validate checks encoded G4MF bytes against the schemas.
func validate(t *testing.T, data []byte) {
	t.Helper()
	js := data
	if bytes.HasPrefix(data, []byte(magic)) {
		var err error
		if js, _, err = splitBinary(data); err != nil {
			t.Fatal(err)
		}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := g4mfSchema(t).Validate(inst); err != nil {
		t.Fatalf("schema: %v", err)
	}
}

// checkRules checks what the schemas cannot: node 0 without transform,
// unique names, no node name with a forbidden character.
func checkRules(t *testing.T, f *File) {
	t.Helper()
	seen := map[string]bool{}
	for _, k := range f.Tree.Keys() {
		for i, it := range f.Tree.Arr(k) {
			o, ok := it.(*gltfio.Object)
			if !ok {
				continue
			}
			n, _ := o.Get("name")
			s, _ := n.(string)
			if s == "" {
				continue
			}
			if seen[s] {
				t.Errorf("%s[%d]: name %q is not unique", k, i, s)
			}
			seen[s] = true
			if k == "nodes" && strings.ContainsAny(s, forbidden) {
				t.Errorf("nodes[%d]: name %q has a forbidden character", i, s)
			}
		}
	}
	if nodes := f.Tree.Arr("nodes"); len(nodes) > 0 {
		for _, k := range []string{"position", "basis", "rotor", "scale"} {
			if _, ok := nodes[0].(*gltfio.Object).Get(k); ok {
				t.Errorf("nodes[0] has %s", k)
			}
		}
	}
}

// generatedGLB returns a temp .glb (or .gltf) of the asset with colliders from the glTF
// pipeline.
func generatedGLB(t *testing.T, path string, method generate.Method) string {
	t.Helper()
	a, err := gltfio.Load(path, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// The G4MF path does not merge overlapping bodies (#29 item 2 is the
	// glTF pipeline's): compare with the glTF pipeline keeping them apart.
	opt := generate.Options{Collider: generate.ColliderSettings{Method: method}, Body: generate.BodySettings{Overlap: generate.OverlapWarn}, Encoding: generate.Encoding{Binary: a.Binary}}
	if _, err := generate.Asset(context.Background(), a, opt); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "in.glb")
	if a.Binary {
		if err := a.Save(out); err != nil {
			t.Fatal(err)
		}
	} else {
		out = filepath.Join(t.TempDir(), "in.gltf")
		if err := a.Save(out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func corpusFile(t *testing.T, name string) string {
	base := filepath.Join(testassets.Shared(t), "corpus", name)
	for _, p := range []string{"glTF-Binary/" + name + ".glb", "glTF/" + name + ".gltf"} {
		if _, err := os.Stat(filepath.Join(base, p)); err == nil {
			return filepath.Join(base, p)
		}
	}
	t.Fatalf("%s: not in the corpus", name)
	return ""
}

// rotationOf returns the proper rotation of an affine transform.
func rotationOf(t *testing.T, m geom.Mat4) geom.Mat3 {
	_, q, _, err := m.Rigid()
	if err != nil {
		t.Fatal(err)
	}
	return q.Mat3()
}

// worldInertia returns the inertia tensor in world axes.
func worldInertia(r geom.Mat3, d [3]float64, q geom.Quat) geom.Mat3 {
	p := r.Mul(q.Normalize().Mat3())
	diag := geom.Mat3{{d[0], 0, 0}, {0, d[1], 0}, {0, 0, d[2]}}
	return p.Mul(diag).Mul(p.Transpose())
}

type gotBody struct {
	mass    float64
	com     geom.Vec3
	inertia geom.Mat3
}

type gotCollider struct {
	shape physics.Shape
	world geom.Mat4
	verts []geom.Vec3 // convex: world-space vertices
}

// gltfPhysics lists bodies and colliders of a glTF document in the
// export's traversal order (depth first from the scene roots).
func gltfPhysics(t *testing.T, doc *gltf.Document) ([]gotBody, []gotCollider) {
	m, _, _, err := codecs.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	world, err := mesh.WorldTransforms(doc)
	if err != nil {
		t.Fatal(err)
	}
	var bodies []gotBody
	var cols []gotCollider
	var walk func(n int)
	walk = func(n int) {
		if ph := m.Nodes[n]; ph != nil {
			if mo := ph.Motion; mo != nil && mo.Mass != nil {
				com := geom.Vec3{}
				if mo.CenterOfMass != nil {
					com = *mo.CenterOfMass
				}
				q := geom.IdentityQuat()
				if mo.InertiaOrientation != nil {
					q = *mo.InertiaOrientation
				}
				bodies = append(bodies, gotBody{*mo.Mass, world[n].Point(com), worldInertia(rotationOf(t, world[n]), *mo.InertiaDiagonal, q)})
			}
			if c := ph.Collider; c != nil && c.Shape >= 0 {
				s := m.Shapes[c.Shape]
				gc := gotCollider{shape: s, world: world[n]}
				if s.Type == physics.Convex {
					p := doc.Meshes[s.Mesh].Primitives[0]
					v, _, err := mesh.Primitive(doc, p)
					if err != nil {
						t.Fatal(err)
					}
					for _, x := range v {
						gc.verts = append(gc.verts, world[n].Point(x))
					}
				}
				cols = append(cols, gc)
			}
		}
		for _, c := range doc.Nodes[n].Children {
			walk(c)
		}
	}
	for _, r := range sceneRoots(doc) {
		walk(r)
	}
	return bodies, cols
}

// g4mfPhysics lists the bodies and colliders of a G4MF scene depth
// first from node 0.
func g4mfPhysics(t *testing.T, sc *Scene) ([]gotBody, []gotCollider) {
	var bodies []gotBody
	var cols []gotCollider
	var walk func(n int)
	walk = func(n int) {
		nd := &sc.Nodes[n]
		if mo := nd.Physics.Motion; mo != nil && mo.Mass != nil {
			q := geom.IdentityQuat()
			if mo.InertiaOrientation != nil {
				q = *mo.InertiaOrientation
			}
			bodies = append(bodies, gotBody{*mo.Mass, nd.World.Translation(), worldInertia(rotationOf(t, nd.World), *mo.InertiaDiagonal, q)})
		}
		if c := nd.Physics.Collider; c != nil {
			s := sc.Shapes[c.Shape]
			gc := gotCollider{shape: s, world: nd.World}
			if s.Type == physics.Convex {
				for _, x := range sc.Meshes[s.Mesh].Vertices {
					gc.verts = append(gc.verts, nd.World.Point(x))
				}
			}
			cols = append(cols, gc)
		}
		for _, c := range nd.Children {
			walk(c)
		}
	}
	walk(0)
	return bodies, cols
}

func sameShape(a, b physics.Shape) bool {
	// A capsule of zero mid-height is a sphere, and G4MF cannot tell them
	// apart (the specification's sphere is a curve with a zero size).
	if a.Type == physics.Capsule && a.Height == 0 && a.RadiusTop == a.RadiusBottom {
		a = physics.Shape{Type: physics.Sphere, Radius: a.RadiusTop}
	}
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case physics.Box:
		return close(a.Size[0], b.Size[0]) && close(a.Size[1], b.Size[1]) && close(a.Size[2], b.Size[2])
	case physics.Sphere:
		return close(a.Radius, b.Radius)
	case physics.Capsule, physics.Cylinder:
		return close(a.Height, b.Height) && close(a.RadiusTop, b.RadiusTop) && close(a.RadiusBottom, b.RadiusBottom)
	}
	return true
}

func sameMat(a, b geom.Mat3) bool {
	scale := 0.0
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			scale = math.Max(scale, math.Abs(a[i][j]))
		}
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(a[i][j]-b[i][j]) > tol*math.Max(1, scale) {
				return false
			}
		}
	}
	return true
}

func samePose(a, b geom.Mat4) bool {
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			if !close(a[i][j], b[i][j]) {
				return false
			}
		}
	}
	return true
}

// roundTrip exports a glTF file as G4MF in both containers, validates
// them and compares what reads back with the glTF physics.
func roundTrip(t *testing.T, in string) {
	a, err := gltfio.LoadRaw(in, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	wantB, wantC := gltfPhysics(t, a.Doc)
	if len(wantB) == 0 || len(wantC) == 0 {
		t.Fatalf("%s: no physics to compare", in)
	}
	for _, ext := range []string{".g4tf", ".g4b"} {
		out := filepath.Join(t.TempDir(), "out"+ext)
		if _, err := ExportFile(in, out); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, data)
		f, err := Read(out)
		if err != nil {
			t.Fatal(err)
		}
		checkRules(t, f)
		sc, err := f.Scene()
		if err != nil {
			t.Fatal(err)
		}
		gotB, gotC := g4mfPhysics(t, sc)
		if len(gotB) != len(wantB) || len(gotC) != len(wantC) {
			t.Fatalf("%s: %d bodies %d colliders, want %d %d", ext, len(gotB), len(gotC), len(wantB), len(wantC))
		}
		for i := range wantB {
			w, g := wantB[i], gotB[i]
			if !close(w.mass, g.mass) || !close(w.com[0], g.com[0]) || !close(w.com[1], g.com[1]) || !close(w.com[2], g.com[2]) || !sameMat(w.inertia, g.inertia) {
				t.Errorf("%s body %d: got %+v, want %+v", ext, i, g, w)
			}
		}
		for i := range wantC {
			w, g := wantC[i], gotC[i]
			if !sameShape(w.shape, g.shape) || !samePose(w.world, g.world) {
				t.Errorf("%s collider %d: got %+v at %v, want %+v at %v", ext, i, g.shape, g.world, w.shape, w.world)
			}
			if len(w.verts) != len(g.verts) {
				t.Errorf("%s collider %d: %d hull vertices, want %d", ext, i, len(g.verts), len(w.verts))
				continue
			}
			for k := range w.verts {
				for c := 0; c < 3; c++ {
					if !close(w.verts[k][c], g.verts[k][c]) {
						t.Fatalf("%s collider %d vertex %d: %v, want %v", ext, i, k, g.verts[k], w.verts[k])
					}
				}
			}
		}
	}
}

func TestRoundTripGLTF(t *testing.T) {
	furniture := filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb")
	for _, tc := range []struct {
		name   string
		path   func(t *testing.T) string
		method generate.Method
	}{
		{"furniture-hull", func(*testing.T) string { return furniture }, generate.Hull},
		{"furniture-box", func(*testing.T) string { return furniture }, generate.Box},
		{"furniture-capsule", func(*testing.T) string { return furniture }, generate.Capsule},
		{"furniture-cylinder", func(*testing.T) string { return furniture }, generate.Cylinder},
		{"furniture-sphere", func(*testing.T) string { return furniture }, generate.Sphere},
		{"Duck-box", func(t *testing.T) string { return corpusFile(t, "Duck") }, generate.Box},
		{"BoxTextured-hull", func(t *testing.T) string { return corpusFile(t, "BoxTextured") }, generate.Hull},
		{"ToyCar-box", func(t *testing.T) string { return corpusFile(t, "ToyCar") }, generate.Box},
		{"NegativeScaleTest-box", func(t *testing.T) string { return corpusFile(t, "NegativeScaleTest") }, generate.Box},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roundTrip(t, generatedGLB(t, tc.path(t), tc.method))
		})
	}
}

// --- A geometric algebra Cl(3,0) built from first principles, so that
// the rotor and bivector conventions are checked, not assumed: a
// multivector has 8 components indexed by a bit mask of basis vectors
// (bit 0 = x, 1 = y, 2 = z); the product of two blades is their XOR with
// the sign of the swaps that sort the factors.
type mv [8]float64

func bladeSign(a, b int) float64 {
	swaps := 0
	for a >>= 1; a != 0; a >>= 1 {
		swaps += bits.OnesCount(uint(a & b))
	}
	return 1 - 2*float64(swaps%2)
}

func (a mv) mul(b mv) mv {
	var r mv
	for i := 0; i < 8; i++ {
		for j := 0; j < 8; j++ {
			r[i^j] += bladeSign(i, j) * a[i] * b[j]
		}
	}
	return r
}

func (a mv) reverse() mv {
	for i := range a {
		if g := bits.OnesCount(uint(i)); g == 2 || g == 3 {
			a[i] = -a[i]
		}
	}
	return a
}

// rotorMatrix applies a G4MF rotor [s, xy, xz, yz] to the basis vectors
// as R̃·v·R (the godot-4d convention) and returns the images as columns.
func rotorMatrix(r []float64) geom.Mat3 {
	var R mv
	R[0], R[3], R[5], R[6] = r[0], r[1], r[2], r[3] // e12 = 0b011, e13 = 0b101, e23 = 0b110
	var cols [3]geom.Vec3
	for k := 0; k < 3; k++ {
		var v mv
		v[1<<k] = 1
		w := R.reverse().mul(v).mul(R)
		cols[k] = geom.Vec3{w[1], w[2], w[4]}
	}
	return geom.FromCols(cols[0], cols[1], cols[2])
}

// bivectorTensor builds the inertia tensor from a G4MF inertia bivector
// [I_xy, I_xz, I_yz] (the moment of rotation in each plane) and a rotor:
// rotation in plane xy turns about z, so the principal tensor is
// diag(I_yz, I_xz, I_xy), rotated by the rotor's matrix.
func bivectorTensor(b, r []float64) geom.Mat3 {
	m := rotorMatrix(r)
	d := geom.Mat3{{b[2], 0, 0}, {0, b[1], 0}, {0, 0, b[0]}}
	return m.Mul(d).Mul(m.Transpose())
}

func randQuat(rng *rand.Rand) geom.Quat {
	q := geom.Quat{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	return q.Normalize()
}

// TestInertiaConventions exports bodies with random inertia frames under
// randomly rotated nodes and rebuilds each world inertia tensor from the
// raw JSON (bivector, rotor, node rotor) with the algebra above.
func TestInertiaConventions(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 50; trial++ {
		doc := gltf.NewDocument()
		nodeQ := randQuat(rng)
		doc.Nodes = []*gltf.Node{{Name: "Body", Rotation: [4]float64(nodeQ), Translation: [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}}}
		doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
		m := physics.NewModel()
		d := [3]float64{0.5 + rng.Float64(), 0.5 + rng.Float64(), 0.5 + rng.Float64()}
		q := [4]float64(randQuat(rng))
		w := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		mass := 2.5
		com := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		m.Node(0).Motion = &physics.Motion{Type: physics.Dynamic, Mass: &mass, InertiaDiagonal: &d, InertiaOrientation: &q, AngularVelocity: &w, CenterOfMass: &com}
		s := m.AddShape(physics.Shape{Type: physics.Box, Size: [3]float64{1, 1, 1}})
		m.Node(0).Collider = physics.NewCollider(s)
		if err := omi.Encode(doc, m); err != nil {
			t.Fatal(err)
		}
		f, _, err := Export(doc)
		if err != nil {
			t.Fatal(err)
		}
		data, err := f.Encode(false)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, data)
		var raw struct {
			Nodes []struct {
				Position []float64
				Rotor    []float64
				Physics  *struct {
					Motion *struct {
						InertiaDiagonal    []float64
						InertiaOrientation []float64
						AngularVelocity    []float64
					}
				}
			}
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		body := raw.Nodes[1]
		mo := body.Physics.Motion
		nodeR := rotorMatrix(body.Rotor)
		got := nodeR.Mul(bivectorTensor(mo.InertiaDiagonal, mo.InertiaOrientation)).Mul(nodeR.Transpose())
		want := worldInertia(nodeQ.Mat3(), d, geom.Quat(q))
		if !sameMat(got, want) {
			t.Fatalf("trial %d: tensor from bivector and rotor\n%v\nwant\n%v", trial, got, want)
		}
		// The angular velocity bivector ω_xy e12 + ω_xz e13 + ω_yz e23 is
		// the dual of ω: ω_yz = ωx, ω_xz = −ωy, ω_xy = ωz.
		av := mo.AngularVelocity
		if !close(av[2], w[0]) || !close(av[1], -w[1]) || !close(av[0], w[2]) {
			t.Fatalf("trial %d: angular velocity %v for %v", trial, av, w)
		}
		// The body node sits at the world centre of mass.
		wc := nodeQ.Rotate(geom.Vec3(com)).Add(geom.Vec3(doc.Nodes[0].Translation))
		for c := 0; c < 3; c++ {
			if !close(body.Position[c], wc[c]) {
				t.Fatalf("trial %d: body at %v, want %v", trial, body.Position, wc)
			}
		}
	}
}

// sourceG4MF exports a glTF file without physics as a G4MF input.
func sourceG4MF(t *testing.T, in, ext string) string {
	a, err := gltfio.Load(in, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := Export(a.Doc)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "src"+ext)
	if err := f.Save(out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGenerate runs Generate on G4MF inputs: the output validates, has
// the glTF pipeline's bodies and masses, and a second run on its own
// output gives the same bytes.
func TestGenerate(t *testing.T) {
	ctx := context.Background()
	furniture := filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb")
	for _, tc := range []struct {
		name, ext string
		in        func(t *testing.T) string
		method    generate.Method
	}{
		{"furniture-hull-g4tf", ".g4tf", func(*testing.T) string { return furniture }, generate.Hull},
		{"furniture-box-g4b", ".g4b", func(*testing.T) string { return furniture }, generate.Box},
		{"Duck-capsule-g4b", ".g4b", func(t *testing.T) string { return corpusFile(t, "Duck") }, generate.Capsule},
		{"ToyCar-hull-g4tf", ".g4tf", func(t *testing.T) string { return corpusFile(t, "ToyCar") }, generate.Hull},
		{"NegativeScaleTest-box-g4tf", ".g4tf", func(t *testing.T) string { return corpusFile(t, "NegativeScaleTest") }, generate.Box},
		{"furniture-decompose-g4b", ".g4b", func(*testing.T) string { return furniture }, generate.Decompose},
		// auto's decomposition with primitive parts (boxes beside
		// hulls on the arrows and the base cube).
		{"OrientationTest-auto-g4b", ".g4b", func(t *testing.T) string { return corpusFile(t, "OrientationTest") }, generate.Auto},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := sourceG4MF(t, tc.in(t), tc.ext)
			dir := t.TempDir()
			out1, out2 := filepath.Join(dir, "a"+tc.ext), filepath.Join(dir, "b"+tc.ext)
			opt := generate.Options{Collider: generate.ColliderSettings{Method: tc.method}}
			rep, err := Generate(ctx, src, out1, opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Generate(ctx, out1, out2, opt); err != nil {
				t.Fatal(err)
			}
			b1, _ := os.ReadFile(out1)
			b2, _ := os.ReadFile(out2)
			if !bytes.Equal(b1, b2) {
				t.Fatalf("second run differs (%d vs %d bytes)", len(b1), len(b2))
			}
			validate(t, b1)
			f, err := Read(out1)
			if err != nil {
				t.Fatal(err)
			}
			checkRules(t, f)
			sc, err := f.Scene()
			if err != nil {
				t.Fatal(err)
			}
			// The same bodies as the glTF pipeline on the same asset: mass,
			// world centre of mass and world inertia tensor.
			ga, err := gltfio.LoadRaw(generatedGLB(t, tc.in(t), tc.method), gltfio.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			wantB, wantC := gltfPhysics(t, ga.Doc)
			gotB, gotC := g4mfPhysics(t, sc)
			if rep.Bodies == 0 || len(gotB) != rep.Bodies || len(gotB) != len(wantB) || len(gotC) != len(wantC) {
				t.Fatalf("%d bodies (%d reported) %d colliders, glTF pipeline %d %d", len(gotB), rep.Bodies, len(gotC), len(wantB), len(wantC))
			}
			for i := range wantB {
				w, g := wantB[i], gotB[i]
				if !close(w.mass, g.mass) || !close(w.com[0], g.com[0]) || !close(w.com[1], g.com[1]) || !close(w.com[2], g.com[2]) || !sameMat(w.inertia, g.inertia) {
					t.Errorf("body %d: got %+v, glTF pipeline %+v", i, g, w)
				}
			}
			// The original nodes are still there, unchanged in world space.
			src0, _ := Read(src)
			ssc, _ := src0.Scene()
			for i := range ssc.Nodes {
				if !samePose(ssc.Nodes[i].World, sc.Nodes[i].World) {
					t.Fatalf("nodes[%d] moved: %v → %v", i, ssc.Nodes[i].World, sc.Nodes[i].World)
				}
			}
		})
	}
}

// TestExternalBuffer: a .g4tf whose buffer is a file next to it reads,
// and Generate into another folder embeds the buffer so the output
// stands alone; a URI leaving the folder is refused.
func TestExternalBuffer(t *testing.T) {
	src := sourceG4MF(t, filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"), ".g4tf")
	f, err := Read(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.bin"), f.bufs[0].data, 0o644); err != nil {
		t.Fatal(err)
	}
	f.bufs[0].inline = false
	f.Tree.Arr("buffers")[0].(*gltfio.Object).Set("uri", "data.bin")
	in := filepath.Join(dir, "ext.g4tf")
	if err := f.Save(in); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(in)
	if !bytes.Contains(raw, []byte(`"uri": "data.bin"`)) {
		t.Fatal("external URI not kept on save")
	}
	out := filepath.Join(t.TempDir(), "out.g4tf")
	if _, err := Generate(context.Background(), in, out, generate.Options{Collider: generate.ColliderSettings{Method: generate.Box}}); err != nil {
		t.Fatal(err)
	}
	g, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Scene(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); bytes.Contains(b, []byte("data.bin")) {
		t.Error("output elsewhere still references data.bin")
	}
	f.Tree.Arr("buffers")[0].(*gltfio.Object).Set("uri", "../data.bin")
	bad := filepath.Join(dir, "bad.g4tf")
	if err := f.Save(bad); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "buffers[0].uri") {
		t.Errorf("URI outside the folder: %v", err)
	}
}

// TestGenerateKeepsPhysics: bodies that already have physics get nothing
// and the file comes out byte for byte as it went in.
func TestGenerateKeepsPhysics(t *testing.T) {
	furniture := filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb")
	for _, ext := range []string{".g4tf", ".g4b"} {
		in := filepath.Join(t.TempDir(), "phys"+ext)
		if _, err := ExportFile(generatedGLB(t, furniture, generate.Hull), in); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out"+ext)
		rep, err := Generate(context.Background(), in, out, generate.Options{Collider: generate.ColliderSettings{Method: generate.Box}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Bodies != 0 || rep.Kept != 3 {
			t.Errorf("%s: %d bodies generated, %d kept; want 0 and 3", ext, rep.Bodies, rep.Kept)
		}
		a, _ := os.ReadFile(in)
		b, _ := os.ReadFile(out)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: output differs from the input", ext)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	// A valid little file: one triangle.
	tri := make([]byte, 0, 48)
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		tri = append(tri, byte(math.Float32bits(v)), byte(math.Float32bits(v)>>8), byte(math.Float32bits(v)>>16), byte(math.Float32bits(v)>>24))
	}
	tri = append(tri, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0)
	doc := func(view string) string {
		return `{"asset":{"dimension":3},"nodes":[{"children":[1]},{"meshInstance":{"mesh":0}}],
		"meshes":[{"vertices":0,"surfaces":[{"simplexes":1}]}],
		"accessors":[{"bufferView":0,"componentType":"float32","vectorSize":3},{"bufferView":1,"componentType":"uint32","vectorSize":3}],
		"bufferViews":[` + view + `,{"byteOffset":36,"byteLength":12}],
		"buffers":[{"byteLength":48,"uri":"data:application/octet-stream;base64,` + b64(tri) + `"}]}`
	}
	good := write("good.g4tf", doc(`{"byteLength":36}`))
	f, err := Read(good)
	if err != nil {
		t.Fatal(err)
	}
	if sc, err := f.Scene(); err != nil || len(sc.Meshes[0].Triangles) != 1 {
		t.Fatalf("good file: %v", err)
	}
	for _, tc := range []struct{ name, content, want string }{
		{"4d.g4tf", `{"asset":{"dimension":4}}`, "4D"},
		{"nodim.g4tf", `{"asset":{}}`, "asset.dimension"},
		{"req.g4tf", `{"asset":{"dimension":3,"extensionsUsed":["X_y"],"extensionsRequired":["X_y"]}}`, "asset.extensionsRequired"},
		{"range.g4tf", doc(`{"byteOffset":24,"byteLength":36}`), "bufferViews[0]"},
		{"huge.g4tf", doc(`{"byteLength":36000000000}`), "bufferViews[0]"},
		{"align.g4tf", doc(`{"byteLength":32}`), "bufferViews[0]"},
		{"index.g4tf", strings.Replace(doc(`{"byteLength":36}`), `"simplexes":1`, `"simplexes":7`, 1), "meshes[0].surfaces[0].simplexes"},
		{"cycle.g4tf", `{"asset":{"dimension":3},"nodes":[{"children":[1]},{"children":[2]},{"children":[1]}]}`, "already has parent"},
		{"rootchild.g4tf", `{"asset":{"dimension":3},"nodes":[{"children":[0]}]}`, "nodes[0].children[0]"},
		{"negscale.g4tf", `{"asset":{"dimension":3},"nodes":[{"children":[1]},{"scale":[-1]}]}`, "nodes[1]: scale"},
		{"bin.g4b", "G4MF\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00JSON\x00\x00\x00\x00\xff\x00\x00\x00\x00\x00\x00\x00{}" + strings.Repeat(" ", 30), "chunk 0 declares"},
		{"size.g4b", "G4MF\x00\x00\x00\x00\x41\x00\x00\x00\x00\x00\x00\x00JSON\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00{}" + strings.Repeat(" ", 30), "header says"},
		{"zstd.g4b", "G4MF\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00JSONZstd\x02\x00\x00\x00\x00\x00\x00\x00{}" + strings.Repeat(" ", 30), "compressed"},
	} {
		p := write(tc.name, tc.content)
		f, err := Read(p)
		if err == nil {
			_, err = f.Scene()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	if _, err := Generate(context.Background(), write("x4d.g4tf", `{"asset":{"dimension":4}}`), filepath.Join(dir, "o.g4tf"), generate.Options{}); err == nil || !strings.Contains(err.Error(), "x4d.g4tf") || !strings.Contains(err.Error(), "4D") {
		t.Errorf("Generate on a 4D file: %v", err)
	}
}

// TestParseNoPanic feeds truncated and bit-flipped binary files to Parse.
func TestParseNoPanic(t *testing.T) {
	in := sourceG4MF(t, filepath.Join(testassets.Repo(), "testdata", "examples", "furniture.glb"), ".g4b")
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 300; i++ {
		d := append([]byte(nil), data...)
		if i%2 == 0 {
			d = d[:rng.Intn(len(d))]
		} else {
			for k := 0; k < 4; k++ {
				d[rng.Intn(len(d))] ^= byte(1 << rng.Intn(8))
			}
		}
		if f, err := Parse(d, ""); err == nil {
			f.Scene() // must not panic
		}
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
