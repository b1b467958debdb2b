package omi

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/autocollide/autocollide/geom"
	"github.com/autocollide/autocollide/physics"
	"github.com/autocollide/autocollide/physics/internal/jsonx"
	"github.com/autocollide/autocollide/physics/internal/wire"
	"github.com/qmuntal/gltf"
)

// MigrateJoints reads the OMI_physics_joint Stage 1 form — document-level
// "constraints" and a separate joint node {constraints, nodeA, nodeB} —
// into m in the current form. The old joint node is a free-standing frame
// shared by both bodies, while a current joint sits on a descendant of one
// body and names a node under the other. So, per old joint node J, two
// attachment nodes are appended to doc.Nodes, one a child of nodeA and one
// of nodeB, each with J's world transform expressed in its parent's space
// (a matrix), named "<J name> attachment A|B"; the joint goes on the first
// with connectedNode the second. Each distinct constraint list becomes one
// joint definition whose limits keep the old semantics explicitly: absent
// lowerLimit/upperLimit are written as 0 (the old default, a fixed axis)
// and absent damping as 1 (the old default). Decode calls MigrateJoints;
// it does nothing when the old form is absent.
func MigrateJoints(doc *gltf.Document, m *physics.Model, warns *[]physics.Warning) error {
	type oldNode struct {
		i    int
		cons []int
		a, b int
	}
	var olds []oldNode
	for i, n := range doc.Nodes {
		if n == nil {
			continue
		}
		p := fmt.Sprintf("nodes[%d].extensions.%s", i, physics.ExtOMIJoint)
		raw, ok, err := jsonx.Raw(n.Extensions, physics.ExtOMIJoint)
		if err != nil {
			return physics.Errorf(p, "%v", err)
		}
		if !ok {
			continue
		}
		var j jointJSON
		if err := jsonx.Unmarshal(raw, &j, p); err != nil {
			return err
		}
		if j.Constraints == nil && j.NodeA == nil && j.NodeB == nil {
			continue
		}
		if j.NodeA == nil || j.NodeB == nil {
			return physics.Errorf(p, "OMI_physics_joint Stage 1 joint needs nodeA and nodeB")
		}
		for _, k := range []struct {
			n string
			v int
		}{{"nodeA", *j.NodeA}, {"nodeB", *j.NodeB}} {
			if k.v < 0 || k.v >= len(doc.Nodes) || doc.Nodes[k.v] == nil {
				return physics.Errorf(p+"."+k.n, "index %d out of range (%d nodes)", k.v, len(doc.Nodes))
			}
		}
		olds = append(olds, oldNode{i: i, cons: j.Constraints, a: *j.NodeA, b: *j.NodeB})
	}
	if len(olds) == 0 {
		return nil
	}
	raw, ok, err := jsonx.Raw(doc.Extensions, physics.ExtOMIJoint)
	if err != nil {
		return physics.Errorf(docJoint, "%v", err)
	}
	var jd jointDoc
	if ok {
		if err := jsonx.Unmarshal(raw, &jd, docJoint); err != nil {
			return err
		}
	}
	world, err := worldMatrices(doc)
	if err != nil {
		return err
	}
	defs := map[string]int{}
	for _, o := range olds {
		p := fmt.Sprintf("nodes[%d].extensions.%s", o.i, physics.ExtOMIJoint)
		key := fmt.Sprint(o.cons)
		def, seen := defs[key]
		if !seen {
			d := physics.JointDef{}
			for k, c := range o.cons {
				if c < 0 || c >= len(jd.Constraints) {
					return physics.Errorf(fmt.Sprintf("%s.constraints[%d]", p, k), "index %d out of range (%d constraints)", c, len(jd.Constraints))
				}
				oc := jd.Constraints[c]
				l := physics.JointLimit{
					LinearAxes: slices.Clone(oc.LinearAxes), AngularAxes: slices.Clone(oc.AngularAxes),
					Min: jsonx.Ptr(wire.Or(oc.LowerLimit, 0)), Max: jsonx.Ptr(wire.Or(oc.UpperLimit, 0)),
					Stiffness: oc.Stiffness, Damping: jsonx.Ptr(wire.Or(oc.Damping, oldDamping)),
				}
				d.Limits = append(d.Limits, l)
			}
			def = len(m.Joints)
			m.Joints = append(m.Joints, d)
			defs[key] = def
		}
		jw := world[o.i]
		attach := func(body int, tag string) (int, error) {
			inv, ok := world[body].Inverse()
			if !ok {
				return 0, physics.Errorf(p, "node %d has a singular world transform", body)
			}
			local := inv.Mul(jw)
			name := doc.Nodes[o.i].Name
			if name == "" {
				name = fmt.Sprintf("joint %d", o.i)
			}
			n := &gltf.Node{Name: name + " attachment " + tag, Matrix: local.GLTF(), Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale}
			doc.Nodes = append(doc.Nodes, n)
			k := len(doc.Nodes) - 1
			doc.Nodes[body].Children = append(doc.Nodes[body].Children, k)
			return k, nil
		}
		ka, err := attach(o.a, "A")
		if err != nil {
			return err
		}
		kb, err := attach(o.b, "B")
		if err != nil {
			return err
		}
		m.Node(ka).Joint = &physics.Joint{Def: def, ConnectedNode: kb}
		*warns = append(*warns, physics.Warning{Path: p, Message: fmt.Sprintf(
			"OMI_physics_joint Stage 1 joint (nodeA %d, nodeB %d) migrated: attachment nodes %d (under %d) and %d (under %d) added", o.a, o.b, ka, o.a, kb, o.b)})
	}
	return nil
}

