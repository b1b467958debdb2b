package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/codecs"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/qmuntal/gltf"
)

// Severity ranks a problem.
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
	Info
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// Problem is one finding at a JSON path of the document, such as
// nodes[3].extensions.KHR_physics_rigid_bodies.motion.mass.
type Problem struct {
	Path     string
	Message  string
	Severity Severity
}

func (p Problem) String() string { return fmt.Sprintf("%s: %s: %s", p.Severity, p.Path, p.Message) }

// Options tunes Validate.
type Options struct {
	// MaxHullVertices is the largest convex hull vertex count accepted
	// without a warning; 0 means DefaultMaxHullVertices.
	MaxHullVertices int
	// SkipMeshData skips the checks that read accessor data (hull
	// closedness and convexity, vertex counts, triangle counts).
	SkipMeshData bool
}

// DefaultMaxHullVertices is the hull vertex limit many engines share
// (and OMI_collider's documented limit).
const DefaultMaxHullVertices = 255

// Tolerances of the numeric checks.
const (
	// UnitQuatTolerance is how far |q| may be from 1.
	UnitQuatTolerance = 1e-3
	// ConvexTolerance is the distance (relative to the mesh's bounding
	// diagonal) a hull vertex may lie outside a face plane.
	ConvexTolerance = 1e-5
)

// Validate checks the physics of doc and returns its problems sorted by
// path, then severity, then message.
func Validate(doc *gltf.Document, opt Options) []Problem {
	if opt.MaxHullVertices <= 0 {
		opt.MaxHullVertices = DefaultMaxHullVertices
	}
	v := &validator{doc: doc, opt: opt, meshChecked: map[string]bool{}}
	v.run()
	sort.SliceStable(v.probs, func(i, j int) bool {
		a, b := v.probs[i], v.probs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Message < b.Message
	})
	return v.probs
}

// HasErrors reports whether probs holds an Error.
func HasErrors(probs []Problem) bool {
	return slices.ContainsFunc(probs, func(p Problem) bool { return p.Severity == Error })
}

// Errors returns nil when probs hold no Error, else one error naming the
// first by its JSON path and counting the others, for a command that
// refuses a document validate rejects.
func Errors(probs []Problem) error {
	var first *Problem
	n := 0
	for i, p := range probs {
		if p.Severity != Error {
			continue
		}
		if first == nil {
			first = &probs[i]
		}
		n++
	}
	switch {
	case first == nil:
		return nil
	case n == 1:
		return fmt.Errorf("%s: %s", first.Path, first.Message)
	}
	return fmt.Errorf("%s: %s (and %d more errors; autocollide validate lists them)", first.Path, first.Message, n-1)
}

type validator struct {
	doc   *gltf.Document
	opt   Options
	probs []Problem

	docExt  map[string]map[string]any // root extension objects
	nodeExt []map[string]map[string]any
	parent  []int

	meshChecked map[string]bool
}

func (v *validator) add(sev Severity, path, format string, args ...any) {
	v.probs = append(v.probs, Problem{Path: path, Message: fmt.Sprintf(format, args...), Severity: sev})
}

// object parses an extension value into a JSON object.
func (v *validator) object(exts gltf.Extensions, name, path string) (map[string]any, bool) {
	raw, ok, err := jsonx.Raw(exts, name)
	if !ok {
		return nil, false
	}
	if err != nil {
		v.add(Error, path, "not valid JSON (NaN or infinity?): %v", err)
		return nil, false
	}
	var val any
	if err := json.Unmarshal(raw, &val); err != nil {
		v.add(Error, path, "not valid JSON: %v", err)
		return nil, false
	}
	m, isObj := val.(map[string]any)
	if !isObj {
		v.add(Error, path, "must be an object")
		return nil, false
	}
	return m, true
}

func (v *validator) run() {
	doc := v.doc
	// Every family's extensions, and OMI_physics_gravity, which no codec
	// rewrites but validate checks.
	physicsExts := append(codecs.Extensions(), physics.ExtOMIGravity)
	v.docExt = map[string]map[string]any{}
	used := map[string]bool{}
	for _, name := range physicsExts {
		if m, ok := v.object(doc.Extensions, name, "extensions."+name); ok {
			v.docExt[name] = m
			used[name] = true
		} else if _, present := doc.Extensions[name]; present {
			used[name] = true
		}
	}
	v.nodeExt = make([]map[string]map[string]any, len(doc.Nodes))
	v.parent = physics.Parents(doc)
	for i, n := range doc.Nodes {
		if n == nil {
			continue
		}
		v.nodeExt[i] = map[string]map[string]any{}
		for _, name := range physicsExts {
			p := fmt.Sprintf("nodes[%d].extensions.%s", i, name)
			if m, ok := v.object(n.Extensions, name, p); ok {
				v.nodeExt[i][name] = m
				used[name] = true
			} else if _, present := n.Extensions[name]; present {
				used[name] = true
			}
		}
	}
	// Declarations.
	for _, name := range physicsExts {
		if used[name] && !slices.Contains(doc.ExtensionsUsed, name) {
			v.add(Error, "extensionsUsed", "%s is used but not declared in extensionsUsed", name)
		}
	}
	// No physics specification forbids requiring its extension (OMI: it
	// "does not need to be added"; the Khronos test files require
	// KHR_implicit_shapes and the Khronos validator accepts them): a note.
	for i, name := range doc.ExtensionsRequired {
		if slices.Contains(physicsExts, name) {
			v.add(Info, fmt.Sprintf("extensionsRequired[%d]", i), "%s is required: readers that do not support it will refuse the file (the specifications make it optional)", name)
		}
	}
	families := 0
	for _, c := range codecs.All() {
		if slices.ContainsFunc(c.Extensions(), func(e string) bool { return used[e] }) {
			families++
		}
	}
	if families > 1 {
		v.add(Warning, "extensionsUsed", "the document carries both OMI and KHR physics; engines will read one or the other")
	}
	if used[physics.ExtOMICollider] {
		v.add(Warning, "extensions."+physics.ExtOMICollider, "legacy OMI_collider (archived); convert to OMI_physics_shape/OMI_physics_body")
	}
	if used[physics.ExtKHRCollisionShapes] {
		v.add(Warning, "extensions."+physics.ExtKHRCollisionShapes, "2024 KHR_collision_shapes form; convert to KHR_implicit_shapes and collider geometry")
	}
	v.omi()
	v.khr()
	for i, n := range doc.Nodes {
		if n != nil && len(v.nodeExt[i]) > 0 {
			v.nodeTransform(i, n)
		}
	}
}

