package ragdoll

import (
	"errors"
	"fmt"

	"github.com/autocollide/autocollide/fit"
	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/hull"
)

// Bone is one joint of a skeleton at rest.
type Bone struct {
	Name string
	// Parent is the index of the parent bone in Skeleton, -1 for a root.
	Parent int
	// World is the bone node's rest-pose world transform; its translation
	// is the joint position (the bone's head).
	World geom.Mat4
}

// Skin is skinned geometry at rest pose, driven by one skeleton.
type Skin struct {
	// Positions are the vertices at rest pose, in world space.
	Positions []geom.Vec3
	// Influences is the number of (joint, weight) pairs per vertex: four
	// per JOINTS_n/WEIGHTS_n set. Vertex v's pairs are
	// Joints[v*Influences : (v+1)*Influences] and Weights likewise.
	Influences int
	// Joints are bone indices into the skeleton; Weights need not sum to
	// one (they are divided by their sum). A joint index is only checked
	// when its weight is non-zero.
	Joints  []int
	Weights []float64
	// Triangles index Positions (optional). With them the bodies cover
	// the surface, not only the vertices: a triangle whose corners belong
	// to different bodies is shared out between them by its interpolated
	// weights (see Body.Points).
	Triangles [][3]int
	// Segments, when set, are the first vertex of each part of the skin
	// that one glTF skin of a split armature drives, ascending from 0:
	// MinWeightShare is measured within each (a bone of an armature of 84
	// skins holds far less than 1% of the whole), MinSize against the
	// whole skin.
	Segments []int
}

// Assignment says which vertices a bone takes.
type Assignment int

const (
	// Dominant gives each vertex to the bone with its largest weight (ties:
	// the bone whose joint is nearest the vertex, then the lowest index).
	Dominant Assignment = iota
	// Threshold gives each vertex to every bone whose share of the vertex's
	// weight is at least Settings.WeightThreshold, and to its dominant bone.
	Threshold
)

// Method is the collider kind fitted around a body's vertices.
type Method string

// The collider methods.
const (
	Capsule Method = "capsule" // along the bone's axis (not searched)
	Box     Method = "box"     // minimum-volume oriented box
	Sphere  Method = "sphere"  // minimum enclosing sphere
	Hull    Method = "hull"    // convex hull, at most Settings.MaxHullVertices vertices
)

// Defaults used when the corresponding Settings field is zero.
const (
	DefaultMinWeightShare  = 0.01
	DefaultMinSize         = 0.03
	DefaultWeightThreshold = 0.3
)

// Settings tune Build. The zero value selects the defaults: dominant-weight
// assignment, capsules, DefaultLimits.
type Settings struct {
	// MinWeightShare: a bone gets a body of its own when its share of the
	// skin's total (normalized) weight is at least this (0 = default,
	// negative = no minimum) ...
	MinWeightShare float64
	// MinSize: ... and the bounding-box diagonal of the vertices it takes is
	// at least this fraction of the whole skin's, all its segments
	// together (0 = default, negative = no minimum). A bone whose vertices
	// all coincide never qualifies.
	MinSize float64
	// Assign picks dominant-weight (default) or weight-threshold assignment.
	Assign Assignment
	// WeightThreshold is the Threshold assignment's minimum share (0 =
	// default).
	WeightThreshold float64
	// Method is the collider kind ("" = Capsule).
	Method Method
	// MaxHullVertices caps Hull colliders (0 = hull.DefaultMaxVertices).
	MaxHullVertices int
	// Limits is the joint-limit table, first matching rule wins (nil =
	// DefaultLimits()).
	Limits []LimitRule
	// Fit tunes the primitive fits (tolerance, search effort).
	Fit fit.Options
}

// Ragdoll is what Build makes of a skeleton and its skin.
type Ragdoll struct {
	// Bodies in skeleton pre-order: roots in index order, children in index
	// order, so a parent body always comes before its children.
	Bodies []Body
	// Joints, one per body with a parent body, in the order of Bodies.
	Joints []Joint
	// Merged lists, by bone index, every bone without a body of its own.
	Merged []Merge
	// Unweighted counts vertices whose weights are all zero: no bone drives
	// them, so no body takes them.
	Unweighted int
}

// Body is one rigid body of the ragdoll, on one bone.
type Body struct {
	Bone int    // skeleton index of the bone carrying the body
	Name string // that bone's name
	// Parent is the index in Ragdoll.Bodies of the body this one is jointed
	// to (the nearest ancestor bone with a body), -1 for a root.
	Parent int
	// Frame is the bone's rest world transform without its scale (rotation
	// and translation, right-handed): body space to world space. Points,
	// Axis, the collider and the joint frames are in this space.
	Frame geom.Mat4
	// Axis is the bone's direction in Frame (unit): towards its child
	// joints, else towards its vertices, else its parent's direction.
	Axis geom.Vec3
	// Bones are the bones whose vertices the body takes: its own and the
	// merged ones, ascending.
	Bones []int
	// Vertices are the skin vertex indices the body takes, ascending, and
	// Points those vertices in Frame, followed by the points of the skin's
	// surface (Skin.Triangles) the body takes between vertices of
	// different bodies: the collider contains them all, so it covers the
	// part of the surface its bones move.
	Vertices []int
	Points   []geom.Vec3
	surface  []geom.Vec3 // the surface points, world space
	// Anchor marks a body without vertices: a weightless root kept because
	// two or more bodies hang from it. Its collider is a small sphere at
	// its joint.
	Anchor   bool
	Collider Collider
}

