package conformance

import (
	"fmt"
	"strconv"
	"strings"
)

// Case is one valid document of the suite.
type Case struct {
	// Name is unique and names the files (khr-collider-box-dynamic).
	Name   string
	Family Family
	// Topic groups the cases: collider, joint, filter, material, motion,
	// required, trigger, legacy, resources, generate.
	Topic string
	// Shape and Motion are the matrix coordinates of a collider case.
	Shape, Motion string
	// Embedded writes the .gltf's buffer as a data: URI.
	Embedded bool
	// MissingImage is the file name of an image the document references
	// but Write does not write ("" for none).
	MissingImage string
	// Drop marks a case the drop test runs: its dynamic body's colliders
	// contain its render mesh.
	Drop bool
	// Loose is the node index of a scene root with a mesh and no physics
	// (generate gives it a body), -1 when there is none.
	Loose int
	// JSON is the document; Broken its prohibited variants.
	JSON   map[string]any
	Broken []Broken
	bin    []byte
}

// Broken is a variant of a Case with one thing the specifications
// prohibit. Path is the JSON path, as autocollide validate prints it, at
// (or under) which validate must report an error; Rule quotes what is
// prohibited.
type Broken struct {
	Name, Path, Rule string
	JSON             map[string]any
}

// Cases returns every case of the suite, in a fixed order.
func Cases() []*Case {
	var out []*Case
	for _, f := range []func() []*Case{colliders, joints, filters, materials, motions, required, triggers, legacy, resources} {
		out = append(out, f()...)
	}
	for _, c := range out {
		switch c.Topic {
		case "joint", "filter", "material", "trigger", "required":
			// Their bodies are boxes and spheres around their meshes:
			// every one with a dynamic body is dropped too.
			c.Drop = c.Drop || hasDynamic(c.JSON)
		}
	}
	return out
}

// hasDynamic reports whether document d has a dynamic body: an OMI motion
// of type dynamic, or a KHR motion that is not kinematic.
func hasDynamic(d map[string]any) bool {
	for _, n := range arr(d["nodes"]) {
		ext := obj(obj(n)["extensions"])
		if m := obj(obj(ext[extOMIBody])["motion"]); m != nil && m["type"] == Dynamic {
			return true
		}
		if m := obj(obj(ext[extKHRBodies])["motion"]); m != nil && m["isKinematic"] != true {
			return true
		}
	}
	return false
}

func newCase(name string, fam Family, topic string, b *builder) *Case {
	data, _, _, _ := buffers()
	return &Case{Name: name, Family: fam, Topic: topic, JSON: b.doc(), bin: data, Loose: -1}
}

// broken adds a variant made by edit from a copy of c's document.
func (c *Case) broken(name, path, rule string, edit func(d map[string]any)) {
	d := clone(c.JSON)
	edit(d)
	c.Broken = append(c.Broken, Broken{Name: name, Path: path, Rule: rule, JSON: d})
}

// at walks a JSON value by a dotted path with [i] indices, as validate
// prints paths ("extensions.X.shapes[0].box"), and returns the object
// there (nil when absent).
func at(d map[string]any, path string) map[string]any {
	var cur any = d
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			cur = obj(cur)[name]
		}
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(idx)
			a := arr(cur)
			if err != nil || i < 0 || i >= len(a) {
				return nil
			}
			cur = a[i]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return obj(cur)
}

// Paths of the document-level objects, per family.
func shapesPath(f Family) string {
	if f == KHR {
		return "extensions." + extKHRShapes + ".shapes"
	}
	return "extensions." + extOMIShape + ".shapes"
}

func bodiesDocPath(f Family) string {
	if f == KHR {
		return "extensions." + extKHRBodies
	}
	return "extensions." + extOMIBody
}

func jointsPath(f Family) string {
	if f == KHR {
		return "extensions." + extKHRBodies + ".physicsJoints"
	}
	return "extensions." + extOMIJoint + ".physicsJoints"
}

func bodyPath(f Family, n int) string {
	if f == KHR {
		return fmt.Sprintf("nodes[%d].extensions.%s", n, extKHRBodies)
	}
	return fmt.Sprintf("nodes[%d].extensions.%s", n, extOMIBody)
}

func jointNodePath(f Family, n int) string {
	if f == KHR {
		return bodyPath(f, n) + ".joint"
	}
	return fmt.Sprintf("nodes[%d].extensions.%s", n, extOMIJoint)
}

// The implicit shapes of the matrix, sized to contain MeshCube (half
// side 0.25, corners 0.433 from the centre, 0.354 from the y axis).
var implicitShapes = []struct {
	typ    string
	params map[string]any
}{
	{"box", map[string]any{"size": []float64{0.6, 0.5, 0.7}}},
	{"sphere", map[string]any{"radius": 0.45}},
	{"capsule", map[string]any{"height": 0.5, "radiusTop": 0.4, "radiusBottom": 0.4}},
	{"cylinder", map[string]any{"height": 0.6, "radiusTop": 0.4, "radiusBottom": 0.4}},
	{"plane", map[string]any{"sizeX": 2.0, "sizeZ": 2.0, "doubleSided": true}},
}

// matrixShapes are the collider kinds of a family: the implicit shapes it
// has and its mesh shapes (OMI convex and trimesh; KHR geometry.mesh and
// geometry.node, each with convexHull true and false).
func matrixShapes(f Family) []string {
	if f == KHR {
		return []string{"box", "sphere", "capsule", "cylinder", "plane", "mesh-hull", "mesh-trimesh", "node-hull", "node-trimesh"}
	}
	return []string{"box", "sphere", "capsule", "cylinder", "convex", "trimesh"}
}

