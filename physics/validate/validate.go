// Package validate checks the physics of a glTF document against the
// OMI and KHR specifications: structure and types, indices, shape
// parameters, joint rules, hull and trimesh meshes, and extension
// declarations. The rules are written from the READMEs (which win over
// the published schemas where they disagree, see SCHEMA-BUGS.md) and the
// Khronos validator's test expectations.
//
// Severity follows the Khronos validator where it has a test: degenerate
// (zero-size) KHR shapes, unknown drive/combine enum values and unknown
// members are warnings; values out of range, unresolved references and
// structural mismatches are errors. Legacy forms (OMI_collider,
// KHR_collision_shapes, the seed's OMI body and joint forms) are reported
// as warnings pointing at the migration (convert).
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
	v.parent = make([]int, len(doc.Nodes))
	for i := range v.parent {
		v.parent[i] = -1
	}
	for i, n := range doc.Nodes {
		if n == nil {
			continue
		}
		for _, c := range n.Children {
			if c >= 0 && c < len(doc.Nodes) {
				v.parent[c] = i
			}
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
	for i, name := range doc.ExtensionsRequired {
		if slices.Contains(physicsExts, name) {
			v.add(Error, fmt.Sprintf("extensionsRequired[%d]", i), "%s is optional and must not be in extensionsRequired", name)
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

// ---- shared rules ----

func (v *validator) material(m map[string]any, p string) {
	v.unknown(m, p, "staticFriction", "dynamicFriction", "restitution", "frictionCombine", "restitutionCombine")
	for _, k := range []string{"staticFriction", "dynamicFriction", "restitution"} {
		v.nonNeg(m, k, p)
	}
	for _, k := range []string{"frictionCombine", "restitutionCombine"} {
		if x, ok := m[k]; ok {
			s, isStr := x.(string)
			if !isStr {
				v.add(Error, p+"."+k, "must be a string")
			} else if !slices.Contains([]string{"average", "minimum", "maximum", "multiply"}, s) {
				v.add(Warning, p+"."+k, "unknown combine mode %q", s)
			}
		}
	}
}

func (v *validator) filter(m map[string]any, p string) {
	v.unknown(m, p, "collisionSystems", "collideWithSystems", "notCollideWithSystems")
	v.strs(m, "collisionSystems", p)
	_, a := v.strs(m, "collideWithSystems", p)
	_, b := v.strs(m, "notCollideWithSystems", p)
	if a && b {
		v.add(Error, p, "collideWithSystems and notCollideWithSystems are exclusive")
	}
}

// jointDef checks a document-level joint description; khr forbids a limit
// with both linear and angular axes and empty arrays.
func (v *validator) jointDef(m map[string]any, p string, khr bool) {
	v.unknown(m, p, "limits", "drives")
	if limits, ok := v.array(m, "limits", p, khr); ok {
		for i, l := range limits {
			lp := at(p+".limits", i)
			lm, isObj := l.(map[string]any)
			if !isObj {
				v.add(Error, lp, "must be an object")
				continue
			}
			v.limit(lm, lp, khr)
		}
	}
	if drives, ok := v.array(m, "drives", p, khr); ok {
		for i, d := range drives {
			dp := at(p+".drives", i)
			dm, isObj := d.(map[string]any)
			if !isObj {
				v.add(Error, dp, "must be an object")
				continue
			}
			v.drive(dm, dp)
		}
	}
}

func (v *validator) axes(m map[string]any, key, p string, khr bool) bool {
	arr, ok := v.array(m, key, p, khr)
	if !ok {
		_, present := m[key]
		return present
	}
	seen := map[int]bool{}
	for i, a := range arr {
		f, isNum := num(a)
		ap := at(p+"."+key, i)
		if !isNum || f != math.Trunc(f) || f < 0 || f > 2 {
			v.add(Error, ap, "axis must be 0, 1 or 2")
			continue
		}
		if seen[int(f)] {
			v.add(Error, ap, "duplicate axis %d", int(f))
		}
		seen[int(f)] = true
	}
	return true
}

func (v *validator) limit(m map[string]any, p string, khr bool) {
	v.unknown(m, p, "linearAxes", "angularAxes", "min", "max", "stiffness", "damping")
	lin := v.axes(m, "linearAxes", p, khr)
	ang := v.axes(m, "angularAxes", p, khr)
	switch {
	case !lin && !ang:
		v.add(Error, p, "a limit needs linearAxes or angularAxes")
	case lin && ang && khr:
		v.add(Error, p, "a KHR limit has either linearAxes or angularAxes, not both")
	}
	lo, okLo := v.number(m, "min", p)
	hi, okHi := v.number(m, "max", p)
	if okLo && okHi && lo > hi {
		v.add(Error, p, "min %g > max %g", lo, hi)
	}
	v.nonNeg(m, "stiffness", p)
	v.nonNeg(m, "damping", p)
}

func (v *validator) drive(m map[string]any, p string) {
	v.unknown(m, p, "type", "mode", "axis", "maxForce", "positionTarget", "velocityTarget", "stiffness", "damping")
	for _, k := range []struct{ key, a, b string }{{"type", "linear", "angular"}, {"mode", "force", "acceleration"}} {
		x, ok := m[k.key]
		if !ok {
			v.add(Error, p+"."+k.key, "required")
			continue
		}
		s, isStr := x.(string)
		if !isStr {
			v.add(Error, p+"."+k.key, "must be a string")
		} else if s != k.a && s != k.b {
			v.add(Warning, p+"."+k.key, "unknown value %q (expected %s or %s)", s, k.a, k.b)
		}
	}
	if _, ok := m["axis"]; !ok {
		v.add(Error, p+".axis", "required")
	} else if a, ok := v.integer(m, "axis", p); ok && (a < 0 || a > 2) {
		v.add(Error, p+".axis", "axis must be 0, 1 or 2 (got %d)", a)
	}
	for _, k := range []string{"maxForce", "stiffness", "damping"} {
		v.nonNeg(m, k, p)
	}
	v.number(m, "positionTarget", p)
	v.number(m, "velocityTarget", p)
	for _, pair := range [][2]string{{"positionTarget", "stiffness"}, {"velocityTarget", "damping"}} {
		_, a := m[pair[0]]
		_, b := m[pair[1]]
		if a != b {
			v.add(Error, p, "%s and %s go together", pair[0], pair[1])
		}
	}
}

// motionCommon checks the members both families share.
func (v *validator) motionCommon(m map[string]any, p string, khr bool) {
	if mass, ok := v.number(m, "mass", p); ok && mass < 0 {
		v.add(Error, p+".mass", "must be >= 0 (got %g)", mass)
	} else if ok {
		v.float32Range(p+".mass", mass)
	}
	v.vec(m, "centerOfMass", p, 3)
	v.vec(m, "linearVelocity", p, 3)
	v.vec(m, "angularVelocity", p, 3)
	v.number(m, "gravityFactor", p)
	if d, ok := v.vec(m, "inertiaDiagonal", p, 3); ok {
		for i, x := range d {
			if x < 0 {
				v.add(Error, at(p+".inertiaDiagonal", i), "must be >= 0 (got %g)", x)
			}
			v.float32Range(at(p+".inertiaDiagonal", i), x)
		}
	}
	if q, ok := v.vec(m, "inertiaOrientation", p, 4); ok {
		l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if math.Abs(l-1) > UnitQuatTolerance {
			v.add(Error, p+".inertiaOrientation", "not a unit quaternion (length %g)", l)
		}
	}
}

// ---- hierarchy helpers ----

func (v *validator) isDescendant(k, of int) bool {
	for i, steps := v.parent[k], 0; i >= 0 && steps <= len(v.parent); i, steps = v.parent[i], steps+1 {
		if i == of {
			return true
		}
	}
	return false
}

// dynamicSelfOrAncestor reports whether node k or an ancestor has a
// dynamic motion according to isDynamic.
func (v *validator) dynamicSelfOrAncestor(k int, isDynamic func(int) bool) bool {
	for i, steps := k, 0; i >= 0 && steps <= len(v.parent); i, steps = v.parent[i], steps+1 {
		if isDynamic(i) {
			return true
		}
	}
	return false
}
