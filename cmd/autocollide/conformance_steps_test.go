package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/internal/conformance"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
)

// convert converts f to family to, checks the output (validate, schemas,
// what it kept, the OMI joint rules), queues it for the Khronos validator,
// and converts it back to the input's family.
func (s *confSuite) convert(f confFile, to string) {
	name := base(f.path)
	step := name + " convert-" + to
	ext := filepath.Ext(f.path)
	outPath := filepath.Join(s.out, strings.TrimSuffix(name, ext)+"."+to+ext)
	code, _, stderr := runCLI("convert", f.path, "-o", outPath, "--to", to)
	if !s.r.check(step, exitErr(code, stderr)) {
		return
	}
	warns := warnings(stderr, f.path)
	if f.c.MissingImage != "" {
		var err error
		if !strings.Contains(strings.Join(warns, "\n"), f.c.MissingImage) {
			err = fmt.Errorf("no warning names the missing %s: %q", f.c.MissingImage, warns)
		}
		s.r.check(step+" missing-warned", err)
	}
	s.output(f, step, outPath)
	if f.c.Drop && ext == ".glb" {
		s.drop[outPath] = step + " drop"
	}
	before, errA := readModel(f.path)
	after, errB := readModel(outPath)
	if errA != nil || errB != nil {
		s.r.check(step+" kept", fmt.Errorf("reading the physics: %v %v", errA, errB))
		return
	}
	s.r.check(step+" kept", lost(before, after, warns))
	if to == "omi" {
		s.r.check(step+" joint-rules", jointRules(after, warns))
	}
	if f.c.Name == "omi-legacy-capsule-shorter-than-diameter" {
		s.r.check(step+" sphere", legacySphere(after))
	}
	if f.c.Family == conformance.Legacy {
		return
	}
	// Back to the input's family: what the two steps did not warn about
	// is still there.
	backPath := filepath.Join(s.out, strings.TrimSuffix(name, ext)+"."+to+".back"+ext)
	code, _, stderr2 := runCLI("convert", outPath, "-o", backPath, "--to", string(f.c.Family))
	if !s.r.check(step+" back", exitErr(code, stderr2)) {
		return
	}
	s.output(f, step+" back", backPath)
	back, err := readModel(backPath)
	if err != nil {
		s.r.check(step+" back kept", err)
		return
	}
	s.r.check(step+" back kept", lost(before, back, warns, warnings(stderr2, outPath)))
}

// output checks a written glTF: validate, the schemas, and queues it for
// the Khronos validator.
func (s *confSuite) output(f confFile, step, p string) {
	code, stdout, stderr := runCLI("validate", "-q", p)
	s.r.check(step+" validate", exitErr(code, stdout+stderr))
	s.r.check(step+" schema", s.schemaOf(p))
	s.queue(f, p, step+" validator")
}

// legacySphere: "The height of the capsule must be at least twice as much
// as the radius"; a legacy capsule shorter than its diameter is a sphere
// of its radius (#21 item 8).
func legacySphere(cm *confModel) error {
	for _, sh := range cm.m.Shapes {
		if sh.Type == physics.Sphere && g(sh.Radius) == g(0.5) {
			return nil
		}
	}
	var got []string
	for i := range cm.m.Shapes {
		got = append(got, cm.shape(i))
	}
	return fmt.Errorf("want a sphere of radius 0.5, got %v", got)
}

// g4mf exports f as G4MF, validates the export, reads it back into glTF
// and compares the physics, warnings of both steps allowed.
func (s *confSuite) g4mf(f confFile) {
	name := base(f.path)
	step := name + " g4mf"
	g4 := filepath.Join(s.out, strings.TrimSuffix(name, ".gltf")+".g4tf")
	code, _, stderr := runCLI("convert", f.path, "-o", g4)
	if !s.r.check(step, exitErr(code, stderr)) {
		return
	}
	warns := warnings(stderr, f.path)
	if f.c.Topic == "motion" && f.c.Family == conformance.KHR && f.c.Motion == conformance.Dynamic {
		s.r.check(step+" motion-warned", g4mfMotionWarned(f, warns))
	}
	code, stdout, stderr2 := runCLI("validate", "-q", g4)
	s.r.check(step+" validate", exitErr(code, stdout+stderr2))
	fam := string(f.c.Family)
	if f.c.Family == conformance.Legacy {
		fam = "omi"
	}
	back := filepath.Join(s.out, strings.TrimSuffix(name, ".gltf")+".g4mf.gltf")
	code, _, stderr3 := runCLI("convert", g4, "-o", back, "--to", fam)
	if !s.r.check(step+" read", exitErr(code, stderr3)) {
		return
	}
	before, errA := readModel(f.path)
	after, errB := readModel(back)
	if errA != nil || errB != nil {
		s.r.check(step+" kept", fmt.Errorf("reading the physics: %v %v", errA, errB))
		return
	}
	s.r.check(step+" kept", lostAnyNode(before, after, warns, warnings(stderr3, g4)))
}

