package g4mf

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/mass"
	"github.com/autocollide/autocollide/physics"
)

// MaxDepth bounds the node hierarchy's depth.
const MaxDepth = 1024

// transformTolerance is how far a rotor's norm may be from 1 before it
// is refused (it is normalised otherwise).
const transformTolerance = 1e-3

type jsonDoc struct {
	Nodes       []jsonNode     `json:"nodes"`
	Meshes      []jsonMesh     `json:"meshes"`
	Accessors   []jsonAccessor `json:"accessors"`
	BufferViews []jsonView     `json:"bufferViews"`
	Shapes      []jsonShape    `json:"shapes"`
}

type jsonNode struct {
	Name         string               `json:"name"`
	Children     []int                `json:"children"`
	Position     []float64            `json:"position"`
	Basis        []float64            `json:"basis"`
	Rotor        []float64            `json:"rotor"`
	Scale        []float64            `json:"scale"`
	MeshInstance *struct{ Mesh *int } `json:"meshInstance"`
	Physics      *struct {
		Motion   *jsonMotion `json:"motion"`
		Collider *struct {
			Shape *int `json:"shape"`
		} `json:"collider"`
		Trigger *struct {
			Shape *int  `json:"shape"`
			Nodes []int `json:"nodes"`
		} `json:"trigger"`
	} `json:"physics"`
	Extras map[string]json.RawMessage `json:"extras"`
}

type jsonMotion struct {
	Type               string    `json:"type"`
	Mass               *float64  `json:"mass"`
	InertiaDiagonal    []float64 `json:"inertiaDiagonal"`
	InertiaOrientation []float64 `json:"inertiaOrientation"`
	LinearVelocity     []float64 `json:"linearVelocity"`
	AngularVelocity    []float64 `json:"angularVelocity"`
	GravityFactor      *float64  `json:"gravityFactor"`
}

type jsonMesh struct {
	Vertices *int `json:"vertices"`
	Surfaces []struct {
		Simplexes *int `json:"simplexes"`
	} `json:"surfaces"`
}

type jsonAccessor struct {
	BufferView    *int   `json:"bufferView"`
	ComponentType string `json:"componentType"`
	VectorSize    *int   `json:"vectorSize"`
}

type jsonView struct {
	Buffer     int `json:"buffer"`
	ByteLength int `json:"byteLength"`
	ByteOffset int `json:"byteOffset"`
}

type jsonShape struct {
	Type   string    `json:"type"`
	Size   []float64 `json:"size"`
	Mesh   *int      `json:"mesh"`
	Curves []struct {
		Radii []float64       `json:"radii"`
		Taper json.RawMessage `json:"taper"`
		Exp   *float64        `json:"exponent"`
	} `json:"curves"`
}

// Scene is the typed 3D content of a G4MF file, in autocollide's glTF
// conventions: transforms as matrices, the inertia diagonal as moments
// about x, y, z, orientations as quaternions (x, y, z, w), angular
// velocities as vectors. Node, mesh and shape indices are the file's.
type Scene struct {
	Nodes  []Node
	Meshes []Mesh
	// Shapes are the file's shapes; a general shape autocollide does not
	// recognise as a box, sphere, capsule or cylinder has an empty Type.
	Shapes []physics.Shape
}

// Node is one node of a Scene.
type Node struct {
	Name     string
	Parent   int // -1 for node 0 and unused nodes
	Children []int
	Local    geom.Mat4
	World    geom.Mat4
	Mesh     int // meshInstance.mesh, -1 if none
	Physics  physics.Node
	// Generated marks a node autocollide added (extras.autocollide).
	Generated bool
}

// Mesh is a mesh's triangles in its own space.
type Mesh struct {
	Vertices  []geom.Vec3
	Triangles [][3]uint32
}

// componentSize gives the byte size of the component types read.
var componentSize = map[string]int{
	"float32": 4, "float64": 8, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
	"uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8,
}

