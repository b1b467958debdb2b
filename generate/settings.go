package generate

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
)

// More collider methods: Trimesh writes the mesh itself as a triangle-mesh
// collider (static bodies only, as the engines require); None makes no
// collider for the mesh instance.
const (
	Trimesh Method = "trimesh"
	None    Method = "none"
)

// BodyMode says which nodes become rigid bodies.
type BodyMode string

// Body modes.
const (
	// BodiesPerRoot makes each scene root holding geometry a body (the
	// default).
	BodiesPerRoot BodyMode = "root"
	// BodiesPerNode makes each node with a mesh a body.
	BodiesPerNode BodyMode = "node"
	// BodiesPerFile makes one body of the whole scene: its only root
	// holding geometry, or else a generated node that gathers the scene's
	// roots (a file without scenes falls back to BodiesPerRoot).
	BodiesPerFile BodyMode = "file"
	// BodiesByPattern makes each node whose name matches Body.Pattern a
	// body (the nearest match above a mesh instance, itself included);
	// geometry outside every match falls back to BodiesPerRoot.
	BodiesByPattern BodyMode = "pattern"
)

// NodeInfo describes one mesh instance to the rules.
type NodeInfo struct {
	// Node is the index of the node holding the mesh, Name its name, and
	// Path the names from its scene root down to it, joined by "/"
	// (unnamed nodes as nodes[i]).
	Node int
	Name string
	Path string
	// Mesh is the mesh's name.
	Mesh string
	// File is the path of the asset, slash-separated, as it was loaded.
	File string
	// Extras is the node's extras object (nil when absent or not an
	// object), as decoded from JSON.
	Extras map[string]any
	// Size is the world-space bounding box size of the instance, in
	// metres, and Triangles its triangle count.
	Size      geom.Vec3
	Triangles int
}

// PartSettings is what a rule sets for one mesh instance. Zero fields
// keep the asset-wide Options.
type PartSettings struct {
	// Rule names the rule that matched, for the report.
	Rule            string
	Method          Method
	MaxHullVertices int
	MaxHullFaces    int
	// MaxHullTriangles caps each hull's triangles (Unity: 255).
	MaxHullTriangles int
	// MaxColliders and MaxHulls cap the instance's colliders (see
	// ColliderSettings.MaxColliders).
	MaxColliders int
	MaxHulls     int
	Concavity    float64
	// AbsConcavity is an absolute concavity threshold in metres.
	AbsConcavity float64
	// AutoTolerance and HullFill steer Method Auto for the instance (see
	// Options).
	AutoTolerance float64
	HullFill      float64
	// SearchTriangles sizes the decomposition's search proxy (see
	// ColliderSettings).
	SearchTriangles int
	// GapSlack lets the decomposition merge below the budget (see
	// ColliderSettings).
	GapSlack float64
	// Trigger makes the instance's colliders triggers.
	Trigger bool
	// Motion and Mass, when set, go to the instance's body, over
	// BodySettings' Motion and Mass; the first instance in part order
	// whose rule sets them decides for its body. The artists' naming
	// conventions (-rigid, Godot collision hints) still decide over them.
	Motion physics.MotionType
	Mass   Mass
}

// over returns c with each collider setting s gives (not zero) laid over
// it: every field of PartSettings but Rule, Trigger, Motion and Mass (the
// body's) is the ColliderSettings field of the same name and type
// (TestPartSettingsOver).
func (s PartSettings) over(c ColliderSettings) ColliderSettings {
	src, dst := reflect.ValueOf(s), reflect.ValueOf(&c).Elem()
	for i := range src.NumField() {
		if v := src.Field(i); !v.IsZero() {
			if f := dst.FieldByName(src.Type().Field(i).Name); f.IsValid() {
				f.Set(v)
			}
		}
	}
	return c
}

// BodySettings is how generated bodies behave.
type BodySettings struct {
	// Mode says which nodes become bodies; Pattern is used by
	// BodiesByPattern.
	Mode    BodyMode
	Pattern *regexp.Regexp
	// Motion is the motion type of generated bodies ("" = dynamic).
	// Static and kinematic bodies are written without mass or inertia.
	Motion physics.MotionType
	// Material, when set, is the physics material of every generated
	// collider, and Filter its collision filter.
	Material *physics.Material
	Filter   *physics.Filter
	// Trigger makes every generated collider a trigger instead.
	Trigger bool
	// NamingConventions turns on the artists' naming conventions
	// (Unreal UCX_/UBX_/USP_/UCP_ and Godot -col, -colonly, -convcol,
	// -convcolonly, -rigid and their _col spellings).
	NamingConventions bool
	// Ragdoll tunes BodiesPerBone (absent from fingerprints when zero).
	Ragdoll RagdollSettings `json:",omitzero"`
	// Mass says how dynamic bodies get their mass (Options.MarshalJSON
	// writes it beside the body settings, where it has always been).
	Mass Mass `json:"-"`
	// Overlap says what becomes of dynamic bodies whose colliders
	// overlap at rest ("": OverlapMerge; left out of the JSON then, so
	// that earlier fingerprints stay current).
	Overlap OverlapRule `json:",omitempty"`
}

// check reports settings no body can be made from.
func (b BodySettings) check() error {
	switch b.Mode {
	case "", BodiesPerRoot, BodiesPerNode, BodiesPerFile, BodiesPerBone:
	case BodiesByPattern:
		if b.Pattern == nil {
			return errors.New("body mode pattern needs a pattern")
		}
	default:
		return fmt.Errorf("body mode %q: want root, node, file, pattern or bone", b.Mode)
	}
	switch b.Overlap {
	case "", OverlapMerge, OverlapWarn:
	default:
		return fmt.Errorf("overlapping bodies %q: want merge or warn", b.Overlap)
	}
	switch b.Motion {
	case "", physics.Static, physics.Kinematic, physics.Dynamic:
	default:
		return fmt.Errorf("motion %q: want static, kinematic or dynamic", b.Motion)
	}
	return nil
}
