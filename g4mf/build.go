package g4mf

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/gltfio"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// extrasKey marks, in an item's extras, what autocollide generated:
// {"extras": {"autocollide": "generated"}}. A later Generate removes
// every marked item before it runs, which makes re-runs byte-identical.
const extrasKey = "autocollide"

// builder appends items to a G4MF tree: nodes, meshes with their
// accessors and views (all in one new buffer), shapes.
type builder struct {
	f      *File
	mark   bool // tag every added item with extrasKey
	data   []byte
	buffer int // index the new buffer will get
	names  map[string]bool
}

func newBuilder(f *File, mark bool) *builder {
	b := &builder{f: f, mark: mark, buffer: len(f.Tree.Arr("buffers")), names: map[string]bool{}}
	b.collect(f.Tree, 0)
	return b
}

// collect records every item name in the tree (items nest: surfaces,
// curves, ...), so that new names are unique across the file.
func (b *builder) collect(v any, depth int) {
	if depth > gltfio.MaxJSONDepth {
		return
	}
	switch x := v.(type) {
	case *gltfio.Object:
		for _, k := range x.Keys() {
			c, _ := x.Get(k)
			if s, ok := c.(string); ok && k == "name" && s != "" {
				b.names[s] = true
			}
			if k != "extras" {
				b.collect(c, depth+1)
			}
		}
	case []any:
		for _, c := range x {
			b.collect(c, depth+1)
		}
	}
}

// forbidden are the characters G4MF node names must not contain.
const forbidden = "\"#%*.:|?@<>{}[]/\\"

// name returns a file-unique, legal node name built from want.
func (b *builder) name(want string) string {
	s := strings.Map(func(r rune) rune {
		if strings.ContainsRune(forbidden, r) || r < 0x20 {
			return '_'
		}
		return r
	}, want)
	if s == "" {
		s = "Node"
	}
	n := s
	for k := 2; b.names[n]; k++ {
		n = fmt.Sprintf("%s_%d", s, k)
	}
	b.names[n] = true
	return n
}

func (b *builder) tag(o *gltfio.Object) *gltfio.Object {
	if b.mark {
		e := gltfio.NewObject()
		e.Set(extrasKey, "generated")
		o.Set("extras", e)
	}
	return o
}

func (b *builder) push(key string, o *gltfio.Object) int {
	arr := append(b.f.Tree.Arr(key), b.tag(o))
	b.f.Tree.Set(key, arr)
	return len(arr) - 1
}

// node appends a node and returns its index.
func (b *builder) node(o *gltfio.Object) int { return b.push("nodes", o) }

// child appends c to node p's children.
func (b *builder) child(p, c int) {
	n := b.f.Tree.Arr("nodes")[p].(*gltfio.Object)
	n.Set("children", append(n.Arr("children"), gltfio.IntNum(c)))
}

func (b *builder) accessor(data []byte, comp string, size int) int {
	for len(b.data)%8 != 0 {
		b.data = append(b.data, 0)
	}
	v := gltfio.NewObject()
	v.Set("buffer", gltfio.IntNum(b.buffer))
	v.Set("byteLength", gltfio.IntNum(len(data)))
	if len(b.data) > 0 {
		v.Set("byteOffset", gltfio.IntNum(len(b.data)))
	}
	b.data = append(b.data, data...)
	vi := b.push("bufferViews", v)
	a := gltfio.NewObject()
	a.Set("bufferView", gltfio.IntNum(vi))
	a.Set("componentType", comp)
	a.Set("vectorSize", gltfio.IntNum(size))
	return b.push("accessors", a)
}

// mesh appends a one-surface mesh (float32 vertices, uint32 simplexes).
func (b *builder) mesh(vs []geom.Vec3, tris [][3]uint32) int {
	return b.meshSurfaces(vs, [][][3]uint32{tris})
}

// meshSurfaces appends a mesh with one surface per triangle list.
func (b *builder) meshSurfaces(vs []geom.Vec3, surfaces [][][3]uint32) int {
	vb := make([]byte, 0, 12*len(vs))
	for _, v := range vs {
		for _, c := range v {
			vb = binary.LittleEndian.AppendUint32(vb, math.Float32bits(float32(c)))
		}
	}
	m := gltfio.NewObject()
	m.Set("vertices", gltfio.IntNum(b.accessor(vb, "float32", 3)))
	var ss []any
	for _, tris := range surfaces {
		ib := make([]byte, 0, 12*len(tris))
		for _, t := range tris {
			for _, c := range t {
				ib = binary.LittleEndian.AppendUint32(ib, c)
			}
		}
		s := gltfio.NewObject()
		if len(tris) > 0 {
			s.Set("simplexes", gltfio.IntNum(b.accessor(ib, "uint32", 3)))
		}
		ss = append(ss, s)
	}
	m.Set("surfaces", ss)
	return b.push("meshes", m)
}

