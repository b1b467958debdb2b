package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/autocollide/autocollide/decompose"
	"github.com/autocollide/autocollide/kinds"
	"github.com/autocollide/autocollide/physics"
)

// Method names how a collider is made from a mesh instance: a method of
// the kinds table, which says how.
type Method string

// The methods generate's own logic names (defaults, naming conventions,
// auto's order, fallbacks); every one is a row of the kinds table.
const (
	AABB      Method = "aabb"      // box aligned with the body frame
	Box       Method = "box"       // minimum-volume oriented box
	Sphere    Method = "sphere"    // minimum enclosing sphere
	Capsule   Method = "capsule"   // minimum-volume capsule along its own axis
	Cylinder  Method = "cylinder"  // minimum-volume cylinder along its own axis
	Hull      Method = "hull"      // convex hull
	Decompose Method = "decompose" // approximate convex decomposition into hulls
)

// Methods lists every method, in the kinds table's order.
func Methods() []Method {
	var out []Method
	for _, m := range kinds.Methods() {
		out = append(out, Method(m))
	}
	return out
}

// Options controls generation for one asset: how colliders are made, how
// bodies are formed, how the result is encoded, and how the work runs.
type Options struct {
	// Collider is the asset-wide method and its parameters (Rules may
	// override them per mesh instance).
	Collider ColliderSettings
	// Body says how bodies are formed, behave and get their mass.
	Body BodySettings
	// Encoding says how the physics is written.
	Encoding Encoding
	// Rules, when set, is asked for each mesh instance and may override
	// the method and its parameters; ok false keeps Options as they are.
	// An error (ctx's, once it is done, or a match refused for its cost)
	// fails the asset.
	// A function cannot be compared or hashed: RulesKey must describe the
	// rules (e.g. the resolved profile's text), so that caches keyed on
	// Options tell rule sets apart.
	Rules    func(ctx context.Context, n NodeInfo) (s PartSettings, ok bool, err error) `json:"-"`
	RulesKey string
	Run
}

// MarshalJSON writes the options flat, in the layout caches and output
// fingerprints (batch) have always hashed, so that splitting Options into
// groups left every earlier output current. Run and Rules are left out
// (RulesKey stands for the rules), and so is Encoding.ExplicitFormat: it
// changes no output, only whether a file carrying another family is
// refused, and outputs made with --format stay current. The fields of
// ColliderSettings and Encoding are read from the structs (see flatJSON),
// so a field added to either enters the fingerprint by itself.
func (o Options) MarshalJSON() ([]byte, error) {
	return flatJSON(o.Body, o.RulesKey, o.Collider, o.Encoding)
}

// flatJSON writes the fields of groups (structs) flat, then body and
// rulesKey: first the fields of fingerprintLayout, in its order (Mass is
// the body's), then any other field in the groups' order, left out while
// it is zero. A setting's zero value is its default, so a new setting
// left at it keeps every earlier fingerprint, and cache, current.
func flatJSON(body BodySettings, rulesKey string, groups ...any) ([]byte, error) {
	layout := fingerprintLayout()
	fields := map[string]any{"Mass": body.Mass}
	var added []string
	for _, g := range groups {
		v := reflect.ValueOf(g)
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if name == "ExplicitFormat" {
				continue
			}
			if !slices.Contains(layout, name) {
				added = append(added, name)
			}
			fields[name] = v.Field(i).Interface()
		}
	}
	var b bytes.Buffer
	put := func(name string, v any) error {
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		js, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("options JSON: %s: %w", name, err)
		}
		fmt.Fprintf(&b, "%q:%s", name, js)
		return nil
	}
	for _, name := range layout {
		v, ok := fields[name]
		if !ok {
			return nil, fmt.Errorf("options JSON: no field %s for the fingerprint layout", name)
		}
		if name == "MaxColliders" && reflect.ValueOf(v).IsZero() {
			continue // newer than the layout: absent at zero, as the added ones
		}
		if err := put(name, v); err != nil {
			return nil, err
		}
	}
	for _, name := range added {
		if v := fields[name]; !reflect.ValueOf(v).IsZero() {
			if err := put(name, v); err != nil {
				return nil, err
			}
		}
	}
	if err := put("Body", body); err != nil {
		return nil, err
	}
	if err := put("RulesKey", rulesKey); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// fingerprintLayout is the order fingerprints have hashed the settings in