// Scene decodes the file's nodes, meshes, shapes and physics, checking
// every index, accessor range and transform it uses.
func (f *File) Scene() (*Scene, error) {
	raw, err := f.Tree.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var d jsonDoc
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("decoding: %w", err)
	}
	s := &Scene{}
	for i := range d.Meshes {
		m, err := f.mesh(&d, i)
		if err != nil {
			return nil, err
		}
		s.Meshes = append(s.Meshes, m)
	}
	for i, sh := range d.Shapes {
		p := fmt.Sprintf("shapes[%d]", i)
		x, err := decodeShape(sh, len(d.Meshes))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		s.Shapes = append(s.Shapes, x)
	}
	if err := s.nodes(&d); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Scene) nodes(d *jsonDoc) error {
	n := len(d.Nodes)
	s.Nodes = make([]Node, n)
	for i := range s.Nodes {
		s.Nodes[i].Parent = -1
		s.Nodes[i].Mesh = -1
	}
	for i, jn := range d.Nodes {
		p := fmt.Sprintf("nodes[%d]", i)
		nd := &s.Nodes[i]
		nd.Name = jn.Name
		_, nd.Generated = jn.Extras[extrasKey]
		for k, c := range jn.Children {
			if c <= 0 || c >= n {
				return fmt.Errorf("%s.children[%d]: %d is not a node other than the root", p, k, c)
			}
			if s.Nodes[c].Parent >= 0 {
				return fmt.Errorf("%s.children[%d]: node %d already has parent %d", p, k, c, s.Nodes[c].Parent)
			}
			s.Nodes[c].Parent = i
		}
		nd.Children = jn.Children
		if i == 0 && (jn.Position != nil || jn.Basis != nil || jn.Rotor != nil || jn.Scale != nil) {
			return fmt.Errorf("%s: the root node must not have a transform", p)
		}
		m, err := localMatrix(jn)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		nd.Local = m
		if jn.MeshInstance != nil {
			if jn.MeshInstance.Mesh == nil || *jn.MeshInstance.Mesh < 0 || *jn.MeshInstance.Mesh >= len(d.Meshes) {
				return fmt.Errorf("%s.meshInstance.mesh: missing or not a mesh index", p)
			}
			nd.Mesh = *jn.MeshInstance.Mesh
		}
		if ph := jn.Physics; ph != nil {
			if ph.Motion != nil {
				mo, err := decodeMotion(ph.Motion)
				if err != nil {
					return fmt.Errorf("%s.physics.motion: %w", p, err)
				}
				nd.Physics.Motion = mo
			}
			if c := ph.Collider; c != nil {
				if c.Shape == nil || *c.Shape < 0 || *c.Shape >= len(d.Shapes) {
					return fmt.Errorf("%s.physics.collider.shape: missing or not a shape index", p)
				}
				nd.Physics.Collider = physics.NewCollider(*c.Shape)
			}
			if t := ph.Trigger; t != nil {
				tr := &physics.Trigger{Shape: -1, Filter: -1}
				if t.Shape != nil {
					if *t.Shape < 0 || *t.Shape >= len(d.Shapes) {
						return fmt.Errorf("%s.physics.trigger.shape: not a shape index", p)
					}
					tr.Shape = *t.Shape
				}
				for k, c := range t.Nodes {
					if c < 0 || c >= n {
						return fmt.Errorf("%s.physics.trigger.nodes[%d]: not a node index", p, k)
					}
				}
				tr.Nodes = t.Nodes
				nd.Physics.Trigger = tr
			}
		}
	}
	// World transforms from node 0 down, with a depth bound; nodes not
	// under node 0 are unused and keep their local transform.
	for i := range s.Nodes {
		s.Nodes[i].World = s.Nodes[i].Local
	}
	if n == 0 {
		return nil
	}
	type item struct{ node, depth int }
	stack := []item{{0, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > MaxDepth {
			return fmt.Errorf("nodes[%d]: hierarchy deeper than %d", it.node, MaxDepth)
		}
		for _, c := range s.Nodes[it.node].Children {
			s.Nodes[c].World = s.Nodes[it.node].World.Mul(s.Nodes[c].Local)
			stack = append(stack, item{c, it.depth + 1})
		}
	}
	if s.Nodes[0].Parent >= 0 {
		return errors.New("nodes[0]: the root node is some node's child")
	}
	return nil
}

// localMatrix builds a node's transform from position and basis or
// rotor + scale.
func localMatrix(jn jsonNode) (geom.Mat4, error) {
	t := geom.Vec3{}
	if jn.Position != nil {
		if len(jn.Position) != 3 {
			return geom.Mat4{}, fmt.Errorf("position: %d numbers, want 3", len(jn.Position))
		}
		t = geom.Vec3(jn.Position)
	}
	if jn.Basis != nil {
		if jn.Rotor != nil || jn.Scale != nil {
			return geom.Mat4{}, errors.New("basis: must not be used with rotor or scale")
		}
		if len(jn.Basis) != 9 {
			return geom.Mat4{}, fmt.Errorf("basis: %d numbers, want 9", len(jn.Basis))
		}
		b := jn.Basis
		lin := geom.FromCols(geom.Vec3{b[0], b[1], b[2]}, geom.Vec3{b[3], b[4], b[5]}, geom.Vec3{b[6], b[7], b[8]})
		// A singular basis (a zero scale, which glTF allows for hiding) is
		// accepted; bodies under it get a warning from Generate.
		if d := lin.Det(); math.IsNaN(d) || math.IsInf(d, 0) {
			return geom.Mat4{}, errors.New("basis: not finite")
		}
		return affine(lin, t), nil
	}
	q := geom.IdentityQuat()
	if jn.Rotor != nil {
		if len(jn.Rotor) != 4 {
			return geom.Mat4{}, fmt.Errorf("rotor: %d numbers, want 4 for 3D", len(jn.Rotor))
		}
		q = mass.QuatFromG4MFRotor([4]float64(jn.Rotor))
		l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if !(math.Abs(l-1) <= transformTolerance) {
			return geom.Mat4{}, fmt.Errorf("rotor: norm %g is not 1", l)
		}
		q = q.Normalize()
	}
	sc := geom.Vec3{1, 1, 1}
	switch len(jn.Scale) {
	case 0:
		if jn.Scale != nil {
			return geom.Mat4{}, errors.New("scale: empty")
		}
	case 1:
		sc = geom.Vec3{jn.Scale[0], jn.Scale[0], jn.Scale[0]}
	case 3:
		sc = geom.Vec3(jn.Scale)
	default:
		return geom.Mat4{}, fmt.Errorf("scale: %d numbers, want 1 or 3", len(jn.Scale))
	}
	for _, v := range sc {
		if !(v > 0) || math.IsInf(v, 0) {
			return geom.Mat4{}, fmt.Errorf("scale: %g is not positive and finite", v)
		}
	}
	for _, v := range t {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return geom.Mat4{}, errors.New("position: not finite")
		}
	}
	return geom.TRS(t, q, sc), nil
}