// finish appends the buffer holding every accessor added, if any.
func (b *builder) finish() {
	if len(b.data) == 0 {
		return
	}
	o := gltfio.NewObject()
	o.Set("byteLength", gltfio.IntNum(len(b.data)))
	o.Set("uri", "") // replaced by Encode with a chunk or a data URI
	b.push("buffers", o)
	b.f.bufs = append(b.f.bufs, buffer{data: b.data, inline: true})
}

func nums(v ...float64) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = gltfio.Num(x)
	}
	return out
}

// setPose writes a rigid pose as position + rotor (omitting identities).
func setPose(o *gltfio.Object, t geom.Vec3, q geom.Quat) {
	if t != (geom.Vec3{}) {
		o.Set("position", nums(t[:]...))
	}
	if q != geom.IdentityQuat() && q != (geom.Quat{}) {
		r := rotor(q)
		o.Set("rotor", nums(r[:]...))
	}
}

// rotor returns the G4MF rotor of a quaternion, normalised and clamped
// to [−1, 1] (the schema's bounds, which rounding could cross by an ulp).
func rotor(q geom.Quat) [4]float64 {
	r := mass.G4MFRotor(q.Normalize())
	for i := range r {
		r[i] = math.Max(-1, math.Min(1, r[i]))
	}
	return r
}

// shapeObject encodes a model shape as a G4MF shape; mesh is the G4MF
// mesh index for convex and trimesh shapes. It returns warnings for
// what G4MF cannot express.
func shapeObject(s physics.Shape, mesh int) (*gltfio.Object, []string) {
	o := gltfio.NewObject()
	var warns []string
	curve := func(r ...float64) {
		c := gltfio.NewObject()
		c.Set("radii", nums(r...))
		o.Set("curves", []any{c})
	}
	radius := func() float64 {
		if s.RadiusTop != s.RadiusBottom {
			warns = append(warns, fmt.Sprintf("%s with radii %g and %g: written with the larger (tapered shapes not exported)", s.Type, s.RadiusTop, s.RadiusBottom))
		}
		return math.Max(s.RadiusTop, s.RadiusBottom)
	}
	switch s.Type {
	case physics.Box:
		o.Set("size", nums(s.Size[:]...))
	case physics.Sphere:
		curve(s.Radius, s.Radius, s.Radius)
	case physics.Capsule:
		r := radius()
		o.Set("size", nums(0, s.Height, 0))
		curve(r, r, r)
	case physics.Cylinder:
		r := radius()
		o.Set("size", nums(0, s.Height, 0))
		curve(r, 0, r)
	case physics.Convex, physics.Trimesh:
		o.Set("type", map[physics.ShapeType]string{physics.Convex: "convex", physics.Trimesh: "concave"}[s.Type])
		o.Set("mesh", gltfio.IntNum(mesh))
	case physics.Plane:
		o.Set("type", "plane")
		if s.PlaneSizeX != 0 || s.PlaneSizeZ != 0 {
			warns = append(warns, "plane size: G4MF planes are unbounded")
		}
		if s.DoubleSided {
			warns = append(warns, "plane doubleSided: not expressible in G4MF")
		}
	default:
		warns = append(warns, fmt.Sprintf("shape type %q has no G4MF form; written as an empty general shape", s.Type))
	}
	if s.Name != "" {
		warns = append(warns, fmt.Sprintf("shape name %q dropped (names must be file-unique in G4MF)", s.Name))
	}
	return o, warns
}

// motionObject encodes a motion whose centre of mass is the body
// node's origin, with the inertia orientation given in the body node's
// frame.
func motionObject(mo *physics.Motion) *gltfio.Object {
	o := gltfio.NewObject()
	o.Set("type", string(mo.Type))
	if mo.Mass != nil {
		o.Set("mass", gltfio.Num(*mo.Mass))
	}
	if mo.InertiaDiagonal != nil {
		d := mass.G4MFInertiaDiagonal(*mo.InertiaDiagonal)
		o.Set("inertiaDiagonal", nums(d[:]...))
	}
	if mo.InertiaOrientation != nil {
		q := geom.Quat(*mo.InertiaOrientation).Normalize()
		if q[3] < 0 {
			q = geom.Quat{-q[0], -q[1], -q[2], -q[3]}
		}
		if q != geom.IdentityQuat() {
			r := rotor(q)
			o.Set("inertiaOrientation", nums(r[:]...))
		}
	}
	if mo.LinearVelocity != nil {
		o.Set("linearVelocity", nums(mo.LinearVelocity[:]...))
	}
	if mo.AngularVelocity != nil {
		w := mass.G4MFAngularVelocity(*mo.AngularVelocity)
		o.Set("angularVelocity", nums(w[:]...))
	}
	if mo.GravityFactor != nil {
		o.Set("gravityFactor", gltfio.Num(*mo.GravityFactor))
	}
	return o
}

func physicsObject(key string, v *gltfio.Object) *gltfio.Object {
	p := gltfio.NewObject()
	p.Set(key, v)
	return p
}
