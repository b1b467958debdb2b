package convert_test

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/convert"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
	"github.com/autocollide/autocollide/physics/omi"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

const legacyDir = "../../testdata/physics/legacy"

// legacyInputs lists the legacy-form files: the seed's body and joint
// forms and the 2024 KHR_collision_shapes form (hand-made from the seed
// and historical specs), and every OMI_collider example.
func legacyInputs(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(legacyDir, "*.gltf"))
	shared := testassets.Shared(t)
	all, err := testkit.PhysicsFiles(shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range all {
		if strings.Contains(rel, "OMI_collider") {
			files = append(files, filepath.Join(shared, rel))
		}
	}
	if len(files) < 3+9 {
		t.Fatalf("only %d legacy inputs", len(files))
	}
	return files
}

func TestLegacyConvertsAndValidatesClean(t *testing.T) {
	c := testkit.Checker(t)
	for _, f := range legacyInputs(t) {
		for _, to := range []physics.Family{physics.OMI, physics.KHR} {
			t.Run(filepath.Base(f)+"→"+string(to), func(t *testing.T) {
				doc, err := gltf.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				warns, err := convert.Convert(doc, to, false)
				if err != nil {
					t.Fatal(err)
				}
				if len(warns) == 0 {
					t.Error("a legacy form was read without a warning")
				}
				for _, name := range []string{physics.ExtOMICollider, physics.ExtKHRCollisionShapes} {
					if slices.Contains(doc.ExtensionsUsed, name) || doc.Extensions[name] != nil {
						t.Errorf("%s still present", name)
					}
				}
				if probs := validate.Validate(doc, validate.Options{}); len(probs) > 0 {
					t.Errorf("converted document draws problems: %v", probs)
				}
				b, err := testkit.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.CheckDocument(b); err != nil {
					t.Errorf("schema: %v", err)
				}
				if strings.Contains(string(b), `"nodeA"`) || strings.Contains(string(b), `"inertiaTensor"`) || strings.Contains(string(b), `"constraints"`) {
					t.Error("an old-form member survived")
				}
			})
		}
	}
}

func TestSeedBodyMigration(t *testing.T) {
	doc, err := gltf.Open(filepath.Join(legacyDir, "seed_body.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	m, warns, err := omi.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if n := m.Nodes[0]; n.Motion == nil || n.Motion.Type != physics.Static {
		t.Errorf("StaticBox: %+v", n)
	}
	if n := m.Nodes[1]; n.Collider == nil || n.Collider.Shape != 0 {
		t.Errorf("StaticShape: %+v", n)
	}
	if n := m.Nodes[7]; n.Motion == nil || n.Motion.Type != physics.Kinematic {
		t.Errorf("Character: %+v", n)
	}
	if !slices.ContainsFunc(warns, func(w physics.Warning) bool { return w.Lossy && strings.HasPrefix(w.Path, "nodes[7]") }) {
		t.Errorf("character → kinematic not warned as lossy: %v", warns)
	}
	goal := m.Nodes[4]
	if goal.Trigger == nil || !slices.Equal(goal.Trigger.Nodes, []int{5, 6}) || goal.Motion != nil {
		t.Errorf("Goal: %+v %+v", goal, goal.Trigger)
	}
	for _, k := range []int{5, 6} {
		if n := m.Nodes[k]; n.Trigger == nil || n.Collider != nil {
			t.Errorf("goal member %d: %+v", k, n)
		}
	}
	mo := m.Nodes[2].Motion
	if mo == nil || mo.Type != physics.Dynamic || *mo.Mass != 4 || mo.InertiaDiagonal == nil || mo.InertiaOrientation == nil {
		t.Fatalf("Rigid: %+v", mo)
	}
	// I = R·diag(d)·Rᵀ must give back the seed's tensor.
	r := geom.Quat(*mo.InertiaOrientation).Mat3()
	d := *mo.InertiaDiagonal
	want := [9]float64{2, 0.5, 0, 0.5, 3, 0, 0, 0, 4}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			got := 0.0
			for k := 0; k < 3; k++ {
				got += r[i][k] * d[k] * r[j][k]
			}
			if math.Abs(got-want[3*i+j]) > 1e-9 {
				t.Errorf("I[%d][%d] = %g, want %g", i, j, got, want[3*i+j])
			}
		}
	}
}