// since before Options were split into groups (MaxColliders, newer, was
// placed with them): changing it changes every cache key.
func fingerprintLayout() []string {
	return []string{"Format", "KHRGeometryNode", "Method", "MaxHullVertices", "Binary", "Mass",
		"Concavity", "MaxHulls", "MaxHullFaces", "MaxHullTriangles", "AbsConcavity",
		"AutoTolerance", "HullFill", "SearchTriangles", "MaxColliders"}
}

// ColliderSettings is how the colliders of one mesh instance are made:
// everything that makes two instances of the same geometry get the same
// colliders. It is comparable, and instances are made once per distinct
// value (see makeColliders): a field added here joins that key.
type ColliderSettings struct {
	Method Method
	// MaxHullVertices caps hull vertices (0: the hull package default).
	MaxHullVertices int
	// Concavity (relative to a part's diagonal; 0 = the decompose
	// default) steers Method Decompose.
	Concavity float64
	// MaxColliders caps the colliders of one mesh instance, whatever
	// their type (0: none beyond decompose's default), for the methods
	// that make several (decompose, auto): it is the decomposition's
	// MaxHulls, and a part turned into a primitive counts once. MaxHulls
	// is its older name and caps the same count; when both are set the
	// smaller wins (see budget).
	MaxColliders int
	MaxHulls     int
	// MaxHullFaces caps each hull's polygons (0: no cap) and
	// MaxHullTriangles its triangles (0: no cap; Unity's limit is 255):
	// a closed triangulated convex polytope of V vertices has 2V-4
	// triangles, so the cap is met by capping vertices at (T+4)/2.
	// AbsConcavity (metres, 0: none) is a concavity below which
	// Decompose never splits a part, whatever its size.
	MaxHullFaces     int
	MaxHullTriangles int
	AbsConcavity     float64
	// AutoTolerance (0 = DefaultAutoTolerance) and HullFill (0 =
	// DefaultHullFill) steer Method Auto.
	AutoTolerance float64
	HullFill      float64
	// SearchTriangles is decompose.Options.SearchTriangles (0 = its
	// default; Method Auto sets AutoSearchTriangles).
	SearchTriangles int
	// GapSlack is decompose.Options.GapSlack (0: off): below the budget,
	// parts merge while the mean surface distance stays within 1+GapSlack
	// of the unbudgeted decomposition's.
	GapSlack float64
}

// budget is the cap on the colliders of one mesh instance: the smaller of
// MaxColliders and MaxHulls where set, else decompose's default.
func (c ColliderSettings) budget() int {
	b := decompose.DefaultMaxHulls
	if c.MaxColliders > 0 || c.MaxHulls > 0 {
		b = math.MaxInt
		for _, n := range []int{c.MaxColliders, c.MaxHulls} {
			if n > 0 {
				b = min(b, n)
			}
		}
	}
	return b
}

// Encoding is how generated physics is written.
type Encoding struct {
	// Format is the family to write, one of physics/codecs (default
	// physics.OMI), in a file without physics. Generated physics follows
	// the family a file already carries, so that an output never holds
	// two families (see outputFamily).
	Format physics.Family
	// ExplicitFormat says Format was asked for (--format), not a
	// profile's default: a file carrying another family is then refused
	// with an error instead of followed.
	ExplicitFormat bool
	// KHRGeometryNode writes KHR collider geometry in the older
	// geometry.node form instead of the newest geometry.mesh, in a file
	// whose KHR hulls do not already use one form (they win).
	KHRGeometryNode bool
	// Binary says the output container is GLB (generated data then goes
	// into the BIN chunk).
	Binary bool
}

// Run is how the work runs; it changes no output, so caches and
// fingerprints ignore it.
type Run struct {
	// Workers bounds the goroutines making one asset's colliders (parts
	// in parallel, and a decomposition's own workers); ≤ 1 is one.
	Workers int `json:"-"`
	// Progress, if set, hears how far each mesh instance's decomposition
	// has got, after each of its rounds. It may be called from several
	// goroutines at once and must return quickly; it is for display only.
	Progress func(Step) `json:"-"`
}

// Step says how far the making of one mesh instance's colliders has got:
// Done of the Total parts of its decomposition so far are final (Total
// grows as parts are split, and shrinks when they are merged).
type Step struct {
	// Part names the mesh instance (as in its PartReport); empty when
	// the caller of Colliders did not name it (see Run.ForPart).
	Part        string
	Done, Total int
}

// ForPart returns r whose Progress steps name part.
func (r Run) ForPart(part string) Run {
	if f := r.Progress; f != nil {
		r.Progress = func(s Step) {
			s.Part = part
			f(s)
		}
	}
	return r
}
