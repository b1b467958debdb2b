package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// files lists every corpus-physics file, the repository's KHR, OMI and
// legacy physics fixtures, and every example of the shared specs.
func files(t *testing.T) []string {
	out := testassets.CorpusPhysics(t)
	for _, sub := range []string{"good", "legacy", "bad"} {
		m, _ := filepath.Glob(filepath.Join(testassets.Repo(), "testdata", "physics", sub, "*.gltf"))
		out = append(out, m...)
	}
	filepath.WalkDir(filepath.Join(testassets.Shared(t), "specs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			out = append(out, p)
		}
		return err
	})
	return out
}

// TestEveryField: for every file the decoders read, the text form has a
// line for every body, collider, trigger, joint, limit, drive, material
// and filter of the decoded model, carrying each value the model holds,
// and the JSON form (valid against the schema) holds the same values;
// a file the decoders refuse is one error naming it.
func TestEveryField(t *testing.T) {
	var schema any
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("inspect.schema.json", schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("inspect.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	described, refused := 0, 0
	fields := map[string]int{}
	for _, path := range files(t) {
		a, err := gltfio.LoadRaw(path, gltfio.Limits{})
		if err != nil {
			continue // not a loadable glTF file (a validator test of the container)
		}
		f, err := Describe(a)
		fresh, _ := gltfio.LoadRaw(path, gltfio.Limits{})
		m, fam, _, derr := codecs.Decode(fresh.Doc)
		if derr != nil {
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("%s: the decoder refuses it (%v) but Describe says %v", path, derr, err)
			}
			refused++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		described++
		var text bytes.Buffer
		f.WriteText(&text)
		js, _ := json.Marshal([]*File{f})
		var inst any
		json.Unmarshal(js, &inst)
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: --json breaks the schema: %v", path, err)
		}
		if want := map[physics.Family]string{physics.None: "none", physics.OMI: "omi", physics.KHR: "khr", physics.Both: "omi"}[fam]; f.Family != want || !strings.HasPrefix(text.String(), path+": "+want) {
			t.Errorf("%s: family %q, want %q", path, f.Family, want)
		}
		checkFields(t, path, fresh.Doc.Nodes, m, text.String(), inst.([]any)[0].(map[string]any), fields)
	}
	if described < 60 || refused == 0 {
		t.Errorf("%d files described, %d refused: the file lists are not what they should be", described, refused)
	}
	t.Logf("%d files described (fields seen: %v), %d refused by the decoders", described, fields, refused)
}

// checkFields compares the text and the JSON of a file with its model.
func checkFields(t *testing.T, path string, docNodes any, m *physics.Model, text string, js map[string]any, seen map[string]int) {
	t.Helper()
	lines := strings.Split(text, "\n")
	nameOf := func(i int) string {
		v := reflect.ValueOf(docNodes)
		if i < v.Len() && !v.Index(i).IsNil() {
			return v.Index(i).Elem().FieldByName("Name").String()
		}
		return ""
	}
	// line finds the text line of a kind of item on node i.
	line := func(kind string, i int) string {
		prefix := kind + " " + nodeName(i, nameOf(i))
		for _, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), prefix+":") || strings.HasPrefix(strings.TrimSpace(l), prefix+" ") {
				return l
			}
		}
		t.Errorf("%s: no %q line in\n%s", path, prefix, text)
		return ""
	}
	has := func(l, field, want string) {
		seen[field]++
		if !strings.Contains(l, want) {
			t.Errorf("%s: %s %q missing from %q", path, field, want, l)
		}
	}
	f3 := func(v *[3]float64) string { return fmt.Sprintf("(%s, %s, %s)", num(v[0]), num(v[1]), num(v[2])) }
	// inJSON finds the JSON object of an item on node i.
	all := func(key string) []any {
		var out []any
		for _, b := range js["bodies"].([]any) {
			out = append(out, b.(map[string]any)[key].([]any)...)
		}
		return append(out, js["unattached"].(map[string]any)[key].([]any)...)
	}
	inJSON := func(list []any, i int) map[string]any {
		for _, o := range list {
			if o := o.(map[string]any); o["node"] == float64(i) {
				return o
			}
		}
		t.Errorf("%s: no JSON entry for node %d", path, i)
		return map[string]any{}
	}
	same := func(what string, got any, want any) {
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if !bytes.Equal(wj, gj) {
			t.Errorf("%s: JSON %s = %s, want %s", path, what, gj, wj)
		}
	}
	shapeChecks := func(l string, s int, o any) {
		if s < 0 {
			has(l, "compound", "compound")
			same("shape", o, nil)
			return
		}
		sh := m.Shapes[s]
		has(l, "shape type", fmt.Sprintf("shapes[%d] %s", s, sh.Type))
		so, _ := o.(map[string]any)
		switch sh.Type {
		case physics.Box:
			has(l, "box size", fmt.Sprintf("%s×%s×%s", num(sh.Size[0]), num(sh.Size[1]), num(sh.Size[2])))
			same("size", so["size"], sh.Size)
		case physics.Sphere:
			has(l, "radius", "radius "+num(sh.Radius))
			same("radius", so["radius"], sh.Radius)
		case physics.Capsule, physics.Cylinder:
			has(l, "height", "height "+num(sh.Height))
			has(l, "radii", "radius top "+num(sh.RadiusTop)+", bottom "+num(sh.RadiusBottom))
			same("height", so["height"], sh.Height)
			same("radiusTop", so["radiusTop"], sh.RadiusTop)
			same("radiusBottom", so["radiusBottom"], sh.RadiusBottom)
		case physics.Convex, physics.Trimesh:
			has(l, "mesh", fmt.Sprintf("meshes[%d]", sh.Mesh))
			has(l, "hull vertices", " vertices")
			same("mesh", so["mesh"], sh.Mesh)
		case physics.Plane:
			has(l, "plane", fmt.Sprintf("%s×%s m", num(sh.PlaneSizeX), num(sh.PlaneSizeZ)))
		}
	}
	for _, i := range m.NodeIndices() {
		n := m.Nodes[i]
		if mo := n.Motion; mo != nil {
			l := line("body", i)
			has(l, "motion", ": "+string(mo.Type))
			o := inJSON(js["bodies"].([]any), i)
			same("motion", o["motion"], mo.Type)
			if mo.Mass != nil {
				has(l, "mass", "mass "+num(*mo.Mass)+" kg")
			}
			same("mass", o["mass"], mo.Mass)
			if mo.CenterOfMass != nil {
				has(l, "centre of mass", "centre of mass "+f3(mo.CenterOfMass))
			}
			same("centerOfMass", o["centerOfMass"], mo.CenterOfMass)
			if mo.InertiaDiagonal != nil {
				has(l, "inertia", "inertia "+f3(mo.InertiaDiagonal))
			}
			same("inertiaDiagonal", o["inertiaDiagonal"], mo.InertiaDiagonal)
			if q := mo.InertiaOrientation; q != nil {
				has(l, "inertia orientation", fmt.Sprintf("inertia orientation (%s, %s, %s, %s)", num(q[0]), num(q[1]), num(q[2]), num(q[3])))
			}
			same("inertiaOrientation", o["inertiaOrientation"], mo.InertiaOrientation)
			if mo.LinearVelocity != nil {
				has(l, "linear velocity", "linear velocity "+f3(mo.LinearVelocity))
			}
			same("linearVelocity", o["linearVelocity"], mo.LinearVelocity)
			if mo.AngularVelocity != nil {
				has(l, "angular velocity", "angular velocity "+f3(mo.AngularVelocity))
			}
			same("angularVelocity", o["angularVelocity"], mo.AngularVelocity)
			if mo.GravityFactor != nil {
				has(l, "gravity factor", "gravity factor "+num(*mo.GravityFactor))
			}
			same("gravityFactor", o["gravityFactor"], mo.GravityFactor)
		}
		if c := n.Collider; c != nil {
			l := line("collider", i)
			o := inJSON(all("colliders"), i)
			shapeChecks(l, c.Shape, o["shape"])
			if c.Material >= 0 {
				has(l, "collider material", fmt.Sprintf("material %d", c.Material))
			}
			if c.Filter >= 0 {
				has(l, "collider filter", fmt.Sprintf("filter %d", c.Filter))
			}
			same("material", o["material"], c.Material)
			same("filter", o["filter"], c.Filter)
		}
		if tr := n.Trigger; tr != nil {
			l := line("trigger", i)
			o := inJSON(all("triggers"), i)
			if len(tr.Nodes) > 0 {
				has(l, "compound trigger", fmt.Sprintf("compound of nodes %v", tr.Nodes))
				same("nodes", o["nodes"], tr.Nodes)
			} else {
				shapeChecks(l, tr.Shape, o["shape"])
			}
			if tr.Filter >= 0 {
				has(l, "trigger filter", fmt.Sprintf("filter %d", tr.Filter))
			}
			same("filter", o["filter"], tr.Filter)
		}
		if j := n.Joint; j != nil {
			l := line("joint", i)
			has(l, "joint", fmt.Sprintf("→ nodes[%d]: def %d", j.ConnectedNode, j.Def))
			has(l, "enableCollision", map[bool]string{true: "collision between them on", false: "collision between them off"}[j.EnableCollision])
			o := inJSON(js["joints"].([]any), i)
			if j.Def >= 0 && j.Def < len(m.Joints) {
				d := m.Joints[j.Def]
				for _, lim := range d.Limits {
					has(text, "limit", fmt.Sprintf("limit linear axes %v, angular axes %v", orEmpty(lim.LinearAxes), orEmpty(lim.AngularAxes)))
				}
				for _, dr := range d.Drives {
					has(text, "drive", fmt.Sprintf("drive %s %s axis %d", dr.Type, dr.Mode, dr.Axis))
				}
				same("limits", len(o["limits"].([]any)), len(d.Limits))
				same("drives", len(o["drives"].([]any)), len(d.Drives))
			}
		}
	}
	for i, mat := range m.Materials {
		l := ""
		for _, x := range lines {
			if strings.HasPrefix(x, fmt.Sprintf("  material %d", i)) {
				l = x
			}
		}
		for label, v := range map[string]*float64{"static friction": mat.StaticFriction, "dynamic friction": mat.DynamicFriction, "restitution": mat.Restitution} {
			if v != nil {
				has(l, label, label+" "+num(*v))
			}
		}
		if mat.FrictionCombine != "" {
			has(l, "friction combine", "friction combine "+mat.FrictionCombine)
		}
		if mat.RestitutionCombine != "" {
			has(l, "restitution combine", "restitution combine "+mat.RestitutionCombine)
		}
		o := js["materials"].([]any)[i].(map[string]any)
		same("staticFriction", o["staticFriction"], mat.StaticFriction)
		same("dynamicFriction", o["dynamicFriction"], mat.DynamicFriction)
		same("restitution", o["restitution"], mat.Restitution)
		same("frictionCombine", o["frictionCombine"], mat.FrictionCombine)
		same("restitutionCombine", o["restitutionCombine"], mat.RestitutionCombine)
	}
	for i, fl := range m.Filters {
		has(text, "filter", fmt.Sprintf("filter %d", i))
		has(text, "systems", fmt.Sprintf("systems %v", orEmpty(fl.CollisionSystems)))
		if len(fl.CollideWithSystems) > 0 {
			has(text, "collide with", fmt.Sprintf("collide with %v", fl.CollideWithSystems))
		}
		if len(fl.NotCollideWithSystems) > 0 {
			has(text, "not collide with", fmt.Sprintf("not with %v", fl.NotCollideWithSystems))
		}
		o := js["filters"].([]any)[i].(map[string]any)
		same("collisionSystems", o["collisionSystems"], orEmpty(fl.CollisionSystems))
		same("collideWithSystems", o["collideWithSystems"], orEmpty(fl.CollideWithSystems))
		same("notCollideWithSystems", o["notCollideWithSystems"], orEmpty(fl.NotCollideWithSystems))
	}
}