// colliderGeometry adds the geometry of matrix kind kind to b.
func colliderGeometry(b *builder, kind string) geometry {
	for _, s := range implicitShapes {
		if s.typ == kind {
			return implicit(b.shape(s.typ, s.params))
		}
	}
	hull := kind == "convex" || strings.HasSuffix(kind, "-hull")
	mesh := MeshL
	if hull {
		mesh = MeshCube
	}
	g := geometry{shape: -1, mesh: mesh, node: -1, hull: hull, filter: -1}
	if strings.HasPrefix(kind, "node-") {
		// "including nodes which are not in the scene hierarchy"
		g.node = b.node("CollisionMesh", -2)
		b.nodes[g.node]["mesh"] = mesh
	}
	return g
}

// motionMembers are the matrix's motion members: a dynamic body of 2 kg
// (inertia left to the engine).
func motionMembers(kind string) map[string]any {
	if kind == Dynamic {
		return map[string]any{"mass": 2.0}
	}
	return nil
}

// body adds a root body node with MeshCube as its render mesh and a child
// collider node of geometry g; it returns both indices.
func body(b *builder, name, kind string, g geometry, mat int, t ...float64) (int, int) {
	n := b.node(name, -1, t...)
	b.nodes[n]["mesh"] = MeshCube
	b.motion(n, kind, motionMembers(kind))
	c := b.node(name+".collider", n)
	b.collider(c, g, mat)
	return n, c
}

func colliders() []*Case {
	var out []*Case
	for _, fam := range []Family{OMI, KHR} {
		for _, kind := range matrixShapes(fam) {
			for _, mo := range []string{Static, Kinematic, Dynamic} {
				b := newBuilder(fam)
				body(b, "Body", mo, colliderGeometry(b, kind), -1, 0, 1, 0)
				c := newCase(fmt.Sprintf("%s-collider-%s-%s", fam, kind, mo), fam, "collider", b)
				c.Shape, c.Motion = kind, mo
				c.Drop = mo == Dynamic && kind != "plane" && !strings.HasSuffix(kind, "trimesh")
				if mo == Dynamic {
					shapeBroken(c, kind)
				}
				out = append(out, c)
			}
		}
	}
	// "convexHull: true means the convex hull of that mesh": the source
	// need not be convex.
	b := newBuilder(KHR)
	body(b, "Body", Dynamic, geometry{shape: -1, mesh: MeshL, node: -1, hull: true, filter: -1}, -1, 0, 1, 0)
	c := newCase("khr-collider-hull-of-concave-mesh", KHR, "collider", b)
	c.Shape, c.Motion = "mesh-hull", Dynamic
	out = append(out, c)
	// A cone is "a special case of cylinder when one of the radii is zero".
	for _, fam := range []Family{OMI, KHR} {
		b := newBuilder(fam)
		s := b.shape("cylinder", map[string]any{"height": 1.0, "radiusTop": 0.0, "radiusBottom": 0.5})
		body(b, "Cone", Static, implicit(s), -1)
		c := newCase(string(fam)+"-collider-cone-static", fam, "collider", b)
		c.Shape, c.Motion = "cone", Static
		out = append(out, c)
	}
	return out
}

// shapeBroken adds the prohibited variants of the matrix shape kind to c.
func shapeBroken(c *Case, kind string) {
	sp := shapesPath(c.Family) + "[0]"
	khr := c.Family == KHR
	switch kind {
	case "box":
		if khr {
			c.broken("degenerate-box", sp+".box", "A box shape must have positive non-zero values for each component of size",
				func(d map[string]any) { arr(at(d, sp+".box")["size"])[1] = 0.0 })
		}
		c.broken("negative-box", sp+".box", "a size is a length", func(d map[string]any) { arr(at(d, sp+".box")["size"])[0] = -0.6 })
	case "sphere":
		c.broken("negative-radius", sp+".sphere.radius", "A sphere must have a positive, non-zero radius",
			func(d map[string]any) { at(d, sp+".sphere")["radius"] = -0.45 })
		if khr {
			c.broken("zero-radius", sp+".sphere.radius", "A sphere must have a positive, non-zero radius",
				func(d map[string]any) { at(d, sp+".sphere")["radius"] = 0.0 })
		}
	case "capsule":
		c.broken("negative-radius", sp+".capsule.radiusBottom", "both radiusTop and radiusBottom must be non-negative",
			func(d map[string]any) { at(d, sp+".capsule")["radiusBottom"] = -0.4 })
	case "cylinder":
		c.broken("negative-radius", sp+".cylinder.radiusTop", "both radiusTop and radiusBottom must be non-negative",
			func(d map[string]any) { at(d, sp+".cylinder")["radiusTop"] = -0.4 })
		if khr {
			c.broken("both-radii-zero", sp+".cylinder", "at least one of radiusTop and radiusBottom must be non-zero",
				func(d map[string]any) {
					at(d, sp+".cylinder")["radiusTop"], at(d, sp+".cylinder")["radiusBottom"] = 0.0, 0.0
				})
			c.broken("zero-height", sp+".cylinder.height", "The cylinder and capsule shapes must have a positive, non-zero height",
				func(d map[string]any) { at(d, sp+".cylinder")["height"] = 0.0 })
		}
	case "plane":
		c.broken("zero-plane-size", sp+".plane.sizeX", "If provided, a plane must have positive non-zero sizeX and sizeZ extents",
			func(d map[string]any) { at(d, sp+".plane")["sizeX"] = 0.0 })
	}
}
