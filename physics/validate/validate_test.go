package validate_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/validate"
	"github.com/qmuntal/gltf"
)

const testdata = "../../testdata/physics"

// badFiles maps each hand-made broken file (testdata/physics/bad, made by
// gen_bad.py from the two valid files in good/) to the path of the
// problem Validate must report.
var badFiles = map[string]string{
	"omi_shape_unknown_type":                      "extensions.OMI_physics_shape.shapes[0].type",
	"omi_box_negative_size":                       "extensions.OMI_physics_shape.shapes[0].box.size[1]",
	"omi_sphere_negative_radius":                  "extensions.OMI_physics_shape.shapes[1].sphere.radius",
	"omi_capsule_negative_radius":                 "extensions.OMI_physics_shape.shapes[2].capsule.radiusTop",
	"omi_cylinder_negative_height":                "extensions.OMI_physics_shape.shapes[3].cylinder.height",
	"omi_convex_missing_mesh":                     "extensions.OMI_physics_shape.shapes[4].convex.mesh",
	"omi_convex_mesh_out_of_range":                "extensions.OMI_physics_shape.shapes[4].convex.mesh",
	"omi_collider_shape_out_of_range":             "nodes[1].extensions.OMI_physics_body.collider.shape",
	"omi_material_out_of_range":                   "nodes[1].extensions.OMI_physics_body.collider.physicsMaterial",
	"omi_motion_bad_type":                         "nodes[0].extensions.OMI_physics_body.motion.type",
	"omi_motion_negative_mass":                    "nodes[0].extensions.OMI_physics_body.motion.mass",
	"omi_motion_short_velocity":                   "nodes[0].extensions.OMI_physics_body.motion.linearVelocity",
	"omi_inertia_orientation_not_unit":            "nodes[0].extensions.OMI_physics_body.motion.inertiaOrientation",
	"omi_inertia_negative":                        "nodes[0].extensions.OMI_physics_body.motion.inertiaDiagonal[1]",
	"omi_trigger_empty":                           "nodes[2].extensions.OMI_physics_body.trigger",
	"omi_trigger_shape_and_nodes":                 "nodes[2].extensions.OMI_physics_body.trigger",
	"omi_compound_trigger_not_descendant":         "nodes[2].extensions.OMI_physics_body.trigger.nodes[0]",
	"omi_compound_trigger_member_without_trigger": "nodes[2].extensions.OMI_physics_body.trigger.nodes[0]",
	"omi_compound_trigger_with_filter":            "nodes[2].extensions.OMI_physics_body.trigger.collisionFilter",
	"omi_filter_both_lists":                       "extensions.OMI_physics_body.collisionFilters[0]",
	"omi_material_negative_friction":              "extensions.OMI_physics_body.physicsMaterials[0].dynamicFriction",
	"omi_joint_missing_connected":                 "nodes[3].extensions.OMI_physics_joint",
	"omi_joint_def_out_of_range":                  "nodes[3].extensions.OMI_physics_joint.joint",
	"omi_joint_no_dynamic_body":                   "nodes[3].extensions.OMI_physics_joint",
	"omi_joint_self":                              "nodes[3].extensions.OMI_physics_joint.connectedNode",
	"omi_joint_to_trigger":                        "nodes[3].extensions.OMI_physics_joint.connectedNode",
	"omi_limit_min_gt_max":                        "extensions.OMI_physics_joint.physicsJoints[0].limits[0]",
	"omi_limit_bad_axis":                          "extensions.OMI_physics_joint.physicsJoints[0].limits[0].linearAxes[0]",
	"omi_limit_no_axes":                           "extensions.OMI_physics_joint.physicsJoints[0].limits[0]",
	"omi_drive_missing_axis":                      "extensions.OMI_physics_joint.physicsJoints[0].drives[0].axis",
	"omi_drive_target_without_damping":            "extensions.OMI_physics_joint.physicsJoints[0].drives[0]",
	"omi_not_declared":                            "extensionsUsed",
	"omi_gravity_shape_out_of_range":              "nodes[7].extensions.OMI_physics_gravity.shaped.shape",
	"omi_hull_not_triangles":                      "meshes[0].primitives[0].mode",
	"omi_hull_too_many_vertices":                  "meshes[0]",
	"khr_geometry_shape_and_mesh":                 "nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry",
	"khr_geometry_mesh_out_of_range":              "nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry.mesh",
	"khr_geometry_node_without_mesh":              "nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry.node",
	"khr_collider_missing_geometry":               "nodes[1].extensions.KHR_physics_rigid_bodies.collider.geometry",
	"khr_limit_both_axes":                         "extensions.KHR_physics_rigid_bodies.physicsJoints[0].limits[0]",
	"khr_shape_negative_radius":                   "extensions.KHR_implicit_shapes.shapes[0].sphere.radius",
	"khr_shape_missing_type":                      "extensions.KHR_implicit_shapes.shapes[1].type",
	"khr_compound_of_compounds":                   "nodes[3].extensions.KHR_physics_rigid_bodies.trigger.nodes[0]",
	"khr_material_negative_friction":              "extensions.KHR_physics_rigid_bodies.physicsMaterials[0].staticFriction",
	"khr_mass_negative":                           "nodes[0].extensions.KHR_physics_rigid_bodies.motion.mass",
	"khr_joint_without_root":                      "nodes[5].extensions.KHR_physics_rigid_bodies.joint.joint",
	// What the specs prohibit (issue 21 item 7): errors.
	"khr_box_zero_size":                    "extensions.KHR_implicit_shapes.shapes[1].box.size[1]",
	"khr_cylinder_zero_radii":              "extensions.KHR_implicit_shapes.shapes[2].cylinder",
	"khr_filter_both_lists":                "extensions.KHR_physics_rigid_bodies.collisionFilters[0]",
	"khr_limit_axis_3":                     "extensions.KHR_physics_rigid_bodies.physicsJoints[0].limits[0].angularAxes[0]",
	"khr_limit_min_gt_max":                 "extensions.KHR_physics_rigid_bodies.physicsJoints[0].limits[0]",
	"khr_compound_trigger_not_descendant":  "nodes[3].extensions.KHR_physics_rigid_bodies.trigger.nodes[0]",
	"khr_drive_stiffness_without_position": "extensions.KHR_physics_rigid_bodies.physicsJoints[0].drives[0]",
	"omi_drive_axis_3":                     "extensions.OMI_physics_joint.physicsJoints[0].drives[0].axis",
	"omi_joint_on_body":                    "nodes[0].extensions.OMI_physics_joint",
	"omi_joint_not_under_body":             "nodes[3].extensions.OMI_physics_joint",
	"omi_joint_connected_not_under_body":   "nodes[3].extensions.OMI_physics_joint.connectedNode",
}