// Collider is a body's collision shape in the body's Frame.
type Collider struct {
	Method Method
	// Shape is the capsule, box or sphere (Method != Hull).
	Shape fit.Shape
	// Hull is the convex hull (Method == Hull).
	Hull *hull.Hull
	// Volume is the collider's volume.
	Volume float64
}

// Joint links a body to its parent body at the child bone's head. The two
// bodies it joins must not collide with each other (enableCollision false).
type Joint struct {
	Child, Parent int // indices in Ragdoll.Bodies
	// ChildFrame and ParentFrame are the joint's attachment frame in each
	// body's Frame: the same world pose, at the child bone's head, its +Y
	// along the child bone's axis (the twist axis).
	ChildFrame, ParentFrame Pose
	// Class is the child bone's place in the skeleton (Unclassified when
	// the skeleton does not tell), Rule the name of the limit rule it
	// took (RuleFor).
	Class Class
	Rule  string
	Limit Limit
}

// Pose is a rigid placement: p ↦ Rotation·p + Position.
type Pose struct {
	Position geom.Vec3
	Rotation geom.Quat
}

// Merge records a bone without a body and the body that took its vertices
// (-1 when none: a weightless bone above the first body of its chain).
type Merge struct {
	Bone, Body int
}

// Errors for unusable input; Build wraps them with the bone or vertex.
var (
	ErrNoBones    = errors.New("ragdoll: skeleton has no bones")
	ErrSkeleton   = errors.New("ragdoll: bad skeleton")
	ErrSkin       = errors.New("ragdoll: bad skin")
	ErrNoWeights  = errors.New("ragdoll: no vertex has a non-zero weight")
	ErrBadSetting = errors.New("ragdoll: bad setting")
)

// Build makes a ragdoll of the skeleton bones and the skin they drive:
// bone selection and merging, per-body vertices and colliders, and joints
// with limits. It is deterministic and never modifies its inputs.
func Build(bones []Bone, skin Skin, s Settings) (*Ragdoll, error) {
	s, err := s.resolve()
	if err != nil {
		return nil, err
	}
	sk, err := newSkeleton(bones)
	if err != nil {
		return nil, err
	}
	w, err := readWeights(skin, sk.head)
	if err != nil {
		return nil, err
	}
	r, bodyOf := sk.selectBodies(w, s)
	if err := sk.surfaceCover(r, w, skin.Triangles, bodyOf, s); err != nil {
		return nil, err
	}
	for i := range r.Bodies {
		r.Bodies[i].Anchor = len(r.Bodies[i].Vertices) == 0 && len(r.Bodies[i].surface) == 0
	}
	class := sk.anatomy(w)
	if err := sk.fitBodies(r, w, s, class); err != nil {
		return nil, err
	}
	if err := sk.joinBodies(r, s.Limits, class); err != nil {
		return nil, err
	}
	return r, nil
}

// resolve fills the defaults and checks the settings.
func (s Settings) resolve() (Settings, error) {
	def := func(v *float64, d float64) {
		switch {
		case *v == 0:
			*v = d
		case *v < 0:
			*v = 0
		}
	}
	def(&s.MinWeightShare, DefaultMinWeightShare)
	def(&s.MinSize, DefaultMinSize)
	if s.WeightThreshold == 0 {
		s.WeightThreshold = DefaultWeightThreshold
	}
	for _, v := range []float64{s.MinWeightShare, s.MinSize, s.WeightThreshold} {
		if !finite(v) {
			return s, fmt.Errorf("%w: threshold %v is not finite", ErrBadSetting, v)
		}
	}
	if s.WeightThreshold <= 0 || s.WeightThreshold > 1 {
		return s, fmt.Errorf("%w: weight threshold %v is outside (0, 1]", ErrBadSetting, s.WeightThreshold)
	}
	if s.Assign != Dominant && s.Assign != Threshold {
		return s, fmt.Errorf("%w: unknown assignment %d", ErrBadSetting, s.Assign)
	}
	switch s.Method {
	case "":
		s.Method = Capsule
	case Capsule, Box, Sphere, Hull:
	default:
		return s, fmt.Errorf("%w: unknown collider method %q (capsule, box, sphere or hull)", ErrBadSetting, s.Method)
	}
	if s.MaxHullVertices == 0 {
		s.MaxHullVertices = hull.DefaultMaxVertices
	}
	if s.MaxHullVertices < 4 {
		return s, fmt.Errorf("%w: max hull vertices %d is below 4", ErrBadSetting, s.MaxHullVertices)
	}
	if s.Limits == nil {
		s.Limits = DefaultLimits()
	}
	if err := checkRules(s.Limits); err != nil {
		return s, err
	}
	return s, nil
}