func affine(lin geom.Mat3, t geom.Vec3) geom.Mat4 {
	var m geom.Mat4
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] = lin[i][j]
		}
		m[i][3] = t[i]
	}
	m[3][3] = 1
	return m
}

func vec3(p string, v []float64) (*[3]float64, error) {
	if v == nil {
		return nil, nil
	}
	if len(v) != 3 {
		return nil, fmt.Errorf("%s: %d numbers, want 3", p, len(v))
	}
	a := [3]float64(v)
	return &a, nil
}

// decodeMotion maps a G4MF motion to the model's conventions.
func decodeMotion(j *jsonMotion) (*physics.Motion, error) {
	mo := &physics.Motion{Type: physics.MotionType(j.Type), Mass: j.Mass, GravityFactor: j.GravityFactor}
	switch mo.Type {
	case physics.Static, physics.Kinematic, physics.Dynamic:
	default:
		return nil, fmt.Errorf("type: %q is not static, kinematic or dynamic", j.Type)
	}
	d, err := vec3("inertiaDiagonal", j.InertiaDiagonal)
	if err != nil {
		return nil, err
	}
	if d != nil {
		x := mass.InertiaDiagonalFromG4MF(*d)
		mo.InertiaDiagonal = &x
	}
	if j.InertiaOrientation != nil {
		if len(j.InertiaOrientation) != 4 {
			return nil, fmt.Errorf("inertiaOrientation: %d numbers, want 4", len(j.InertiaOrientation))
		}
		q := [4]float64(mass.QuatFromG4MFRotor([4]float64(j.InertiaOrientation)))
		mo.InertiaOrientation = &q
	}
	if mo.LinearVelocity, err = vec3("linearVelocity", j.LinearVelocity); err != nil {
		return nil, err
	}
	w, err := vec3("angularVelocity", j.AngularVelocity)
	if err != nil {
		return nil, err
	}
	if w != nil {
		v := [3]float64(mass.AngularVelocityFromG4MF(*w))
		mo.AngularVelocity = &v
	}
	return mo, nil
}

