package schema_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/autocollide/autocollide/internal/testassets"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/schema"
)

func load(t *testing.T) *schema.Checker { return testkit.Checker(t) }

// Each case is a minimal document; want is "" for valid or a fragment of
// the expected problem.
func TestCheckDocument(t *testing.T) {
	c := load(t)
	khrUsed := `"extensionsUsed":["KHR_implicit_shapes","KHR_physics_rigid_bodies"]`
	omiUsed := `"extensionsUsed":["OMI_physics_shape","OMI_physics_body","OMI_physics_joint"]`
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"khr mass zero is infinite (patched)", `{` + khrUsed + `,"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"motion":{"mass":0,"inertiaDiagonal":[0,1,1]}}}}]}`, ""},
		{"khr negative mass", `{` + khrUsed + `,"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"motion":{"mass":-1}}}}]}`, "nodes[0]"},
		{"khr geometry.mesh (patched)", `{` + khrUsed + `,"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"collider":{"geometry":{"mesh":0,"convexHull":true}}}}}]}`, ""},
		{"khr geometry mesh and shape", `{` + khrUsed + `,"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"collider":{"geometry":{"mesh":0,"shape":0}}}}}]}`, "oneOf"},
		{"khr drive positionTarget without stiffness (patched)", `{` + khrUsed + `,"extensions":{"KHR_physics_rigid_bodies":{"physicsJoints":[{"drives":[{"type":"linear","mode":"force","axis":0,"positionTarget":1}]}]}}}`, "stiffness"},
		{"khr capsule negative radius", `{` + khrUsed + `,"extensions":{"KHR_implicit_shapes":{"shapes":[{"type":"capsule","capsule":{"height":1,"radiusTop":-1,"radiusBottom":1}}]}}}`, "radiusTop"},
		{"undeclared", `{"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"motion":{}}}}]}`, "extensionsUsed: KHR_physics_rigid_bodies"},
		{"required (an author may)", `{` + khrUsed + `,"extensionsRequired":["KHR_physics_rigid_bodies"],"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"motion":{}}}}]}`, ""},
		{"omi physicsJoints (patched)", `{` + omiUsed + `,"extensions":{"OMI_physics_joint":{"physicsJoints":[{"limits":[{"linearAxes":[0],"angularAxes":[1]}]}]}}}`, ""},
		{"omi shape without sub-object (writers must write it)", `{` + omiUsed + `,"extensions":{"OMI_physics_shape":{"shapes":[{"type":"box"}]}}}`, "oneOf"},
		{"omi empty trigger", `{` + omiUsed + `,"nodes":[{"extensions":{"OMI_physics_body":{"trigger":{}}}}]}`, "trigger"},
		{"omi motion without type", `{` + omiUsed + `,"nodes":[{"extensions":{"OMI_physics_body":{"motion":{"mass":1}}}}]}`, "type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.CheckDocument([]byte(tc.doc))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected problems: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("no problem found, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("problems %v lack %q", err, tc.want)
			}
		})
	}
}

func TestPackageCheckDocument(t *testing.T) {
	testassets.Shared(t) // the package's default checker finds the same folder
	if err := schema.CheckDocument([]byte(`{"asset":{"version":"2.0"}}`)); err != nil {
		t.Fatal(err)
	}
	bad := `{"extensionsUsed":["KHR_physics_rigid_bodies"],"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"motion":{"mass":-1}}}}]}`
	if err := schema.CheckDocument([]byte(bad)); err == nil || !strings.Contains(err.Error(), "nodes[0]") {
		t.Fatalf("err = %v", err)
	}
	// A GLB wrapping the bad JSON is checked through its JSON chunk.
	glb := make([]byte, 20, 20+len(bad))
	copy(glb, "glTF")
	binary.LittleEndian.PutUint32(glb[4:], 2)
	binary.LittleEndian.PutUint32(glb[8:], uint32(20+len(bad)))
	binary.LittleEndian.PutUint32(glb[12:], uint32(len(bad)))
	copy(glb[16:], "JSON")
	glb = append(glb, bad...)
	if err := schema.CheckDocument(glb); err == nil || !strings.Contains(err.Error(), "nodes[0]") {
		t.Fatalf("glb: err = %v", err)
	}
}
