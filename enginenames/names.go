package enginenames

import (
	"strconv"
	"strings"

	"github.com/autocollide/autocollide/physics"
)

// The formats this package writes: --format values beside the physics
// codecs' families.
const (
	// Unreal writes UCX_/UBX_/USP_/UCP_ collision meshes.
	Unreal physics.Family = "unreal"
	// GodotNames writes -colonly/-convcolonly nodes and -rigid bodies.
	GodotNames physics.Family = "godot-names"
)

// Families returns the formats of this package, in the order --format
// help lists them.
func Families() []string { return []string{string(Unreal), string(GodotNames)} }

// Handles reports whether f is one of this package's formats.
func Handles(f physics.Family) bool { return f == Unreal || f == GodotNames }

// unrealPrefixes are Unreal's collision prefixes and the shape each
// stands for.
var unrealPrefixes = []struct {
	prefix string
	shape  physics.ShapeType
}{
	{"UCX_", physics.Convex},
	{"UBX_", physics.Box},
	{"USP_", physics.Sphere},
	{"UCP_", physics.Capsule},
}

// unrealPrefix returns the prefix Unreal uses for shape type t.
func unrealPrefix(t physics.ShapeType) string {
	for _, p := range unrealPrefixes {
		if p.shape == t {
			return p.prefix
		}
	}
	return ""
}

// ParseUnreal parses an Unreal collision name: UCX_<Render>[_NN] (a
// convex hull), UBX_ (box), USP_ (sphere) or UCP_ (capsule); the prefix
// is matched case-insensitively. The candidates are the render names it
// may refer to, the longest first: "UCX_Chair_01" may name "Chair_01" or
// "Chair".
func ParseUnreal(name string) (physics.ShapeType, []string, bool) {
	for _, p := range unrealPrefixes {
		if len(name) <= len(p.prefix) || !strings.EqualFold(name[:len(p.prefix)], p.prefix) {
			continue
		}
		rest := name[len(p.prefix):]
		cands := []string{rest}
		if i := strings.LastIndexByte(rest, '_'); i > 0 {
			if _, err := strconv.Atoi(rest[i+1:]); err == nil {
				cands = append(cands, rest[:i])
			}
		}
		return p.shape, cands, true
	}
	return "", nil, false
}

// unrealName is the name of the index-th collision mesh of shape t for
// the render mesh named render: two digits from 00, more when needed.
func unrealName(t physics.ShapeType, render string, index int) string {
	return unrealPrefix(t) + render + "_" + twoDigits(index)
}

func twoDigits(i int) string {
	if i < 10 {
		return "0" + strconv.Itoa(i)
	}
	return strconv.Itoa(i)
}

// GodotHint is an import hint of Godot's at the end of a node name.
type GodotHint int

// Godot's hints (its "node type customization using name suffixes").
const (
	GodotNone        GodotHint = iota
	GodotCol                   // keep the mesh, add a static triangle-mesh collider
	GodotColOnly               // the mesh becomes a static triangle-mesh collider only
	GodotConvCol               // keep the mesh, add a static convex collider
	GodotConvColOnly           // the mesh becomes a static convex collider only
	GodotRigid                 // the node becomes a rigid body
)

// godotSuffixes are tried in this order, so that "-convcolonly" is not
// read as "-colonly" or "-col".
var godotSuffixes = []struct {
	word string
	hint GodotHint
}{
	{"convcolonly", GodotConvColOnly},
	{"colonly", GodotColOnly},
	{"convcol", GodotConvCol},
	{"col", GodotCol},
	{"rigid", GodotRigid},
}

// ParseGodot parses a Godot import hint at the end of a node name: the
// word after "-", "_" or "$", case-insensitive, as Godot reads it.
func ParseGodot(name string) GodotHint {
	low := strings.ToLower(name)
	for _, s := range godotSuffixes {
		n := len(s.word) + 1
		if len(low) <= n || !strings.HasSuffix(low, s.word) {
			continue
		}
		switch low[len(low)-n] {
		case '-', '_', '$':
			return s.hint
		}
	}
	return GodotNone
}

// Collider says whether the hint asks for a collider, and of which shape
// type (physics.Trimesh or physics.Convex).
func (h GodotHint) Collider() (physics.ShapeType, bool) {
	switch h {
	case GodotCol, GodotColOnly:
		return physics.Trimesh, true
	case GodotConvCol, GodotConvColOnly:
		return physics.Convex, true
	}
	return "", false
}

// Only says whether the hinted mesh stops rendering.
func (h GodotHint) Only() bool { return h == GodotColOnly || h == GodotConvColOnly }

// String is the hint as written, "-convcolonly"; empty for GodotNone.
func (h GodotHint) String() string {
	for _, s := range godotSuffixes {
		if s.hint == h {
			return "-" + s.word
		}
	}
	return ""
}