func open(t *testing.T, path string) *gltf.Document {
	t.Helper()
	doc, err := gltf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestGoodFilesClean(t *testing.T) {
	for _, name := range []string{"omi_base", "khr_base"} {
		doc := open(t, filepath.Join(testdata, "good", name+".gltf"))
		if probs := validate.Validate(doc, validate.Options{}); len(probs) > 0 {
			t.Errorf("%s: %v", name, probs)
		}
	}
}

func TestBadFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "bad", "*.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 25 || len(files) != len(badFiles) {
		t.Fatalf("%d bad files, %d in the table (want >= 25, equal)", len(files), len(badFiles))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gltf")
		t.Run(name, func(t *testing.T) {
			want, ok := badFiles[name]
			if !ok {
				t.Fatalf("no expected path recorded")
			}
			sev := validate.Error
			if warnOnly[name] {
				sev = validate.Warning
			}
			probs := validate.Validate(open(t, f), validate.Options{})
			for _, p := range probs {
				if p.Path == want && p.Severity == sev {
					return
				}
			}
			t.Fatalf("no %s at %s; got %v", sev, want, probs)
		})
	}
}

// warnOnly lists the broken files whose problem is a warning (--strict
// fails them, validate alone does not).
var warnOnly = map[string]bool{
	"omi_hull_too_many_vertices":       true, // engines simplify it
	"omi_drive_target_without_damping": true, // OMI: damping defaults to 0, the target has no effect
}

