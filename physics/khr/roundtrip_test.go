package khr_test

import (
	"strings"
	"testing"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/internal/testkit"
	"github.com/autocollide/autocollide/physics/khr"
)

var khrNames = []string{physics.ExtKHRShapes, physics.ExtKHRBodies}

// decodeFails lists (by path suffix) the Khronos validator-test files that
// Decode must reject, with the JSON path the error must name.
var decodeFails = map[string]string{
	"node/joint_empty_object.gltf":                    "nodes[0].extensions.KHR_physics_rigid_bodies.joint.joint",
	"node/joint_unresolved_connection.gltf":           "nodes[0].extensions.KHR_physics_rigid_bodies.joint.connectedNode",
	"node/joint_unresolved_joint_index.gltf":          "nodes[0].extensions.KHR_physics_rigid_bodies.joint.joint",
	"node/joint_unresolved_joint_no_root_ext.gltf":    "nodes[0].extensions.KHR_physics_rigid_bodies.joint.",
	"node/unresolved_material_index.gltf":             "nodes[0].extensions.KHR_physics_rigid_bodies.collider.physicsMaterial",
	"node/unresolved_material_no_root_ext.gltf":       "nodes[0].extensions.KHR_physics_rigid_bodies.collider.physicsMaterial",
	"node/unresolved_node_index.gltf":                 "nodes[0].extensions.KHR_physics_rigid_bodies.collider.geometry.node",
	"node/unresolved_shape_index.gltf":                "nodes[0].extensions.KHR_physics_rigid_bodies.collider.geometry.shape",
	"node/unresolved_shape_no_root_ext.gltf":          "nodes[0].extensions.KHR_physics_rigid_bodies.collider.geometry.shape",
	"node/rigid_body_invalid_com.gltf":                "nodes[0].extensions.KHR_physics_rigid_bodies.motion.centerOfMass",
	"node/rigid_body_invalid_inertiaOrientation.gltf": "nodes[1].extensions.KHR_physics_rigid_bodies.motion.inertiaOrientation",
	"node/rigid_body_invalid_inertiaTensor.gltf":      "nodes[0].extensions.KHR_physics_rigid_bodies.motion.inertiaDiagonal[0]",
	"node/rigid_body_invalid_velocity.gltf":           "nodes[0].extensions.KHR_physics_rigid_bodies.motion.angularVelocity",
	"node/rigid_body_invalid_mass.gltf":               "nodes[0].extensions.KHR_physics_rigid_bodies.motion.mass",
	"node/trigger_compound_and_simple.gltf":           "nodes[0].extensions.KHR_physics_rigid_bodies.trigger",
	"shapes/empty_collider_object.gltf":               "extensions.KHR_implicit_shapes.shapes[0].type",
}

// notLossless lists the files that decode but whose re-encoding is not
// JSON-equal, each because the file breaks its schema.
var notLossless = map[string]string{
	"shapes/custom_property.gltf":                             "unknown member customProperty (not in the schema) is not kept",
	"node/custom_property.gltf":                               "unknown member customProperty (not in the schema) is not kept",
	"node/joint_custom_property.gltf":                         "unknown member customProperty (not in the schema) is not kept",
	"rigidbodies/jointdrive_custom_property.gltf":             "unknown member customProperty (not in the schema) is not kept",
	"rigidbodies/jointlimit_custom_property.gltf":             "unknown member customProperty (not in the schema) is not kept",
	"rigidbodies/material_custom_property.gltf":               "unknown member customProperty (not in the schema) is not kept",
	"shapes/empty_shapes_array.gltf":                          "shapes: [] breaks minItems 1; nothing is written",
	"node/trigger_empty.gltf":                                 "a trigger with neither geometry nor nodes breaks the anyOf; dropped",
	"rigidbodies/empty_materials_array.gltf":                  "physicsMaterials: [] breaks minItems 1; omitted",
	"rigidbodies/collisionfilter_empty_collisionFilters.gltf": "collisionFilters: [] breaks minItems 1; omitted",
	"rigidbodies/empty_jointlimits_array.gltf":                "physicsJoints: [] breaks minItems 1; nothing is written",
	"node/trigger_compound_of_compounds.gltf":                 "no document-level KHR_physics_rigid_bodies; the empty one is added (valid; loaders read it unguarded)",
}

func TestRoundTripExamples(t *testing.T) {
	examples, checker := testkit.Examples(t)
	seen := 0
	for _, ex := range examples {
		rel, doc, orig := ex.Rel, ex.Doc, ex.JSON
		if codecs.Family(doc) != physics.KHR {
			continue
		}
		key := rel[strings.LastIndex(rel[:strings.LastIndex(rel, "/")], "/")+1:]
		t.Run(key, func(t *testing.T) {
			seen++
			m, warns, err := khr.Decode(doc)
			if want, ok := decodeFails[key]; ok {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("decode error = %v, want one at %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			opt := khr.Options{GeometryNode: strings.Contains(string(orig), `"node"`)}
			if err := khr.Encode(doc, m, opt); err != nil {
				t.Fatal(err)
			}
			out, err := testkit.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			reason, listed := notLossless[key]
			testkit.Lossless(t, orig, out, khrNames, reason, listed, warns)
			if checker.CheckDocument(orig) == nil {
				if err := checker.CheckDocument(out); err != nil {
					t.Errorf("schema-valid input gave a schema-invalid output: %v", err)
				}
			}
		})
	}
	if seen < 40 {
		t.Errorf("only %d KHR files seen", seen)
	}
}