func worldOf(doc *gltf.Document, k int) geom.Mat4 {
	parent := map[int]int{}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	local := func(n *gltf.Node) geom.Mat4 {
		if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
			return geom.Mat4FromGLTF(n.Matrix)
		}
		return geom.TRS(geom.Vec3(n.TranslationOrDefault()), geom.Quat(n.RotationOrDefault()), geom.Vec3(n.ScaleOrDefault()))
	}
	w := local(doc.Nodes[k])
	for p, ok := parent[k]; ok; p, ok = parent[p] {
		w = local(doc.Nodes[p]).Mul(w)
	}
	return w
}

func TestSeedJointMigration(t *testing.T) {
	doc, err := gltf.Open(filepath.Join(legacyDir, "seed_joint.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := omi.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Nodes) != 5 || !slices.Contains(doc.Nodes[1].Children, 3) || !slices.Contains(doc.Nodes[2].Children, 4) {
		t.Fatalf("attachment nodes not added under the bodies: %d nodes", len(doc.Nodes))
	}
	j := m.Nodes[3].Joint
	if j == nil || j.ConnectedNode != 4 {
		t.Fatalf("joint: %+v", j)
	}
	jw := worldOf(doc, 0)
	for _, k := range []int{3, 4} {
		w := worldOf(doc, k)
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				if math.Abs(w[r][c]-jw[r][c]) > 1e-9 {
					t.Fatalf("attachment %d world %v, want the old joint node's %v", k, w, jw)
				}
			}
		}
	}
	def := m.Joints[j.Def]
	got, _ := json.Marshal(def.Limits)
	want := `[{"LinearAxes":[0,1,2],"AngularAxes":null,"Min":0,"Max":0,"Stiffness":null,"Damping":1},` +
		`{"LinearAxes":null,"AngularAxes":[0,2],"Min":-0.5,"Max":0.5,"Stiffness":100,"Damping":1}]`
	if string(got) != want {
		t.Errorf("limits %s\nwant %s", got, want)
	}
}

func TestKHRCollisionShapesMigration(t *testing.T) {
	doc, err := gltf.Open(filepath.Join(legacyDir, "khr_collision_shapes.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := khr.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := khr.Encode(doc, m, khr.Options{}); err != nil {
		t.Fatal(err)
	}
	b, _ := testkit.Marshal(doc)
	var v struct {
		Extensions map[string]json.RawMessage
		Nodes      []struct {
			Extensions map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]string{
		1: `{"collider":{"geometry":{"shape":0},"physicsMaterial":0}}`,
		2: `{"collider":{"geometry":{"mesh":0,"convexHull":true}}}`,
		3: `{"collider":{"geometry":{"mesh":0,"convexHull":false}}}`,
		4: `{"trigger":{"geometry":{"shape":1}}}`,
	} {
		if got := string(v.Nodes[k].Extensions[physics.ExtKHRBodies]); got != want {
			t.Errorf("node %d: %s, want %s", k, got, want)
		}
	}
	if got := string(v.Extensions[physics.ExtKHRShapes]); !strings.Contains(got, `"capsule"`) || strings.Contains(got, `"mesh"`) {
		t.Errorf("implicit shapes: %s", got)
	}
}

func TestOMIColliderCapsuleHeight(t *testing.T) {
	shared := testassets.Shared(t)
	doc, err := gltf.Open(filepath.Join(shared, "specs", "OMI_collider", "examples", "capsule_collider.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := omi.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Shapes[m.Nodes[0].Collider.Shape]
	// Legacy full height 2, radius 0.5 → mid-height 1.
	if s.Type != physics.Capsule || s.Height != 1 || s.RadiusTop != 0.5 || s.RadiusBottom != 0.5 {
		t.Errorf("capsule: %+v", s)
	}
}