// ---- generic value helpers ----

func num(x any) (float64, bool) {
	f, ok := x.(float64)
	return f, ok
}

// number checks that m[key], if present, is a number; it returns it.
func (v *validator) number(m map[string]any, key, path string) (float64, bool) {
	x, ok := m[key]
	if !ok {
		return 0, false
	}
	f, isNum := num(x)
	if !isNum {
		v.add(Error, path+"."+key, "must be a number")
		return 0, false
	}
	return f, true
}

// nonNeg reports an error for a negative m[key].
func (v *validator) nonNeg(m map[string]any, key, path string) {
	if f, ok := v.number(m, key, path); ok && f < 0 {
		v.add(Error, path+"."+key, "must be >= 0 (got %g)", f)
	}
}

func (v *validator) integer(m map[string]any, key, path string) (int, bool) {
	x, ok := m[key]
	if !ok {
		return 0, false
	}
	f, isNum := num(x)
	if !isNum || f != math.Trunc(f) {
		v.add(Error, path+"."+key, "must be an integer")
		return 0, false
	}
	return int(f), true
}

// index checks m[key] as an index into n items; -1 is accepted when
// allowNone. It returns the index and whether it is a usable reference.
func (v *validator) index(m map[string]any, key, path string, n int, what string, allowNone bool) (int, bool) {
	i, ok := v.integer(m, key, path)
	if !ok {
		return 0, false
	}
	if i == -1 && allowNone {
		return -1, false
	}
	if i < 0 || i >= n {
		v.add(Error, path+"."+key, "index %d out of range (%d %s)", i, n, what)
		return i, false
	}
	return i, true
}

func (v *validator) vec(m map[string]any, key, path string, n int) ([]float64, bool) {
	x, ok := m[key]
	if !ok {
		return nil, false
	}
	arr, isArr := x.([]any)
	if !isArr || len(arr) != n {
		v.add(Error, path+"."+key, "must be an array of %d numbers", n)
		return nil, false
	}
	out := make([]float64, n)
	for i, e := range arr {
		f, ok := num(e)
		if !ok {
			v.add(Error, fmt.Sprintf("%s.%s[%d]", path, key, i), "must be a number")
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

func (v *validator) strs(m map[string]any, key, path string) ([]string, bool) {
	x, ok := m[key]
	if !ok {
		return nil, false
	}
	arr, isArr := x.([]any)
	if !isArr {
		v.add(Error, path+"."+key, "must be an array of strings")
		return nil, false
	}
	out := []string{}
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			v.add(Error, fmt.Sprintf("%s.%s[%d]", path, key, i), "must be a string")
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func (v *validator) obj(m map[string]any, key, path string) (map[string]any, bool) {
	x, ok := m[key]
	if !ok {
		return nil, false
	}
	o, isObj := x.(map[string]any)
	if !isObj {
		v.add(Error, path+"."+key, "must be an object")
		return nil, false
	}
	return o, true
}

// array returns m[key] as an array; empty arrays are an error when
// nonEmpty.
func (v *validator) array(m map[string]any, key, path string, nonEmpty bool) ([]any, bool) {
	x, ok := m[key]
	if !ok {
		return nil, false
	}
	arr, isArr := x.([]any)
	if !isArr {
		v.add(Error, path+"."+key, "must be an array")
		return nil, false
	}
	if nonEmpty && len(arr) == 0 {
		v.add(Error, path+"."+key, "must not be empty")
		return nil, false
	}
	return arr, true
}

// unknown warns about members outside known (extensions, extras and name
// are always allowed).
func (v *validator) unknown(m map[string]any, path string, known ...string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "extensions" || k == "extras" || k == "name" || slices.Contains(known, k) {
			continue
		}
		v.add(Warning, path+"."+k, "unexpected property")
	}
}

func at(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }
