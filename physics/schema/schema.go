// Package schema checks the physics extensions of a glTF document against
// the official JSON schemas of both families (the copies under the shared
// specs folder), with the published schemas' known defects (SCHEMA-BUGS.md)
// worked around explicitly; see Patches.
//
// Only the physics extension objects are checked (document and node level),
// each against its extension's schema, plus their declaration: a physics
// extension in use must be in extensionsUsed (a file's author may also
// require it: no spec forbids it). The core glTF schema is not part of the specs folder;
// the three core schemas the extension schemas reference (glTFProperty,
// glTFChildOfRootProperty, glTFid) are supplied here in minimal form.
package schema

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Patches lists the SCHEMA-BUGS.md defects this package works around, in
// the words of the change applied to the published schema.
func Patches() []string { return slices.Clone(patches) }

var patches = []string{
	"OMI_physics_joint document level: required [constraints] replaced by required [physicsJoints] (the README's property)",
	"OMI_physics_joint limit: oneOf(linearAxes, angularAxes) relaxed to anyOf (the README's weld example has both)",
	"OMI_physics_gravity shape: the oneOf requiring the sub-object named after type is dropped (defaults apply)",
	"KHR_physics_rigid_bodies motion: mass and inertiaDiagonal exclusiveMinimum 0 relaxed to minimum 0 (0 means infinite)",
	"KHR_physics_rigid_bodies geometry: oneOf(shape, node) extended to oneOf(shape, node, mesh) and mesh declared (2026 revision)",
	"KHR_physics_rigid_bodies joint drive: draft-07 dependencies restated as 2020-12 dependentRequired (positionTarget<->stiffness, velocityTarget<->damping)",
}

// Not patched, on purpose: the OMI_physics_shape oneOf requiring the
// sub-object (writers must always include it), the OMI_physics_body
// trigger anyOf rejecting "trigger": {} (writers must not write it), and
// the archived OMI_collider (never written; not checked).

const base = "https://schemas.autocollide.invalid/"

var coreSchemas = map[string]string{
	"glTFid.schema.json": `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"integer","minimum":0}`,
	"glTFProperty.schema.json": `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
		"properties":{"extensions":{"type":"object"},"extras":{}}}`,
	"glTFChildOfRootProperty.schema.json": `{"$schema":"https://json-schema.org/draft/2020-12/schema","allOf":[{"$ref":"glTFProperty.schema.json"}],
		"properties":{"name":{"type":"string"}}}`,
}

// target names the schema checking one extension object.
type target struct {
	dir, file string
}

var docTargets = map[string]target{
	"OMI_physics_shape":        {"OMI_physics_shape", "glTF.OMI_physics_shape.schema.json"},
	"OMI_physics_body":         {"OMI_physics_body", "glTF.OMI_physics_body.schema.json"},
	"OMI_physics_joint":        {"OMI_physics_joint", "glTF.OMI_physics_joint.schema.json"},
	"OMI_physics_gravity":      {"OMI_physics_gravity", "glTF.OMI_physics_gravity.schema.json"},
	"KHR_implicit_shapes":      {"KHR_implicit_shapes", "glTF.KHR_implicit_shapes.schema.json"},
	"KHR_physics_rigid_bodies": {"KHR_physics_rigid_bodies", "glTF.KHR_physics_rigid_bodies.schema.json"},
}

var nodeTargets = map[string]target{
	"OMI_physics_body":         {"OMI_physics_body", "node.OMI_physics_body.schema.json"},
	"OMI_physics_joint":        {"OMI_physics_joint", "node.OMI_physics_joint.schema.json"},
	"OMI_physics_gravity":      {"OMI_physics_gravity", "node.OMI_physics_gravity.schema.json"},
	"KHR_physics_rigid_bodies": {"KHR_physics_rigid_bodies", "node.KHR_physics_rigid_bodies.schema.json"},
}