// worldMatrices returns every node's world matrix (scene roots and
// orphans are relative to the world).
func worldMatrices(doc *gltf.Document) ([]geom.Mat4, error) {
	n := len(doc.Nodes)
	for i, nd := range doc.Nodes {
		if nd == nil {
			continue
		}
		if k := slices.IndexFunc(nd.Children, func(c int) bool { return c < 0 || c >= n }); k >= 0 {
			return nil, physics.Errorf(fmt.Sprintf("nodes[%d].children", i), "index %d out of range", nd.Children[k])
		}
	}
	parent := physics.Parents(doc)
	out := make([]geom.Mat4, n)
	done := make([]bool, n)
	var get func(i, depth int) (geom.Mat4, error)
	get = func(i, depth int) (geom.Mat4, error) {
		if done[i] {
			return out[i], nil
		}
		if depth > n {
			return geom.Mat4{}, physics.Errorf(fmt.Sprintf("nodes[%d]", i), "node hierarchy has a cycle")
		}
		local := localMatrix(doc.Nodes[i])
		if parent[i] >= 0 {
			pw, err := get(parent[i], depth+1)
			if err != nil {
				return geom.Mat4{}, err
			}
			local = pw.Mul(local)
		}
		out[i], done[i] = local, true
		return local, nil
	}
	for i := range doc.Nodes {
		if doc.Nodes[i] == nil {
			out[i], done[i] = geom.Identity4(), true
			continue
		}
		if _, err := get(i, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func localMatrix(n *gltf.Node) geom.Mat4 {
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
		return geom.Mat4FromGLTF(n.Matrix)
	}
	r := n.Rotation
	if r == [4]float64{} {
		r = gltf.DefaultRotation
	}
	s := n.Scale
	if s == [3]float64{} {
		s = gltf.DefaultScale
	}
	return geom.TRS(geom.Vec3(n.Translation), geom.Quat(r), geom.Vec3(s))
}

// principal splits a symmetric inertia tensor (row-major 3x3) into its
// principal moments and the rotation (x, y, z, w) from the principal axes
// to the body frame: I = R·diag(d)·Rᵀ.
func principal(t [9]float64) ([3]float64, [4]float64, error) {
	for _, v := range t {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return [3]float64{}, [4]float64{}, errors.New("not a finite number")
		}
	}
	const symTol = 1e-9
	scale := 0.0
	for _, v := range t {
		scale = math.Max(scale, math.Abs(v))
	}
	for _, ij := range [][2]int{{1, 3}, {2, 6}, {5, 7}} {
		if math.Abs(t[ij[0]]-t[ij[1]]) > symTol*math.Max(scale, 1) {
			return [3]float64{}, [4]float64{}, errors.New("inertia tensor is not symmetric")
		}
	}
	if t[1] == 0 && t[2] == 0 && t[5] == 0 {
		return [3]float64{t[0], t[4], t[8]}, [4]float64{0, 0, 0, 1}, nil
	}
	vals, vecs := geom.SymEigen(geom.Mat3{{t[0], t[1], t[2]}, {t[1], t[4], t[5]}, {t[2], t[5], t[8]}}, 1e-30)
	// Moments in increasing order, each with its eigenvector as a column.
	order := []int{0, 1, 2}
	sort.SliceStable(order, func(x, y int) bool { return vals[order[x]] < vals[order[y]] })
	var r geom.Mat3
	for j, k := range order {
		for i := 0; i < 3; i++ {
			r[i][j] = vecs[i][k]
		}
	}
	if r.Det() < 0 {
		for i := 0; i < 3; i++ {
			r[i][2] = -r[i][2]
		}
	}
	q := geom.QuatFromMat3(r).Normalize()
	if q[3] < 0 {
		q = geom.Quat{-q[0], -q[1], -q[2], -q[3]}
	}
	return [3]float64{vals[order[0]], vals[order[1]], vals[order[2]]}, [4]float64(q), nil
}