// acceptedFiles maps each file of testdata/physics/accepted (gen_bad.py)
// to the path of its one finding and that finding's severity: a warning
// for an older form readers accept, a note for what a specification allows
// but a user may want to know. None draws an error; the notes pass
// --strict.
var acceptedFiles = map[string]struct {
	path string
	sev  validate.Severity
}{
	"khr_required_shapes":                  {"extensionsRequired[0]", validate.Info},
	"omi_required":                         {"extensionsRequired[0]", validate.Info},
	"khr_hull_not_convex":                  {"meshes[0]", validate.Info},
	"omi_hull_not_convex":                  {"meshes[0]", validate.Info},
	"omi_hull_not_closed":                  {"meshes[0]", validate.Info},
	"omi_trigger_empty_older_form":         {"nodes[2].extensions.OMI_physics_body.trigger", validate.Warning},
	"omi_motion_without_type_older_form":   {"nodes[5].extensions.OMI_physics_body.motion.type", validate.Warning},
	"omi_drive_position_without_stiffness": {"extensions.OMI_physics_joint.physicsJoints[0].drives[1]", validate.Warning},
	// A drive's force is stiffness·(positionTarget − position) +
	// damping·(velocityTarget − velocity), a missing gain 0: a target
	// without its gain is a term of zero, a warning when no term is left,
	// a note beside a working pair (RigidBodies_Joint_09's velocity motor).
	"khr_drive_position_without_stiffness":   {"extensions.KHR_physics_rigid_bodies.physicsJoints[0].drives[0]", validate.Warning},
	"khr_drive_velocity_without_damping":     {"extensions.KHR_physics_rigid_bodies.physicsJoints[0].drives[0]", validate.Warning},
	"khr_drive_velocity_motor":               {"extensions.KHR_physics_rigid_bodies.physicsJoints[0].drives[0]", validate.Info},
	"omi_drive_velocity_motor":               {"extensions.OMI_physics_joint.physicsJoints[0].drives[0]", validate.Info},
	"omi_drive_spring_without_velocity_gain": {"extensions.OMI_physics_joint.physicsJoints[0].drives[0]", validate.Info},
	"omi_joint_under_static_body":            {},
}

func TestAcceptedFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "accepted", "*.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(acceptedFiles) {
		t.Fatalf("%d accepted files, %d in the table", len(files), len(acceptedFiles))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gltf")
		t.Run(name, func(t *testing.T) {
			want, ok := acceptedFiles[name]
			if !ok {
				t.Fatalf("no expected finding recorded")
			}
			probs := validate.Validate(open(t, f), validate.Options{})
			if want.path == "" {
				if len(probs) > 0 {
					t.Fatalf("valid file drew problems: %v", probs)
				}
				return
			}
			if len(probs) != 1 || probs[0].Path != want.path || probs[0].Severity != want.sev {
				t.Fatalf("want one %s at %s; got %v", want.sev, want.path, probs)
			}
		})
	}
}

// TestValidatorReports checks Validate against the Khronos validator's
// expected reports shipped with the KHR test files: every expected error
// is found (at the same path, or one inside it) and a file without
// expected errors gets no error.
func TestValidatorReports(t *testing.T) {
	shared := testassets.Shared(t)
	reports, err := filepath.Glob(filepath.Join(shared, "specs", "KHR_*", "examples", "validator-tests", "data", "*", "*.report.json"))
	if err != nil || len(reports) < 50 {
		t.Fatalf("%d reports (%v)", len(reports), err)
	}
	for _, rp := range reports {
		gp := strings.TrimSuffix(rp, ".report.json")
		t.Run(filepath.Base(filepath.Dir(gp))+"/"+filepath.Base(gp), func(t *testing.T) {
			b, err := os.ReadFile(rp)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Issues struct {
					Messages []struct {
						Code     string `json:"code"`
						Severity int    `json:"severity"`
						Pointer  string `json:"pointer"`
					} `json:"messages"`
				} `json:"issues"`
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			probs := validate.Validate(open(t, gp), validate.Options{})
			nErr := 0
			for _, m := range rep.Issues.Messages {
				// The README prohibits degenerate shapes, which the Khronos
				// validator only notes (severity 2): we report errors there.
				if m.Code == "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE" {
					m.Severity = 0
				}
				if m.Severity > 1 {
					continue
				}
				want := pointerToPath(m.Pointer)
				sev := validate.Severity(m.Severity)
				if m.Severity == 0 {
					nErr++
				}
				// Two of the validator's pointers go below the member they
				// blame (geometry/node/0, limits/0/0): a problem at the
				// member itself, or inside its parent, matches them.
				parent := want[:strings.LastIndexAny(want, ".[")]
				found := false
				for _, p := range probs {
					if p.Severity <= sev && (p.Path == want || strings.HasPrefix(p.Path, want+".") || strings.HasPrefix(p.Path, want+"[") ||
						strings.HasPrefix(want, p.Path+".") || strings.HasPrefix(want, p.Path+"[") ||
						(strings.HasSuffix(want, "]") && strings.HasPrefix(p.Path, parent+"."))) {
						found = true
					}
				}
				if !found {
					t.Errorf("expected %s (%s) at %s; got %v", m.Code, sev, want, probs)
				}
			}
			if nErr == 0 && validate.HasErrors(probs) {
				t.Errorf("no errors expected; got %v", probs)
			}
		})
	}
}