// Checker holds the compiled schemas.
type Checker struct {
	doc, node map[string]*jsonschema.Schema
}

// FindSpecs locates the shared specs folder: $AUTOCOLLIDE_SHARED/specs if
// the variable is set, else the first shared/specs found walking up from
// the working directory.
func FindSpecs() (string, error) {
	if s := os.Getenv("AUTOCOLLIDE_SHARED"); s != "" {
		return filepath.Join(s, "specs"), nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		cand := filepath.Join(dir, "shared")
		if st, err := os.Stat(filepath.Join(cand, "corpus")); err == nil && st.IsDir() {
			return filepath.Join(cand, "specs"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("schema: shared folder not found (set AUTOCOLLIDE_SHARED)")
		}
		dir = parent
	}
}

// Load compiles the physics schemas found under specsDir.
func Load(specsDir string) (*Checker, error) {
	c := jsonschema.NewCompiler()
	dirs := map[string]bool{}
	for _, t := range docTargets {
		dirs[t.dir] = true
	}
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for k := range dirs {
			if !yield(k) {
				return
			}
		}
	}) {
		for name, src := range coreSchemas {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
			if err != nil {
				return nil, err
			}
			if err := c.AddResource(base+d+"/"+name, v); err != nil {
				return nil, err
			}
		}
		files, err := filepath.Glob(filepath.Join(specsDir, d, "schema", "*.json"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("schema: no schemas in %s", filepath.Join(specsDir, d, "schema"))
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				return nil, fmt.Errorf("schema: %s: %w", f, err)
			}
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("schema: %s: not an object", f)
			}
			name := filepath.Base(f)
			patch(d, name, obj)
			// The schemas' $id are bare file names; replace them by the URL
			// they are registered under so relative $refs resolve per folder.
			obj["$id"] = base + d + "/" + name
			if err := c.AddResource(base+d+"/"+name, obj); err != nil {
				return nil, fmt.Errorf("schema: %s: %w", f, err)
			}
		}
	}
	ch := &Checker{doc: map[string]*jsonschema.Schema{}, node: map[string]*jsonschema.Schema{}}
	for ext, t := range docTargets {
		s, err := c.Compile(base + t.dir + "/" + t.file)
		if err != nil {
			return nil, fmt.Errorf("schema: compile %s: %w", t.file, err)
		}
		ch.doc[ext] = s
	}
	for ext, t := range nodeTargets {
		s, err := c.Compile(base + t.dir + "/" + t.file)
		if err != nil {
			return nil, fmt.Errorf("schema: compile %s: %w", t.file, err)
		}
		ch.node[ext] = s
	}
	return ch, nil
}

// patch applies Patches to the published schema file name of folder dir.
func patch(dir, name string, s map[string]any) {
	switch {
	case dir == "OMI_physics_joint" && name == "glTF.OMI_physics_joint.schema.json":
		s["required"] = []any{"physicsJoints"}
	case dir == "OMI_physics_joint" && name == "glTF.OMI_physics_joint.joint.limit.schema.json":
		if one, ok := s["oneOf"]; ok {
			delete(s, "oneOf")
			s["anyOf"] = one
		}
	case dir == "OMI_physics_gravity" && name == "node.OMI_physics_gravity.schema.json",
		dir == "OMI_physics_gravity" && name == "glTF.OMI_physics_gravity.schema.json":
		delete(s, "oneOf")
	case dir == "KHR_physics_rigid_bodies" && name == "node.KHR_physics_rigid_bodies.motion.schema.json":
		props := s["properties"].(map[string]any)
		m := props["mass"].(map[string]any)
		delete(m, "exclusiveMinimum")
		m["minimum"] = 0.0
		items := props["inertiaDiagonal"].(map[string]any)["items"].(map[string]any)
		delete(items, "exclusiveMinimum")
		items["minimum"] = 0.0
	case dir == "KHR_physics_rigid_bodies" && name == "geometry.schema.json":
		props := s["properties"].(map[string]any)
		props["mesh"] = map[string]any{"allOf": []any{map[string]any{"$ref": "glTFid.schema.json"}}}
		s["oneOf"] = []any{
			map[string]any{"required": []any{"shape"}},
			map[string]any{"required": []any{"node"}},
			map[string]any{"required": []any{"mesh"}},
		}
	case dir == "KHR_physics_rigid_bodies" && name == "glTF.KHR_physics_rigid_bodies.joint.drive.schema.json":
		if dep, ok := s["dependencies"]; ok {
			delete(s, "dependencies")
			s["dependentRequired"] = dep
		}
	}
}

