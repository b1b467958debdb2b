package generate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/ragdoll"
)

// BodyReport says what was generated for one body.
type BodyReport struct {
	Node      int                `json:"node"`
	Name      string             `json:"name"`
	Motion    physics.MotionType `json:"motion"`
	Colliders int                `json:"colliders"`
	Volume    float64            `json:"volume"`
	Mass      float64            `json:"mass"`
	// MassSource is the volume the mass comes from: SourceMesh (the
	// closed render meshes), SourceColliders (the solid the colliders
	// enclose), SourceExplicit (the options' mass), or "none (static)"
	// and "none (kinematic)"; InertiaSource the solid the centre of mass
	// and inertia come from (the same volume, or for an explicit mass
	// the solid it is spread over). CollidersVolume is the colliders'
	// volume (m³), and Size the diagonal of their box (m) in the body's
	// frame, for dynamic bodies.
	MassSource      string  `json:"massSource"`
	InertiaSource   string  `json:"inertiaSource,omitempty"`
	CollidersVolume float64 `json:"collidersVolume,omitempty"`
	Size            float64 `json:"size,omitempty"`
	// Merged names the bodies merged into this one because their
	// colliders overlapped at rest (profile key bodies.overlapping).
	Merged []string `json:"merged,omitempty"`
}

// PartReport says what was made for one mesh instance.
type PartReport struct {
	// Body is the body's node; Node the mesh instance's node.
	Body      int    `json:"body"`
	Node      int    `json:"node"`
	Name      string `json:"name"`
	Triangles int    `json:"triangles"`
	// Method made the colliders (for auto, the method it chose) and
	// Reason says why, with the errors auto saw.
	Method    Method `json:"method"`
	Reason    string `json:"reason,omitempty"`
	Colliders int    `json:"colliders"`
	// HullVertices counts the vertices of the part's hulls, and
	// CappedHulls the hulls that were over the vertex or face limits and
	// were replaced by a bounding polytope within them.
	HullVertices int `json:"hullVertices"`
	CappedHulls  int `json:"cappedHulls"`
	// Overshoot is the colliders' total volume over the volume of the
	// part's convex hull, minus one (0.1: 10% bigger). A decomposition
	// of a concave part can be below 0; overlaps between its hulls count
	// twice. 0 for flat parts.
	Overshoot float64 `json:"overshoot"`
	// Budget is the cap on the part's colliders, whatever their type,
	// that auto and decompose work within (0 for the other methods);
	// Colliders is what was kept of it. Primitives counts, by shape type,
	// the parts of a decomposition that became primitives (the others
	// are hulls).
	Budget     int            `json:"budget,omitempty"`
	Primitives map[string]int `json:"primitives,omitempty"`
	// Rule names the profile rule that set the part's method, if any;
	// Trigger says its colliders are triggers.
	Rule    string `json:"rule,omitempty"`
	Trigger bool   `json:"trigger,omitempty"`
}

// Report says what was done to one asset.
type Report struct {
	Bodies    int            `json:"bodies"`
	BodyList  []BodyReport   `json:"bodyList"`
	Parts     []PartReport   `json:"parts"`
	Colliders map[string]int `json:"colliders"`
	// Kept counts scene roots whose existing physics was kept as it was.
	Kept int `json:"kept,omitempty"`
	// HullVertices counts the vertices of the output's convex hull
	// meshes: the generated ones (the sum over Parts) and those of the
	// physics kept as it was (each shape once).
	HullVertices int `json:"hullVertices,omitempty"`
	// Triggers counts the colliders written as triggers (they are also
	// in Colliders, by shape).
	Triggers int      `json:"triggers,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Ragdolls says, per skin, what BodiesPerBone made of it.
	Ragdolls []RagdollReport `json:"ragdolls,omitempty"`
}

// Kept says what a part made within its budget: "6 of 8: 2 hulls, 3
// cylinders, 1 box" (hulls first, then the primitives by name); "" for
// a part without a budget.
func (p PartReport) Kept() string {
	if p.Budget == 0 {
		return ""
	}
	hulls := p.Colliders
	names := make([]string, 0, len(p.Primitives))
	for t, n := range p.Primitives {
		hulls -= n
		names = append(names, t)
	}
	slices.Sort(names)
	var kinds []string
	if hulls > 0 {
		kinds = append(kinds, plural(hulls, "hull"))
	}
	for _, t := range names {
		kinds = append(kinds, plural(p.Primitives[t], t))
	}
	s := fmt.Sprintf("%d of %d", p.Colliders, p.Budget)
	if len(kinds) > 0 {
		s += ": " + strings.Join(kinds, ", ")
	}
	return s
}

// plural is "1 box", "2 boxes", "3 hulls".
func plural(n int, name string) string {
	switch {
	case n == 1:
	case strings.HasSuffix(name, "x"):
		name += "es"
	default:
		name += "s"
	}
	return fmt.Sprintf("%d %s", n, name)
}

// LimitReport is the limit a ragdoll joint got: the rule that matched its
// child bone and the rule's half-angles, in degrees.
type LimitReport struct {
	Rule string `json:"rule"`
	// Class is the joint's place in the skeleton (ragdoll.Class: "elbow",
	// "knee", ...), empty when the skeleton does not tell.
	Class  string  `json:"class,omitempty"`
	Swing1 float64 `json:"swing1"`
	Swing2 float64 `json:"swing2"`
	Twist  float64 `json:"twist"`
}

// limitReport is a ragdoll joint's limit for the report.
func limitReport(j ragdoll.Joint) LimitReport {
	deg := func(rad float64) float64 { return math.Round(rad*180/math.Pi*1e6) / 1e6 }
	l := j.Limit
	return LimitReport{Rule: j.Rule, Class: string(j.Class), Swing1: deg(l.Swing1), Swing2: deg(l.Swing2), Twist: deg(l.Twist)}
}

// String is the limit as people read it: "elbow: swing ±75°, twist ±30°"
// (swing ±a° × ±b° when the cone is elliptic).
func (l LimitReport) String() string {
	swing := fmt.Sprintf("±%g°", l.Swing1)
	if l.Swing2 != l.Swing1 {
		swing += fmt.Sprintf(" × ±%g°", l.Swing2)
	}
	return fmt.Sprintf("%s: swing %s, twist ±%g°", l.Rule, swing, l.Twist)
}

// Lines describe the ragdoll for people, one line per kind: a headline
// with the counts and mass, the bones with bodies, the merged bones and
// the body each went to, and the joints with their limits. The JSON
// report's fields hold the same.
func (r RagdollReport) Lines() []string {
	out := []string{fmt.Sprintf("skin %d: %d bones, %d bodies, %d merged, %d joints, %.4g kg", r.Skin, r.Bones, len(r.Bodies), len(r.Merged), len(r.Joints), r.Mass)}
	out = append(out, "bodies: "+orNone(r.Bodies))
	out = append(out, "merged: "+orNone(r.Merged))
	joints := make([]string, len(r.Joints))
	for i, j := range r.Joints {
		joints[i] = j
		if i < len(r.Limits) {
			// "child – parent (rule)" with the rule's angles.
			joints[i] = strings.TrimSuffix(j, " ("+r.Limits[i].Rule+")") + " (" + r.Limits[i].String() + ")"
		}
	}
	return append(out, "joints: "+orNone(joints))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "; ")
}
