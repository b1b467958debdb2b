package generate

import (
	"github.com/autocollide/autocollide/physics"
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