// defaultChecker compiles the schemas found by FindSpecs once; the
// compiled schemas are immutable and safe for concurrent use.
var defaultChecker = sync.OnceValues(func() (*Checker, error) {
	dir, err := FindSpecs()
	if err != nil {
		return nil, err
	}
	return Load(dir)
})

// Default returns the checker for the specs FindSpecs locates, compiled
// on first use (about 20 ms) and shared afterwards.
func Default() (*Checker, error) { return defaultChecker() }

// CheckDocument checks the glTF document b (.gltf JSON or .glb bytes)
// with Default. The error lists every problem found, one a line.
func CheckDocument(b []byte) error {
	c, err := Default()
	if err != nil {
		return err
	}
	return c.CheckDocument(b)
}

// CheckDocument checks the physics extensions of the glTF document b: a
// .gltf file's JSON or a whole .glb file (its JSON chunk is checked).
func (c *Checker) CheckDocument(b []byte) error {
	b, err := JSONChunk(b)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("schema: parse document: %w", err)
	}
	root, ok := v.(map[string]any)
	if !ok {
		return errors.New("schema: document is not a JSON object")
	}
	var probs []string
	used := stringSet(root["extensionsUsed"])
	inUse := map[string]bool{}
	if exts, ok := root["extensions"].(map[string]any); ok {
		for _, name := range sortedKeys(exts) {
			s, ok := c.doc[name]
			if !ok {
				continue
			}
			inUse[name] = true
			if err := s.Validate(exts[name]); err != nil {
				probs = append(probs, fmt.Sprintf("extensions.%s: %v", name, err))
			}
		}
	}
	nodes, _ := root["nodes"].([]any)
	for i, n := range nodes {
		no, _ := n.(map[string]any)
		exts, _ := no["extensions"].(map[string]any)
		for _, name := range sortedKeys(exts) {
			s, ok := c.node[name]
			if !ok {
				continue
			}
			inUse[name] = true
			if err := s.Validate(exts[name]); err != nil {
				probs = append(probs, fmt.Sprintf("nodes[%d].extensions.%s: %v", i, name, err))
			}
		}
	}
	for _, name := range sortedKeys(inUse) {
		if !used[name] {
			probs = append(probs, fmt.Sprintf("extensionsUsed: %s is used but not declared", name))
		}
	}
	if len(probs) > 0 {
		return errors.New(strings.Join(probs, "\n"))
	}
	return nil
}

func stringSet(v any) map[string]bool {
	out := map[string]bool{}
	list, _ := v.([]any)
	for _, s := range list {
		if str, ok := s.(string); ok {
			out[str] = true
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// JSONChunk returns the JSON of a glTF file: b itself for .gltf JSON, the
// first (JSON) chunk for a binary .glb.
func JSONChunk(b []byte) ([]byte, error) {
	if len(b) < 4 || string(b[:4]) != "glTF" {
		return b, nil
	}
	if len(b) < 20 {
		return nil, errors.New("schema: truncated GLB header")
	}
	n := int(binary.LittleEndian.Uint32(b[12:16]))
	if string(b[16:20]) != "JSON" || 20+n > len(b) {
		return nil, errors.New("schema: GLB without a valid JSON chunk")
	}
	return b[20 : 20+n], nil
}
