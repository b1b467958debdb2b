package physics

// MotionType says how the physics engine moves a body.
type MotionType string

// The motion types of OMI_physics_body; KHR expresses them as an absent
// motion (static), isKinematic (kinematic) or a motion (dynamic).
const (
	Static    MotionType = "static"
	Kinematic MotionType = "kinematic"
	Dynamic   MotionType = "dynamic"
)

// ShapeType names a collision shape.
type ShapeType string

// Shape types. Convex and Trimesh refer to a glTF mesh; Plane exists only
// in KHR_implicit_shapes.
const (
	Box      ShapeType = "box"
	Sphere   ShapeType = "sphere"
	Capsule  ShapeType = "capsule"
	Cylinder ShapeType = "cylinder"
	Convex   ShapeType = "convex"
	Trimesh  ShapeType = "trimesh"
	Plane    ShapeType = "plane"
)

// Shape is one collision shape in the shape's own local space. Capsules
// and cylinders are aligned with local +Y; capsule Height is the distance
// between the hemisphere centres, cylinder Height the full height.
type Shape struct {
	Type ShapeType
	Name string

	Size         [3]float64 // Box: full extents.
	Radius       float64    // Sphere.
	Height       float64    // Capsule (mid-height) and Cylinder (full height).
	RadiusTop    float64    // Capsule and Cylinder.
	RadiusBottom float64    // Capsule and Cylinder.
	Mesh         int        // Convex and Trimesh: glTF mesh index (ignored otherwise).

	// GeometryNode is, for a Convex or Trimesh shape read from a KHR
	// collider.geometry.node (the 2025 revision), the node it named; nil
	// otherwise. The KHR encoder's GeometryNode option reuses it.
	GeometryNode *int

	// Plane (KHR only), the y = 0 plane of the shape's space; a size of
	// 0 means unbounded along that axis.
	PlaneSizeX, PlaneSizeZ float64
	DoubleSided            bool

	// Extras and Extensions are the shape object's raw JSON members that
	// the model does not interpret, kept for a faithful round trip.
	Extras     []byte
	Extensions map[string][]byte
}

// Motion is the dynamics of a body node.
type Motion struct {
	Type MotionType
	// Mass in kg; nil means unspecified (OMI: 1 kg; KHR: engine-computed).
	Mass *float64
	// CenterOfMass in the body node's space; nil means the origin.
	CenterOfMass *[3]float64
	// InertiaDiagonal holds the principal moments (kg·m²); nil means
	// engine-computed.
	InertiaDiagonal *[3]float64
	// InertiaOrientation rotates the principal frame to the body frame
	// (x, y, z, w); nil means identity.
	InertiaOrientation *[4]float64
	LinearVelocity     *[3]float64
	AngularVelocity    *[3]float64
	GravityFactor      *float64
}

// Collider is a solid collision volume on a node.
type Collider struct {
	// Shape indexes Model.Shapes; -1 means none (an OMI compound parent,
	// which KHR cannot express).
	Shape int
	// Material indexes Model.Materials; -1 means default.
	Material int
	// Filter indexes Model.Filters; -1 means default.
	Filter int
}

// Trigger is a non-solid volume on a node: either a shape of its own or,
// for a compound trigger, a list of descendant trigger nodes.
type Trigger struct {
	Shape  int   // -1 when Nodes is used or for none.
	Nodes  []int // compound trigger: descendant node indices.
	Filter int   // -1 means default.
}

// Material is a physics material: friction and restitution.
type Material struct {
	Name               string
	StaticFriction     *float64
	DynamicFriction    *float64
	Restitution        *float64
	FrictionCombine    string
	RestitutionCombine string
}

// Filter is a collision filter by named systems.
type Filter struct {
	Name                  string
	CollisionSystems      []string
	CollideWithSystems    []string
	NotCollideWithSystems []string
}

// JointLimit restricts relative motion along some axes.
type JointLimit struct {
	LinearAxes  []int
	AngularAxes []int
	Min, Max    *float64
	Stiffness   *float64
	Damping     *float64
}

// JointDrive drives relative motion along one axis.
type JointDrive struct {
	Type           string // "linear" or "angular"
	Mode           string // "force" or "acceleration"
	Axis           int
	MaxForce       *float64
	PositionTarget *float64
	VelocityTarget *float64
	Stiffness      *float64
	Damping        *float64
}

// JointDef is a document-level joint description shared by joint nodes.
type JointDef struct {
	Name   string
	Limits []JointLimit
	Drives []JointDrive
}

// Joint connects its node to ConnectedNode under a JointDef.
type Joint struct {
	Def             int
	ConnectedNode   int
	EnableCollision bool
}

// Node is the physics a single glTF node carries. Nil members are absent.
type Node struct {
	Motion   *Motion
	Collider *Collider
	Trigger  *Trigger
	Joint    *Joint
}

// Model is the physics of one glTF document.
type Model struct {
	Shapes    []Shape
	Materials []Material
	Filters   []Filter
	Joints    []JointDef
	// Nodes maps a glTF node index to what it carries.
	Nodes map[int]*Node
}

// NewModel returns an empty model.
func NewModel() *Model { return &Model{Nodes: map[int]*Node{}} }

// AddShape appends s and returns its index.
func (m *Model) AddShape(s Shape) int {
	m.Shapes = append(m.Shapes, s)
	return len(m.Shapes) - 1
}

// Node returns the physics of node i, creating it if absent.
func (m *Model) Node(i int) *Node {
	n := m.Nodes[i]
	if n == nil {
		n = &Node{}
		m.Nodes[i] = n
	}
	return n
}
