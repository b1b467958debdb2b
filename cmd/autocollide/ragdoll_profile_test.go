package main

import (
	"encoding/json"
	"fmt"
	"html"
	"image"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/generate"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/inspect"
	"github.com/autocollide/autocollide/preview"
)

// writtenJoints generates the humanoid rig with a profile in a format and
// reads the joints back from the file: per joint node name, its written
// limits as text.
func writtenJoints(t *testing.T, rig, profile, format string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rig.glb")
	if code, _, stderr := runCLI("generate", rig, "--profile", profile, "--format", format, "-q", "-o", out); code != 0 {
		t.Fatalf("%s, %s: exit %d: %s", profile, format, code, stderr)
	}
	a, err := gltfio.LoadRaw(out, gltfio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := inspect.Describe(a)
	if err != nil {
		t.Fatal(err)
	}
	if f.Family != format {
		t.Fatalf("%s: family %s, want %s", out, f.Family, format)
	}
	joints := map[string]string{}
	for _, j := range f.Joints {
		var b strings.Builder
		for _, l := range j.Limits {
			fmt.Fprintf(&b, "lin %v ang %v", l.LinearAxes, l.AngularAxes)
			if l.Min != nil && l.Max != nil {
				fmt.Fprintf(&b, " [%.6f, %.6f]", *l.Min, *l.Max)
			}
			b.WriteString("; ")
		}
		joints[j.Name] = b.String()
	}
	return joints
}

// TestRagdollProfileLimits: a profile rule extending the ragdoll preset
// changes the limits written (read back from the OMI and the KHR file)
// of the joints whose child bone it matches, and of no other joint.
func TestRagdollProfileLimits(t *testing.T) {
	rig := humanoidRig(t)
	profile := filepath.Join(t.TempDir(), "knees.yaml")
	rule := "extends: ragdoll\nbodies:\n  jointLimits:\n    - {name: stiff knee, bones: [\"CALF_*\"], swing1: 10, swing2: 20, twist: 2}\n"
	if err := os.WriteFile(profile, []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	rad := func(deg float64) string { return fmt.Sprintf("[%.6f, %.6f]", -deg*math.Pi/180, deg*math.Pi/180) }
	want := "lin [0 1 2] ang [] [0.000000, 0.000000]; lin [] ang [0] " + rad(10) + "; lin [] ang [2] " + rad(20) + "; lin [] ang [1] " + rad(2) + "; "
	for _, format := range []string{"omi", "khr"} {
		base := writtenJoints(t, rig, "ragdoll", format)
		got := writtenJoints(t, rig, profile, format)
		if len(base) < 10 || len(got) != len(base) {
			t.Fatalf("%s: %d joints with the preset, %d with the profile; want the same, at least 10", format, len(base), len(got))
		}
		changed := 0
		for name, lim := range got {
			knee := strings.HasPrefix(name, "calf_")
			switch {
			case knee && lim != want:
				t.Errorf("%s: %s limits %s\nwant %s", format, name, lim, want)
			case knee && lim == base[name]:
				t.Errorf("%s: %s limits unchanged by the rule: %s", format, name, lim)
			case !knee && lim != base[name]:
				t.Errorf("%s: %s limits changed by a rule for the knees: %s, was %s", format, name, lim, base[name])
			}
			if knee {
				changed++
			}
		}
		if changed != 2 {
			t.Errorf("%s: %d knee joints, want 2 (calf_L, calf_R): %v", format, changed, slices.Sorted(maps.Keys(got)))
		}
	}
}

// TestRagdollHumanReport: the Markdown and HTML reports list, per
// ragdoll, every bone with a body, every merged bone with the body it
// went to, and every joint with its rule's angles: each list holds
// exactly what the JSON report does.
func TestRagdollHumanReport(t *testing.T) {
	rig := humanoidRig(t)
	dir := t.TempDir()
	rp := filepath.Join(dir, "report.json")
	args := []string{"generate", rig, "--profile", "ragdoll", "-q", "-o", filepath.Join(dir, "rig.glb"), "--force"}
	for _, r := range []string{rp, filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html")} {
		if code, _, stderr := runCLI(append(args, "--report", r)...); code != 0 {
			t.Fatalf("--report %s: exit %d: %s", r, code, stderr)
		}
	}
	r, _ := readReport(t, rp)
	if len(r.Assets) != 1 || len(r.Assets[0].Ragdolls) != 1 {
		t.Fatalf("JSON report: want one asset with one ragdoll")
	}
	rd := r.Assets[0].Ragdolls[0]
	if len(rd.Limits) != len(rd.Joints) || len(rd.Joints) < 10 || len(rd.Merged) < 4 {
		t.Fatalf("JSON ragdoll: %d joints, %d limits, %d merged; want a limit per joint, 10+ joints, 4+ merged", len(rd.Joints), len(rd.Limits), len(rd.Merged))
	}
	var joints []string
	for i, j := range rd.Joints {
		l := rd.Limits[i]
		if !strings.HasSuffix(j, " ("+l.Rule+")") {
			t.Errorf("joint %q: limit of rule %q", j, l.Rule)
		}
		swing := fmt.Sprintf("±%g°", l.Swing1)
		if l.Swing2 != l.Swing1 {
			swing += fmt.Sprintf(" × ±%g°", l.Swing2)
		}
		joints = append(joints, fmt.Sprintf("%s (%s: swing %s, twist ±%g°)", strings.TrimSuffix(j, " ("+l.Rule+")"), l.Rule, swing, l.Twist))
	}
	if !slices.Contains(joints, "forearm_L – upperarm_L (elbow: swing ±75°, twist ±30°)") {
		t.Errorf("no elbow joint with the preset's angles in %q", joints)
	}
	want := map[string][]string{"bodies": rd.Bodies, "merged": rd.Merged, "joints": joints}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for format, lines := range map[string][]string{
		"markdown": strings.Split(strings.ReplaceAll(string(md), `\`, ""), "\n"),
		"html":     htmlItems(string(page)),
	} {
		for kind, items := range want {
			prefix := kind + ": "
			k := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimLeft(l, " -"), prefix) })
			if k < 0 {
				t.Errorf("%s: no %s line", format, kind)
				continue
			}
			got := strings.Split(strings.TrimPrefix(strings.TrimLeft(lines[k], " -"), prefix), "; ")
			if !slices.Equal(got, items) {
				t.Errorf("%s: %s\n got %q\nwant %q", format, kind, got, items)
			}
		}
	}
}

// htmlItems returns the text of the page's list items, unescaped.
func htmlItems(page string) []string {
	var out []string
	for _, part := range strings.Split(page, "<li>")[1:] {
		item, _, _ := strings.Cut(part, "</li>")
		out = append(out, html.UnescapeString(item))
	}
	return out
}

// TestRagdollInspect: inspect, reading the OMI and the KHR output alone,
// finds the ragdoll the generator reported: the same bones with bodies,
// the same merged bones into the same bodies, the same joints with the
// rule's angles, and prints each in its text form.
func TestRagdollInspect(t *testing.T) {
	rig := humanoidRig(t)
	for _, format := range []string{"omi", "khr"} {
		out, want := rigRagdoll(t, rig, format, "rig.glb")
		code, text, stderr := runCLI("inspect", out)
		if code != 0 {
			t.Fatalf("%s: inspect: exit %d: %s", format, code, stderr)
		}
		code, js, stderr := runCLI("inspect", "--json", out)
		var doc any
		if err := json.Unmarshal([]byte(js), &doc); code != 0 || err != nil {
			t.Fatalf("%s: inspect --json: exit %d, %v: %s", format, code, err, stderr)
		}
		if err := inspectSchema(t).Validate(doc); err != nil {
			t.Errorf("%s: inspect --json with a ragdoll breaks the schema: %v", format, err)
		}
		a, err := gltfio.LoadRaw(out, gltfio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := inspect.Describe(a)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Ragdolls) != 1 {
			t.Fatalf("%s: inspect finds %d ragdolls, want 1", format, len(f.Ragdolls))
		}
		rd := f.Ragdolls[0]
		var bodies, merged, joints []string
		for _, b := range rd.Bodies {
			bodies = append(bodies, b.Bone)
		}
		for _, m := range rd.Merged {
			merged = append(merged, m.Bone+" → "+m.BodyBone)
		}
		for _, j := range rd.Joints {
			joints = append(joints, j.Child+" – "+j.Parent+" ("+strings.TrimSuffix(j.Limits[:strings.Index(j.Limits, ":")], ":")+")")
		}
		for _, c := range []struct {
			what      string
			got, want []string
		}{{"bodies", bodies, want.Bodies}, {"merged", merged, want.Merged}, {"joints", joints, want.Joints}} {
			if !slices.Equal(slices.Sorted(slices.Values(c.got)), slices.Sorted(slices.Values(c.want))) {
				t.Errorf("%s: inspect's %s %q\nthe report's %q", format, c.what, c.got, c.want)
			}
		}
		for i, j := range rd.Joints {
			l := want.Limits[slices.Index(want.Joints, joints[i])]
			wantText := fmt.Sprintf("%s: pinned, swing ±%g°, twist ±%g°", l.Rule, l.Swing1, l.Twist)
			line := fmt.Sprintf("    joint %s – %s: %s\n", j.Child, j.Parent, wantText)
			if j.Limits != wantText || !strings.Contains(text, line) {
				t.Errorf("%s: joint %s: limits %q, want %q printed as %q", format, j.Child, j.Limits, wantText, line)
			}
		}
		for _, line := range []string{"    bodies: " + strings.Join(bodies, "; ") + "\n", "    merged: " + strings.Join(merged, "; ") + "\n"} {
			if !strings.Contains(text, line) {
				t.Errorf("%s: inspect prints no line %q", format, line)
			}
		}
	}
}

// TestRagdollPreview: the preview of the rig's OMI and KHR ragdoll
// reports the ragdoll the generator did (the same bones with bodies,
// merged bones and joints), draws its joints in their colour (none once
// the joints are taken out of the file), and says the counts.
func TestRagdollPreview(t *testing.T) {
	rig := humanoidRig(t)
	for _, format := range []string{"omi", "khr"} {
		out, want := rigRagdoll(t, rig, format, "rig.gltf")
		img, st, err := preview.RenderFile(out, preview.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Ragdolls) != 1 {
			t.Fatalf("%s: preview finds %d ragdolls, want 1", format, len(st.Ragdolls))
		}
		rd := st.Ragdolls[0]
		var bodies, merged, joints []string
		for _, b := range rd.Bodies {
			bodies = append(bodies, b.Bone)
		}
		for _, m := range rd.Merged {
			merged = append(merged, m.Bone+" → "+m.BodyBone)
		}
		for _, j := range rd.Joints {
			joints = append(joints, j.Child+" – "+j.Parent)
		}
		var wantJoints []string
		for _, j := range want.Joints {
			wantJoints = append(wantJoints, j[:strings.LastIndex(j, " (")])
		}
		for _, c := range []struct {
			what      string
			got, want []string
		}{{"bodies", bodies, want.Bodies}, {"merged", merged, want.Merged}, {"joints", joints, wantJoints}} {
			if !slices.Equal(slices.Sorted(slices.Values(c.got)), slices.Sorted(slices.Values(c.want))) {
				t.Errorf("%s: preview's %s %q\nthe report's %q", format, c.what, c.got, c.want)
			}
		}
		marked := magenta(img)
		code, stdout, _ := runCLI("preview", out, "-o", filepath.Join(filepath.Dir(out), "rig.png"))
		line := fmt.Sprintf("ragdoll (skin 0): %d bones with bodies, %d merged, %d joints", len(want.Bodies), len(want.Merged), len(want.Joints))
		if code != 0 || !strings.Contains(stdout, line) {
			t.Errorf("%s: preview prints %q (exit %d), want %q", format, stdout, code, line)
		}
		editJSON(t, out, func(doc map[string]any) {
			for _, n := range arr(doc["nodes"]) {
				delete(obj(obj(n)["extensions"]), "OMI_physics_joint")
				if k := obj(obj(obj(n)["extensions"])["KHR_physics_rigid_bodies"]); k != nil {
					delete(k, "joint")
				}
			}
		})
		bare, st, err := preview.RenderFile(out, preview.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Ragdolls) != 0 || magenta(bare) != 0 || marked < 100 {
			t.Errorf("%s: %d joint-coloured pixels with the joints, %d and %d ragdolls without; want many, then none", format, marked, magenta(bare), len(st.Ragdolls))
		}
	}
}

// magenta counts the pixels of the preview's joint colour.
func magenta(img *image.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if r, g, b := img.Pix[i], img.Pix[i+1], img.Pix[i+2]; r > 150 && g < 90 && b > 80 && b < 190 && int(r)-int(b) > 40 {
			n++
		}
	}
	return n
}

// TestRagdollBesideAuthoredJoints: an asset that already carries a joint
// (a door hinged to its frame, with its document-level joint
// description) gets its ragdoll too, in OMI and KHR: the authored joint
// keeps its description, limits and nodes, the ragdoll's descriptions
// come after it, validate --strict passes, and a re-run replaces the
// ragdoll rather than adding a second one.
func TestRagdollBesideAuthoredJoints(t *testing.T) {
	for _, format := range []string{"omi", "khr"} {
		rig := humanoidRig(t)
		body, joint, shapes := "OMI_physics_body", "OMI_physics_joint", "OMI_physics_shape"
		if format == "khr" {
			body, joint, shapes = "KHR_physics_rigid_bodies", "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
		}
		var door, hinge, frame int
		editJSON(t, rig, func(doc map[string]any) {
			nodes := arr(doc["nodes"])
			door, hinge, frame = len(nodes), len(nodes)+2, len(nodes)+3
			ext := func(k string, v any) map[string]any { return map[string]any{k: v} }
			collider := map[string]any{"shape": 0}
			if format == "khr" {
				collider = map[string]any{"geometry": map[string]any{"shape": 0}}
			}
			nodes = append(nodes,
				map[string]any{"name": "Door", "translation": []any{3, 1, 0}, "children": []any{door + 1, hinge}, "extensions": ext(body, map[string]any{"motion": map[string]any{"type": "dynamic", "mass": 20}})},
				map[string]any{"name": "DoorPanel", "extensions": ext(body, map[string]any{"collider": collider})},
				map[string]any{"name": "DoorHinge", "translation": []any{-0.5, 0, 0}, "extensions": ext(joint, map[string]any{"connectedNode": frame, "joint": 0})},
				map[string]any{"name": "DoorFrame", "translation": []any{2.5, 1, 0}, "extensions": ext(body, map[string]any{"motion": map[string]any{"type": "kinematic"}})},
			)
			if format == "khr" {
				obj(nodes[door])["extensions"] = ext(body, map[string]any{"motion": map[string]any{"mass": 20}})
				obj(nodes[hinge])["extensions"] = ext(joint, map[string]any{"joint": map[string]any{"connectedNode": frame, "joint": 0}})
				obj(nodes[frame])["extensions"] = ext(body, map[string]any{"motion": map[string]any{"isKinematic": true}})
			}
			doc["nodes"] = nodes
			sc := obj(arr(doc["scenes"])[0])
			sc["nodes"] = append(arr(sc["nodes"]), door, frame)
			exts := obj(doc["extensions"])
			if exts == nil {
				exts = map[string]any{}
				doc["extensions"] = exts
			}
			exts[shapes] = map[string]any{"shapes": []any{map[string]any{"type": "box", "box": map[string]any{"size": []any{1, 2, 0.1}}}}}
			hingeDef := map[string]any{"name": "hinge", "limits": []any{
				map[string]any{"linearAxes": []any{0, 1, 2}, "min": 0, "max": 0},
				map[string]any{"angularAxes": []any{0, 2}, "min": 0, "max": 0},
				map[string]any{"angularAxes": []any{1}, "min": -1.5, "max": 0},
			}}
			obj(exts)[joint] = map[string]any{"physicsJoints": []any{hingeDef}}
			used := []any{shapes, body}
			if joint != body {
				used = append(used, joint)
			}
			doc["extensionsUsed"] = append(arr(doc["extensionsUsed"]), used...)
		})
		dir := t.TempDir()
		out, rp := filepath.Join(dir, "rig.glb"), filepath.Join(dir, "report.json")
		if code, _, stderr := runCLI("generate", rig, "--profile", "ragdoll", "--format", format, "-q", "-o", out, "--report", rp); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		r, _ := readReport(t, rp)
		a := r.Assets[0]
		if len(a.Ragdolls) != 1 || slices.ContainsFunc(a.Warnings, func(w string) bool { return strings.Contains(w, "no ragdoll") }) {
			t.Fatalf("%s: %d ragdolls, warnings %q: want the ragdoll beside the door", format, len(a.Ragdolls), a.Warnings)
		}
		check := func(path string) {
			t.Helper()
			if code, stdout, stderr := runCLI("validate", "--strict", path); code != 0 {
				t.Errorf("%s: validate --strict %s: exit %d: %s%s", format, path, code, stdout, stderr)
			}
			ast, err := gltfio.LoadRaw(path, gltfio.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			f, err := inspect.Describe(ast)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Joints) != 1+len(a.Ragdolls[0].Joints) || len(f.Ragdolls) != 1 || len(f.Ragdolls[0].Joints) != len(a.Ragdolls[0].Joints) {
				t.Fatalf("%s: %s: %d joints, %d ragdolls; want the hinge and the ragdoll's %d", format, path, len(f.Joints), len(f.Ragdolls), len(a.Ragdolls[0].Joints))
			}
			k := slices.IndexFunc(f.Joints, func(j inspect.Joint) bool { return j.Name == "DoorHinge" })
			if k < 0 {
				t.Fatalf("%s: the authored hinge is gone", format)
			}
			h := f.Joints[k]
			if h.Node != hinge || h.ConnectedNode != frame || h.Def != 0 || h.DefName != "hinge" || len(h.Limits) != 3 || *h.Limits[2].Min != -1.5 {
				t.Errorf("%s: authored hinge now %+v", format, h)
			}
			for _, j := range f.Ragdolls[0].Joints {
				if d := f.Joints[j.Joint]; d.Def == 0 || d.DefName == "hinge" {
					t.Errorf("%s: ragdoll joint %s uses description %d %q, the authored hinge's", format, j.Child, d.Def, d.DefName)
				}
			}
		}
		check(out)
		again := filepath.Join(dir, "again.glb")
		if code, _, stderr := runCLI("generate", out, "--profile", "ragdoll", "--format", format, "-q", "-o", again); code != 0 {
			t.Fatalf("%s: re-run: exit %d: %s", format, code, stderr)
		}
		check(again)
	}
}

// rigRagdoll generates the ragdoll of rig in format into a new folder as
// name, and returns the output and the report's ragdoll.
func rigRagdoll(t *testing.T, rig, format, name string) (string, generate.RagdollReport) {
	t.Helper()
	dir := t.TempDir()
	out, rp := filepath.Join(dir, name), filepath.Join(dir, "report.json")
	if code, _, stderr := runCLI("generate", rig, "--profile", "ragdoll", "--format", format, "-q", "-o", out, "--report", rp); code != 0 {
		t.Fatalf("%s: exit %d: %s", format, code, stderr)
	}
	r, _ := readReport(t, rp)
	if len(r.Assets) != 1 || len(r.Assets[0].Ragdolls) != 1 {
		t.Fatalf("%s: the report has no ragdoll", format)
	}
	return out, r.Assets[0].Ragdolls[0]
}