// shapeTolerance decides which general shapes are the familiar
// primitives: radii equal and zero sizes within this (relative).
const shapeTolerance = 1e-9

func near(a, b float64) bool {
	return math.Abs(a-b) <= shapeTolerance*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// decodeShape recognises the general shapes of the specification's
// "Common General Shapes" (box, sphere, capsule, cylinder along Y) and
// the mesh shapes. Other general shapes come back with an empty Type.
func decodeShape(j jsonShape, meshes int) (physics.Shape, error) {
	var s physics.Shape
	switch j.Type {
	case "convex", "concave":
		if j.Mesh == nil || *j.Mesh < 0 || *j.Mesh >= meshes {
			return s, errors.New("mesh: missing or not a mesh index")
		}
		s.Type, s.Mesh = physics.Convex, *j.Mesh
		if j.Type == "concave" {
			s.Type = physics.Trimesh
		}
		return s, nil
	case "plane":
		s.Type = physics.Plane
		return s, nil
	case "", "general":
	default:
		return s, nil // ray, heightmap, extension types: not modelled
	}
	size := geom.Vec3{}
	if j.Size != nil {
		if len(j.Size) != 3 {
			return s, fmt.Errorf("size: %d numbers, want 3", len(j.Size))
		}
		size = geom.Vec3(j.Size)
	}
	for _, v := range size {
		if !(v >= 0) || math.IsInf(v, 0) {
			return s, fmt.Errorf("size: %g is not a finite non-negative number", v)
		}
	}
	switch len(j.Curves) {
	case 0:
		s.Type, s.Size = physics.Box, size
		return s, nil
	case 1:
	default:
		return s, nil
	}
	c := j.Curves[0]
	if len(c.Radii) != 3 || len(c.Taper) > 0 || (c.Exp != nil && *c.Exp != 2) {
		return s, nil
	}
	r := c.Radii
	switch {
	case near(r[0], r[1]) && near(r[1], r[2]) && size == geom.Vec3{}:
		s.Type, s.Radius = physics.Sphere, r[0]
	case near(r[0], r[1]) && near(r[1], r[2]) && size[0] == 0 && size[2] == 0:
		s.Type, s.Height, s.RadiusTop, s.RadiusBottom = physics.Capsule, size[1], r[0], r[0]
	case near(r[0], r[2]) && r[1] == 0 && size[0] == 0 && size[2] == 0:
		s.Type, s.Height, s.RadiusTop, s.RadiusBottom = physics.Cylinder, size[1], r[0], r[0]
	}
	return s, nil
}

// accessor returns accessor i's components as float64 (vectorSize
// checked against want), after checking its view lies inside its buffer.
func (f *File) accessor(d *jsonDoc, i, want int) ([]float64, error) {
	p := fmt.Sprintf("accessors[%d]", i)
	if i < 0 || i >= len(d.Accessors) {
		return nil, fmt.Errorf("%s: no such accessor", p)
	}
	a := d.Accessors[i]
	vs := 1
	if a.VectorSize != nil {
		vs = *a.VectorSize
	}
	if vs != want {
		return nil, fmt.Errorf("%s.vectorSize: %d, want %d", p, vs, want)
	}
	cs, ok := componentSize[a.ComponentType]
	if !ok {
		return nil, fmt.Errorf("%s.componentType: %q is not supported", p, a.ComponentType)
	}
	if a.BufferView == nil || *a.BufferView < 0 || *a.BufferView >= len(d.BufferViews) {
		return nil, fmt.Errorf("%s.bufferView: missing or not a buffer view index", p)
	}
	vp := fmt.Sprintf("bufferViews[%d]", *a.BufferView)
	v := d.BufferViews[*a.BufferView]
	if v.Buffer < 0 || v.Buffer >= len(f.bufs) {
		return nil, fmt.Errorf("%s.buffer: %d is not a buffer index", vp, v.Buffer)
	}
	buf := f.bufs[v.Buffer].data
	if v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset > len(buf) || v.ByteLength > len(buf)-v.ByteOffset {
		return nil, fmt.Errorf("%s: bytes [%d, +%d) exceed buffer %d's %d bytes", vp, v.ByteOffset, v.ByteLength, v.Buffer, len(buf))
	}
	if v.ByteOffset%cs != 0 || v.ByteLength%(cs*vs) != 0 {
		return nil, fmt.Errorf("%s: offset %d and length %d do not align to %s × %d", vp, v.ByteOffset, v.ByteLength, a.ComponentType, vs)
	}
	b := buf[v.ByteOffset : v.ByteOffset+v.ByteLength]
	out := make([]float64, len(b)/cs)
	le := binary.LittleEndian
	for k := range out {
		o := b[k*cs:]
		switch a.ComponentType {
		case "float32":
			out[k] = float64(math.Float32frombits(le.Uint32(o)))
		case "float64":
			out[k] = math.Float64frombits(le.Uint64(o))
		case "int8":
			out[k] = float64(int8(o[0]))
		case "uint8":
			out[k] = float64(o[0])
		case "int16":
			out[k] = float64(int16(le.Uint16(o)))
		case "uint16":
			out[k] = float64(le.Uint16(o))
		case "int32":
			out[k] = float64(int32(le.Uint32(o)))
		case "uint32":
			out[k] = float64(le.Uint32(o))
		case "int64":
			out[k] = float64(int64(le.Uint64(o)))
		case "uint64":
			out[k] = float64(le.Uint64(o))
		}
	}
	return out, nil
}

func (f *File) mesh(d *jsonDoc, i int) (Mesh, error) {
	p := fmt.Sprintf("meshes[%d]", i)
	jm := d.Meshes[i]
	if jm.Vertices == nil {
		return Mesh{}, fmt.Errorf("%s.vertices: missing", p)
	}
	vs, err := f.accessor(d, *jm.Vertices, 3)
	if err != nil {
		return Mesh{}, fmt.Errorf("%s.vertices: %w", p, err)
	}
	var m Mesh
	for k := 0; k < len(vs); k += 3 {
		v := geom.Vec3{vs[k], vs[k+1], vs[k+2]}
		if !v.IsFinite() {
			return Mesh{}, fmt.Errorf("%s.vertices: vertex %d is not finite", p, k/3)
		}
		m.Vertices = append(m.Vertices, v)
	}
	for k, s := range jm.Surfaces {
		if s.Simplexes == nil {
			continue
		}
		ix, err := f.accessor(d, *s.Simplexes, 3)
		if err != nil {
			return Mesh{}, fmt.Errorf("%s.surfaces[%d].simplexes: %w", p, k, err)
		}
		for t := 0; t < len(ix); t += 3 {
			var tri [3]uint32
			for c := 0; c < 3; c++ {
				x := ix[t+c]
				if x < 0 || x >= float64(len(m.Vertices)) || x != math.Trunc(x) {
					return Mesh{}, fmt.Errorf("%s.surfaces[%d].simplexes: index %g is not a vertex (the mesh has %d)", p, k, x, len(m.Vertices))
				}
				tri[c] = uint32(x)
			}
			m.Triangles = append(m.Triangles, tri)
		}
	}
	return m, nil
}