// g4mfGenerate runs generate on the G4MF export of a case with a loose
// mesh: the authored physics is kept as it was, something is added, and
// the output validates.
func (s *confSuite) g4mfGenerate(f confFile) {
	name := base(f.path)
	g4 := filepath.Join(s.out, "gen-"+strings.TrimSuffix(name, ".gltf")+".g4tf")
	out := filepath.Join(s.out, "gen-"+strings.TrimSuffix(name, ".gltf")+".out.g4tf")
	if code, _, stderr := runCLI("convert", f.path, "-o", g4); !s.r.check(name+" g4mf export-for-generate", exitErr(code, stderr)) {
		return
	}
	code, _, stderr := runCLI("generate", g4, "-o", out)
	err := exitErr(code, stderr)
	if err == nil {
		err = g4mfKept(g4, out)
	}
	if s.r.check(name+" g4mf generate", err) {
		code, stdout, stderr := runCLI("validate", "-q", out)
		s.r.check(name+" g4mf generate validate", exitErr(code, stdout+stderr))
	}
}

// g4mfKept: every node of G4MF file in with physics has it unchanged in
// out (by node name), and out has more nodes with physics.
func g4mfKept(in, out string) error {
	read := func(p string) (map[string]string, error) {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var d struct {
			Nodes []struct {
				Name    string          `json:"name"`
				Physics json.RawMessage `json:"physics"`
			} `json:"nodes"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		m := map[string]string{}
		for _, n := range d.Nodes {
			if len(n.Physics) > 0 {
				m[n.Name] = string(n.Physics)
			}
		}
		return m, nil
	}
	a, err := read(in)
	if err != nil {
		return err
	}
	b, err := read(out)
	if err != nil {
		return err
	}
	for name, ph := range a {
		if b[name] != ph {
			return fmt.Errorf("node %q: authored physics %s became %s", name, ph, b[name])
		}
	}
	if len(b) <= len(a) {
		return fmt.Errorf("nothing generated: %d nodes with physics before, %d after", len(a), len(b))
	}
	return nil
}

// g4mfMotionWarned: a KHR motion with mass 0 or a zero inertia moment
// (infinite) or without mass (engine-computed) has no G4MF form (there 0
// means "compute" and no mass 1 kg): export must warn about it (#21 item
// 5).
func g4mfMotionWarned(f confFile, warns []string) error {
	before, err := readModel(f.path)
	if err != nil {
		return err
	}
	for _, ni := range before.m.NodeIndices() {
		mo := before.m.Nodes[ni].Motion
		if mo == nil || mo.Type != physics.Dynamic {
			continue
		}
		zero := mo.InertiaDiagonal != nil && (mo.InertiaDiagonal[0] == 0 || mo.InertiaDiagonal[1] == 0 || mo.InertiaDiagonal[2] == 0)
		if mo.Mass != nil && *mo.Mass != 0 && !zero {
			continue
		}
		np := fmt.Sprintf("nodes[%d]", ni)
		if !strings.Contains(strings.Join(warns, "\n"), np) {
			return fmt.Errorf("%s: %s has no G4MF form, no warning (warnings: %q)", np, before.motion(mo), warns)
		}
	}
	return nil
}

// extraChecks runs the checks of single items on the cases they concern.
func (s *confSuite) extraChecks(f confFile) {
	name := base(f.path)
	c := f.c
	gltfIn := filepath.Ext(f.path) == ".gltf"
	// #21 item 2: a .glb written from a .gltf holds everything: moved
	// alone to an empty folder it loads with its geometry.
	if gltfIn && (c.Topic == "resources" || c.Name == "khr-collider-mesh-hull-dynamic" || c.Name == "omi-collider-convex-dynamic") {
		for _, cmd := range []string{"convert", "generate"} {
			s.r.check(name+" "+cmd+"-glb standalone", s.standalone(f, cmd))
		}
	}
	// .glb to .gltf in another folder: the output loads from there.
	if !gltfIn && (c.Topic == "resources" || c.Name == "khr-collider-mesh-hull-dynamic") {
		s.r.check(name+" convert-gltf elsewhere", s.toGLTF(f))
	}
	// #21 items 4 and 5: generate follows the family already in the file,
	// glTF or G4MF.
	if c.Loose >= 0 && gltfIn {
		s.g4mfGenerate(f)
	}
	if c.Loose >= 0 {
		out := filepath.Join(s.out, "gen-"+name)
		code, _, stderr := runCLI("generate", f.path, "-o", out)
		if s.r.check(name+" generate", exitErr(code, stderr)) {
			s.r.check(name+" generate one-family", oneFamily(out, c))
			s.output(f, name+" generate", out)
		}
	}
	// #21 item 7: "convexHull: true" means the hull of the mesh; a mesh
	// that is not convex is no defect.
	if c.Name == "khr-collider-hull-of-concave-mesh" {
		code, stdout, _ := runCLI("validate", "-q", "--strict", f.path)
		s.r.check(name+" validate-strict", exitErr(code, stdout))
	}
	// #21 item 9: validate names the KHR revision (geometry.mesh or
	// geometry.node) a file uses.
	if c.Family == conformance.KHR && (strings.HasPrefix(c.Shape, "mesh-") || strings.HasPrefix(c.Shape, "node-")) {
		_, stdout, _ := runCLI("validate", f.path)
		form := "geometry." + strings.SplitN(c.Shape, "-", 2)[0]
		var err error
		if !strings.Contains(stdout, "revision") || !strings.Contains(stdout, form) {
			err = fmt.Errorf("validate does not name the revision (%s): %s", form, strings.TrimSpace(stdout))
		}
		s.r.check(name+" validate revision", err)
	}
}

// oneFamily: a generate output carries one physics family, that of the
// input (OMI for a legacy OMI_collider input, whose physics is kept as it
// is beside the generated current OMI).
func oneFamily(p string, c *conformance.Case) error {
	a, err := gltfio.LoadRaw(p, gltfio.Limits{})
	if err != nil {
		return err
	}
	var fams []string
	for _, cd := range codecs.Detect(a.Doc) {
		fams = append(fams, string(cd.Family()))
	}
	want := string(c.Family)
	if c.Family == conformance.Legacy {
		want = "omi"
	}
	if len(fams) != 1 || fams[0] != want {
		return fmt.Errorf("families %v in the output of a %s input", fams, c.Family)
	}
	return nil
}

// standalone writes f as a .glb with cmd (convert or generate) into a
// folder of its own, moves the .glb alone into an empty folder and loads
// it there: every buffer and image must be inside.
func (s *confSuite) standalone(f confFile, cmd string) error {
	name := strings.TrimSuffix(base(f.path), ".gltf")
	dir := filepath.Join(s.out, cmd+"-glb-"+name)
	alone := filepath.Join(dir, "alone")
	if err := os.MkdirAll(alone, 0o755); err != nil {
		return err
	}
	out := filepath.Join(dir, name+".glb")
	args := []string{cmd, f.path, "-o", out}
	if cmd == "convert" {
		args = append(args, "--to", convertTargets(f.c.Family)[0])
	}
	if code, _, stderr := runCLI(args...); code != 0 {
		return exitErr(code, stderr)
	}
	moved := filepath.Join(alone, name+".glb")
	if err := os.Rename(out, moved); err != nil {
		return err
	}
	raw, err := gltfio.LoadRaw(moved, gltfio.Limits{})
	if err != nil {
		return err
	}
	for i, b := range raw.Doc.Buffers {
		if b.URI != "" {
			return fmt.Errorf("buffers[%d] is outside the GLB: %.40q", i, b.URI)
		}
	}
	for i, im := range raw.Doc.Images {
		if im.URI != "" && f.c.MissingImage == "" {
			return fmt.Errorf("images[%d] is outside the GLB: %.40q", i, im.URI)
		}
	}
	if _, err := gltfio.Load(moved, gltfio.Limits{}); err != nil {
		return fmt.Errorf("moved alone: %w", err)
	}
	s.queue(f, moved, base(f.path)+" "+cmd+"-glb standalone validator")
	return nil
}

// toGLTF converts a .glb input into a .gltf in a folder of its own, which
// must load there with its buffers.
func (s *confSuite) toGLTF(f confFile) error {
	name := strings.TrimSuffix(base(f.path), ".glb")
	out := filepath.Join(s.out, "gltf-"+name, name+".gltf")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if code, _, stderr := runCLI("convert", f.path, "-o", out, "--to", convertTargets(f.c.Family)[0]); code != 0 {
		return exitErr(code, stderr)
	}
	if _, err := gltfio.Load(out, gltfio.Limits{}); err != nil {
		return err
	}
	s.queue(f, out, base(f.path)+" convert-gltf elsewhere validator")
	return nil
}