// pointerToPath turns /nodes/0/extensions/X/a/1 into nodes[0].extensions.X.a[1].
func pointerToPath(ptr string) string {
	var sb strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			sb.WriteString("[" + tok + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString(".")
		}
		sb.WriteString(tok)
	}
	return sb.String()
}

// default_box.gltf omits the shape sub-object, which the README allows and
// the schema's oneOf rejects (SCHEMA-BUGS.md): it must validate clean.
//
// findings lists the spec examples and corpus files (by path suffix) that
// legitimately draw problems, with the paths expected; every other file
// that passes the schema must validate without any problem.
var findings = map[string][]string{
	"complex/indirect_children.gltf": {"nodes[3].extensions.OMI_physics_body.trigger", "nodes[8].extensions.OMI_physics_body.trigger"},
	"complex/two_boxes.gltf":         {"nodes[3].extensions.OMI_physics_body.trigger"},
	"triggers/triggers.gltf":         {"nodes[4].extensions.OMI_physics_body.motion.type"},
	"simple_joint.gltf":              {"extensions.OMI_physics_shape.shapes[0].capsule.radius"},
	"rounded_cube.gl":                {"meshes[0]"}, // a 1726-vertex, slightly concave mesh used as a convex shape
	"hovercraft.gltf":                {"meshes[0]"}, // the hull mesh is not convex
	"hanging_rope.gltf":              {"extensions.OMI_physics_shape.shapes[1].capsule.radius"},
	"rope_railing.gltf":              {"extensions.OMI_physics_shape.shapes[1].capsule.radius"},
	"weld_joint.gltf":                {"extensions.OMI_physics_shape.shapes[0].capsule.radius"},
	// Real hull meshes that are concave or above 255 vertices.
	"moon_petavius_crater.gltf": {"meshes[7]", "meshes[13]", "meshes[16]"},
	"OMI_collider-examples/":    {"extensions.OMI_collider"},
	"OMI_collider/examples/":    {"extensions.OMI_collider"},
}

func TestExamplesClean(t *testing.T) {
	shared := testassets.Shared(t)
	files, err := testkit.PhysicsFiles(shared)
	if err != nil {
		t.Fatal(err)
	}
	checker := testkit.Checker(t)
	for _, rel := range files {
		if strings.Contains(rel, "validator-tests") {
			continue // covered by TestValidatorReports
		}
		t.Run(rel, func(t *testing.T) {
			doc := open(t, filepath.Join(shared, rel))
			if codecs.Family(doc) == physics.None {
				t.Skip("no rigid-body physics")
			}
			probs := validate.Validate(doc, validate.Options{})
			var want []string
			listed := false
			for k, v := range findings {
				if strings.Contains(rel, k) {
					want, listed = v, true
				}
			}
			if !listed {
				b, _ := os.ReadFile(filepath.Join(shared, rel))
				if err := checker.CheckDocument(b); err != nil && !strings.HasSuffix(rel, "default_box.gltf") {
					t.Fatalf("not in the findings table but breaks the schema: %v", err)
				}
				if len(probs) > 0 {
					t.Fatalf("valid example drew problems: %v", probs)
				}
				return
			}
			var got []string
			for _, p := range probs {
				got = append(got, p.Path)
			}
			sort.Strings(got)
			for _, w := range want {
				if !containsPrefix(got, w) {
					t.Errorf("expected a problem at %s; got %v", w, probs)
				}
			}
		})
	}
}

func containsPrefix(list []string, p string) bool {
	for _, s := range list {
		if s == p || strings.HasPrefix(s, p+".") || strings.HasPrefix(s, p+"[") {
			return true
		}
	}
	return false
}

func TestNaNIsReported(t *testing.T) {
	doc := &gltf.Document{
		ExtensionsUsed: []string{physics.ExtKHRBodies},
		Nodes: []*gltf.Node{{Extensions: gltf.Extensions{
			physics.ExtKHRBodies: map[string]any{"motion": map[string]any{"mass": math.NaN()}},
		}}},
	}
	probs := validate.Validate(doc, validate.Options{})
	if len(probs) == 0 || probs[0].Path != "nodes[0].extensions.KHR_physics_rigid_bodies" || probs[0].Severity != validate.Error {
		t.Fatalf("NaN not reported: %v", probs)
	}
}
